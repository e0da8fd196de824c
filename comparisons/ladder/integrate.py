"""The integrators L3 runs the hand-rolled models with: semi-implicit Euler, the scheme
MuJoCo's "Euler" and PyBullet use, and classical RK4 as the accuracy reference."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from dynval.handrolled.rk4 import rk4_step


def integrate_euler(qdd: Callable[[np.ndarray, np.ndarray], np.ndarray], q0: np.ndarray,
                    dt: float, n: int) -> np.ndarray:
    """Semi-implicit Euler, the hand model's integrator: qd += qdd dt, q += qd dt."""
    q, qd = q0.copy(), np.zeros_like(q0)
    out = [q.copy()]
    for _ in range(n):
        qd = qd + qdd(q, qd) * dt
        q = q + qd * dt
        out.append(q.copy())
    return np.array(out)


def integrate_rk4(qdd: Callable[[np.ndarray, np.ndarray], np.ndarray], q0: np.ndarray,
                  dt: float, n: int) -> np.ndarray:
    """Classical RK4 (``dynval.handrolled.rk4``) from rest at q0, the accuracy reference for the
    integration error; the positions at every step."""
    q, qd = q0.copy(), np.zeros_like(q0)
    out = [q.copy()]
    for _ in range(n):
        q, qd = rk4_step(qdd, q, qd, qdd(q, qd), dt)
        out.append(q.copy())
    return np.array(out)


# --- a free root: q = (p_WB, quat_WB as w, x, y, z, joints), v = (v_WB in W, w_WB in B,
# joint rates), MuJoCo's free-joint convention (dynval.model) ------------------------------

def _quat_mul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Hamilton product of two quaternions (w, x, y, z), written out: called at every step,
    where numpy's small-array helpers would cost more than the arithmetic."""
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return np.array([aw * bw - ax * bx - ay * by - az * bz,
                     aw * bx + bw * ax + ay * bz - az * by,
                     aw * by + bw * ay + az * bx - ax * bz,
                     aw * bz + bw * az + ax * by - ay * bx])


def free_root_position_step(q: np.ndarray, v: np.ndarray, dt: float) -> np.ndarray:
    """q one step dt later at velocity v, as MuJoCo's mj_integratePos moves a free joint:
    p += v_W dt; quat <- normalised quat times the rotation by w_B dt (body frame, so it
    multiplies on the right); joints += rates dt."""
    out = np.empty(len(q))
    wx, wy, wz = float(v[3]), float(v[4]), float(v[5])
    angle = math.sqrt(wx * wx + wy * wy + wz * wz)
    if not math.isfinite(angle):  # a diverged run: the caller sees the non-finite state
        out[:] = np.nan
        return out
    s = math.sin(0.5 * angle * dt) / angle if angle > 0.0 else 0.0
    quat = q[3:7] / math.sqrt(float(q[3:7] @ q[3:7]))
    turn = np.array([math.cos(0.5 * angle * dt), s * wx, s * wy, s * wz])
    out[0:3] = q[0:3] + v[0:3] * dt
    out[3:7] = _quat_mul(quat, turn)
    out[7:] = q[7:] + v[6:] * dt
    return out


def _free_root_rates(q: np.ndarray, v: np.ndarray) -> np.ndarray:
    """dq/dt of a free root: (v_W, quat * (0, w_B) / 2, joint rates)."""
    return np.r_[v[0:3], 0.5 * _quat_mul(q[3:7], np.r_[0.0, v[3:6]]), v[6:]]


def integrate_free_rk4(qdd: Callable[[np.ndarray, np.ndarray], np.ndarray], q0: np.ndarray,
                       v0: np.ndarray, dt: float, n: int) -> np.ndarray:
    """Classical RK4 on a free root's state (q, v) with q' = _free_root_rates(q, v),
    v' = qdd(q, v), the quaternion normalised after each step: the accuracy reference of
    the semi-implicit Euler of free_root_position_step; the positions at every step."""
    q, v = q0.copy(), v0.copy()
    out = [q.copy()]
    for _ in range(n):
        k1q, k1v = _free_root_rates(q, v), qdd(q, v)
        q2, v2 = q + 0.5 * dt * k1q, v + 0.5 * dt * k1v
        k2q, k2v = _free_root_rates(q2, v2), qdd(q2, v2)
        q3, v3 = q + 0.5 * dt * k2q, v + 0.5 * dt * k2v
        k3q, k3v = _free_root_rates(q3, v3), qdd(q3, v3)
        q4, v4 = q + dt * k3q, v + dt * k3v
        k4q, k4v = _free_root_rates(q4, v4), qdd(q4, v4)
        q = q + dt / 6.0 * (k1q + 2.0 * k2q + 2.0 * k3q + k4q)
        v = v + dt / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v)
        q[3:7] /= np.linalg.norm(q[3:7])
        out.append(q.copy())
    return np.array(out)
