"""The hand model's floating-base coordinates against each engine's, in one place.

Hand-rolled: q = (p_WB, R_WB, theta), nu = (v_B, omega_B, theta_dot), both body axes,
nudot = d nu / dt; forces (f_b, n_b, tau), body axes at the body origin.
- Pinocchio free flyer: q = (p, quaternion x y z w, theta), v = nu, a = nudot: the same.
- MuJoCo free joint: qpos = (p, quaternion w x y z, theta), qvel = (R v_B, omega_B,
  theta_dot): the linear part is in world axes.  nu = T qvel with T = diag(R^T, I, I).
With nu = T qvel: M_e = T^T M T, Q_e = T^T Q and nudot = T qacc + Tdot qvel. PyBullet's
floating base is read in MuJoCo's coordinates (engines.pybullet_engine.PybulletFreeRoot).
"""

from __future__ import annotations

import numpy as np

from dynval.handrolled.so3 import matrix_from_quat, quat_from_matrix


def random_rotation(rng: np.random.Generator) -> np.ndarray:
    """A uniformly distributed attitude (normalised Gaussian quaternion)."""
    return matrix_from_quat(rng.normal(size=4))


# --- MuJoCo -------------------------------------------------------------------------
def mujoco_qpos(p_WB, R_WB, theta) -> np.ndarray:
    return np.concatenate([p_WB, quat_from_matrix(R_WB), theta])


def mujoco_T(R_WB: np.ndarray, n_joints: int = 12) -> np.ndarray:
    """T = diag(R^T, I, I): the map qvel -> nu."""
    T = np.eye(6 + n_joints)
    T[:3, :3] = R_WB.T
    return T


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
