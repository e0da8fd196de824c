"""Motion planning of Sec. II: gait phases, the hip motion (3), the foot's transfer
(1a)/(1b) and stance (2) trajectories, and the joint references by inverse kinematics (4).

Gaits (Song and Waldron, Machines that Walk, ch. 2; legs numbered i = 1..n, odd on the
left, even on the right, front to back; station m = 0..n/2 - 1 holds legs 2m+1 and 2m+2).
phi_i is leg i's lift-off time in the cycle, as a fraction of T, relative to leg 1; the
right leg of a station is half a cycle from the left one, phi_{2m+2} = F(phi_{2m+1} + 1/2)
(F the fractional part), and along a side:

* WG, wave gait: phi_{2m+1} = F(m beta): a leg lifts as the one behind it is placed, so
  the placing sequence runs back to front; BW, backward wave: F(-m beta), front to back;
* EPHC, equal phase half cycle: phi_{2m+1} = F(-m / n) (one side's placings spread over
  half a cycle, back to front); BEPHC: F(+m / n);
* EPFC, equal phase full cycle: phi_{2m+1} = F(-2m / n) (over the full cycle);
  BEPFC: F(+2m / n).

In the equal phase gaits the n placings are T / n apart.

Foot trajectories. Eq. (1) is printed for a transfer that starts at t = 0 and lasts T: with
(1a) the foot reaches x = V_F T only at t = T, while the transfer must end at t_T = (1 - beta)
T (at beta = 0.5 the printed foot is at its apex F_C, still moving at 2 V_F, when the stance
begins). ``form="printed"`` evaluates (1a)/(1b) as printed over the transfer;
``form="corrected"`` (the default) replaces T by t_T inside (1a)/(1b) and V_F by the foot's
mean transfer speed L_S / t_T, so the foot lands L_S ahead of its lift-off point at t_T with
zero velocity, as Sec. II.2 requires ("null velocities of the feet in the instants of
landing and taking off").
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from dynval.handrolled.hexapod import kinematics
from dynval.robots.hexapod.params import GAITS, HexapodParams, station_x

FORMS = ("corrected", "printed")


def F(x: float) -> float:
    """Fractional part, F(x) = x - floor(x) in [0, 1)."""
    return float(x - np.floor(x))


def phases(gait: str, beta: float, n: int = 6) -> np.ndarray:
    """phi_i, i = 1..n, as fractions of the cycle (module docstring)."""
    return np.array(_phases(gait, beta, n))


@cache
def _phases(gait: str, beta: float, n: int) -> tuple[float, ...]:
    """phases(), computed once per gait (the planner asks at every controller sample)."""
    if gait not in GAITS:
        raise ValueError(f"unknown gait {gait!r}; use one of {', '.join(GAITS)}")
    step = {"WG": beta, "BW": -beta, "EPHC": -1.0 / n, "BEPHC": 1.0 / n,
            "EPFC": -2.0 / n, "BEPFC": 2.0 / n}[gait]
    phi = np.zeros(n)
    for m in range(n // 2):
        phi[2 * m] = F(m * step)
        phi[2 * m + 1] = F(phi[2 * m] + 0.5)
    return tuple(float(x) for x in phi)


def in_support(t: float, phi_i: float, beta: float, T: float) -> bool:
    """Whether leg i (lift-off phase phi_i) is in its support phase at time t: it transfers
    over [phi_i T, (phi_i + 1 - beta) T) of each cycle."""
    return F(t / T - phi_i) >= 1.0 - beta


def foot_transfer(t: float, p: HexapodParams, profile: str = "cycloid",
                  form: str = "corrected") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Eq. (1a) (cycloid) or (1b) (sine): the foot's displacement from its lift-off point
    at time t into the transfer, and its velocity and acceleration ((x, y) paper frame)."""
    if form not in FORMS:
        raise ValueError(f"unknown form {form!r}; use one of {', '.join(FORMS)}")
    Tt = p.t_T if form == "corrected" else p.T   # the "T" inside eqs. (1a), (1b)
    V = p.L_S / p.t_T if form == "corrected" else p.V_F  # the "V_F" of (1a)
    w = 2.0 * np.pi / Tt
    if profile == "cycloid":  # eq. (1a)
        x = V * (t - np.sin(w * t) / w)
        xd, xdd = V * (1.0 - np.cos(w * t)), V * w * np.sin(w * t)
        y = 0.5 * p.F_C * (1.0 - np.cos(w * t))
        yd, ydd = 0.5 * p.F_C * w * np.sin(w * t), 0.5 * p.F_C * w * w * np.cos(w * t)
    elif profile == "sine":  # eq. (1b)
        k = p.t_T / p.T if form == "printed" else 1.0  # the printed prefactor t_T / T
        x = k * (p.L_S * t / p.t_T - p.L_S / (2 * np.pi) * np.sin(w * t))
        xd = k * (p.L_S / p.t_T - p.L_S / (2 * np.pi) * w * np.cos(w * t))
        xdd = k * p.L_S / (2 * np.pi) * w * w * np.sin(w * t)
        if t < 0.5 * Tt:
            tp, s = t, 1.0
        else:
            tp, s = Tt - t, -1.0  # t' = T - t: dt'/dt = -1
        y = 2 * p.F_C * tp / Tt - p.F_C / (2 * np.pi) * np.sin(2 * w * tp)
        yd = s * (2 * p.F_C / Tt - p.F_C / np.pi * w * np.cos(2 * w * tp))
        ydd = 2 * p.F_C / np.pi * w * w * np.sin(2 * w * tp)
    else:
        raise ValueError(f"unknown profile {profile!r}; use cycloid or sine")
    return np.array([x, y]), np.array([xd, yd]), np.array([xdd, ydd])


