"""The papers' hand-derived models through dynval.model's protocol (handrolled/*/
protocol.py): the audit a user's own model gets, L0-L3 against MuJoCo, PyBullet and
Pinocchio, passes them, and on its own finds the hopper's and the landing gear's printed
eq. (12). The chapters' audit rows are these models' terms (``protocol_rows``), and their
L3 is these models' free swing (``RobotLadder.swung``)."""

from __future__ import annotations

from dynval.comparisons.own_model.audit import audit_model
from dynval.handrolled.hexapod.protocol import HexapodLeg, HexapodLegs, HexapodRobot
from dynval.handrolled.hopper.protocol import HopperChain, HopperLeg
from dynval.handrolled.landing_gear.protocol import LandingGearLeg
from dynval.handrolled.quadruped.protocol import QuadrupedLegs, QuadrupedRobot
from dynval.handrolled.rover.protocol import RoverChain
from dynval.robots import ROOT
from dynval.robots.hexapod.params import PARAMS as HEXAPOD
from dynval.robots.hopper.params import PARAMS
from dynval.robots.landing_gear.params import PARAMS as LANDING_GEAR
from dynval.robots.quadruped.params import PARAMS as QUADRUPED
from dynval.robots.rover.params import PARAMS as ROVER

DESCRIPTION = ROOT / "hopper" / "hopper_fixed.urdf"
GRAVITY = (0.0, 0.0, -PARAMS.g)


def test_the_corrected_leg_passes_the_generic_audit() -> None:
    audit = audit_model(HopperLeg(), DESCRIPTION, 40, 0, gravity=GRAVITY)
    assert set(audit.engines) == {"mujoco", "pybullet", "pinocchio", "drake"}
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
                      for engine in ("mujoco", "pybullet", "pinocchio", "drake")}


def test_the_quadruped_legs_pass_the_generic_audit() -> None:
    """The RNEA's M, C + G and inverse dynamics of the four legs on the welded body: terms
    at round-off, the inertias (L0) and the free swings (L3) too; the model names no frame,
    so L1 is said to be not checked."""
    audit = audit_model(QuadrupedLegs(), ROOT / "quadruped" / "quadruped_fixed.urdf", 40, 0,
                        gravity=(0.0, 0.0, -QUADRUPED.g))
    assert set(audit.engines) == {"mujoco", "pybullet", "pinocchio", "drake"}
    assert {r.term for r in audit.results} == {"M", "bias", "G", "C v", "tau"}
    assert audit.l0 and audit.l3
    assert any("L1" in u for u in audit.unchecked)
    assert audit.passed, ([audit.explain(r) for r in audit.failures] + audit.l0_failures
                          + [audit.explain_l3(r) for r in audit.l3_failures])


LEG = ROOT / "landing_gear" / "landing_gear_leg_as_derived.urdf"


def test_the_landing_gear_leg_passes_the_generic_audit() -> None:
    """Eqs. (12)-(13) of one leg on its fixed base, corrected: terms at round-off, L0 and
    L3 too."""
    audit = audit_model(LandingGearLeg(), LEG, 40, 0, gravity=(0.0, 0.0, -LANDING_GEAR.g))
    assert set(audit.engines) == {"mujoco", "pybullet", "pinocchio", "drake"}
    assert audit.l0 and audit.l3
    assert audit.passed, ([audit.explain(r) for r in audit.failures] + audit.l0_failures
                          + [audit.explain_l3(r) for r in audit.l3_failures])


def test_the_generic_audit_finds_the_printed_gravity_of_eq_12() -> None:
    """The printed hip gravity term (m_U - m_L) g l_U cos(theta_h) (the chapter's
    erratum): G, the bias and the inverse dynamics fail against every engine; M and C v,
    which do not read it, pass."""
    audit = audit_model(LandingGearLeg(form="printed"), LEG, 20, 0,
                        gravity=(0.0, 0.0, -LANDING_GEAR.g), l3=False)
    assert {(r.term, r.reference) for r in audit.failures} == {
        (term, engine) for term in ("G", "bias", "tau")
        for engine in ("mujoco", "pybullet", "pinocchio", "drake")}


