"""Time-stepping the paper's model: the floating quadruped with its supporting feet pinned
(section 5), eq. (5) solved with the foot constraints and integrated twice by
semi-implicit Euler (``step``) or, to see a round trip's error fall far below the
step's first order, by the classical fourth-order Runge-Kutta scheme (``step_rk4``).
A foot that joins the support stops with a plastic impact.

This is the printed path (rnea.py, terms.py, reduced.py);
fast.simulation.CompiledPinnedFeetSimulation steps the same equations compiled."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from dynval.handrolled import so3
from dynval.handrolled.quadruped.reduced import constrained_forward_dynamics, touchdown_impulse
from dynval.handrolled.quadruped.robot import QuadrupedModel
from dynval.robots.quadruped.params import LEGS


class PinnedFeetSimulation:
    """State p_WB, R_WB, theta (12), nu (18, see rnea.py); ``step`` advances by dt."""

    def __init__(self, model: QuadrupedModel, g_W: np.ndarray, dt: float) -> None:
        self.model, self.g_W, self.dt = model, np.asarray(g_W, float), dt
        self.t = 0.0
        self.stance: tuple[str, ...] = ()
        self.F_foot_B = np.zeros((4, 3))
        self.nudot = np.zeros(18)

    def reset(self, p_WB: np.ndarray, R_WB: np.ndarray, theta: np.ndarray, nu: np.ndarray,
              stance: tuple[str, ...]) -> None:
        self.p_WB, self.R_WB = np.array(p_WB, float), np.array(R_WB, float)
        self.theta, self.nu = np.ravel(theta).astype(float), np.array(nu, float)
        self.stance, self.t = tuple(stance), 0.0

    def accelerations(self, tau: np.ndarray, stance: tuple[str, ...]) -> np.ndarray:
        """nudot at the current state (impact first if a foot joins the support); the
        ground forces (body axes, 4 x 3) are kept in ``F_foot_B``."""
        if set(stance) - set(self.stance):
            self.nu = touchdown_impulse(self.model, self.R_WB, self.theta, self.nu, stance)
        self.stance = tuple(stance)
        nudot, F = constrained_forward_dynamics(self.model, self.R_WB, self.theta, self.nu,
                                                np.ravel(tau), self.g_W, self.stance)
        self.F_foot_B = np.zeros((4, 3))
        for k, leg in enumerate(self.stance):
            self.F_foot_B[LEGS.index(leg)] = F[k]
        self.nudot = nudot
        return nudot

    def step(self, tau: np.ndarray, stance: tuple[str, ...]) -> None:
        """One semi-implicit Euler step of eq. (5) with ``stance`` pinned."""
        nudot = self.accelerations(tau, stance)
        dt = self.dt
        self.nu = self.nu + dt * nudot
        self.theta = self.theta + dt * self.nu[6:]
        self.p_WB = self.p_WB + dt * (self.R_WB @ self.nu[:3])
        self.R_WB = self.R_WB @ so3.exp(dt * self.nu[3:6])
        self.t += dt

    def step_rk4(self, tau_at: Callable[[float], np.ndarray], stance: tuple[str, ...]) -> None:
        """One classical Runge-Kutta step of (p_WB, R_WB, theta, nu) with the torques
        ``tau_at(t)`` evaluated at t, t + dt/2 and t + dt and the support ``stance``
        held over the step (a foot joins it with the plastic impact first).  R_WB is
        integrated as a matrix (R' = R [w_B]x) and put back on SO(3) by its polar factor,
        a change of O(dt^5) per step."""
        if set(stance) - set(self.stance):
            self.nu = touchdown_impulse(self.model, self.R_WB, self.theta, self.nu, stance)
        self.stance = tuple(stance)
        t, dt = self.t, self.dt

        def rate(tt: float, x: tuple) -> tuple:
            _, R, th, nu = x
            nudot, _ = constrained_forward_dynamics(self.model, R, th, nu,
                                                    np.ravel(tau_at(tt)), self.g_W,
                                                    self.stance)
            return R @ nu[:3], R @ so3.skew(nu[3:6]), nu[6:], nudot

        def shifted(x: tuple, k: tuple, h: float) -> tuple:
            return tuple(xi + h * ki for xi, ki in zip(x, k, strict=True))

        x = (self.p_WB, self.R_WB, self.theta, self.nu)
        k1 = rate(t, x)
        k2 = rate(t + dt / 2.0, shifted(x, k1, dt / 2.0))
        k3 = rate(t + dt / 2.0, shifted(x, k2, dt / 2.0))
        k4 = rate(t + dt, shifted(x, k3, dt))
        self.p_WB, R, self.theta, self.nu = (
            xi + dt / 6.0 * (a + 2.0 * b + 2.0 * c + d)
            for xi, a, b, c, d in zip(x, k1, k2, k3, k4, strict=True))
        U, _, Vt = np.linalg.svd(R)
        self.R_WB = U @ Vt
        self.nudot = k1[3]
        self.t += dt
