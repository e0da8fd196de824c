"""The hand-rolled closed loop compiled, chunk by chunk: the gait plan of gait.py (sway,
stance, swing-foot profiles, inverse kinematics and its rates), section 4's feedforward of
inverse.py (legs in the air for the body wrench, grf.py's assumed ground forces, the leg
recursion with them), joint PD and the pinned-feet step of fast.py, for a number of steps
without returning to Python.  The same equations in the same order as the Python loop
(comparisons/quadruped/loop.py), but for the feedforward's second leg recursion, done
by its linearity in the foot force (``_feedforward``): tests/test_quadruped_fast.py
holds the plan, the feedforward and whole trajectories to them at round-off.

The support cases' force patterns come from grf._patterns itself (``Pattern tables``), so
section 4's assumptions have one source.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from dynval._numba_cache import njit
from dynval.handrolled.quadruped import grf
from dynval.handrolled.quadruped.fast import model as fast
from dynval.handrolled.quadruped.gait import Gait
from dynval.handrolled.quadruped.robot import Links
from dynval.robots.quadruped.params import LEGS, side_sign

EPS = float(np.finfo(float).eps)


def mask_index(stance: tuple[str, ...]) -> int:
    """The stance as a bit mask, bit k for leg LEGS[k]."""
    return sum(1 << k for k, leg in enumerate(LEGS) if leg in stance)


def stance_of(mask: int) -> tuple[str, ...]:
    """The legs of a bit mask, in LEGS order (as gait.stance_legs lists them)."""
    return tuple(leg for k, leg in enumerate(LEGS) if mask >> k & 1)


def pattern_tables(split: str = "paper") -> tuple[np.ndarray, np.ndarray]:
    """For each stance mask (bit k: leg LEGS[k] down): the unknowns' force direction per
    leg (-1: none, 0/1/2: x/y/z), (16, 12, 4) (twelve: the "min-norm" split's four free
    feet), and their number (-1 where section 4 has no assumption: one leg down)."""
    dirs = np.full((16, 12, 4), -1, dtype=np.int64)
    count = np.zeros(16, dtype=np.int64)
    for mask in range(16):
        stance = stance_of(mask)
        try:
            pats = grf._patterns(stance, split)
        except ValueError:
            count[mask] = -1
            continue
        count[mask] = len(pats)
        for j, pat in enumerate(pats):
            for leg, e in pat.items():
                dirs[mask, j, LEGS.index(leg)] = int(np.argmax(e))
    return dirs, count


@dataclass(frozen=True)
class GaitArrays:
    """A gait as numbers for the compiled plan."""

    scalars: np.ndarray  # period, stride, height, swing fraction, sway, track, speed
    offsets: np.ndarray  # (4,) phase offsets in LEGS order
    starts: np.ndarray  # (4,) swing starts (1 - offset) % 1, sorted as gait.sway sorts
    start_side: np.ndarray  # (4,) side sign of the leg of each start


def gait_arrays(gait: Gait) -> GaitArrays:
    starts = sorted(((1.0 - gait.offsets[leg]) % 1.0, leg) for leg in LEGS)
    return GaitArrays(
        np.array([gait.period, gait.stride, gait.height, gait.swing_fraction, gait.sway,
                  gait.track, gait.speed]),
        np.array([gait.offsets[leg] for leg in LEGS]),
        np.array([s for s, _ in starts]), np.array([float(side_sign(leg)) for _, leg in starts]))


@njit(cache=True)
def _min_jerk(s):
    return (s**3 * (10 - 15 * s + 6 * s * s), 30 * s * s * (1 - s) ** 2,
            60 * s * (1 - s) * (1 - 2 * s))


@njit(cache=True)
def _lift(s):
    return (64 * s**3 * (1 - s) ** 3, 192 * s * s * (1 - s) ** 2 * (1 - 2 * s),
            384 * s * (1 - s) * (1 - 5 * s + 5 * s * s))


@njit(cache=True)
def _sway(G, starts, side, t):
    """gait.sway."""
    T, beta, sway = G[0], G[3], G[4]
    if sway == 0.0:
        return 0.0, 0.0, 0.0
    phi = (t / T) % 1.0
    for k in range(4):
        s0, s1 = starts[k], starts[(k + 1) % 4]
        span = (s1 - s0) % 1.0
        if span == 0.0:
            span = 1.0
        rel = (phi - s0) % 1.0
        if rel >= span:
            continue
        here = -side[k] * sway
        if rel < beta:
            return here, 0.0, 0.0
        there = -side[(k + 1) % 4] * sway
        window = span - beta
        x, xd, xdd = _min_jerk((rel - beta) / window)
        d = there - here
        return here + d * x, d * xd / (window * T), d * xdd / (window * T) ** 2
    return np.nan, np.nan, np.nan


@njit(cache=True)
def stance_mask_at(G, offsets, t):
    """gait.stance_legs at t as a stance mask."""
    T, beta = G[0], G[3]
    mask = 0
    for k in range(4):
        if (t / T + offsets[k]) % 1.0 >= beta:
            mask |= 1 << k
    return mask


class Planned(NamedTuple):
    """The plan at an instant, as the compiled plan writes it: the joint angles theta,
    rates thd and accelerations thdd (4, 3), the feet in the body frame p_B4 (4, 3), and
    the body's velocity v_B and acceleration a_B (3,)."""

    theta: np.ndarray
    thd: np.ndarray
    thdd: np.ndarray
    p_B4: np.ndarray
    v_B: np.ndarray
    a_B: np.ndarray


