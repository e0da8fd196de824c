"""The quadruped's hand-derived terms through dynval's model protocol (``dynval.model``):
the four legs on the welded body, and the whole robot on a free root, M and C + G by the
RNEA of eq. (5) and the inverse dynamics of eqs. (3)-(4)
(:mod:`dynval.handrolled.quadruped.terms`). ``dynval audit`` audits them against
``robots/quadruped/quadruped_fixed.urdf`` and ``quadruped.urdf`` (or .xml) as it audits a
user's own model."""

from __future__ import annotations

import numpy as np

from dynval.handrolled.quadruped import terms
from dynval.handrolled.quadruped.robot import QuadrupedModel, build_model
from dynval.handrolled.so3 import matrix_from_quat
from dynval.robots.quadruped.model_description import joint_names
from dynval.robots.quadruped.params import PARAMS, QuadrupedParams

_R_WB = np.eye(3)  # the body welded: its frame is the world frame


class QuadrupedLegs:
    """The twelve joints, leg by leg (LF, RF, LB, RB; each HAA, HFE, KFE), on a welded
    body."""

    joint_names = tuple(joint_names())

    def __init__(self, p: QuadrupedParams = PARAMS, model: QuadrupedModel | None = None
                 ) -> None:
        """``model``: the legs' Table 1 chain and inertias, built from ``p`` unless given."""
        self.model = build_model(p) if model is None else model
        self.g_W = np.array([0.0, 0.0, -p.g])

    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        return terms.mass_matrix(self.model, _R_WB, np.asarray(q, float), False)  # eq. (5)

    def inverse_dynamics(self, q: np.ndarray, v: np.ndarray, vdot: np.ndarray) -> np.ndarray:
        return terms.generalized_forces(self.model, _R_WB, np.asarray(q, float),  # (3)-(4)
                                        np.asarray(v, float), np.asarray(vdot, float),
                                        self.g_W, floating=False)

    def bias(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        return self.inverse_dynamics(q, v, np.zeros(12))  # eq. (5): C + G

    def gravity(self, q: np.ndarray) -> np.ndarray:
        return self.inverse_dynamics(q, np.zeros(12), np.zeros(12))


class QuadrupedRobot:
    """The whole robot on a free root, in MuJoCo's free-joint convention: q = (p_WB, the
    quaternion (w, x, y, z) of R_WB, the twelve joints), v = (R_WB v_B, omega_B,
    theta_dot). The RNEA works in the body twist nu = (v_B, omega_B, theta_dot) = T v,
    T = diag(R_WB^T, I, I); with nu_dot = T v_dot - c, c = (omega_B x v_B, 0, 0) (the rate
    of T at constant v), eq. (5) M nu_dot + h = Q becomes (T^T M T) v_dot + T^T (h - M c)
    = T^T Q."""

    base = "free"
    joint_names = tuple(joint_names())

    def __init__(self, p: QuadrupedParams = PARAMS, model: QuadrupedModel | None = None
                 ) -> None:
        """``model``: the legs' Table 1 chain and inertias, built from ``p`` unless given."""
        self.model = build_model(p) if model is None else model
        self.g_W = np.array([0.0, 0.0, -p.g])

    def _R_T(self, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        R_WB = matrix_from_quat(np.asarray(q, float)[3:7])
        T = np.eye(18)
        T[:3, :3] = R_WB.T
        return R_WB, T

    def _terms(self, q: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """T^T M T and T^T (h - M c) at (q, v), M evaluated once."""
        q = np.asarray(q, float)
        R_WB, T = self._R_T(q)
        nu = T @ np.asarray(v, float)
        M = terms.mass_matrix(self.model, R_WB, q[7:])  # eq. (5)
        h = terms.generalized_forces(self.model, R_WB, q[7:], nu, np.zeros(18), self.g_W)
        c = np.zeros(18)
        c[:3] = np.cross(nu[3:6], nu[:3])
        return T.T @ M @ T, T.T @ (h - M @ c)

    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        R_WB, T = self._R_T(q)
        return T.T @ terms.mass_matrix(self.model, R_WB, np.asarray(q, float)[7:]) @ T

    def bias(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        return self._terms(q, v)[1]

    def gravity(self, q: np.ndarray) -> np.ndarray:
        return self.bias(q, np.zeros(18))

    def inverse_dynamics(self, q: np.ndarray, v: np.ndarray, vdot: np.ndarray) -> np.ndarray:
        M, b = self._terms(q, v)
        return M @ np.asarray(vdot, float) + b

    def forward_dynamics(self, q: np.ndarray, v: np.ndarray, tau: np.ndarray) -> np.ndarray:
        M, b = self._terms(q, v)
        return np.linalg.solve(M, np.asarray(tau, float) - b)  # eq. (5)