def hip(t: float, p: HexapodParams, x_0: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Eq. (3): p_Hd = [V_F t + x_0, H_B] and its velocity (x_0: the station's offset)."""
    return np.array([p.V_F * t + x_0, p.H_B]), np.array([p.V_F, 0.0])


@dataclass(frozen=True)
class LegPlan:
    """Planned hip and foot of leg i at one instant (paper frame)."""

    p_Hd: np.ndarray
    v_Hd: np.ndarray
    p_Fd: np.ndarray
    v_Fd: np.ndarray
    a_Fd: np.ndarray
    support: bool


def leg_plan(t: float, i: int, p: HexapodParams, form: str = "corrected") -> LegPlan:
    """Hip (3) and foot (1)-(2) of leg i (0-based) at time t >= 0. The foot lands beta L_S
    / 2 + O_i ahead of its hip (so the stance stroke is centred O_i ahead of it) and stays
    there for the support time (2); each cycle it advances L_S."""
    phi = _phases(p.gait, p.beta, p.n)[i]
    x_0 = station_x(p)[i // 2]
    p_Hd, v_Hd = hip(t, p, x_0)
    cycle = np.floor(t / p.T - phi)  # index of the current cycle of this leg
    t_lift = (cycle + phi) * p.T     # its last lift-off, <= t
    tau = t - t_lift
    # landing point of the cycle's transfer: hip at t_lift + t_T, plus half a stroke
    x_land = p.V_F * (t_lift + p.t_T) + x_0 + 0.5 * p.beta * p.L_S + p.O_i
    x_lift = x_land - p.L_S
    zero = np.zeros(2)
    if tau < p.t_T:
        d, v, a = foot_transfer(tau, p, p.profile, form)
        return LegPlan(p_Hd, v_Hd, np.array([x_lift, 0.0]) + d, v, a, False)
    return LegPlan(p_Hd, v_Hd, np.array([x_land, 0.0]), zero, zero, True)  # eq. (2)


def joint_angles(t: float, i: int, p: HexapodParams, form: str = "corrected") -> np.ndarray:
    """Eq. (4a)-(4b): Theta_d = Psi^-1(p_Hd - p_Fd) of leg i (joint_reference without the
    rates, for the controller, which reads the angles only)."""
    pl = leg_plan(t, i, p, form)
    return kinematics.Psi_inv(pl.p_Hd - pl.p_Fd, p.L_i1, p.L_i2)


def joint_reference(t: float, i: int, p: HexapodParams, form: str = "corrected"
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Eq. (4): Theta_d = Psi^-1(p_Hd - p_Fd) and Theta_dot_d = J^-1 (v_Hd - v_Fd) of leg i."""
    pl = leg_plan(t, i, p, form)
    Th = kinematics.Psi_inv(pl.p_Hd - pl.p_Fd, p.L_i1, p.L_i2)  # (4a), (4b)
    return Th, kinematics.Theta_dot(Th, pl.v_Hd - pl.v_Fd, p.L_i1, p.L_i2)  # (4c)
