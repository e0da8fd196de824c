from collections.abc import Iterator
from pathlib import Path

import pytest

from dynval.robots import ROOT


@pytest.fixture(scope="session", autouse=True)
def _own_results_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Each test session (each xdist worker) its own results cache: no test reads what a
    developer's runs stored in ~/.cache/dynval, nor leaves anything there. numba's compiled
    code stays shared: it is keyed by the source, so it cannot be stale."""
    mp = pytest.MonkeyPatch()
    mp.setenv("DYNVAL_CACHE", str(tmp_path_factory.mktemp("dynval-cache")))
    yield
    mp.undo()


@pytest.fixture(scope="session")
def lg_dir() -> Path:
    return ROOT / "landing_gear"


@pytest.fixture(scope="session")
def hopper_dir() -> Path:
    return ROOT / "hopper"


@pytest.fixture(scope="session")
def flip_middle_byte():
    """A corruption of a stored file that leaves it readable: one bit of the byte in its
    middle changed (in a cache entry, a silently different number)."""

    def flip(path: Path) -> None:
        data = bytearray(path.read_bytes())
        data[len(data) // 2] ^= 0x01
        path.write_bytes(bytes(data))

    return flip