@njit(cache=True)
def _plan(plan, t, height, foot_z, s):
    """gait.plan at t into s (:class:`Planned`); returns the stance mask, or -1 where a
    foot is out of reach.  plan: :class:`Plan`."""
    y, yd, ydd = _sway(plan.G, plan.starts, plan.side, t)
    return plan_lateral(plan, t, height, foot_z, y, yd, ydd, s)


@njit(cache=True)
def plan_lateral(plan, t, height, foot_z, y, yd, ydd, s):
    """``_plan`` with the body's lateral position, rate and acceleration (y, y', y'')
    given: gait.plan(lateral=...), the balanced trot's (balance.py)."""
    L, G, offsets = plan.links, plan.G, plan.offsets
    theta, thd, thdd, p_B4, v_B, a_B = s
    T, S, h, beta, track, speed = G[0], G[1], G[2], G[3], G[5], G[6]
    pB0, pB1, pB2 = speed * t, y, height
    v_B[0], v_B[1], v_B[2] = speed, yd, 0.0
    a_B[0], a_B[1], a_B[2] = 0.0, ydd, 0.0
    l2, l3 = L.a[2], L.a[3]
    mask = stance_mask_at(G, offsets, t)
    for k in range(4):
        off = offsets[k]
        # gait.foot_world from the nominal foot point
        c = t / T + off
        n = np.floor(c)
        phi = c - n
        x0 = L.p_B0[k, 0] - S * (1.0 - beta + 2.0 * off) / 2.0
        p = (x0, np.sign(L.p_B0[k, 1]) * track, foot_z)
        v = (0.0, 0.0, 0.0)
        a = (0.0, 0.0, 0.0)
        if phi < beta:
            s = phi / beta
            ds = 1.0 / (beta * T)
            x, xd, xdd = _min_jerk(s)
            z, zd, zdd = _lift(s)
            p = (x0 + S * (n + x), p[1], p[2] + h * z)
            v = (S * xd * ds, 0.0, h * zd * ds)
            a = (S * xdd * ds * ds, 0.0, h * zdd * ds * ds)
        else:
            p = (x0 + S * (n + 1.0), p[1], p[2])
        p_B4[k, 0], p_B4[k, 1], p_B4[k, 2] = p[0] - pB0, p[1] - pB1, p[2] - pB2
        # kinematics.inverse_kinematics: the foot in frame 0, then the planar two-link
        d = (p_B4[k, 0] - L.p_B0[k, 0], p_B4[k, 1] - L.p_B0[k, 1],
             p_B4[k, 2] - L.p_B0[k, 2])
        dv = (v[0] - v_B[0], v[1] - v_B[1], v[2] - v_B[2])
        da = (a[0] - a_B[0], a[1] - a_B[1], a[2] - a_B[2])
        q0, qd0, qdd0 = np.zeros(3), np.zeros(3), np.zeros(3)
        for r in range(3):  # R_B0^T (.)
            for j in range(3):
                q0[r] += L.R_B0[j, r] * d[j]
                qd0[r] += L.R_B0[j, r] * dv[j]
                qdd0[r] += L.R_B0[j, r] * da[j]
        x, w, z = q0[0], q0[1], q0[2]
        t1 = np.arctan2(z, x)
        u = np.hypot(x, z)
        c3 = (u * u + w * w - l2 * l2 - l3 * l3) / (2.0 * l2 * l3)
        if abs(c3) > 1.0:
            return -1
        t3 = -np.arccos(c3)
        t2 = np.arctan2(w, u) - np.arctan2(l3 * np.sin(t3), l2 + l3 * np.cos(t3))
        theta[k, 0], theta[k, 1], theta[k, 2] = t1, t2, t3
        # gait.leg_ik_rates
        xd, yd_, zd = qd0[0], qd0[1], qd0[2]
        xdd, ydd_, zdd = qdd0[0], qdd0[1], qdd0[2]
        r2 = x * x + z * z
        r = np.sqrt(r2)
        thd[k, 0] = (x * zd - z * xd) / r2
        thdd[k, 0] = ((x * zdd - z * xdd) / r2
                      - 2.0 * (x * xd + z * zd) * (x * zd - z * xd) / r2**2)
        u, ud = r, (x * xd + z * zd) / r
        udd = (xd * xd + zd * zd + x * xdd + z * zdd) / r - ud * ud / r
        wd, wdd = yd_, ydd_
        s23, c23 = np.sin(t2 + t3), np.cos(t2 + t3)
        J00, J01, J10, J11 = -w, -l3 * s23, u, l3 * c23  # d(u, w)/d(t2, t3)
        det = J00 * J11 - J01 * J10
        a2 = (ud * J11 - J01 * wd) / det
        a3 = (J00 * wd - J10 * ud) / det
        s_ = a2 + a3
        b0 = udd - (-wd * a2 - l3 * c23 * s_ * a3)
        b1 = wdd - (ud * a2 - l3 * s23 * s_ * a3)
        thd[k, 1], thd[k, 2] = a2, a3
        thdd[k, 1] = (b0 * J11 - J01 * b1) / det
        thdd[k, 2] = (J00 * b1 - J10 * b0) / det
    return mask


