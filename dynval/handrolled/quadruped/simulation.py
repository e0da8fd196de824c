"""Time-stepping the paper's model: the floating quadruped with its supporting feet pinned
(section 5), eq. (5) solved with the foot constraints and integrated twice by
semi-implicit Euler.  A foot that joins the support stops with a plastic impact."""

from __future__ import annotations

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
        nudot = self.accelerations(tau, stance)
        dt = self.dt
        self.nu = self.nu + dt * nudot
        self.theta = self.theta + dt * self.nu[6:]
        self.p_WB = self.p_WB + dt * (self.R_WB @ self.nu[:3])
        self.R_WB = self.R_WB @ so3.exp(dt * self.nu[3:6])
        self.t += dt
