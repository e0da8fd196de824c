"""The hexapod's eq. (6) through dynval's model protocol (``dynval.model``): one leg on a
body that slides in the sagittal plane (:mod:`dynval.handrolled.hexapod.lagrange`), and
the whole robot, its legs' terms summed over the shared segments
(:class:`~dynval.handrolled.hexapod.robot.PlanarHexapod`). ``dynval audit`` audits them
against ``robots/hexapod/hexapod_leg.urdf`` and ``hexapod.urdf`` (or .xml) as it audits a
user's own model."""

from __future__ import annotations

import numpy as np

from dynval.handrolled.hexapod import kinematics, lagrange
from dynval.handrolled.hexapod.robot import PlanarHexapod
from dynval.robots.hexapod.model_description import robot_joints, robot_offset
from dynval.robots.hexapod.params import PARAMS, HexapodParams, leg_names


def _plane(J: np.ndarray) -> np.ndarray:
    """A Jacobian's paper-plane rows (x, y) as the world's (x, y, z) rows (y_W row zero)."""
    return np.vstack([J[0], np.zeros(J.shape[1]), J[1]])


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
        return _plane(lagrange.J_F(self._Th(q), self.lm))  # eq. (6): J_F


class HexapodRobot:
    """The three segments on their slides (x, and z from H_B) and the six legs' hips and
    knees, as the description numbers them (FRAMES.md); the paper's Theta = q + the
    stations and H_B. Each foot's centre is the frame "<leg>_foot", at the side of its
    leg (y_W = +-w_b/2)."""

    def __init__(self, p: HexapodParams = PARAMS) -> None:
        self.r, self.off = PlanarHexapod(p), robot_offset(p)
        self.joint_names = tuple(robot_joints(p))
        self.frames = tuple(f"{leg}_foot" for leg in leg_names(p))
        self._y_W = [0.5 * p.w_b if leg[0] == "L" else -0.5 * p.w_b for leg in leg_names(p)]

    def _Th(self, q: np.ndarray) -> np.ndarray:
        return np.asarray(q, float) + self.off

    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        return self.r.H(self._Th(q))  # eq. (6), leg by leg

    def gravity(self, q: np.ndarray) -> np.ndarray:
        return self.r.gravity(self._Th(q))

    def bias(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        return self.r.bias(self._Th(q), np.asarray(v, float))  # c + g

    def inverse_dynamics(self, q: np.ndarray, v: np.ndarray, vdot: np.ndarray) -> np.ndarray:
        return self.mass_matrix(q) @ np.asarray(vdot, float) + self.bias(q, v)  # Gamma

    def frame_position(self, name: str, q: np.ndarray) -> np.ndarray:
        i = self.frames.index(name)
        Th = self._Th(q)[self.r.idx[i]]
        return kinematics.paper_to_world(lagrange.p_F(Th, self.r.lm), self._y_W[i])  # (4)

    def frame_jacobian(self, name: str, q: np.ndarray) -> np.ndarray:
        i = self.frames.index(name)
        idx, J = self.r.idx[i], np.zeros((2, len(self.joint_names)))
        J[:, idx] = lagrange.J_F(self._Th(q)[idx], self.r.lm)  # eq. (6): J_F
        return _plane(J)


class HexapodLegs(HexapodRobot):
    """The six legs' hips and knees on the three segments welded at their stations and
    H_B (``hexapod_fixed``): eq. (6)'s H, c and g of the whole robot with the segments'
    rows and columns left out (the segments held)."""

    def __init__(self, p: HexapodParams = PARAMS) -> None:
        super().__init__(p)
        self.k = 2 * p.n_seg  # the segments' slides come first in Theta
        self.joint_names = self.joint_names[self.k:]

    def _Th(self, q: np.ndarray) -> np.ndarray:
        Th = self.off.copy()
        Th[self.k:] += np.asarray(q, float)
        return Th

    def _v(self, v: np.ndarray) -> np.ndarray:
        out = np.zeros(len(self.off))
        out[self.k:] = v
        return out

    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        return self.r.H(self._Th(q))[self.k:, self.k:]  # eq. (6)

    def gravity(self, q: np.ndarray) -> np.ndarray:
        return self.r.gravity(self._Th(q))[self.k:]

    def bias(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        return self.r.bias(self._Th(q), self._v(v))[self.k:]

    def frame_jacobian(self, name: str, q: np.ndarray) -> np.ndarray:
        i = self.frames.index(name)
        idx, J = self.r.idx[i], np.zeros((2, len(self.off)))
        J[:, idx] = lagrange.J_F(self._Th(q)[idx], self.r.lm)  # eq. (6): J_F
        return _plane(J[:, self.k:])