@njit(cache=True)
def _min_norm_lstsq(A, w, rcond):
    """The minimum-norm least-squares solution of A x = w (np.linalg.lstsq's, singular
    values below rcond times the largest dropped) by a one-sided Jacobi SVD (Hestenes):
    rotate A's columns until they are orthogonal, U = A V = (sigma_j u_j), then
    x = sum_j (U_j . w / sigma_j^2) V_j.  For these 6 x 6 systems LAPACK's driver costs
    more than the sweeps."""
    m, n = A.shape
    U = A.copy()
    V = np.eye(n)
    # a column down to round-off of A's norm is a null direction: leave it be (rotating
    # it against the others only stirs round-off; rcond drops it below)
    tiny = EPS * EPS * np.sum(A * A)
    for _ in range(60):
        rotated = False
        for i in range(n - 1):
            for j in range(i + 1, n):
                a = b = g = 0.0
                for k in range(m):
                    a += U[k, i] * U[k, i]
                    b += U[k, j] * U[k, j]
                    g += U[k, i] * U[k, j]
                if g == 0.0 or abs(g) <= EPS * np.sqrt(a * b) or min(a, b) <= tiny:
                    continue
                rotated = True
                zeta = (b - a) / (2.0 * g)
                t = (1.0 if zeta >= 0.0 else -1.0) / (abs(zeta) + np.sqrt(1.0 + zeta * zeta))
                c = 1.0 / np.sqrt(1.0 + t * t)
                s = c * t
                for k in range(m):
                    ui, uj = U[k, i], U[k, j]
                    U[k, i], U[k, j] = c * ui - s * uj, s * ui + c * uj
                for k in range(n):
                    vi, vj = V[k, i], V[k, j]
                    V[k, i], V[k, j] = c * vi - s * vj, s * vi + c * vj
        if not rotated:
            break
    sig2 = np.empty(n)
    top = 0.0
    for j in range(n):
        acc = 0.0
        for k in range(m):
            acc += U[k, j] * U[k, j]
        sig2[j] = acc
        top = max(top, acc)
    x = np.zeros(n)
    for j in range(n):
        if sig2[j] <= rcond * rcond * top:
            continue
        acc = 0.0
        for k in range(m):
            acc += U[k, j] * w[k]
        acc /= sig2[j]
        for k in range(n):
            x[k] += acc * V[k, j]
    return x


