"""The integrators L3 runs the hand-rolled models with: semi-implicit Euler, the scheme
MuJoCo's "Euler" and PyBullet use, and classical RK4 as the accuracy reference."""

from __future__ import annotations

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
