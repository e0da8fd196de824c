"""The hand-rolled quadruped on its own: Table 1's kinematics, the RNEA's physics, the
ground-reaction assumptions of section 4, the gaits and the section-6 round trip."""

import numpy as np
import pytest

from dynval.handrolled import ModelInputError
from dynval.handrolled.quadruped import grf, kinematics, terms
from dynval.handrolled.quadruped.gait import TROT, WALK, plan, sway
from dynval.handrolled.quadruped.inverse import feedforward
from dynval.handrolled.quadruped.reduced import body_pose_from_stance, constrained_forward_dynamics
from dynval.handrolled.quadruped.robot import build_model
from dynval.handrolled.quadruped.roundtrip import max_percentage_error, round_trip
from dynval.robots.quadruped.params import LEGS, PARAMS, R_B0, R_B0_PRINTED, total_mass

MODEL = build_model()
G = np.array([0.0, 0.0, -9.81])
HEIGHT = 0.2 * np.sqrt(2.0)


def test_frame_0_is_a_rotation_and_the_printed_one_is_not():
    assert np.allclose(R_B0 @ R_B0.T, np.eye(3)) and np.linalg.det(R_B0) == pytest.approx(1.0)
    assert np.linalg.det(R_B0_PRINTED) == pytest.approx(-1.0)


def test_standing_posture_puts_each_foot_under_its_hip():
    for k in range(4):
        p = kinematics.foot_position(MODEL, k, PARAMS.theta_stand)
        assert np.allclose(p[:2], MODEL.p_B0[k, :2], atol=1e-15)
        assert p[2] == pytest.approx(-HEIGHT, abs=1e-15)


def test_foot_jacobian_matches_central_differences():
    rng = np.random.default_rng(3)
    for _ in range(20):
        k, th = int(rng.integers(4)), rng.uniform(-np.pi, np.pi, 3)
        J = kinematics.foot_jacobian(MODEL, k, th)
        h = 1e-6
        Jn = np.column_stack([(kinematics.foot_position(MODEL, k, th + h * e)
                               - kinematics.foot_position(MODEL, k, th - h * e)) / (2 * h)
                              for e in np.eye(3)])
        assert np.max(np.abs(J - Jn)) < 1e-9  # central differences: O(h^2) ~ 1e-12


def test_inverse_kinematics_inverts_and_keeps_the_knee_of_fig_1d():
    rng = np.random.default_rng(4)
    for _ in range(50):
        k = int(rng.integers(4))
        th = np.array([rng.uniform(1.2, 1.9), rng.uniform(-0.3, 1.2), rng.uniform(-2.5, -0.3)])
        p = kinematics.foot_position(MODEL, k, th)
        assert np.allclose(kinematics.inverse_kinematics(MODEL, k, p), th, atol=1e-9)


def test_inverse_kinematics_refuses_a_foot_out_of_reach():
    with pytest.raises(ModelInputError, match="out of reach of leg RF"):
        kinematics.inverse_kinematics(MODEL, 1, MODEL.p_B0[1] + [0.0, 0.0, -0.5])


def test_mass_matrix_is_symmetric_positive_definite_with_the_total_mass():
    rng = np.random.default_rng(5)
    from dynval.comparisons.quadruped.frames import random_rotation

    for _ in range(5):
        R, th = random_rotation(rng), rng.uniform(-np.pi, np.pi, 12)
        M = terms.mass_matrix(MODEL, R, th)
        assert np.allclose(M, M.T, rtol=0, atol=1e-13)
        assert np.linalg.eigvalsh(M).min() > 0
        # the body twist's linear block is the whole robot's mass
        assert np.allclose(M[:3, :3], total_mass() * np.eye(3), atol=1e-12)


def test_gravity_on_the_floating_base_is_the_weight_in_body_axes():
    rng = np.random.default_rng(6)
    from dynval.comparisons.quadruped.frames import random_rotation

    R, th = random_rotation(rng), rng.uniform(-np.pi, np.pi, 12)
    Gv = terms.gravity_vector(MODEL, R, th, G)
    assert np.allclose(Gv[:3], -total_mass() * (R.T @ G), atol=1e-12)


def test_forward_dynamics_inverts_inverse_dynamics():
    rng = np.random.default_rng(7)
    th, nu, nudot = (rng.uniform(-2, 2, 12), rng.uniform(-2, 2, 18), rng.uniform(-5, 5, 18))
    tau = terms.generalized_forces(MODEL, np.eye(3), th, nu, nudot, G)
    assert np.allclose(terms.forward_dynamics(MODEL, np.eye(3), th, nu, tau, G), nudot,
                       atol=1e-10)


@pytest.mark.parametrize("stance,rank", [(("LF", "RF", "LB", "RB"), 5),
                                         (("LF", "RF", "LB"), 6), (("RF", "LB"), 5)])
def test_rank_of_the_body_equations_under_each_assumption(stance, rank):
    p_B4 = np.array([kinematics.foot_position(MODEL, k, PARAMS.theta_stand) for k in range(4)])
    A, _ = grf.assumption_matrix(stance, p_B4)
    assert np.linalg.matrix_rank(A) == rank


def test_three_leg_forces_balance_the_body_and_keep_the_assumed_equalities():
    s = plan(MODEL, WALK, 0.3, HEIGHT)
    assert len(s.stance) == 3
    ff = feedforward(MODEL, s, G)
    assert np.max(np.abs(ff.residual)) < 1e-9
    F = ff.F_foot_B[[LEGS.index(leg) for leg in s.stance]]
    assert np.ptp(F[:, 0]) < 1e-12  # equal X forces (section 4.2)
    assert ff.F_foot_B[LEGS.index("RB")] == pytest.approx(np.zeros(3))
    assert F[:, 2].sum() == pytest.approx(total_mass() * 9.81, rel=0.05)  # nearly static