@njit(cache=True)
def _solve_grf(dirs, count, mask, p_B4, f_b, n_b, F, residual):
    """grf.solve_grf (the split of ``pattern_tables``' dirs and count) into F (4 x 3) and
    the unbalanced wrench residual."""
    F[:, :] = 0.0
    nc = 0
    c = np.zeros(3)
    for k in range(4):
        if mask >> k & 1:
            nc += 1
            c += p_B4[k]
    if nc == 0:
        residual[:3], residual[3:] = f_b, n_b
        return
    c /= nc
    w = np.empty(6)
    m0, m1, m2 = fast._cross(c[0], c[1], c[2], f_b[0], f_b[1], f_b[2])
    w[:3] = f_b
    w[3], w[4], w[5] = n_b[0] - m0, n_b[1] - m1, n_b[2] - m2
    n = count[mask]
    A = np.zeros((6, n))
    for j in range(n):
        for k in range(4):
            e = dirs[mask, j, k]
            if e < 0:
                continue
            A[e, j] += 1.0
            ex = (1.0 if e == 0 else 0.0, 1.0 if e == 1 else 0.0, 1.0 if e == 2 else 0.0)
            m0, m1, m2 = fast._cross(p_B4[k, 0] - c[0], p_B4[k, 1] - c[1], p_B4[k, 2] - c[2],
                                     ex[0], ex[1], ex[2])
            A[3, j] += m0
            A[4, j] += m1
            A[5, j] += m2
    x = _min_norm_lstsq(A, w, EPS * max(6, n))  # np.linalg.lstsq's rcond=None
    for j in range(n):
        for k in range(4):
            e = dirs[mask, j, k]
            if e >= 0:
                F[k, e] += x[j]
    for r in range(6):
        acc = w[r]
        for j in range(n):
            acc -= A[r, j] * x[j]
        residual[r] = acc


@njit(cache=True)
def legs_in_the_air(L, s, g_W, R, p, gen):
    """Section 3's first stage for a planned instant s (:class:`Planned`; body level,
    R_WB = I, no foot force): gen = (f_b, n_b, tau) of the RNEA, with the legs' frames
    R, p.  L: the model's robot.Links."""
    theta, thd, thdd, _, v_B, a_B = s
    buf = np.empty((43, 3))
    a4, f1, n1, F = buf[27:31], buf[31:35], buf[35:39], buf[39:43]
    nu, nudot = np.zeros(6), np.zeros(6)
    nu[:3], nudot[:3] = v_B, a_B
    fast._frames(L, theta.reshape(12), R, p)
    F[:, :] = 0.0
    fast._rnea_into(L, R, p, np.eye(3), nu, nudot, thd.reshape(12), thdd.reshape(12), g_W, F,
                    gen, a4, f1, n1, buf)


@njit(cache=True)
def _feedforward(plan, mask, s, g_W, tau, F, residual):
    """inverse.feedforward: legs in the air for the body wrench, the assumed ground forces,
    then the joint torques with them (body level: R_WB = I).  The leg recursion is
    linear in the foot force, so its second run (inverse.py) is done here as the first
    one's torques plus the force's share, tau_j += z_j . ((p_4 - p_j) x (-F)): the foot
    pushes on the ground with -F (rnea.py)."""
    R = np.empty((4, 5, 3, 3))
    p = np.empty((4, 5, 3))
    gen = np.empty(18)
    legs_in_the_air(plan.links, s, g_W, R, p, gen)
    if plan.count[mask] < 0:
        return False
    _solve_grf(plan.dirs, plan.count, mask, s.p_B4, gen[:3], gen[3:6], F, residual)
    for leg in range(4):
        for j in range(1, 4):
            m0, m1, m2 = fast._cross(p[leg, 4, 0] - p[leg, j, 0], p[leg, 4, 1] - p[leg, j, 1],
                                     p[leg, 4, 2] - p[leg, j, 2],
                                     -F[leg, 0], -F[leg, 1], -F[leg, 2])
            tau[3 * leg + j - 1] = gen[6 + 3 * leg + j - 1] + (
                R[leg, j, 0, 2] * m0 + R[leg, j, 1, 2] * m1 + R[leg, j, 2, 2] * m2)
    return True


