"""The hopper's hand-derived leg through dynval.model's protocol (handrolled/hopper/
protocol.py): the audit a user's own model gets, L0-L3 against MuJoCo, PyBullet and
Pinocchio, passes eq. (12) corrected and, on its own, finds the printed eq. (12)."""

from __future__ import annotations

from dynval.comparisons.own_model.audit import audit_model
from dynval.handrolled.hopper.protocol import HopperLeg
from dynval.robots import ROOT
from dynval.robots.hopper.params import PARAMS

DESCRIPTION = ROOT / "hopper" / "hopper_fixed.urdf"
GRAVITY = (0.0, 0.0, -PARAMS.g)


def test_the_corrected_leg_passes_the_generic_audit() -> None:
    audit = audit_model(HopperLeg(), DESCRIPTION, 40, 0, gravity=GRAVITY)
    assert set(audit.engines) == {"mujoco", "pybullet", "pinocchio"}
    assert {r.term for r in audit.results} == {"M", "bias", "G", "C v", "tau", "p[leg]",
                                               "J[leg]"}
    assert audit.l0 and audit.l3  # the inertias and the free swings compared too
    assert audit.passed, ([audit.explain(r) for r in audit.failures] + audit.l0_failures
                          + [audit.explain_l3(r) for r in audit.l3_failures])


def test_the_generic_audit_finds_the_printed_bias_of_eq_12() -> None:
    """The printed bias a_k of eq. (12) misses the Coriolis term 2 w_1 x h_2 theta_2_dot
    of the leg sliding along the turning hip (the chapter's erratum): C v, the bias and
    the inverse dynamics fail against every engine; M, gravity and the foot's kinematics,
    which do not read it, pass."""
    audit = audit_model(HopperLeg(form="printed"), DESCRIPTION, 20, 0, gravity=GRAVITY,
                        l3=False)
    failed = {(r.term, r.reference) for r in audit.failures}
    assert failed == {(term, engine) for term in ("C v", "bias", "tau")
                      for engine in ("mujoco", "pybullet", "pinocchio")}
