"""Gait planning (section 6, Fig. 4): a level body moving forward at constant speed (the
walk also sways sideways), the stance feet fixed on the ground, each swing foot lifted and
carried forward by smooth (minimum-jerk) profiles; joint angles, rates and accelerations
by inverse kinematics.

The paper gives neither step length, height nor period; ``TROT`` and ``WALK`` state the
choices (the report prints them)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from dynval.handrolled.quadruped.kinematics import legs_inverse_kinematics
from dynval.handrolled.quadruped.robot import QuadrupedModel
from dynval.robots.quadruped.params import LEGS, side_sign


@dataclass(frozen=True)
class Gait:
    name: str
    stride: float  # S, forward travel of the body (and of each foot) per cycle [m]
    height: float  # h, swing-foot lift [m]
    period: float  # T, cycle time [s]
    swing_fraction: float  # beta, share of the cycle each foot is in the air
    offsets: dict[str, float]  # phase at t = 0; a swing starts when t/T + offset is whole
    sway: float = 0.0  # lateral body shift away from a lifted leg [m]
    # |y| of the feet in the body frame [m]: the Unitree A1's foot track, its HAA offset
    # 0.047 m plus the 0.0838 m HAA-HFE offset Table 1 leaves out
    track: float = 0.1308

    @property
    def speed(self) -> float:
        return self.stride / self.period


# Section 6: RB and LF swing together, then LB and RF.
TROT = Gait("trot", stride=0.20, height=0.06, period=0.6, swing_fraction=0.5,
            offsets={"LF": 0.0, "RB": 0.0, "RF": 0.5, "LB": 0.5})
# Section 4.2's static walk: one leg at a time, RB, RF, then LB, LF; all four feet down
# between the two sides while the body sways across (a level, uniformly moving body over
# a three-leg support keeps its centre of mass on an edge of the support triangle).
WALK = Gait("walk", stride=0.12, height=0.05, period=4.0, swing_fraction=0.2,
            offsets={"RB": 0.0, "RF": 0.8, "LB": 0.5, "LF": 0.3}, sway=0.025)
GAITS = {g.name: g for g in (TROT, WALK)}
ALL_LEGS = np.arange(len(LEGS))


def _min_jerk(s: float) -> tuple[float, float, float]:
    """10 s^3 - 15 s^4 + 6 s^5 and its first two derivatives."""
    return (s**3 * (10 - 15 * s + 6 * s * s), 30 * s * s * (1 - s) ** 2,
            60 * s * (1 - s) * (1 - 2 * s))


def _lift(s: float) -> tuple[float, float, float]:
    """64 s^3 (1 - s)^3 (peak 1 at s = 1/2, zero rate and acceleration at both ends)."""
    return (64 * s**3 * (1 - s) ** 3, 192 * s * s * (1 - s) ** 2 * (1 - 2 * s),
            384 * s * (1 - s) * (1 - 5 * s + 5 * s * s))


def sway(gait: Gait, t: float) -> tuple[float, float, float]:
    """Lateral body position, rate and acceleration: +-sway away from the side whose leg
    is lifted, crossing over by a minimum-jerk move while all four feet are down."""
    if gait.sway == 0.0:
        return 0.0, 0.0, 0.0
    T, beta = gait.period, gait.swing_fraction
    starts = sorted(((1.0 - gait.offsets[leg]) % 1.0, leg) for leg in LEGS)
    phi = (t / T) % 1.0
    for k, (s0, leg) in enumerate(starts):
        s1, nxt = starts[(k + 1) % len(starts)]
        span = (s1 - s0) % 1.0 or 1.0
        rel = (phi - s0) % 1.0
        if rel >= span:
            continue
        here = -side_sign(leg) * gait.sway
        if rel < beta:
            return here, 0.0, 0.0
        there = -side_sign(nxt) * gait.sway
        window = span - beta
        x, xd, xdd = _min_jerk((rel - beta) / window)
        d = there - here
        return here + d * x, d * xd / (window * T), d * xdd / (window * T) ** 2
    raise AssertionError(f"no swing phase contains t = {t}")


def stance_legs(gait: Gait, t: float) -> tuple[str, ...]:
    """The legs on the ground at time t."""
    return tuple(leg for leg in LEGS
                 if (t / gait.period + gait.offsets[leg]) % 1.0 >= gait.swing_fraction)


def foot_world(gait: Gait, leg: str, t: float, p_nominal: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Position, velocity and acceleration of a foot in the world frame.  The stance
    positions are centred on the nominal foot point relative to the body."""
    S, T, beta = gait.stride, gait.period, gait.swing_fraction
    c = t / T + gait.offsets[leg]
    n = np.floor(c)
    phi = c - n
    x0 = p_nominal[0] - S * (1.0 - beta + 2.0 * gait.offsets[leg]) / 2.0
    p, v, a = p_nominal.astype(float).copy(), np.zeros(3), np.zeros(3)
    if phi < beta:
        s = phi / beta
        ds = 1.0 / (beta * T)
        x, xd, xdd = _min_jerk(s)
        z, zd, zdd = _lift(s)
        p[0] = x0 + S * (n + x)
        v[0], a[0] = S * xd * ds, S * xdd * ds * ds
        p[2] += gait.height * z
        v[2], a[2] = gait.height * zd * ds, gait.height * zdd * ds * ds
    else:
        p[0] = x0 + S * (n + 1.0)
    return p, v, a


