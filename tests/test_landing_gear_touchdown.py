"""The landing gear's judged touchdown rows (comparisons/landing_gear/touchdown.py): the
hand-rolled run against the decoupled model with engine leg terms agrees to round-off, and
every declared mutant of the scenario runs fails them without moving their tolerance."""

import pytest

from dynval.comparisons.landing_gear import touchdown as td
from dynval.comparisons.landing_gear.decoupled import run_reference
from dynval.comparisons.landing_gear.mutants import MUTANTS
from dynval.comparisons.landing_gear.scenarios import SCENARIOS, run_one
from dynval.robots import ROOT
from dynval.robots.landing_gear.params import PARAMS

DESC = ROOT / "landing_gear"
SC = SCENARIOS["slope_nolc"]  # the slope without the level controller: the quickest


@pytest.fixture(scope="module")
def reference():
    return {run: run_reference(PARAMS, SC, DESC, td.TRANSIENT, engine, perturb)
            for run, (engine, perturb) in td.RUNS.items()}


def _hand(p=PARAMS, **kw):
    return run_one(p, SC, "handrolled", "shared", DESC, until=td.TRANSIENT, **kw)


def test_hand_rolled_agrees_with_engine_leg_terms_to_round_off(reference):
    rows = td.rows("landing_gear", SC.name, "shared", _hand(), reference)
    assert {"com.y", "body.roll", "joint.LF.hip.angle"} <= {r.signal for r in rows}
    for r in rows:
        assert r.passed and 0.0 < r.tolerance < 1e-6, (r.signal, r.value, r.tolerance)


def test_the_reference_is_not_the_multibody(reference):
    # MuJoCo's multibody differs from the paper's decoupled model by design, far beyond
    # the rows' round-off tolerance: the reference is the decoupled model, not the engine's
    multibody = run_one(PARAMS, SC, "mujoco", "shared", DESC, until=td.TRANSIENT)
    rows = td.rows("landing_gear", SC.name, "shared", multibody, reference)
    assert sum(not r.passed for r in rows) > len(rows) // 2


@pytest.mark.parametrize("mutant", [m for m in MUTANTS if not m.model_terms],
                         ids=lambda m: m.name)
def test_each_scenario_mutant_fails_and_keeps_the_tolerance(reference, mutant):
    base = {r.signal: r.tolerance
            for r in td.rows("landing_gear", SC.name, "shared", _hand(), reference)}
    rows = td.rows("landing_gear", SC.name, "shared",
                   _hand(mutant.params(PARAMS), **mutant.kwargs), reference)
    assert any(not r.passed for r in rows), mutant.name
    assert {r.signal: r.tolerance for r in rows} == base
