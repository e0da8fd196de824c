"""Eq. (1) through dynval's model protocol (``dynval.model``), without the damping: the
engines' terms are rigid-body only (the scenario compares the damping, applied there as
a joint torque)."""

from __future__ import annotations

import numpy as np

from dynval.handrolled.pendulum import model
from dynval.robots.pendulum.params import PARAMS, PendulumParams


class Pendulum:
    """q = (theta,), from the hanging position, about the pivot."""

    joint_names = ("pivot",)

    def __init__(self, p: PendulumParams = PARAMS) -> None:
        self.p = p

    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        return np.array([[model.inertia(self.p.m, self.p.l, self.p.I)]])  # eq. (1): J

    def gravity(self, q: np.ndarray) -> np.ndarray:
        return np.array([model.gravity(q[0], self.p.m, self.p.l, self.p.g)])  # eq. (1): G

    def inverse_dynamics(self, q: np.ndarray, v: np.ndarray, vdot: np.ndarray) -> np.ndarray:
        p = self.p
        return np.array([model.inverse_dynamics(q[0], v[0], vdot[0], p.m, p.l, p.I, 0.0, p.g)])
