"""The quadruped's hand-derived terms through dynval's model protocol (``dynval.model``):
the four legs on the welded body, M and C + G by the RNEA of eq. (5) and the inverse
dynamics of eqs. (3)-(4) (:mod:`dynval.handrolled.quadruped.terms`). ``dynval audit``
audits it against ``robots/quadruped/quadruped_fixed.urdf`` (or .xml) as it audits a
user's own model."""

from __future__ import annotations

import numpy as np

from dynval.handrolled.quadruped import terms
from dynval.handrolled.quadruped.robot import QuadrupedModel, build_model
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
