"""The thesis' modified Newton-Euler terms of eq. (3.32) through dynval's model protocol
(``dynval.model``): the explicit chain of Table 3.1, the rear segment on three prismatic
and three revolute base joints (q_1..q_6, massless links between), then the turning
joints q_7.. (:mod:`dynval.handrolled.rover.dynamics`). ``dynval audit`` audits it
against ``robots/rover/rover_chain.urdf`` (or .xml) as it audits a user's own model."""

from __future__ import annotations

import numpy as np

from dynval.handrolled.rover.dynamics import mass_matrix, rnea, segment_inertias
from dynval.robots.rover.model_description import BASE_CHAIN, turning_joint_name
from dynval.robots.rover.params import PARAMS, RoverParams, cg_position


class RoverChain:
    """q: Table 3.1's coordinates, as the chain description names them (dz, dx, dy,
    phi_y, phi_z, phi_x, then q7.. between the segments). No wheel forces."""

    def __init__(self, p: RoverParams = PARAMS) -> None:
        self.p = p
        self.joint_names = (*(name for name, _, _ in BASE_CHAIN),
                            *(turning_joint_name(i) for i in range(1, p.n_segments)))
        self.mass, self.p_C, self.I_C = segment_inertias(  # Appendix B, eq. (3.4)
            p.n_joints, p.m_seg, p.I_seg, [cg_position(p, i) for i in range(1, p.n_segments + 1)])
        self.none = np.zeros((p.n_joints, 3))

    def tau(self, q: np.ndarray, qd: np.ndarray, qdd: np.ndarray, g: float,
            F_Cw: np.ndarray | None = None, N_Cw: np.ndarray | None = None,
            sign: float = 0.0) -> np.ndarray:
        """Eq. (3.32) by the RNEA, with wheel forces F_Cw and moments N_Cw at the
        segments' CGs (link axes) where given, eq. (3.30)'s sign ``sign``."""
        F = self.none if F_Cw is None else F_Cw
        Nw = self.none if N_Cw is None else N_Cw
        return rnea(np.asarray(q, float), np.asarray(qd, float), np.asarray(qdd, float), g,
                    self.p.l, self.mass, self.p_C, self.I_C, F, Nw, sign)

    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        return mass_matrix(np.asarray(q, float), self.p.l, self.mass, self.p_C, self.I_C)

    def bias(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        return self.tau(q, v, np.zeros(len(q)), self.p.g)  # B[qd qd] + C[qd^2] + G

    def gravity(self, q: np.ndarray) -> np.ndarray:
        return self.tau(q, np.zeros(len(q)), np.zeros(len(q)), self.p.g)

    def inverse_dynamics(self, q: np.ndarray, v: np.ndarray, vdot: np.ndarray) -> np.ndarray:
        return self.tau(q, v, vdot, self.p.g)
