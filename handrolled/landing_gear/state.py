"""What a landing-gear controller and contact law read, in paper coordinates.

Every implementation (the hand-rolled model, MuJoCo, PyBullet) reports its state as
an ``Observation`` so that one controller and one contact law serve them all.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dynval.handrolled.so3 import euler_yxz, matrix_from_euler_yxz


@dataclass
class Observation:
    """State of one implementation at time t, paper frame P (y up)."""

    t: float
    p_PB: np.ndarray  # body centre position [m]
    R_PB: np.ndarray  # body attitude
    v_PB: np.ndarray  # body centre velocity in P [m/s]
    omega_B: np.ndarray  # body angular velocity in body axes [rad/s]
    theta: np.ndarray  # (4, 2) hip and knee angles per leg [rad]
    thetad: np.ndarray  # (4, 2) joint rates [rad/s]
    p_PF: np.ndarray  # (4, 3) foot positions [m]
    v_PF: np.ndarray  # (4, 3) foot velocities [m/s]


def attitude_angles(R_PB: np.ndarray) -> tuple[float, float, float]:
    """(roll theta_z, pitch theta_x, yaw theta_y) with R_PB = R_y(yaw) R_x(pitch) R_z(roll)."""
    yaw, pitch, roll = euler_yxz(R_PB)
    return roll, pitch, yaw


def rotation_from_angles(roll: float, pitch: float, yaw: float) -> np.ndarray:
    """Inverse of :func:`attitude_angles`."""
    return matrix_from_euler_yxz(yaw, pitch, roll)
