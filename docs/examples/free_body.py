"""A rigid body on a free root, its Newton-Euler equations written in closed form about
the body frame's origin B: the way to audit a floating base given as a free joint.

    dynval audit --model docs/examples/free_body.py:FreeBody \\
        --description docs/examples/free_body.urdf

``base = "free"`` tells dynval that q and v start with the root's coordinates in MuJoCo's
free-joint convention: q = (p_WB, quat_WB as w, x, y, z), v = (v_WB in W, w_WB in B).
MuJoCo, PyBullet and Pinocchio (the last two converted from their floating bases'
conventions) check its terms. L3 tumbles it from a seeded state by MuJoCo's
semi-implicit Euler (the quaternion turned by w_B dt): MuJoCo's own step agrees at
round-off, PyBullet's (which moves the centre of mass) by O(dt), halving with the step.

With R = R_WB, c the centre of mass in B, I_B = I_C - m [c]x [c]x the inertia about B
(free_body.urdf: m = 2.5 kg, c = (0.1, -0.05, 0.2) m, I_C = diag(0.30, 0.20, 0.12) kg m^2):
    force, in W:   m a + m R (alpha x c) + m R (w x (w x c)) - m g             (Newton)
    moment, in B:  I_B alpha + w x I_B w + m c x (R^T a) - m c x (R^T g)       (Euler about B)
so M = [[m 1, -m R [c]x], [m [c]x R^T, I_B]] and bias = M-free remainder at a = alpha = 0."""

from __future__ import annotations

import numpy as np

M, C, I_C, G = 2.5, np.array([0.1, -0.05, 0.2]), np.diag([0.30, 0.20, 0.12]), 9.81


def _skew(x: np.ndarray) -> np.ndarray:
    return np.array([[0.0, -x[2], x[1]], [x[2], 0.0, -x[0]], [-x[1], x[0], 0.0]])


def _R(quat: np.ndarray) -> np.ndarray:
    """R_WB of a unit quaternion (w, x, y, z)."""
    w, x, y, z = quat / np.linalg.norm(quat)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


I_B = I_C - M * _skew(C) @ _skew(C)  # parallel axes: inertia about B, in B
g_W = np.array([0.0, 0.0, -G])


class FreeBody:
    """M(q) vdot + bias(q, v) = tau for one rigid body on a free root."""

    joint_names = ()
    base = "free"

    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        R, cx = _R(q[3:7]), _skew(C)
        return np.block([[M * np.eye(3), -M * R @ cx], [M * cx @ R.T, I_B]])

    def bias(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        R, w = _R(q[3:7]), v[3:6]
        force = M * R @ np.cross(w, np.cross(w, C)) - M * g_W
        moment = np.cross(w, I_B @ w) - M * np.cross(C, R.T @ g_W)
        return np.r_[force, moment]

    def gravity(self, q: np.ndarray) -> np.ndarray:
        return self.bias(q, np.zeros(6))
