"""PD steering by wheel power, eqs. (5.2)-(5.3), as simcore.m applies it.

The turning joint error and its rate, times the gains, are added to the front-left
wheel's nominal power and subtracted from the front-right one's (the text says "front
left" twice; simcore.m changes Pmax(2,1) and Pmax(2,2)); the rear wheels keep their
nominal power. New powers are commanded every ``every`` steps (10 Hz at 1 ms).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


class PowerSteering:
    """Wheel powers P (segments x 2: left, right) from the turning joint state."""

    def __init__(self, P_nom: np.ndarray, K_p: float, K_d: float,
                 q7_des: Callable[[float], float], every: int) -> None:
        self.P_nom = np.array(P_nom, dtype=float)
        self.K_p = K_p
        self.K_d = K_d
        self.q7_des = q7_des
        self.every = every

    def powers(self, t: float, q: np.ndarray, qd: np.ndarray) -> np.ndarray:
        """P_left = P_nom + K_p (q7 - q7_des) + K_d (q7' - q7'_des) (5.2), P_right with the
        opposite sign (5.3); the desired rate is zero (simcore.m's q7dotdes)."""
        dP = self.K_p * (q[6] - self.q7_des(t)) + self.K_d * qd[6]
        P = self.P_nom.copy()
        P[-1, 0] += dP  # eq. (5.2), front left
        P[-1, 1] -= dP  # eq. (5.3), front right
        return P
