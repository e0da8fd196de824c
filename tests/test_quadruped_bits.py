"""The printed quadruped path's shortcuts give its floats bit for bit: the pinned-feet
system assembled compiled (reduced.pinned_system, numba's @ calling the BLAS routines
numpy's does) against its printed assembly, section 4's ground forces with their matrix
assembled compiled (grf.solve_grf) against the printed sums, the plan with all legs (and
several lateral motions) in one pass (gait.plans_at) against one leg at a time, and
round trips that share plans and the four-leg splits' common prefix (roundtrip.Plans,
round_trips) against separate runs."""

from dataclasses import fields

import numpy as np

from dynval.handrolled import so3
from dynval.handrolled.quadruped import grf, reduced, terms
from dynval.handrolled.quadruped.gait import TROT, WALK, foot_world, plan, plans_at, sway
from dynval.handrolled.quadruped.kinematics import standing_height
from dynval.handrolled.quadruped.rnea import inverse_dynamics
from dynval.handrolled.quadruped.robot import build_model
from dynval.handrolled.quadruped.roundtrip import round_trip, round_trips
from dynval.handrolled.vec3 import cross
from dynval.robots.quadruped.params import LEGS, PARAMS

MODEL = build_model()
G = np.array([0.0, 0.0, -PARAMS.g])
HEIGHT = standing_height(PARAMS) - PARAMS.foot_radius


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal floats, the signs of zeros included."""
    a, b = np.asarray(a), np.asarray(b)
    return np.array_equal(a, b) and np.array_equal(np.signbit(a), np.signbit(b))


def _printed_system(R_WB, theta, nu, tau, stance):
    """K and rhs of reduced.constrained_forward_dynamics, assembled with numpy."""
    M = terms.mass_matrix(MODEL, R_WB, theta)
    f_b, n_b, tau_h, _, _, a_4B = inverse_dynamics(MODEL, R_WB, nu[:6], np.zeros(6),
                                                   np.reshape(theta, (4, 3)),
                                                   np.reshape(nu[6:], (4, 3)),
                                                   np.zeros((4, 3)), G)
    h = np.concatenate([f_b, n_b, tau_h.ravel()])
    Jc = reduced.contact_jacobian(MODEL, theta, stance)
    bias = np.concatenate([a_4B[LEGS.index(leg)] + R_WB.T @ G for leg in stance]) \
        if stance else np.zeros(0)
    nc = Jc.shape[0]
    K = np.block([[M, -Jc.T], [Jc, np.zeros((nc, nc))]])
    return K, np.concatenate([np.concatenate([np.zeros(6), np.ravel(tau)]) - h, -bias])


def test_compiled_pinned_system_is_the_printed_assembly():
    rng = np.random.default_rng(5)
    stances = [(), ("LF",), ("LF", "RB"), ("RF", "LB"), ("LF", "RF", "RB"), tuple(LEGS),
               ("RB", "LF")]
    for k in range(200):
        R = np.eye(3) if k % 4 == 0 else so3.exp(rng.normal(size=3))
        theta, nu, tau = rng.normal(size=12), rng.normal(size=18), rng.normal(size=(4, 3))
        stance = stances[k % len(stances)]
        K, rhs = _printed_system(R, theta, nu, tau, stance)
        f_b, n_b, tau_h, _, _, a_4B = inverse_dynamics(MODEL, R, nu[:6], np.zeros(6),
                                                       theta, nu[6:], np.zeros((4, 3)), G)
        frames = (MODEL.alpha, MODEL.a, MODEL.R_B0, MODEL.p_B0)
        K_c, rhs_c = reduced.pinned_system(frames, terms.mass_matrix(MODEL, R, theta),
                                           (f_b, n_b, tau_h, a_4B), R.T @ G, theta,
                                           tau.ravel(), reduced._leg_indices(stance))
        assert _same(K, K_c) and _same(rhs, rhs_c)
        x = np.linalg.solve(K, rhs)
        nudot, F = reduced.constrained_forward_dynamics(MODEL, R, theta, nu, tau, G, stance)
        assert _same(x[:18], nudot) and _same(x[18:].reshape(-1, 3), F)


def test_splits_share_their_common_prefix_bit_for_bit():
    # the walk's first four-leg phase begins at 1.6 s: three-leg steps, then four-leg ones
    trips = round_trips(MODEL, WALK, HEIGHT, G, 4e-3, 0.2, ("side-wise", "paper"),
                        integrator="rk4", start=1.5)
    for split, r in trips.items():
        alone = round_trip(MODEL, WALK, HEIGHT, G, 4e-3, 0.2, split=split, integrator="rk4",
                           start=1.5)
        for f in fields(alone):
            assert _same(getattr(alone, f.name), getattr(r, f.name)), (split, f.name)
    a, b = trips["side-wise"], trips["paper"]
    assert _same(a.theta[:25], b.theta[:25]) and not np.array_equal(a.theta, b.theta)


def _leg_by_leg(t, gait, lateral=None):
    """gait.plan one leg at a time with scalar arithmetic (theta, thetad, thetadd)."""
    y, yd, ydd = sway(gait, t) if lateral is None else lateral
    p_B, v_B, a_B = (np.array([gait.speed * t, y, HEIGHT]), np.array([gait.speed, yd, 0.0]),
                     np.array([0.0, ydd, 0.0]))
    l2, l3 = MODEL.a[2], MODEL.a[3]
    R0 = MODEL.R_B0.T
    out = np.zeros((3, 4, 3))
    for k, leg in enumerate(LEGS):
        nominal = np.array([MODEL.p_B0[k, 0], np.sign(MODEL.p_B0[k, 1]) * gait.track, 0.0])
        p, v, a = foot_world(gait, leg, t, nominal)
        x, y0, z = R0 @ (p - p_B - MODEL.p_B0[k])
        t1 = np.arctan2(z, x)
        u, w = np.hypot(x, z), y0
        t3 = -np.arccos((u * u + w * w - l2 * l2 - l3 * l3) / (2.0 * l2 * l3))
        t2 = np.arctan2(w, u) - np.arctan2(l3 * np.sin(t3), l2 + l3 * np.cos(t3))
        xd, yd0, zd = R0 @ (v - v_B)
        xdd, ydd0, zdd = R0 @ (a - a_B)
        r2 = x * x + z * z
        r = np.sqrt(r2)
        t1d = (x * zd - z * xd) / r2
        t1dd = (x * zdd - z * xdd) / r2 - 2.0 * (x * xd + z * zd) * (x * zd - z * xd) / r2**2
        ud = (x * xd + z * zd) / r
        udd = (xd * xd + zd * zd + x * xdd + z * zdd) / r - ud * ud / r
        s23, c23 = np.sin(t2 + t3), np.cos(t2 + t3)
        J = np.array([[-w, -l3 * s23], [r, l3 * c23]])
        t23 = np.linalg.solve(J, [ud, yd0])
        s = t23.sum()
        Jd = np.array([[-yd0, -l3 * c23 * s], [ud, -l3 * s23 * s]])
        t23dd = np.linalg.solve(J, np.array([udd, ydd0]) - Jd @ t23)
        out[:, k] = [t1, t2, t3], [t1d, *t23], [t1dd, *t23dd]
    return out


def test_the_plan_of_all_legs_at_once_is_leg_by_leg():
    for gait in (WALK, TROT):
        for t in np.linspace(0.0, gait.period, 97):
            s = plan(MODEL, gait, float(t), HEIGHT)
            ref = _leg_by_leg(float(t), gait)
            assert _same(s.theta, ref[0]) and _same(s.thetad, ref[1])
            assert _same(s.thetadd, ref[2])
    lateral = [(0.004, -0.03, 0.0), (0.004, -0.03, 1.0)]
    for t in np.linspace(0.0, TROT.period, 31):
        for s, lat in zip(plans_at(MODEL, TROT, float(t), HEIGHT, lateral), lateral,
                          strict=True):
            ref = _leg_by_leg(float(t), TROT, lat)
            assert _same(s.theta, ref[0]) and _same(s.thetad, ref[1])
            assert _same(s.thetadd, ref[2])


def _printed_grf(stance, p_B4, f_b, n_b, split):
    """grf.solve_grf with its sums written out pattern by pattern, leg by leg."""
    F = np.zeros((4, 3))
    c = np.mean([p_B4[LEGS.index(leg)] for leg in stance], axis=0)
    w = np.concatenate([f_b, n_b - np.array(cross(c, f_b))])
    pats = grf._patterns(stance, split)
    A = np.zeros((6, len(pats)))
    for k, pat in enumerate(pats):
        for leg, e in pat.items():
            A[:3, k] += e
            A[3:, k] += cross(p_B4[LEGS.index(leg)] - c, e)
    x = np.linalg.lstsq(A, w, rcond=None)[0]
    for k, pat in enumerate(pats):
        for leg, e in pat.items():
            F[LEGS.index(leg)] += x[k] * e
    return F, w - A @ x, A


def test_ground_forces_are_the_printed_sums():
    rng = np.random.default_rng(8)
    stances = [("LF", "RB"), ("RF", "LB"), ("LF", "RF", "RB"), ("LF", "LB", "RB"), tuple(LEGS)]
    for k in range(300):
        stance, split = stances[k % len(stances)], grf.SPLITS[k % 3]
        p_B4 = rng.normal(scale=0.2, size=(4, 3))
        f_b, n_b = rng.normal(scale=100.0, size=3), rng.normal(scale=10.0, size=3)
        F, residual, A = _printed_grf(stance, p_B4, f_b, n_b, split)
        F_c, residual_c = grf.solve_grf(stance, p_B4, f_b, n_b, split)
        assert _same(F, F_c) and _same(residual, residual_c)
        A_c, _ = grf.assumption_matrix(stance, p_B4,
                                       np.mean([p_B4[LEGS.index(leg)] for leg in stance],
                                               axis=0), split)
        assert _same(A, A_c)
