"""The one conversion between the thesis' coordinates and the engine frame.

Base frame 0 (Table 3.1) has x0 up, y0 left, z0 backward; engine frame W has x forward,
y left, z up: v_W = R_W0 v_0. The thesis' base coordinates q1..q6 = (dz, dx, dy, phi_y,
phi_z, phi_x) place the rear segment frame 6 at p_W = (-dz, dy, dx) with attitude
R_W6 = R_y(phi_y) R_x(-phi_z) R_z(phi_x) (derived from Table 3.1, checked by the L1 test).
"""

from __future__ import annotations

import numpy as np

from dynval.handrolled.so3 import euler_yxz, matrix_from_euler_yxz, rot_x, rot_y
from dynval.robots.rover.params import R_W0

R_0W = R_W0.T


def pose_from_q(q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(p_W6, R_W6) of the rear segment frame from the thesis' q1..q6."""
    p_W6 = np.array([-q[0], q[2], q[1]])
    return p_W6, matrix_from_euler_yxz(q[3], -q[4], q[5])


def base_axes_W(q: np.ndarray) -> np.ndarray:
    """Columns: the world angular velocity per unit rate of phi_y, phi_z, phi_x."""
    Ry = rot_y(q[3])
    return np.column_stack([[0.0, 1.0, 0.0], Ry @ [-1.0, 0.0, 0.0],
                            Ry @ rot_x(-q[4]) @ [0.0, 0.0, 1.0]])


def velocity_from_q(q: np.ndarray, qd: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(v_W6_W, w_W6_W): rear segment origin velocity and angular velocity, world axes."""
    return np.array([-qd[0], qd[2], qd[1]]), base_axes_W(q) @ qd[3:6]


def q_from_pose(p_W6: np.ndarray, R_W6: np.ndarray) -> np.ndarray:
    """q1..q6 from the rear segment pose (inverse of :func:`pose_from_q`, |phi_z| < 90 deg)."""
    phi_y, minus_phi_z, phi_x = euler_yxz(R_W6)
    return np.array([-p_W6[0], p_W6[2], p_W6[1], phi_y, -minus_phi_z, phi_x])


def qd_from_velocity(q: np.ndarray, v_W6_W: np.ndarray, w_W6_W: np.ndarray) -> np.ndarray:
    """q1..q6 rates from the rear segment velocity (inverse of :func:`velocity_from_q`)."""
    rates = np.linalg.solve(base_axes_W(q), w_W6_W)
    return np.array([-v_W6_W[0], v_W6_W[2], v_W6_W[1], *rates])
