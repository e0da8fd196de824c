"""The joint drive models of Sec. III.2 (Fig. 2), one joint per array entry.

* saturation, eq. (7): tau_ijm = tau_ijC while |tau_ijC| <= tau_ijMax, else
  sgn(tau_ijC) tau_ijMax. Printed, the condition tests |tau_ijm|, the output it defines; it
  can only mean the demanded torque tau_ijC (read so here);
* ideal (Fig. 2a): the link receives tau_ijm;
* flexible (Fig. 2b), eq. (8): J_m theta_m_dd + B_m theta_m_dot + K_T (theta_m - theta) =
  tau_m (8a), and the link receives K_T (theta_m - theta) (8b);
* backlash (Fig. 2c), eq. (9): the motor J_m theta_m_dd + B_m theta_m_dot = tau_m (9a) and
  the gear's output side (inertia J_T, read from Table I's J_ijT) move apart within the
  play h; the output side drives the link through K_T (9d) and, an ASSUMPTION since the
  paper writes no equation for it, J_T theta_T_dd = -B_T theta_T_dot - K_T (theta_T - theta)
  with Table I's B_ijT. When the play closes (|theta_m - theta_T| = h / 2 and closing) the
  two sides collide: eqs. (9b)-(9c), momentum kept and the relative speed reversed times
  eps.
"""

from __future__ import annotations

import numpy as np

from dynval._numba_cache import njit
from dynval.robots.hexapod.params import HexapodParams

LEVELS = ("ideal", "flexible", "backlash")


def saturate(tau_C: np.ndarray, tau_max: float) -> np.ndarray:
    """Eq. (7), the condition read on the demanded torque tau_ijC."""
    return np.clip(tau_C, -tau_max, tau_max)


def joint_inertias(p: HexapodParams, n: int) -> tuple[np.ndarray, np.ndarray]:
    """J_ijm and J_ijT of the 2n joints in the order (hip, knee) of leg 1, leg 2, ..."""
    return (np.tile([p.J_i1m, p.J_i2m], n), np.tile([p.J_i1T, p.J_i2T], n))


def motor_acceleration(tau_m: np.ndarray, th_m: np.ndarray, th_m_dot: np.ndarray,
                       th_link: np.ndarray, J_m: np.ndarray, p: HexapodParams,
                       level: str) -> np.ndarray:
    """theta_m_dd by eq. (8a) (flexible) or (9a) (backlash: no spring on the motor)."""
    if level == "flexible":
        return (tau_m - p.B_ijm * th_m_dot - p.K_ijT * (th_m - th_link)) / J_m  # (8a)
    return (tau_m - p.B_ijm * th_m_dot) / J_m  # (9a)


def output_acceleration(th_T: np.ndarray, th_T_dot: np.ndarray, th_link: np.ndarray,
                        J_T: np.ndarray, p: HexapodParams) -> np.ndarray:
    """theta_T_dd of the gear's output side between impacts (ASSUMPTION, module docstring)."""
    return (-p.B_ijT * th_T_dot - p.K_ijT * (th_T - th_link)) / J_T


def link_torque(tau_m: np.ndarray, th_m: np.ndarray, th_T: np.ndarray, th_link: np.ndarray,
                p: HexapodParams, level: str) -> np.ndarray:
    """Torque the drive applies to the link: tau_m (ideal), K_T (theta_m - theta) (8b) or
    K_T (theta_T - theta) (9d)."""
    if level == "ideal":
        return tau_m
    if level == "flexible":
        return p.K_ijT * (th_m - th_link)
    return p.K_ijT * (th_T - th_link)


@njit(cache=True)
def impact(th_T_dot: float, th_m_dot: float, J_T: float, J_m: float, eps: float
           ) -> tuple[float, float]:
    """Eqs. (9b)-(9c): the velocities (theta'_T_dot, theta'_m_dot) just after a gear impact."""
    s = J_T + J_m
    v_T = (th_T_dot * (J_T - eps * J_m) + th_m_dot * J_m * (1.0 + eps)) / s  # (9b)
    v_m = (th_T_dot * J_T * (1.0 + eps) + th_m_dot * (J_m - eps * J_T)) / s  # (9c)
    return v_T, v_m


def resolve_backlash(th_m: np.ndarray, th_m_dot: np.ndarray, th_T: np.ndarray,
                     th_T_dot: np.ndarray, J_m: np.ndarray, J_T: np.ndarray,
                     p: HexapodParams) -> int:
    """After a step: where the play is used up and closing, apply (9b)-(9c) and put the
    motor back at the edge of the play (keeping the pair's centre of inertia). In place;
    returns the number of impacts."""
    return resolve_play(th_m, th_m_dot, th_T, th_T_dot, J_m, J_T, 0.5 * p.h_ij, p.eps_ij)


@njit(cache=True)
def resolve_play(th_m: np.ndarray, th_m_dot: np.ndarray, th_T: np.ndarray,
                 th_T_dot: np.ndarray, J_m: np.ndarray, J_T: np.ndarray, half: float,
                 eps: float) -> int:
    """:func:`resolve_backlash` with the half play and restitution given as numbers (the
    form the compiled walk of fast.py calls)."""
    hits = 0
    for k in range(len(th_m)):
        gap = th_m[k] - th_T[k]
        if abs(gap) < half:
            continue
        s = np.sign(gap) if gap != 0.0 else 1.0
        closing = s * (th_m_dot[k] - th_T_dot[k]) > 0.0
        # project the overshoot out, moving the two sides in inverse ratio of inertia
        over = gap - s * half
        w = J_m[k] / (J_m[k] + J_T[k])
        th_m[k] -= (1.0 - w) * over
        th_T[k] += w * over
        if closing:
            th_T_dot[k], th_m_dot[k] = impact(th_T_dot[k], th_m_dot[k], J_T[k], J_m[k], eps)
            hits += 1
    return hits