class Plan(NamedTuple):
    """What the plan and its feedforward read, gathered once: the model
    (QuadrupedModel.links), the gait (:func:`gait_arrays`: its scalars, each leg's
    offsets and starts, the side it starts on) and section 4's force patterns
    (:func:`pattern_tables`)."""

    links: Links
    G: np.ndarray
    offsets: np.ndarray
    starts: np.ndarray
    side: np.ndarray
    dirs: np.ndarray
    count: np.ndarray


class Laws(NamedTuple):
    """The closed loop's constants: the plan's, then ``consts`` (dt, K_P, K_D, the
    standing height, the foot radius) and gravity g_W."""

    plan: Plan
    consts: np.ndarray
    g_W: np.ndarray


class Tally(NamedTuple):
    """The loop's bookkeeping, changed in place step by step: t (1,), the feet's summed
    world forces F_sum (4, 3) and the joint accelerations of the last step qdd (12,)."""

    t: np.ndarray
    F_sum: np.ndarray
    qdd: np.ndarray


class LoopArrays(NamedTuple):
    """The loop's arrays the compiled steps change in place: the :class:`Tally`, the PD
    torques tau (12,), the stance mask (1,), and the feedforward: tau_ff (12,), F_ff
    (4, 3), residual (6,)."""

    tally: Tally
    tau: np.ndarray
    mask: np.ndarray
    tau_ff: np.ndarray
    F_ff: np.ndarray
    residual: np.ndarray


class Ahead(NamedTuple):
    """The plans and feedforwards of the steps ahead (:func:`plan_ahead`), row k after
    step k + 1: theta, thd (n, 4, 3), tau_ff (n, 12), F_ff (n, 4, 3), residual (n, 6),
    masks (n,)."""

    theta: np.ndarray
    thd: np.ndarray
    tau_ff: np.ndarray
    F_ff: np.ndarray
    residual: np.ndarray
    masks: np.ndarray


@njit(cache=True)
def plan_and_feedforward(plan, t, height, foot_z, g_W, s, tau_ff, F, residual):
    """The plan at t into s (:class:`Planned`) and its feedforward (tau_ff (12,), F the
    assumed ground forces); returns the stance mask (-1: a foot out of reach, -2: a
    support case section 4 does not cover).  plan: :class:`Plan`."""
    mask = _plan(plan, t, height, foot_z, s)
    if mask < 0:
        return mask
    if not _feedforward(plan, mask, s, g_W, tau_ff, F, residual):
        return -2
    return mask


@njit(cache=True)
def _record(consts, qd, qd_before, F_W, tally):
    """The loop's bookkeeping of a step (:class:`Tally`): qdd from the rates' change
    (every implementation integrates semi-implicit Euler), the feet's world forces F_W
    added to F_sum, t += dt."""
    t, F_sum, qdd = tally
    dt = consts[0]
    for j in range(12):
        qdd[j] = (qd[j] - qd_before[j]) / dt
    for k in range(4):
        for r in range(3):
            F_sum[k, r] += F_W[k, r]
    t[0] += dt


@njit(cache=True)
def _pd(consts, theta, thd, tau_ff, q, qd, tau):
    """tau = feedforward + K_P (theta - q) + K_D (theta' - q'), in place."""
    K_P, K_D = consts[1], consts[2]
    th, td = theta.reshape(12), thd.reshape(12)
    for j in range(12):
        tau[j] = tau_ff[j] + K_P * (th[j] - q[j]) + K_D * (td[j] - qd[j])


