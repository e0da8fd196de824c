"""Gait planning (section 6, Fig. 4): a level body moving forward at constant speed (the
walk also sways sideways), the stance feet fixed on the ground, each swing foot lifted and
carried forward by smooth (minimum-jerk) profiles; joint angles, rates and accelerations
by inverse kinematics.

The paper gives neither step length, height nor period; ``TROT`` and ``WALK`` state the
choices (the report prints them)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dynval.handrolled.quadruped.kinematics import inverse_kinematics
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
    p_0 = (u cos t1, w, u sin t1) with u = a2 c2 + a3 c23, w = a2 s2 + a3 s23 by hand."""
    l3 = model.a[3]
    x, _, z = p0
    xd, yd, zd = pd0
    xdd, ydd, zdd = pdd0
    r2 = x * x + z * z
    r = np.sqrt(r2)
    t1d = (x * zd - z * xd) / r2
    t1dd = (x * zdd - z * xdd) / r2 - 2.0 * (x * xd + z * zd) * (x * zd - z * xd) / r2**2
    u, ud = r, (x * xd + z * zd) / r
    udd = (xd * xd + zd * zd + x * xdd + z * zdd) / r - ud * ud / r
    w, wd, wdd = p0[1], yd, ydd
    s23, c23 = np.sin(theta[1] + theta[2]), np.cos(theta[1] + theta[2])
    J = np.array([[-w, -l3 * s23], [u, l3 * c23]])  # d(u, w)/d(t2, t3)
    t23 = np.linalg.solve(J, [ud, wd])
    s = t23.sum()
    Jd = np.array([[-wd, -l3 * c23 * s], [ud, -l3 * s23 * s]])
    t23dd = np.linalg.solve(J, np.array([udd, wdd]) - Jd @ t23)
    return np.array([t1d, *t23]), np.array([t1dd, *t23dd])


def plan(model: QuadrupedModel, gait: Gait, t: float, height: float, foot_z: float = 0.0,
         lateral: tuple[float, float, float] | None = None) -> PlannedState:
    """The planned state at time t: the body origin at ``height``, the stance feet (frame 4
    origins) at ``foot_z`` (a foot sphere's radius above a ground at z = 0).  ``lateral``
    (y, y', y'') replaces the gait's sway: the balanced trot (balance.py) solves it from
    the moment balance about the support diagonal."""
    y, yd, ydd = sway(gait, t) if lateral is None else lateral
    p_B = np.array([gait.speed * t, y, height])
    v_B = np.array([gait.speed, yd, 0.0])
    a_B = np.array([0.0, ydd, 0.0])
    theta, thd, thdd, p_B4 = (np.zeros((4, 3)) for _ in range(4))
    for k, leg in enumerate(LEGS):
        nominal = np.array([model.p_B0[k, 0], np.sign(model.p_B0[k, 1]) * gait.track, foot_z])
        p, v, a = foot_world(gait, leg, t, nominal)
        p_B4[k] = p - p_B
        theta[k] = inverse_kinematics(model, k, p_B4[k])
        R0 = model.R_B0.T
        thd[k], thdd[k] = leg_ik_rates(model, theta[k], R0 @ (v - v_B), R0 @ (a - a_B),
                                       R0 @ (p_B4[k] - model.p_B0[k]))
    return PlannedState(t, p_B, v_B, a_B, theta, thd, thdd, p_B4, stance_legs(gait, t))
