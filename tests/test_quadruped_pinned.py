"""The quadruped's judged gait rows (comparisons/quadruped/pinned.py): the hand-rolled run
against the pinned-feet model with Pinocchio's terms agrees to round-off, and every declared
mutant of the gait runs fails them without moving their tolerance; the engine's foot
acceleration at no joint acceleration is the derivative of J v."""

import numpy as np
import pytest

from dynval.comparisons.quadruped import frames
from dynval.comparisons.quadruped import pinned as pf
from dynval.comparisons.quadruped.mutants import MUTANTS
from dynval.comparisons.quadruped.scenarios import SCENARIOS, run_one
from dynval.robots import ROOT
from dynval.robots.quadruped.model_description import joint_names, link_name
from dynval.robots.quadruped.params import PARAMS

DESC = ROOT / "quadruped"
SC = SCENARIOS["trot"]
UNTIL = 0.3


@pytest.fixture(scope="module")
def reference():
    return {run: pf.run_reference(PARAMS, SC, DESC, UNTIL, perturb)
            for run, perturb in pf.RUNS.items()}


def _hand(p=PARAMS, **kw):
    return run_one(p, SC, "handrolled", "shared", DESC, until=UNTIL, **kw)


def test_hand_rolled_agrees_with_the_pinocchio_pinned_feet_to_round_off(reference):
    rows = pf.rows("quadruped", SC.name, "native", _hand(), reference)
    assert {"body.z", "body.roll", "joint.LF.HFE.angle"} <= {r.signal for r in rows}
    for r in rows:
        assert r.passed and 0.0 < r.tolerance < 1e-6, (r.signal, r.value, r.tolerance)


@pytest.mark.parametrize("mutant", [m for m in MUTANTS if not m.model_terms],
                         ids=lambda m: m.name)
def test_each_gait_mutant_fails_and_keeps_the_tolerance(reference, mutant):
    base = {r.signal: r.tolerance
            for r in pf.rows("quadruped", SC.name, "native", _hand(), reference)}
    rows = pf.rows("quadruped", SC.name, "native",
                   _hand(mutant.params(PARAMS), **mutant.kwargs), reference)
    assert any(not r.passed for r in rows), mutant.name
    assert {r.signal: r.tolerance for r in rows} == base


def test_foot_bias_acceleration_is_the_derivative_of_its_velocity():
    from dynval.engines.pinocchio_engine import PinocchioTerms
    from dynval.handrolled import so3

    pn = PinocchioTerms(DESC / "quadruped.urdf", (0.0, 0.0, -9.81), floating=True,
                        joint_names=joint_names())
    rng = np.random.default_rng(3)
    p, R = rng.normal(size=3), so3.exp(rng.normal(size=3))
    theta, nu = rng.uniform(-1, 1, 12), rng.uniform(-2, 2, 18)
    foot, name = np.array([pf.build_foot_offset(PARAMS), 0.0, 0.0]), link_name("LF", 3)

    def velocity(h: float) -> np.ndarray:  # the point's world velocity after h at constant nu
        q = frames.pinocchio_q(p + h * R @ nu[:3], R @ so3.exp(h * nu[3:6]),
                               theta + h * nu[6:])
        return pn.frame_jacobian(name, q, foot) @ nu

    h = 1e-6
    fd = (velocity(h) - velocity(-h)) / (2 * h)
    a = pn.frame_bias_acceleration(name, frames.pinocchio_q(p, R, theta), nu, foot)
    assert np.allclose(a, fd, rtol=0, atol=1e-6 * max(1.0, np.abs(a).max()))