@njit(cache=True)
def after_step(laws, q, qd, qd_before, F_W, a):
    """What QuadrupedLoop.advance does once its plant has stepped, in place, for any plant
    (joint angles q and rates qd after the step, qd_before before it; F_W the feet's
    world forces of the step): qdd, F_sum and t (``_record``), then the plan at t, its
    feedforward and the PD torques.  laws: :class:`Laws`; a: the :class:`LoopArrays`.
    Returns the plan's stance mask, also put in mask[0]; negative where the plan failed
    (tau and mask then left as they were)."""
    plan, consts, g_W = laws
    tally, tau, mask, tau_ff, F_ff, residual = a
    _record(consts, qd, qd_before, F_W, tally)
    s = Planned(np.empty((4, 3)), np.empty((4, 3)), np.empty((4, 3)), np.empty((4, 3)),
                np.empty(3), np.empty(3))
    new = plan_and_feedforward(plan, tally.t[0], consts[3], consts[4], g_W, s, tau_ff, F_ff,
                               residual)
    if new < 0:
        return new
    mask[0] = new
    _pd(consts, s.theta, s.thd, tau_ff, q, qd, tau)
    return new


@njit(cache=True)
def plan_ahead(laws, t0, ahead):
    """The plan and its feedforward after each of the next n steps from t0 (t summed
    step by step, as the loop sums it) into the rows of ``ahead`` (:class:`Ahead`).  The
    plan does not depend on the state, so an engine loop makes a chunk's plans in one
    call.  laws: :class:`Laws`.  Returns the number of plans made before the first that
    failed."""
    plan, consts, g_W = laws
    thdd, p_B4, v_B, a_B = np.empty((4, 3)), np.empty((4, 3)), np.empty(3), np.empty(3)
    t = t0
    for k in range(ahead.masks.shape[0]):
        t += consts[0]
        s = Planned(ahead.theta[k], ahead.thd[k], thdd, p_B4, v_B, a_B)
        new = plan_and_feedforward(plan, t, consts[3], consts[4], g_W, s, ahead.tau_ff[k],
                                   ahead.F_ff[k], ahead.residual[k])
        if new < 0:
            return k
        ahead.masks[k] = new
    return ahead.masks.shape[0]


@njit(cache=True)
def engine_step(k, planned, consts, ahead, q, qd, qd_before, F_W, tally, tau):
    """``after_step`` of step k with plan_ahead's row k: the bookkeeping of the step just
    taken (:class:`Tally`), then the PD torques of the next where there is a plan for it
    (k < planned)."""
    _record(consts, qd, qd_before, F_W, tally)
    if k < planned:
        _pd(consts, ahead.theta[k], ahead.thd[k], ahead.tau_ff[k], q, qd, tau)


@njit(cache=True)
def run_chunk(laws, p_WB, R_WB, q, nu, old_mask, a, F_foot_B, nudot, n_steps):
    """``n_steps`` of QuadrupedLoop.advance with the hand-rolled plant, in place: step
    with (a.tau, a.mask), then ``after_step`` with the feet's world forces.  laws:
    :class:`Laws`; a: the :class:`LoopArrays`.  Returns the steps done, negated where
    the plan after the last of them failed (the caller re-plans in Python to raise the
    error)."""
    L, g_W, dt = laws.plan.links, laws.g_W, laws.consts[0]
    tau, mask = a.tau, a.mask
    m4, o4 = np.empty(4, dtype=np.int64), np.empty(4, dtype=np.int64)
    qd_before, F_W = np.empty(12), np.empty((4, 3))
    for step in range(n_steps):
        for k in range(4):
            m4[k], o4[k] = mask[0] >> k & 1, old_mask[0] >> k & 1
        qd_before[:] = nu[6:]
        fast._step(L, p_WB, R_WB, q, nu, tau, m4, o4, g_W, dt, F_foot_B, nudot)
        old_mask[0] = mask[0]
        for k in range(4):
            for r in range(3):
                F_W[k, r] = (R_WB[r, 0] * F_foot_B[k, 0] + R_WB[r, 1] * F_foot_B[k, 1]
                             + R_WB[r, 2] * F_foot_B[k, 2])
        if after_step(laws, q, nu[6:], qd_before, F_W, a) < 0:
            return -(step + 1)
    return n_steps
