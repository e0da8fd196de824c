"""Eqs. (1)-(2) through dynval's model protocol (``dynval.model``): what the audit asks
of the hand-rolled model, term by term."""

from __future__ import annotations

import numpy as np

from dynval_cartpole.model import dynamics
from dynval_cartpole.robot.model_description import JOINTS
from dynval_cartpole.robot.params import PARAMS, CartPoleParams


class CartPole:
    """q = (x, theta): the slider, then the hinge (FRAMES.md)."""

    joint_names = JOINTS
    frames = ("tip",)  # the pole's tip, where the floor's law acts (model/contact.py)

    def __init__(self, p: CartPoleParams = PARAMS) -> None:
        self.p = p

    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        p = self.p
        return dynamics.mass_matrix(q[1], p.m_c, p.m_p, p.l, p.I)  # eq. (3)

    def gravity(self, q: np.ndarray) -> np.ndarray:
        return dynamics.gravity(q[1], self.p.m_p, self.p.l, self.p.g)  # eq. (4)

    def bias(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        p = self.p
        return dynamics.coriolis(q[1], v[1], p.m_p, p.l) + dynamics.gravity(q[1], p.m_p, p.l,
                                                                            p.g)  # eq. (4)

    def inverse_dynamics(self, q: np.ndarray, v: np.ndarray, vdot: np.ndarray) -> np.ndarray:
        p = self.p
        return dynamics.inverse_dynamics(q, v, vdot, p.m_c, p.m_p, p.l, p.I, p.g)

    def frame_position(self, name: str, q: np.ndarray) -> np.ndarray:
        return dynamics.tip(q, self.p.l)

    def frame_jacobian(self, name: str, q: np.ndarray) -> np.ndarray:
        return dynamics.tip_jacobian(q, self.p.l)

    def forward_dynamics(self, q: np.ndarray, v: np.ndarray, u: np.ndarray) -> np.ndarray:
        p = self.p
        return dynamics.forward_dynamics(q, v, u, p.m_c, p.m_p, p.l, p.I, p.g)