@dataclass
class PlannedState:
    """The plan at one instant: body pose and motion (level, so R_WB = I), the joints by
    inverse kinematics and the legs in contact."""

    t: float
    p_WB: np.ndarray
    v_WB: np.ndarray
    a_WB: np.ndarray
    theta: np.ndarray  # (4, 3)
    thetad: np.ndarray
    thetadd: np.ndarray
    p_B4: np.ndarray  # (4, 3) feet in the body frame
    stance: tuple[str, ...]


def leg_ik_rates(model: QuadrupedModel, theta: np.ndarray, pd0: np.ndarray,
                 pdd0: np.ndarray, p0: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Joint rates and accelerations from the foot's motion in frame 0, differentiating
    p_0 = (u cos t1, w, u sin t1) with u = a2 c2 + a3 c23, w = a2 s2 + a3 s23 by hand;
    each row of the (n, 3) arrays one leg (element by element and matrix by matrix the
    same floats as one leg at a time)."""
    l3 = model.a[3]
    x, z = p0[:, 0], p0[:, 2]
    xd, yd, zd = pd0.T
    xdd, ydd, zdd = pdd0.T
    r2 = x * x + z * z
    r = np.sqrt(r2)
    t1d = (x * zd - z * xd) / r2
    # r2^2 by libm's pow, as a scalar's ** takes it (numpy's array power rounds otherwise)
    t1dd = ((x * zdd - z * xdd) / r2
            - 2.0 * (x * xd + z * zd) * (x * zd - z * xd) / np.float_power(r2, 2))
    u, ud = r, (x * xd + z * zd) / r
    udd = (xd * xd + zd * zd + x * xdd + z * zdd) / r - ud * ud / r
    w, wd, wdd = p0[:, 1], yd, ydd
    s23, c23 = np.sin(theta[:, 1] + theta[:, 2]), np.cos(theta[:, 1] + theta[:, 2])
    J = _rows_2x2(-w, -l3 * s23, u, l3 * c23)  # d(u, w)/d(t2, t3)
    t23 = np.linalg.solve(J, np.column_stack([ud, wd])[..., None])[..., 0]
    s = t23.sum(axis=1)
    Jd = _rows_2x2(-wd, -l3 * c23 * s, ud, -l3 * s23 * s)
    rhs = np.column_stack([udd, wdd]) - (Jd @ t23[..., None])[..., 0]
    t23dd = np.linalg.solve(J, rhs[..., None])[..., 0]
    return np.column_stack([t1d, t23]), np.column_stack([t1dd, t23dd])


def _rows_2x2(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> np.ndarray:
    """The 2 x 2 matrices [[a, b], [c, d]], one per element."""
    out = np.empty((len(a), 2, 2))
    out[:, 0, 0], out[:, 0, 1], out[:, 1, 0], out[:, 1, 1] = a, b, c, d
    return out


def plan(model: QuadrupedModel, gait: Gait, t: float, height: float, foot_z: float = 0.0,
         lateral: tuple[float, float, float] | None = None) -> PlannedState:
    """The planned state at time t: the body origin at ``height``, the stance feet (frame 4
    origins) at ``foot_z`` (a foot sphere's radius above a ground at z = 0).  ``lateral``
    (y, y', y'') replaces the gait's sway: the balanced trot (balance.py) solves it from
    the moment balance about the support diagonal."""
    return plans_at(model, gait, t, height, [lateral], foot_z)[0]


def plans_at(model: QuadrupedModel, gait: Gait, t: float, height: float,
             laterals: Sequence[tuple[float, float, float] | None], foot_z: float = 0.0
             ) -> list[PlannedState]:
    """:func:`plan` at time t with each lateral motion of ``laterals`` (None: the gait's
    sway), all legs of all of them in one pass (each state's floats are those of its own
    ``plan``)."""
    n = len(laterals)
    lat = [sway(gait, t) if y is None else y for y in laterals]
    p_B = np.array([[gait.speed * t, y, height] for y, _, _ in lat], dtype=float)
    v_B = np.array([[gait.speed, yd, 0.0] for _, yd, _ in lat], dtype=float)
    a_B = np.array([[0.0, ydd, 0.0] for _, _, ydd in lat], dtype=float)
    p, v, a = (np.zeros((4, 3)) for _ in range(3))
    for k, leg in enumerate(LEGS):
        nominal = np.array([model.p_B0[k, 0], np.sign(model.p_B0[k, 1]) * gait.track, foot_z])
        p[k], v[k], a[k] = foot_world(gait, leg, t, nominal)
    # rows (state, leg): the feet relative to each state's body
    p_B4 = (p - p_B[:, None]).reshape(4 * n, 3)
    theta = legs_inverse_kinematics(model, np.tile(ALL_LEGS, n), p_B4)
    # in frame 0, row k: R_B0^T x_k (R_B0 permutes and signs the axes: exact either way)
    R_B0 = model.R_B0
    thd, thdd = leg_ik_rates(model, theta, (v - v_B[:, None]).reshape(4 * n, 3) @ R_B0,
                             (a - a_B[:, None]).reshape(4 * n, 3) @ R_B0,
                             (p_B4 - np.tile(model.p_B0, (n, 1))) @ R_B0)
    stance = stance_legs(gait, t)
    return [PlannedState(t, p_B[i], v_B[i], a_B[i], theta[4 * i:4 * i + 4],
                         thd[4 * i:4 * i + 4], thdd[4 * i:4 * i + 4], p_B4[4 * i:4 * i + 4],
                         stance) for i in range(n)]
