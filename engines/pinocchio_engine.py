"""Pinocchio adapter: dynamics terms (crba, rnea) and kinematics of a URDF, fixed-base or
on a free flyer (q = (p, quaternion x y z w, joints), v = (v, omega) in the root's local
frame, a = dv/dt)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pinocchio as pin

from engines import DescriptionError


class PinocchioTerms:
    """M(q), bias and inverse dynamics of a URDF; ``floating`` puts its root link on a
    free flyer.  Pinocchio orders a URDF's joints by name; ``joint_names`` gives the
    caller's order, in which every q, v and result here is read and returned."""

    name = "pinocchio"

    def __init__(self, path: Path | str, gravity=(0.0, 0.0, -9.81),
                 floating: bool = False, joint_names: list[str] | None = None) -> None:
        if not Path(path).is_file():
            raise DescriptionError(f"{path}: URDF file not found")
        try:
            if floating:
                self.model = pin.buildModelFromUrdf(str(path), pin.JointModelFreeFlyer())
            else:
                self.model = pin.buildModelFromUrdf(str(path))
        except (RuntimeError, ValueError) as exc:
            raise DescriptionError(f"{path}: Pinocchio cannot load this URDF ({exc})") from None
        self.model.gravity.linear = np.asarray(gravity, dtype=float)
        self.data = self.model.createData()
        nb_q, nb_v = (7, 6) if floating else (0, 0)
        self._iq = np.arange(self.model.nq)
        self._iv = np.arange(self.model.nv)
        if joint_names is not None:
            missing = [n for n in joint_names if not self.model.existJointName(n)]
            if missing:
                raise DescriptionError(f"{path}: URDF model has no joint named {missing[0]!r}")
            ids = [self.model.getJointId(n) for n in joint_names]
            self._iq = np.r_[np.arange(nb_q), [self.model.joints[i].idx_q for i in ids]]
            self._iv = np.r_[np.arange(nb_v), [self.model.joints[i].idx_v for i in ids]]

    def _q(self, q) -> np.ndarray:
        out = np.zeros(self.model.nq)
        out[self._iq] = q
        return out

    def _v(self, v) -> np.ndarray:
        out = np.zeros(self.model.nv)
        out[self._iv] = v
        return out

    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        M = pin.crba(self.model, self.data, self._q(q))
        M = np.triu(M) + np.triu(M, 1).T
        return M[np.ix_(self._iv, self._iv)]

    def bias(self, q: np.ndarray, qd: np.ndarray) -> np.ndarray:
        return self.inverse_dynamics(q, qd, np.zeros(len(self._iv)))

    def inverse_dynamics(self, q, qd, qdd) -> np.ndarray:
        tau = pin.rnea(self.model, self.data, self._q(q), self._v(qd), self._v(qdd))
        return tau[self._iv].copy()

    def _frame(self, link: str) -> int:
        if not self.model.existFrame(link):
            raise DescriptionError(f"URDF model has no link named {link!r}")
        return self.model.getFrameId(link)

    def point_position(self, q: np.ndarray, link: str, offset: np.ndarray) -> np.ndarray:
        pin.framesForwardKinematics(self.model, self.data, self._q(q))
        oMf = self.data.oMf[self._frame(link)]
        return oMf.translation + oMf.rotation @ np.asarray(offset)

    def point_jacobian(self, q: np.ndarray, link: str, offset: np.ndarray) -> np.ndarray:
        q = self._q(q)
        fid = self._frame(link)
        pin.computeJointJacobians(self.model, self.data, q)
        pin.framesForwardKinematics(self.model, self.data, q)
        J = pin.getFrameJacobian(self.model, self.data, fid, pin.LOCAL_WORLD_ALIGNED)
        R = self.data.oMf[fid].rotation
        r = R @ np.asarray(offset)
        return (J[:3] - np.cross(r, J[3:].T).T)[:, self._iv]  # v_point = v_frame + omega x r
