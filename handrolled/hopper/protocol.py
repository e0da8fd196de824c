"""The paper's spatial-operator terms of the hopper, through dynval's model protocol
(``dynval.model``): the hip and the leg on the welded body, and the 8-DoF chain of Fig. 3,
eqs. (9) and (19), as :mod:`dynval.handrolled.hopper.soa` builds them. ``dynval audit``
audits the leg against ``robots/hopper/hopper_fixed.urdf`` (or .xml), and the chain
against ``hopper_6dof.urdf``, as it audits a user's own model: the corrected bias passes;
the printed bias of eq. (12) is the erratum the audit finds."""

from __future__ import annotations

import numpy as np

from dynval.handrolled.hopper import chain, soa
from dynval.robots.hopper.model_description import BASE_JOINTS
from dynval.robots.hopper.params import PARAMS, HopperParams


class HopperLeg:
    """Hip and leg on a welded body: q = (hip angle, leg length), the foot at the leg
    frame's origin (the frame "leg"). ``form``: eq. (12)'s bias a_k as printed or
    corrected."""

    joint_names: tuple[str, ...] = ("hip", "leg")
    frames = ("leg",)

    def __init__(self, p: HopperParams = PARAMS, form: soa.Form = "corrected") -> None:
        self.chain, self.g, self.form = self._chain(p), p.g, form
        self._last: tuple[bytes, bytes, soa.Terms] | None = None

    @staticmethod
    def _chain(p: HopperParams) -> chain.Chain:
        return chain.manipulator(p)

    def _terms(self, q: np.ndarray, v: np.ndarray) -> soa.Terms:
        """The operator products at (q, v), kept for the next term asked at the same state
        (they cost 0.2-0.6 ms)."""
        q, v = np.asarray(q, float), np.asarray(v, float)
        key = (q.tobytes(), v.tobytes())
        if self._last is None or self._last[:2] != key:
            self._last = (*key, soa.terms(self.chain, q, v, form=self.form))
        return self._last[2]

    def _at(self, q: np.ndarray) -> soa.Terms:
        """Operator products at q and any velocity: M, M_b and J depend on q alone."""
        q = np.asarray(q, float)
        if self._last is not None and self._last[0] == q.tobytes():
            return self._last[2]
        return self._terms(q, np.zeros(len(q)))

    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        return self._at(q).M  # eq. (19): H^T Phi^T M Phi H

    def bias(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        t = self._terms(q, v)
        return t.C + t.gravity(self.g)  # eq. (19): C + M_b (-g)

    def gravity(self, q: np.ndarray) -> np.ndarray:
        return self._at(q).gravity(self.g)

    def inverse_dynamics(self, q: np.ndarray, v: np.ndarray, vdot: np.ndarray) -> np.ndarray:
        return soa.inverse_dynamics(self.chain, np.asarray(q, float), np.asarray(v, float),
                                    np.asarray(vdot, float), self.g, form=self.form,
                                    t=self._terms(q, v))

    def forward_dynamics(self, q: np.ndarray, v: np.ndarray, tau: np.ndarray) -> np.ndarray:
        """Eq. (19) solved for the accelerations, from one set of operator products."""
        t = self._terms(q, v)
        return np.linalg.solve(t.M, np.asarray(tau, float) - (t.C + t.gravity(self.g)))

    def frame_position(self, name: str, q: np.ndarray) -> np.ndarray:
        return soa.frames(self.chain, np.asarray(q, float)).tip  # eq. (9)'s p_t

    def frame_jacobian(self, name: str, q: np.ndarray) -> np.ndarray:
        return self._at(q).J[3:]  # eq. (9): Phi_t Phi H, linear rows


class HopperChain(HopperLeg):
    """The 8-DoF chain of Fig. 3: the body on x, y, z, yaw, pitch and roll (massless links
    between), then hip and leg; the foot at the frame "leg"."""

    joint_names = (*(name for name, _, _ in BASE_JOINTS), "base_roll", "hip", "leg")

    @staticmethod
    def _chain(p: HopperParams) -> chain.Chain:
        return chain.full(p)
