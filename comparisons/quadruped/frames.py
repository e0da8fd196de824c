"""The hand model's floating-base coordinates against each engine's, in one place.

Hand-rolled: q = (p_WB, R_WB, theta), nu = (v_B, omega_B, theta_dot), both body axes,
nudot = d nu / dt; forces (f_b, n_b, tau), body axes at the body origin.
- Pinocchio free flyer: q = (p, quaternion x y z w, theta), v = nu, a = nudot: the same.
- MuJoCo free joint: qpos = (p, quaternion w x y z, theta), qvel = (R v_B, omega_B,
  theta_dot): the linear part is in world axes.  nu = T qvel with T = diag(R^T, I, I).
- PyBullet, six explicit base joints (x, y, z, yaw, pitch, roll), R = Rz Ry Rx:
  nu = T(q) qd with T = diag(R^T, E(pitch, roll), I).
With nu = T qd: M_e = T^T M T, Q_e = T^T Q and nudot = T qdd + Tdot qd.
"""

from __future__ import annotations

import numpy as np

# the elementary rotations take complex angles too, for the complex-step derivative of the
# six-joint base map below
from dynval.handrolled.so3 import (
    euler_zyx,
    matrix_from_euler_zyx,
    matrix_from_quat,
    quat_from_matrix,
    rot_x,
    rot_y,
)


def random_rotation(rng: np.random.Generator) -> np.ndarray:
    """A uniformly distributed attitude (normalised Gaussian quaternion)."""
    return matrix_from_quat(rng.normal(size=4))


def block_T(R_or_E: np.ndarray, lin: np.ndarray, n_joints: int = 12) -> np.ndarray:
    """diag(lin, R_or_E, I): the map qd -> nu."""
    T = np.eye(6 + n_joints, dtype=np.result_type(lin, R_or_E))
    T[:3, :3] = lin
    T[3:6, 3:6] = R_or_E
    return T


# --- MuJoCo -------------------------------------------------------------------------
def mujoco_qpos(p_WB, R_WB, theta) -> np.ndarray:
    return np.concatenate([p_WB, quat_from_matrix(R_WB), theta])


def mujoco_T(R_WB: np.ndarray) -> np.ndarray:
    return block_T(np.eye(3), R_WB.T)


def mujoco_qvel_qacc(R_WB, nu, nudot) -> tuple[np.ndarray, np.ndarray]:
    """qvel and qacc of the motion (nu, nudot): qacc_lin = R (v_B dot + omega x v_B)."""
    qvel = nu.copy()
    qvel[:3] = R_WB @ nu[:3]
    qacc = nudot.copy()
    qacc[:3] = R_WB @ (nudot[:3] + np.cross(nu[3:6], nu[:3]))
    return qvel, qacc


# --- Pinocchio ----------------------------------------------------------------------
def pinocchio_q(p_WB, R_WB, theta) -> np.ndarray:
    w, x, y, z = quat_from_matrix(R_WB)
    return np.concatenate([p_WB, [x, y, z, w], theta])


# --- PyBullet, six explicit base joints ----------------------------------------------
def six_joint_T(q: np.ndarray) -> np.ndarray:
    """T(q) of the 6-joint base; works on complex q for the complex-step derivative."""
    yaw, pitch, roll = q[3], q[4], q[5]
    R = matrix_from_euler_zyx(yaw, pitch, roll)
    Rx, Ry = rot_x(roll), rot_y(pitch)
    # omega_B = Rx^T Ry^T e_z yaw_dot + Rx^T e_y pitch_dot + e_x roll_dot
    E = np.column_stack([Rx.T @ Ry.T @ np.array([0, 0, 1.0]), Rx.T @ np.array([0, 1.0, 0]),
                         np.array([1.0, 0, 0]) + 0 * roll])
    return block_T(E, R.T, len(q) - 6)


def six_joint_Tdot_qd(q: np.ndarray, qd: np.ndarray) -> np.ndarray:
    """Tdot qd = (d/dt T) qd by the complex-step derivative, exact to round-off."""
    h = 1e-30
    return (six_joint_T(q + 1j * h * qd).imag / h) @ qd


def six_joint_state(p_WB, R_WB, theta, nu, nudot) -> tuple[np.ndarray, ...]:
    """(q, qd, qdd) of the 6-joint base for a hand-rolled state and motion."""
    q = np.concatenate([p_WB, euler_zyx(R_WB), theta])
    T = six_joint_T(q)
    qd = np.linalg.solve(T, nu)
    qdd = np.linalg.solve(T, nudot - six_joint_Tdot_qd(q, qd))
    return q, qd, qdd