def test_two_leg_residual_is_a_moment_about_the_support_line():
    s = plan(MODEL, TROT, 0.1, HEIGHT)
    ff = feedforward(MODEL, s, G)
    line = s.p_B4[LEGS.index(s.stance[0])] - s.p_B4[LEGS.index(s.stance[1])]
    m = ff.residual[3:]
    assert np.max(np.abs(ff.residual[:3])) < 1e-9  # every force is balanced
    assert abs(m @ line) / np.linalg.norm(line) == pytest.approx(np.linalg.norm(m), rel=1e-6)
    assert np.linalg.norm(m) > 0.1  # and the planned trot leaves a real moment


def test_planned_rates_match_differences_of_the_plan():
    for gait, t in ((TROT, 0.13), (WALK, 1.7), (WALK, 0.4)):
        h = 1e-6
        a, b, c = (plan(MODEL, gait, t + d, HEIGHT) for d in (-h, 0.0, h))
        assert np.max(np.abs((c.theta - a.theta) / (2 * h) - b.thetad)) < 1e-7
        assert np.max(np.abs((c.thetad - a.thetad) / (2 * h) - b.thetadd)) < 1e-6


def test_sway_is_continuous_and_away_from_the_lifted_leg():
    ts = np.linspace(0, WALK.period, 4001)
    y = np.array([sway(WALK, t)[0] for t in ts])
    assert np.max(np.abs(np.diff(y))) < 1e-3
    assert sway(WALK, 0.3)[0] == pytest.approx(WALK.sway)  # RB lifted: body to the left
    assert sway(WALK, 2.3)[0] == pytest.approx(-WALK.sway)  # LB lifted: to the right


def test_pinned_forward_dynamics_returns_the_plan_where_the_assumptions_are_consistent():
    s = plan(MODEL, WALK, 0.3, HEIGHT)
    ff = feedforward(MODEL, s, G)
    nu = np.concatenate([s.v_WB, np.zeros(3), s.thetad.ravel()])
    nudot, F = constrained_forward_dynamics(MODEL, np.eye(3), s.theta.ravel(), nu,
                                            ff.tau.ravel(), G, s.stance)
    assert np.max(np.abs(nudot[6:] - s.thetadd.ravel())) < 1e-9
    assert np.max(np.abs(F - ff.F_foot_B[[LEGS.index(leg) for leg in s.stance]])) < 1e-9


def test_body_pose_is_recovered_from_three_supporting_feet():
    rng = np.random.default_rng(8)
    from dynval.comparisons.quadruped.frames import random_rotation

    R, p = random_rotation(rng), rng.uniform(-1, 1, 3)
    p_B4 = np.array([kinematics.foot_position(MODEL, k, PARAMS.theta_stand) for k in range(3)])
    p_W4 = p + p_B4 @ R.T
    p2, R2 = body_pose_from_stance(p_W4, p_B4)
    assert np.allclose(p2, p, atol=1e-12) and np.allclose(R2, R, atol=1e-12)


@pytest.mark.parametrize("roll_deg", [0.0, 7.0, -20.0])
def test_body_pose_is_recovered_from_two_feet_and_the_roll(roll_deg):
    from dynval.handrolled.so3 import matrix_from_euler_zyx

    R = matrix_from_euler_zyx(0.3, -0.1, np.radians(roll_deg))
    p = np.array([0.2, -0.1, 0.3])
    s = plan(MODEL, TROT, 0.1, HEIGHT)
    p_B4 = s.p_B4[[LEGS.index(leg) for leg in s.stance]]
    p2, R2 = body_pose_from_stance(p + p_B4 @ R.T, p_B4, np.radians(roll_deg))
    assert np.allclose(R2, R, atol=1e-9) and np.allclose(p2, p, atol=1e-9)


def test_round_trip_error_of_the_walk_halves_with_the_step():
    errs = []
    for dt in (2e-3, 1e-3):
        r = round_trip(MODEL, WALK, HEIGHT, G, dt, 0.3)
        errs.append(max_percentage_error(r.theta_plan[:, 10], r.theta[:, 10]))
    assert 1.5 < errs[0] / errs[1] < 2.5  # first-order integration of a consistent plan


def test_assumption_errors_vanish_for_forces_that_obey_the_assumptions():
    import pandas as pd

    from dynval.comparisons.quadruped.assumptions import assumption_errors

    rows = []
    for t in np.arange(0.0, WALK.period, 0.05):
        ff = feedforward(MODEL, plan(MODEL, WALK, float(t), HEIGHT), G)
        rows.append({"time": t, **{f"foot.{leg}.force_assumed.{a}": ff.F_foot_B[k, c]
                                   for k, leg in enumerate(LEGS) for c, a in enumerate("xyz")}})
    hand = pd.DataFrame(rows)
    same = hand.rename(columns=lambda c: c.replace("force_assumed", "force"))
    res = assumption_errors(hand, {"engine": same})
    assert {r["legs"] for r in res} == {3, 4}
    assert max(r["rms_error"] for r in res) < 1e-12
    assert max(r["rms_inequality"] for r in res if r["axis"] == "x") < 1e-12
    skewed = same.copy()
    skewed["foot.LF.force.x"] += 1.0  # one leg pushes 1 N harder forward
    res = assumption_errors(hand, {"engine": skewed})
    x3 = next(r for r in res if r["legs"] == 3 and r["axis"] == "x")
    assert x3["rms_inequality"] > 0.3 and x3["rms_error"] > 0.3
