"""The hexapod's leg, eq. (6), through dynval's model protocol (``dynval.model``): one leg
on a body that slides in the sagittal plane (:mod:`dynval.handrolled.hexapod.lagrange`).
``dynval audit`` audits it against ``robots/hexapod/hexapod_leg.urdf`` (or .xml) as it
audits a user's own model."""

from __future__ import annotations

import numpy as np

from dynval.handrolled.hexapod import kinematics, lagrange
from dynval.robots.hexapod.params import PARAMS, HexapodParams


class HexapodLeg:
    """q: the body's slides (x, and z from the hip height H_B) and the left front leg's
    hip and knee, as the description numbers them; the paper's Theta = q + (0, H_B, 0, 0).
    The foot's centre is the frame "LF_foot"; the paper's plane (x forward, y up) is the
    world's x-z plane."""

    joint_names = ("hip_x", "hip_z", "LF_hip", "LF_knee")
    frames = ("LF_foot",)

    def __init__(self, p: HexapodParams = PARAMS) -> None:
        self.g, self.lm = p.g, lagrange.LegMass.of(p)
        self.off = np.array([0.0, p.H_B, 0.0, 0.0])

    def _Th(self, q: np.ndarray) -> np.ndarray:
        return np.asarray(q, float) + self.off

    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        return lagrange.H(self._Th(q), self.lm)  # eq. (6): H(Theta)

    def gravity(self, q: np.ndarray) -> np.ndarray:
        return lagrange.g(self._Th(q), self.lm, self.g)  # eq. (6): g(Theta)

    def bias(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        return lagrange.c(self._Th(q), np.asarray(v, float), self.lm) + self.gravity(q)

    def inverse_dynamics(self, q: np.ndarray, v: np.ndarray, vdot: np.ndarray) -> np.ndarray:
        return lagrange.Gamma(self._Th(q), np.asarray(v, float), np.asarray(vdot, float),
                              self.lm, self.g)  # eq. (6): Gamma

    def frame_position(self, name: str, q: np.ndarray) -> np.ndarray:
        return kinematics.paper_to_world(lagrange.p_F(self._Th(q), self.lm))  # eq. (4)

    def frame_jacobian(self, name: str, q: np.ndarray) -> np.ndarray:
        J = lagrange.J_F(self._Th(q), self.lm)  # eq. (6): J_F, rows x and y of the plane
        return np.vstack([J[0], np.zeros(J.shape[1]), J[1]])
