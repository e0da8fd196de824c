"""Pinocchio adapter: dynamics terms (crba, rnea) and kinematics of a fixed-base URDF."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pinocchio as pin

from engines import DescriptionError


class PinocchioTerms:
    """M(q), bias and inverse dynamics of a fixed-base URDF."""

    name = "pinocchio"

    def __init__(self, path: Path | str, gravity=(0.0, 0.0, -9.81)) -> None:
        if not Path(path).is_file():
            raise DescriptionError(f"{path}: URDF file not found")
        try:
            self.model = pin.buildModelFromUrdf(str(path))
        except (RuntimeError, ValueError) as exc:
            raise DescriptionError(f"{path}: Pinocchio cannot load this URDF ({exc})") from None
        self.model.gravity.linear = np.asarray(gravity, dtype=float)
        self.data = self.model.createData()

    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        M = pin.crba(self.model, self.data, np.asarray(q, float))
        return np.triu(M) + np.triu(M, 1).T

    def bias(self, q: np.ndarray, qd: np.ndarray) -> np.ndarray:
        return pin.rnea(self.model, self.data, np.asarray(q, float), np.asarray(qd, float),
                        np.zeros(self.model.nv)).copy()

    def inverse_dynamics(self, q, qd, qdd) -> np.ndarray:
        return pin.rnea(self.model, self.data, np.asarray(q, float), np.asarray(qd, float),
                        np.asarray(qdd, float)).copy()

    def _frame(self, link: str) -> int:
        if not self.model.existFrame(link):
            raise DescriptionError(f"URDF model has no link named {link!r}")
        return self.model.getFrameId(link)

    def point_position(self, q: np.ndarray, link: str, offset: np.ndarray) -> np.ndarray:
        pin.framesForwardKinematics(self.model, self.data, np.asarray(q, float))
        oMf = self.data.oMf[self._frame(link)]
        return oMf.translation + oMf.rotation @ np.asarray(offset)

    def point_jacobian(self, q: np.ndarray, link: str, offset: np.ndarray) -> np.ndarray:
        q = np.asarray(q, float)
        fid = self._frame(link)
        pin.computeJointJacobians(self.model, self.data, q)
        pin.framesForwardKinematics(self.model, self.data, q)
        J = pin.getFrameJacobian(self.model, self.data, fid, pin.LOCAL_WORLD_ALIGNED)
        R = self.data.oMf[fid].rotation
        r = R @ np.asarray(offset)
        return J[:3] - np.cross(r, J[3:].T).T  # v_point = v_frame + omega x r
