"""The one conversion between the thesis' coordinates and the engine frame.

Base frame 0 (Table 3.1) has x0 up, y0 left, z0 backward; engine frame W has x forward,
y left, z up: v_W = R_W0 v_0. The thesis' base coordinates q1..q6 = (dz, dx, dy, phi_y,
phi_z, phi_x) place the rear segment frame 6 at p_W = (-dz, dy, dx) with attitude
R_W6 = R_y(phi_y) R_x(-phi_z) R_z(phi_x) (derived from Table 3.1, checked by the L1 test).
"""

from __future__ import annotations

import math

import numpy as np

from dynval._numba_cache import njit
from dynval.handrolled.so3 import euler_yxz, matrix_from_euler_yxz, rot_x, rot_y
from dynval.robots.rover.params import R_W0

R_0W = np.ascontiguousarray(R_W0.T)  # C order, as R_W0: one compile of what takes either


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


@njit(cache=True, inline="always")
def _clip_unit(x: float) -> float:
    """max(-1.0, min(1.0, x)) with Python's choices (a NaN gives 1.0, as there)."""
    y = x if x < 1.0 else 1.0
    return y if y > -1.0 else -1.0


@njit(cache=True)
def thesis_coordinates(p_WB: np.ndarray, R_WB: np.ndarray, v_WB_W: np.ndarray,
                       q_j: np.ndarray, qd_j: np.ndarray, heading: float, n_t: int) -> tuple:
    """An engine state in the thesis' coordinates, as :func:`q_from_pose` and
    :func:`qd_from_velocity` give it, in one compiled call: (q, qd with the three base
    rates q4..q6 left zero, base_axes_W(q), q6 unwrapped).

    q6 follows the last heading ``heading`` past +-pi (the hand-rolled q6 is a joint that
    winds on a circle). The base rates are ``np.linalg.solve(A, w_WB_W)``, left to the
    caller with numpy's solver, so that they are the floats the Python path gives. A is
    base_axes_W's matrix entry by entry: each entry of its products holds one non-zero
    product at most, and a zero comes out +0 (BLAS sums from 0.0), hence ``0.0 + x``."""
    n = 6 + n_t
    q, qd = np.zeros(n), np.zeros(n)
    phi_y = math.atan2(R_WB[0, 2], R_WB[2, 2])  # euler_yxz
    minus_phi_z = math.asin(_clip_unit(-R_WB[1, 2]))
    phi_x = math.atan2(R_WB[1, 0], R_WB[1, 1])
    q[0], q[1], q[2], q[3], q[4] = -p_WB[0], p_WB[2], p_WB[1], phi_y, -minus_phi_z
    q[5] = heading + (phi_x - heading + math.pi) % (2.0 * math.pi) - math.pi
    for i in range(q_j.shape[0]):
        q[6 + i], qd[6 + i] = q_j[i], qd_j[i]
    qd[0], qd[1], qd[2] = -v_WB_W[0], v_WB_W[2], v_WB_W[1]
    c, s = math.cos(q[3]), math.sin(q[3])  # rot_y(phi_y)
    c_x, s_x = math.cos(-q[4]), math.sin(-q[4])  # rot_x(-phi_z)
    A = np.empty((3, 3))
    A[0, 0], A[1, 0], A[2, 0] = 0.0, 1.0, 0.0
    A[0, 1], A[1, 1], A[2, 1] = 0.0 + -c, 0.0, 0.0 + s  # Ry (-1, 0, 0)
    A[0, 2], A[1, 2], A[2, 2] = 0.0 + s * c_x, 0.0 + -s_x, 0.0 + c * c_x  # Ry Rx (0, 0, 1)
    return q, qd, A, q[5]
