from pathlib import Path

import pytest

from dynval.robots import ROOT


@pytest.fixture(scope="session")
def lg_dir() -> Path:
    return ROOT / "landing_gear"


@pytest.fixture(scope="session")
def hopper_dir() -> Path:
    return ROOT / "hopper"
