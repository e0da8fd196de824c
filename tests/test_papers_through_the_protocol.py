"""The papers' hand-derived models through dynval.model's protocol (handrolled/hopper/
protocol.py, handrolled/quadruped/protocol.py): the audit a user's own model gets, L0-L3
against MuJoCo, PyBullet and Pinocchio, passes them, and on its own finds the hopper
paper's printed eq. (12)."""

from __future__ import annotations

from dynval.comparisons.own_model.audit import audit_model
from dynval.handrolled.hopper.protocol import HopperLeg
from dynval.handrolled.quadruped.protocol import QuadrupedLegs
from dynval.robots import ROOT
from dynval.robots.hopper.params import PARAMS
from dynval.robots.quadruped.params import PARAMS as QUADRUPED

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


def test_the_quadruped_legs_pass_the_generic_audit() -> None:
    """The RNEA's M, C + G and inverse dynamics of the four legs on the welded body: terms
    at round-off, the inertias (L0) and the free swings (L3) too; the model names no frame,
    so L1 is said to be not checked."""
    audit = audit_model(QuadrupedLegs(), ROOT / "quadruped" / "quadruped_fixed.urdf", 40, 0,
                        gravity=(0.0, 0.0, -QUADRUPED.g))
    assert set(audit.engines) == {"mujoco", "pybullet", "pinocchio"}
    assert {r.term for r in audit.results} == {"M", "bias", "G", "C v", "tau"}
    assert audit.l0 and audit.l3
    assert any("L1" in u for u in audit.unchecked)
    assert audit.passed, ([audit.explain(r) for r in audit.failures] + audit.l0_failures
                          + [audit.explain_l3(r) for r in audit.l3_failures])
