"""The gait plan of gait.py compiled (sway, stance, swing-foot profiles, inverse kinematics
and its rates): the gait as arrays (``gait_arrays``), the stance as a bit mask
(``mask_index``), and the plan at an instant (``plan_lateral``, into :class:`Planned`).
``loop`` runs it and re-exports every name; tests/test_quadruped_fast.py holds it to
gait.py at round-off."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from dynval._numba_cache import njit
from dynval.handrolled.quadruped.gait import Gait
from dynval.handrolled.quadruped.robot import Links
from dynval.robots.quadruped.params import LEGS, side_sign


def mask_index(stance: tuple[str, ...]) -> int:
    """The stance as a bit mask, bit k for leg LEGS[k]."""
    return sum(1 << k for k, leg in enumerate(LEGS) if leg in stance)


def stance_of(mask: int) -> tuple[str, ...]:
    """The legs of a bit mask, in LEGS order (as gait.stance_legs lists them)."""
    return tuple(leg for k, leg in enumerate(LEGS) if mask >> k & 1)


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

