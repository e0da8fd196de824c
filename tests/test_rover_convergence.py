"""The rover's judged trajectory rows (comparisons/rover/convergence.py): the hand-rolled
run against MuJoCo within both implementations' step-halving error pass on the declared
model and fail on a wrong one, whose tolerance they do not move."""

from dataclasses import replace

import pytest

from dynval.comparisons.rover import convergence as cv
from dynval.comparisons.rover.mutants import MUTANTS
from dynval.comparisons.rover.scenarios import SCENARIOS, run_one
from dynval.robots import ROOT
from dynval.robots.rover.params import PARAMS

DESC = ROOT / "rover"
SC = SCENARIOS["drawbar_10"]  # a pull from rest: 1 s of it takes a fraction of a second
UNTIL = 1.0


def _run(p, impl="handrolled", **kw):
    return run_one(p, SC, impl, "shared", DESC, until=UNTIL, **kw)


@pytest.fixture(scope="module")
def declared():
    half = replace(PARAMS, dt=PARAMS.dt / 2)
    hand = _run(PARAMS)
    wide = {"handrolled": hand, "mujoco": _run(PARAMS, "mujoco")}
    halved = {i: _run(half, i) for i in ("handrolled", "mujoco")}
    return wide, halved, hand


def _rows(declared, hand):
    wide, halved, original = declared
    return cv.rows("rover", SC.name, "shared", {**wide, "handrolled": hand}, halved, original)


def test_declared_model_agrees_within_its_halving_error(declared):
    rows = _rows(declared, declared[0]["handrolled"])
    assert {r.signal for r in rows} >= {"rover.x", "rover.pitch", "wheel.rear_left.sinkage"}
    for r in rows:
        assert r.tolerance > 0 and r.passed, (r.signal, r.value, r.tolerance)
        assert "step halving" in r.reason


@pytest.mark.parametrize("name", ["D*1.1", "dt*2"])
def test_mutant_fails_and_keeps_the_tolerance(declared, name):
    m = {m.name: m for m in MUTANTS}[name]
    base = {r.signal: r for r in _rows(declared, declared[0]["handrolled"])}
    mutated = _rows(declared, _run(m.params(PARAMS), **m.kwargs))
    assert any(not r.passed for r in mutated), name
    for r in mutated:  # measured on the declared model: the mutant cannot widen it
        assert r.tolerance == base[r.signal].tolerance


def test_no_row_for_a_signal_no_run_moves(declared):
    wide, halved, hand = declared
    still = {k: v.assign(**{"rover.x": 0.0}) for k, v in wide.items()}
    rows = cv.rows("rover", SC.name, "shared", still,
                   {k: v.assign(**{"rover.x": 0.0}) for k, v in halved.items()},
                   hand.assign(**{"rover.x": 0.0}))
    assert "rover.x" not in {r.signal for r in rows}
