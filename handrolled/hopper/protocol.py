"""The paper's spatial-operator terms of the hopper's leg, through dynval's model protocol
(``dynval.model``): the hip and the leg on the welded body, eqs. (9) and (19), as
:mod:`dynval.handrolled.hopper.soa` builds them. ``dynval audit`` audits it against
``robots/hopper/hopper_fixed.urdf`` (or .xml) as it audits a user's own model: the
corrected bias passes; the printed bias of eq. (12) is the erratum the audit finds."""

from __future__ import annotations

import numpy as np

from dynval.handrolled.hopper import chain, soa
from dynval.robots.hopper.params import PARAMS, HopperParams


class HopperLeg:
    """Hip and leg on a welded body: q = (hip angle, leg length), the foot at the leg
    frame's origin (the frame "leg"). ``form``: eq. (12)'s bias a_k as printed or
    corrected."""

    joint_names = ("hip", "leg")
    frames = ("leg",)

    def __init__(self, p: HopperParams = PARAMS, form: soa.Form = "corrected") -> None:
        self.chain, self.g, self.form = chain.manipulator(p), p.g, form

    def _terms(self, q: np.ndarray, v: np.ndarray) -> soa.Terms:
        return soa.terms(self.chain, np.asarray(q, float), np.asarray(v, float),
                         form=self.form)

    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        return self._terms(q, np.zeros(2)).M  # eq. (19): H^T Phi^T M Phi H

    def bias(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        t = self._terms(q, v)
        return t.C + t.gravity(self.g)  # eq. (19): C + M_b (-g)

    def gravity(self, q: np.ndarray) -> np.ndarray:
        return self._terms(q, np.zeros(2)).gravity(self.g)

    def inverse_dynamics(self, q: np.ndarray, v: np.ndarray, vdot: np.ndarray) -> np.ndarray:
        return soa.inverse_dynamics(self.chain, np.asarray(q, float), np.asarray(v, float),
                                    np.asarray(vdot, float), self.g, form=self.form)

    def frame_position(self, name: str, q: np.ndarray) -> np.ndarray:
        return soa.frames(self.chain, np.asarray(q, float)).tip  # eq. (9)'s p_t

    def frame_jacobian(self, name: str, q: np.ndarray) -> np.ndarray:
        return self._terms(q, np.zeros(2)).J[3:]  # eq. (9): Phi_t Phi H, linear rows
