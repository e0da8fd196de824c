"""The landing gear's premise: its settled figures come from a run that settled. The
shipped landing settles within the bound; the same run cut at 1 s, a second after the
drop, is still moving and fails the premise with the signals that move named."""

import pytest

from dynval.comparisons.landing_gear import validate as v
from dynval.comparisons.landing_gear.scenarios import SCENARIOS, run_one
from dynval.robots import ROOT
from dynval.robots.landing_gear.params import PARAMS


@pytest.fixture(scope="module")
def landing():
    return run_one(PARAMS, SCENARIOS["slope_lc"], "handrolled", "shared", ROOT / "landing_gear")


def test_the_full_landing_settles(landing):
    assert v.unsettled(landing, PARAMS) == []


def test_a_landing_cut_before_it_settles_fails_the_premise(landing):
    moving = v.unsettled(landing[landing["time"] <= 1.0], PARAMS)
    assert moving and any(m.startswith(("body.", "foot.")) for m in moving), moving
    assert all("bound" in m for m in moving)