def test_the_hexapod_leg_passes_the_generic_audit() -> None:
    """Eq. (6) of one leg on the sliding body, its foot by eq. (4): the URDF in PyBullet and
    Pinocchio and Drake (MuJoCo refuses its massless slide bodies and says so), the MJCF in
    MuJoCo and Drake and in the other two built from MuJoCo's compiled model: every engine,
    terms at round-off."""
    gravity = (0.0, 0.0, -HEXAPOD.g)
    urdf = audit_model(HexapodLeg(), ROOT / "hexapod" / "hexapod_leg.urdf", 40, 0,
                       gravity=gravity)
    mjcf = audit_model(HexapodLeg(), ROOT / "hexapod" / "hexapod_leg.xml", 40, 0,
                       gravity=gravity)
    assert set(urdf.engines) == {"pybullet", "pinocchio", "drake"} and "mujoco" in urdf.refused
    assert set(mjcf.engines) == {"mujoco", "pybullet", "pinocchio", "drake"}
    for audit in (urdf, mjcf):
        assert {r.term for r in audit.results} == {"M", "bias", "G", "C v", "tau",
                                                   "p[LF_foot]", "J[LF_foot]"}
        assert audit.l3
        assert audit.passed, ([audit.explain(r) for r in audit.failures]
                              + audit.l0_failures
                              + [audit.explain_l3(r) for r in audit.l3_failures])


def _passed(audit) -> list[str]:
    """Why an audit failed, one line per failure (empty when it passed)."""
    return ([audit.explain(r) for r in audit.failures] + audit.l0_failures
            + [audit.explain_l3(r) for r in audit.l3_failures])


def test_the_whole_hexapod_passes_the_generic_audit() -> None:
    """Eq. (6) summed over the shared segments, all six feet by eq. (4): PyBullet,
    Pinocchio and Drake read the URDF (MuJoCo refuses its massless slide bodies and says so); terms,
    inertias and free swings at round-off."""
    audit = audit_model(HexapodRobot(), ROOT / "hexapod" / "hexapod.urdf", 40, 0,
                        gravity=(0.0, 0.0, -HEXAPOD.g))
    assert set(audit.engines) == {"pybullet", "pinocchio", "drake"} and "mujoco" in audit.refused
    assert {f"p[{leg}_foot]" for leg in ("LF", "RF", "LM", "RM", "LB", "RB")} <= {
        r.term for r in audit.results}
    assert audit.l0 and audit.l3
    assert audit.passed, _passed(audit)


def test_the_hopper_chain_passes_the_generic_audit() -> None:
    """The 8-DoF chain of Fig. 3 (the body on six base joints, then hip and leg), corrected
    bias: PyBullet, Pinocchio and Drake (MuJoCo refuses the massless base links); L0-L2."""
    audit = audit_model(HopperChain(), ROOT / "hopper" / "hopper_6dof.urdf", 20, 0,
                        gravity=GRAVITY, l3=False)
    assert set(audit.engines) == {"pybullet", "pinocchio", "drake"}
    assert {r.term for r in audit.results} == {"M", "bias", "G", "C v", "tau", "p[leg]",
                                               "J[leg]"}
    assert audit.passed, _passed(audit)


def test_the_rover_chain_passes_the_generic_audit() -> None:
    """Eq. (3.32) by the modified Newton-Euler recursion on the explicit chain of Table
    3.1: every engine, terms, inertias and free swings at round-off."""
    audit = audit_model(RoverChain(), ROOT / "rover" / "rover_chain.urdf", 40, 0,
                        gravity=(0.0, 0.0, -ROVER.g))
    assert set(audit.engines) == {"mujoco", "pybullet", "pinocchio", "drake"}
    assert audit.l0 and audit.l3
    assert audit.passed, _passed(audit)


def test_the_whole_quadruped_on_a_free_root_passes_the_generic_audit() -> None:
    """Eq. (5)'s RNEA in the body twist, mapped to MuJoCo's free-joint coordinates
    (QuadrupedRobot): terms at round-off in every engine, and its free flight from a
    seeded spin within the envelope."""
    audit = audit_model(QuadrupedRobot(), ROOT / "quadruped" / "quadruped.urdf", 20, 0,
                        gravity=(0.0, 0.0, -QUADRUPED.g))
    assert set(audit.engines) == {"mujoco", "pybullet", "pinocchio", "drake"}
    assert {r.term for r in audit.results} == {"M", "bias", "G", "C v", "tau"}
    assert audit.l3 and audit.passed, _passed(audit)


def test_the_hexapod_legs_on_welded_segments_pass_the_generic_audit() -> None:
    """Eq. (6) with the segments held (HexapodLegs on hexapod_fixed): every engine loads
    the file; terms and free swings at round-off."""
    audit = audit_model(HexapodLegs(), ROOT / "hexapod" / "hexapod_fixed.urdf", 20, 0,
                        gravity=(0.0, 0.0, -HEXAPOD.g))
    assert set(audit.engines) == {"mujoco", "pybullet", "pinocchio", "drake"}
    assert audit.l3 and audit.passed, _passed(audit)
