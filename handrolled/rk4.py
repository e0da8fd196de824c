"""Classical fourth-order Runge-Kutta, written once for every second-order system here:
the rover's integrator study (section 4.1's alternative to eqs. 4.1-4.2), the accuracy
reference of the L3 free swings and the tests.

The step is plain numpy around a callable, so the callable may be Python or compiled:
a compiled stepper that took the acceleration function as an argument could not be cached
by numba, and the three evaluations dominate a step's cost anyway.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def rk4_step(qdd: Callable[..., np.ndarray], q: np.ndarray, qd: np.ndarray, a1: np.ndarray,
             dt: float, args: tuple = ()) -> tuple[np.ndarray, np.ndarray]:
    """(q, qd) one step dt later for q'' = qdd(q, qd, *args), classical RK4 on the state
    x = (q, qd) with x' = (qd, qdd).

    ``a1 = qdd(q, qd, *args)`` is passed in because callers usually need it anyway (the
    rover reports the step's first acceleration and its wheel diagnostics); inputs held
    over the step (wheel torques) go in ``args``."""
    h = 0.5 * dt
    a2 = qdd(q + h * qd, qd + h * a1, *args)
    a3 = qdd(q + h * (qd + h * a1), qd + h * a2, *args)
    a4 = qdd(q + dt * (qd + h * a2), qd + dt * a3, *args)
    v2, v3, v4 = qd + h * a1, qd + h * a2, qd + dt * a3
    return (q + dt / 6.0 * (qd + 2.0 * v2 + 2.0 * v3 + v4),
            qd + dt / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4))
