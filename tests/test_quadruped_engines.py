"""The quadruped against the engines: descriptions (L0), the audit at round-off and its
power to catch a wrong inertia or D-H offset (L1/L2), the free-joint conventions, the
free swing (L3), short closed-loop gaits (L4) and the command line."""

from dataclasses import replace

import numpy as np
import pytest
from typer.testing import CliRunner

from dynval.comparisons.cli import app
from dynval.comparisons.ladder import l0
from dynval.comparisons.ladder.audit import ROUND_OFF
from dynval.comparisons.quadruped import audit, frames
from dynval.comparisons.quadruped.scenarios import SCENARIOS, run_one
from dynval.handrolled.quadruped.robot import build_model
from dynval.robots import ROOT
from dynval.robots.quadruped import descriptions
from dynval.robots.quadruped.model_description import joint_names
from dynval.robots.quadruped.params import LEGS, PARAMS, R_B0_PRINTED, total_mass

DESC = ROOT / "quadruped"


def test_descriptions_agree_with_the_parameters_in_every_engine():
    for d in descriptions().values():
        rows = l0.description_rows(d, DESC)
        assert rows and all(r["passed"] for r in rows), [r for r in rows if not r["passed"]]


def test_audit_agrees_with_every_engine_to_round_off():
    results = audit.full_audit(PARAMS, DESC, 30, 11)
    corrected = [r for r in results if r.form == "corrected"]
    assert {r.reference for r in corrected} == {"mujoco", "pinocchio", "pybullet", "drake"}
    assert {r.term for r in corrected} >= {"M (floating base)", "h (floating base)",
                                           "tau (floating base)", "M (fixed base)"}
    assert all(r.max_rel_error <= ROUND_OFF for r in corrected), \
        [(r.term, r.reference, r.max_rel_error) for r in corrected if not r.passed]
    printed = [r for r in results if r.form == "printed"]
    assert printed and all(r.max_rel_error > 0.5 for r in printed)  # section 2's frame 0


def test_audit_names_a_wrong_thigh_inertia():
    model = build_model()
    I_C = model.I_C.copy()
    I_C[LEGS.index("RB"), 1] *= 1.02  # 2 % on the back-right thigh
    wrong = replace(model, I_C=I_C)
    results = audit.dynamics_audit(wrong, PARAMS, DESC, 5, 0)
    failed = [r for r in results if not r.passed]
    assert {r.reference for r in failed} == {"mujoco", "pinocchio", "pybullet", "drake"}
    fixed_M = [r for r in failed if r.term == "M (fixed base)"]
    assert fixed_M and all("RB_" in r.worst_name for r in fixed_M)


def test_audit_catches_a_wrong_dh_offset():
    model = build_model()
    a = model.a.copy()
    a[2] += 0.001  # a_2 of Table 1 one millimetre long
    results = audit.kinematics_audit(replace(model, a=a), DESC, 5, 0)
    assert all(not r.passed for r in results)
    assert all(r.max_rel_error > 1e-4 for r in results)


def test_printed_frame_0_puts_the_feet_above_the_body():
    from dynval.handrolled.quadruped.kinematics import foot_position

    printed = build_model(R_B0=R_B0_PRINTED)
    assert foot_position(printed, 0, PARAMS.theta_stand)[2] > 0.2


def test_mujoco_and_pinocchio_agree_through_the_free_joint_maps():
    """Engine against engine, no hand-rolled model: MuJoCo's world-frame linear velocity
    and its qacc map onto Pinocchio's body-twist coordinates."""
    from dynval.engines.mujoco_engine import MujocoTerms
    from dynval.engines.pinocchio_engine import PinocchioTerms

    mj = MujocoTerms(DESC / "quadruped.xml")
    pn = PinocchioTerms(DESC / "quadruped.urdf", (0, 0, -9.81), floating=True,
                        joint_names=joint_names())
    for s in audit.random_states(5, 3):
        q_mj = frames.mujoco_qpos(s.p_WB, s.R_WB, s.theta)
        qvel, qacc = frames.mujoco_qvel_qacc(s.R_WB, s.nu, s.nudot)
        tau_mj = mj.inverse_dynamics(q_mj, qvel, qacc)
        T = frames.mujoco_T(s.R_WB)
        tau_pn = pn.inverse_dynamics(frames.pinocchio_q(s.p_WB, s.R_WB, s.theta), s.nu, s.nudot)
        assert np.allclose(tau_mj, T.T @ tau_pn, rtol=0, atol=1e-10 * np.abs(tau_pn).max())


@pytest.mark.parametrize("impl,contact", [("handrolled", "shared"), ("mujoco", "native"),
                                          ("pybullet", "native")])
def test_half_a_trot_stays_up_and_its_feet_carry_the_weight(impl, contact):
    df = run_one(PARAMS, SCENARIOS["trot"], impl, contact, DESC, duration=0.3)
    assert np.max(np.abs(df["body.roll"])) < np.radians(3.0)  # the plan keeps the body level
    assert np.ptp(df["body.z"]) < 0.01
    Fz = sum(df[f"foot.{leg}.force.z"] for leg in LEGS).to_numpy()[1:]
    # level body, constant height: the vertical impulse balances the weight; 5 % allows
    # for the body's small vertical velocity change over 0.3 s
    assert Fz.mean() == pytest.approx(total_mass() * PARAMS.g, rel=0.05)


def test_cli_refuses_an_engine_in_the_papers_contact_mode(tmp_path):
    res = CliRunner().invoke(app, ["run", "quadruped", "--engine", "mujoco", "--out",
                                   str(tmp_path)])
    assert res.exit_code == 2
    assert "use --contact native" in res.output
