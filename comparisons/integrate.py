"""The integrators L3 runs the hand-rolled models with: semi-implicit Euler, the scheme
MuJoCo's "Euler" and PyBullet use, and classical RK4 as the accuracy reference."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


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


def integrate_rk4(qdd, q0: np.ndarray, dt: float, n: int) -> np.ndarray:
    """Classical RK4 on (q, qd), the accuracy reference for the integration error."""
    x = np.concatenate([q0, np.zeros_like(q0)])
    k = len(q0)

    def f(x):
        return np.concatenate([x[k:], qdd(x[:k], x[k:])])

    out = [x[:k].copy()]
    for _ in range(n):
        k1 = f(x)
        k2 = f(x + dt / 2 * k1)
        k3 = f(x + dt / 2 * k2)
        k4 = f(x + dt * k3)
        x = x + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        out.append(x[:k].copy())
    return np.array(out)
