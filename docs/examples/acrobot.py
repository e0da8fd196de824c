"""The acrobot's closed-form equations of motion (Spong, "The swing up control problem for
the Acrobot", IEEE Control Systems 1995; the same closed forms as Drake's
multibody/benchmarks/acrobot), written the way a user writes their own model for dynval:

    dynval audit --model docs/examples/acrobot.py:Acrobot --description docs/examples/acrobot.urdf

theta_1 is the shoulder angle from the downward vertical, theta_2 the elbow angle relative
to the upper link; both turn about y (acrobot.urdf)."""

from __future__ import annotations

import math

import numpy as np


class Acrobot:
    """M(q) q_dd + C(q, v) v + G(q) = tau for the two-link acrobot."""

    joint_names = ("shoulder", "elbow")

    def __init__(self, m1: float = 1.0, m2: float = 1.0, l1: float = 1.0, lc1: float = 0.5,
                 lc2: float = 1.0, Ic1: float = 0.083, Ic2: float = 0.33, g: float = 9.81,
                 l2: float = 2.0) -> None:
        self.m1, self.m2, self.l1, self.lc1, self.lc2 = m1, m2, l1, lc1, lc2
        self.Ic1, self.Ic2, self.g, self.l2 = Ic1, Ic2, g, l2

    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        m2, l1, lc2 = self.m2, self.l1, self.lc2
        c2 = math.cos(q[1])
        M11 = (self.Ic1 + self.Ic2 + self.m1 * self.lc1**2
               + m2 * (l1**2 + lc2**2 + 2 * l1 * lc2 * c2))
        M12 = self.Ic2 + m2 * (lc2**2 + l1 * lc2 * c2)
        M22 = self.Ic2 + m2 * lc2**2
        return np.array([[M11, M12], [M12, M22]])

    def gravity(self, q: np.ndarray) -> np.ndarray:
        s1, s12 = math.sin(q[0]), math.sin(q[0] + q[1])
        g2 = self.m2 * self.g * self.lc2 * s12
        return np.array([(self.m1 * self.lc1 + self.m2 * self.l1) * self.g * s1 + g2, g2])

    def coriolis(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        """C(q, v) v."""
        h = self.m2 * self.l1 * self.lc2 * math.sin(q[1])
        return np.array([-2 * h * v[0] * v[1] - h * v[1] ** 2, h * v[0] ** 2])

    def bias(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        return self.coriolis(q, v) + self.gravity(q)

    def inverse_dynamics(self, q: np.ndarray, v: np.ndarray, vdot: np.ndarray) -> np.ndarray:
        return self.mass_matrix(q) @ vdot + self.bias(q, v)

    def frame_position(self, name: str, q: np.ndarray) -> np.ndarray:
        """The elbow and the hand (the lower link's end) in the world."""
        s1, c1 = math.sin(q[0]), math.cos(q[0])
        elbow = np.array([-self.l1 * s1, 0.0, -self.l1 * c1])
        if name == "lower":
            return elbow
        if name == "hand":
            s12, c12 = math.sin(q[0] + q[1]), math.cos(q[0] + q[1])
            return elbow + np.array([-self.l2 * s12, 0.0, -self.l2 * c12])
        raise KeyError(name)

    frames = ("lower", "hand")
