"""PD steering by wheel power, eqs. (5.2)-(5.3), as simcore.m applies it.

The turning joint error and its rate, times the gains, are added to the front-left
wheel's nominal power and subtracted from the front-right one's (the text says "front
left" twice; simcore.m changes Pmax(2,1) and Pmax(2,2)); the rear wheels keep their
nominal power. New powers are commanded every ``every`` steps (10 Hz at 1 ms).
"""

from __future__ import annotations

import numpy as np

from dynval._numba_cache import njit


@njit(cache=True, inline="always")
def q7_des(t: float, command: np.ndarray) -> float:
    """The commanded turning joint angle at time t: that of the first row (t_on, t_off,
    q7_des) of ``command`` with t_on <= t < t_off, else 0 (drive straight)."""
    for i in range(command.shape[0]):
        if command[i, 0] <= t < command[i, 1]:
            return command[i, 2]
    return 0.0


@njit(cache=True, inline="always")
def pd_powers(P_nom: np.ndarray, K_p: float, K_d: float, q7: float, q7_rate: float,
              q7_target: float) -> np.ndarray:
    """P_left = P_nom + K_p (q7 - q7_des) + K_d (q7' - q7'_des) (5.2), P_right with the
    opposite sign (5.3), on the front segment (the last row of P_nom); the desired rate is
    zero (simcore.m's q7dotdes)."""
    dP = K_p * (q7 - q7_target) + K_d * q7_rate
    P = P_nom.copy()
    P[-1, 0] += dP  # eq. (5.2), front left
    P[-1, 1] -= dP  # eq. (5.3), front right
    return P


class PowerSteering:
    """Wheel powers P (segments x 2: left, right) from the turning joint state, toward the
    turning joint angles of ``command`` (rows t_on, t_off, q7_des [rad]; none: straight)."""

    def __init__(self, P_nom: np.ndarray, K_p: float, K_d: float, command: np.ndarray,
                 every: int) -> None:
        self.P_nom = np.array(P_nom, dtype=float)
        self.K_p = K_p
        self.K_d = K_d
        self.command = np.array(command, dtype=float).reshape(-1, 3)
        self.every = every

    def q7_des(self, t: float) -> float:
        """The commanded turning joint angle at time t (:func:`q7_des`)."""
        return q7_des(t, self.command)

    def powers(self, t: float, q: np.ndarray, qd: np.ndarray) -> np.ndarray:
        """The wheel powers of (5.2)-(5.3) (:func:`pd_powers`) at time t and state q, qd."""
        return pd_powers(self.P_nom, self.K_p, self.K_d, q[6], qd[6], self.q7_des(t))
