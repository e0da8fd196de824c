"""PyBullet adapter: dynamics terms (M, bias, gravity, inverse dynamics) and frame
kinematics of a fixed-base tree, and of a free root (PybulletFreeRoot), in the caller's
joint order. The loading and the frame conventions are dynval.engines.pybullet_client's."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from dynval.engines import DescriptionError
from dynval.engines.base import FloatingState, cross3
from dynval.engines.pybullet_client import (
    I3,
    PybulletClient,
    point_from_com_frame,
    quat_xyzw_to_R,
    skew,
    unconstrained_steps,
)
from dynval.engines.pybullet_simulation import PybulletSimulation


class PybulletTerms(PybulletClient):
    """M(q), bias, gravity and inverse dynamics of a fixed-base URDF, and its links'
    points.  q, v and the results are in ``joint_names`` order (default: PyBullet's, the
    file's order of its moving joints); unnamed joints stay at zero.  ``floating`` loads
    the root as a free body, for the description facts only: a floating base's terms, in
    their own conventions, are PybulletFreeRoot's."""

    name = "pybullet"

    def __init__(self, path: Path | str, gravity: Sequence[float] = (0.0, 0.0, -9.81), *,
                 joint_names: Sequence[str] | None = None, floating: bool = False,
                 rigid_body: bool = False, limits: bool = False) -> None:
        super().__init__(path, fixed=not floating, gravity=np.asarray(gravity))
        self.path = Path(path)
        # its terms never include limits, and its motors and damping are off already
        self.switched_off = (unconstrained_steps(self.client, self.body, self.movable,
                                                  limits) if rigid_body else [])
        names = [n for n, j in self.joint_index.items() if j in self.movable] \
            if joint_names is None else list(joint_names)
        idx = self.joints(names)
        fixed = [n for n, j in zip(names, idx, strict=True) if j not in self.movable]
        if fixed:
            raise DescriptionError(f"{path}: joint {fixed[0]!r} is fixed")
        # position in PyBullet's q vector of each named joint
        self._order = np.array([self.movable.index(j) for j in idx], dtype=int)
        # PyBullet's inverse dynamics and Jacobians work in the base's inertial frame: a
        # fixed base whose <inertial> is turned turns gravity and the Jacobians with it
        self._g = np.asarray(gravity, dtype=float)
        self._R_WI = I3 if floating else quat_xyzw_to_R(
            self.client.getBasePositionAndOrientation(self.body)[1])
        self._turned = not np.array_equal(self._R_WI, I3)

    def _engine_q(self, x: np.ndarray) -> list[float]:
        """A vector in the caller's joint order as PyBullet's (moving joints, file order)."""
        if self.floating:
            raise DescriptionError(f"{self.path}: a floating base's terms are "
                                   "PybulletFreeRoot's (its own conventions converted)")
        out = np.zeros(len(self.movable))
        out[self._order] = x
        return [float(v) for v in out]

    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        M = np.array(self.client.calculateMassMatrix(self.body, self._engine_q(q)))
        return M[np.ix_(self._order, self._order)]

    def inverse_dynamics(self, q: np.ndarray, v: np.ndarray, vdot: np.ndarray) -> np.ndarray:
        if self._turned:  # gravity in the base's inertial axes, for this call only
            self.client.setGravity(*(self._R_WI.T @ self._g))
        tau = self.client.calculateInverseDynamics(self.body, self._engine_q(q),
                                                   self._engine_q(v), self._engine_q(vdot))
        if self._turned:
            self.client.setGravity(*self._g)
        return np.array(tau)[self._order]

    def bias(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        return self.inverse_dynamics(q, v, np.zeros_like(q))

    def gravity(self, q: np.ndarray) -> np.ndarray:
        return self.bias(q, np.zeros(len(self._order)))

    def simulate(self, q0: np.ndarray, v0: np.ndarray, dt: float, n: int) -> np.ndarray:
        """Joint positions over n steps of PyBullet's own integrator, no joint torque."""
        c = self.client
        c.setTimeStep(dt)
        self._set_joints(q0, v0)
        out = [np.array(q0, dtype=float)]
        for _ in range(n):
            c.stepSimulation()
            states = c.getJointStates(self.body, self.movable)
            out.append(np.array([s[0] for s in states])[self._order])
        return np.array(out)

    def _set_joints(self, q: np.ndarray, v: np.ndarray | None = None) -> list[float]:
        """Every moving joint at q (and v, else at rest); PyBullet's q vector."""
        qe = self._engine_q(q)
        ve = self._engine_q(np.zeros(len(self._order)) if v is None else v)
        for j, x, xd in zip(self.movable, qe, ve, strict=True):
            self.client.resetJointState(self.body, j, x, xd)
        return qe

    def frame_position(self, name: str, q: np.ndarray,
                       offset: np.ndarray | None = None) -> np.ndarray:
        """World position of link ``name``'s frame origin or of the point ``offset`` in it
        (from the link's CoM frame, which PyBullet reports without error)."""
        self._set_joints(q)
        return point_from_com_frame(self._link_state(self.link(name)),
                                     np.zeros(3) if offset is None else offset)

    def frame_jacobian(self, name: str, q: np.ndarray,
                       offset: np.ndarray | None = None) -> np.ndarray:
        """3 x n linear Jacobian of that point by calculateJacobian, whose point is measured
        from the link frame's origin but along the axes of the link's inertial (principal)
        frame: the offset is rotated into those axes first."""
        qe = self._set_joints(q)
        li = self.link(name)
        if li == -1:  # the fixed base does not move
            return np.zeros((3, len(self._order)))
        R_LI = quat_xyzw_to_R(self._link_state(li)[3])
        r = np.zeros(3) if offset is None else np.asarray(offset, dtype=float)
        zero = [0.0] * len(qe)
        J, _ = self.client.calculateJacobian(self.body, li, list(R_LI.T @ r), qe, zero, zero)
        J = np.array(J)[:, self._order]
        return self._R_WI @ J if self._turned else J  # from the base's inertial axes


class PybulletFreeRoot:
    """A URDF's root link on PyBullet's floating base, read and answered in MuJoCo's
    free-joint convention: q = (p_WB, quat_WB as w, x, y, z, joints), v = (v_WB in W,
    w_WB in B, joint rates).  Its mass matrix, inverse dynamics and own steps.

    PyBullet's floating base is the root link's inertial frame I (centre of mass c = p_BI,
    principal axes R_BI), its velocity v_pb = (w_I in I, v_I in I, rates) = T v with
    w_I = R_BI^T w_B and v_I = R_BI^T (R_WB^T v_WB + w_B x p_BI); by power, M = T^T M_pb T
    and tau = T^T tau_pb.  Its inverse dynamics (pybullet 3.2.7, measured against MuJoCo's
    free joint; inverse_dynamics's docstring) takes three conventions of its own:
    * the base quaternion is turned into Euler angles by getEulerZYX (R = Rz Ry Rx) and the
      tree composes them as Rx Ry Rz: it is handed the quaternion whose Z-Y-X angles are
      the attitude's X-Y-Z angles;
    * the base's linear acceleration is that of the point, in I: d/dt v_I + w_I x v_I;
    * the result is ordered (force, moment, joints), its inputs (angular, linear, joints).
    PyBullet's steps move the centre of mass and turn the base by the world-frame rate."""

    name = "pybullet"

    def __init__(self, path: Path | str, gravity: Sequence[float] = (0.0, 0.0, -9.81), *,
                 joint_names: Sequence[str] = (), limits: bool = False) -> None:
        self.path, self._g, self.joint_names = Path(path), gravity, list(joint_names)
        self._limits = limits  # kept on in its steps (a model that declares them)
        facts = PybulletTerms(path, gravity, joint_names=joint_names, floating=True,
                              rigid_body=True, limits=limits)
        self.switched_off = facts.switched_off
        self.link_inertials, self.joint_axes = facts.link_inertials, facts.joint_axes
        self.body_inertials = facts.body_inertials
        self.joint_limits = facts.joint_limits
        self.client, self.body, self._facts = facts.client, facts.body, facts
        info = self.client.getDynamicsInfo(self.body, -1)
        self.p_BI, self.R_BI = np.array(info[3]), quat_xyzw_to_R(info[4])
        n = len(facts.movable)
        if len(self.joint_names) != n:
            raise DescriptionError(f"{path}: a free root's model names every joint ({n})")
        self._P = np.zeros((6 + n, 6 + n))  # caller's v (base, joints) -> PyBullet's order
        self._P[np.r_[0:6, 6 + facts._order], np.arange(6 + n)] = 1.0

    def _T(self, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """R_WB and T (v_pb = T v) at q."""
        quat = np.asarray(q[3:7], dtype=float) / np.linalg.norm(q[3:7])
        R = quat_xyzw_to_R([quat[1], quat[2], quat[3], quat[0]])
        T = self._P.copy()
        T[0:3, 0:6] = np.c_[np.zeros((3, 3)), self.R_BI.T]
        T[3:6, 0:6] = np.c_[self.R_BI.T @ R.T, -self.R_BI.T @ skew(self.p_BI)]
        return R, T

    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        _, T = self._T(q)
        joints = [float(x) for x in (self._P @ np.r_[np.zeros(6), q[7:]])[6:]]
        return T.T @ np.array(self.client.calculateMassMatrix(self.body, joints)) @ T

    def inverse_dynamics(self, q: np.ndarray, v: np.ndarray, vdot: np.ndarray) -> np.ndarray:
        """tau = T^T tau_pb(q_pb, T v, T vdot + c) with c the velocity-product terms of T's
        derivative, -R_BI^T (w_B x R_WB^T v_WB), and of PyBullet's point acceleration,
        w_I x v_I (class docstring)."""
        R, T = self._T(q)
        v_pb, a_pb = T @ v, T @ vdot
        a_pb[3:6] += (-self.R_BI.T @ cross3(v[3:6], R.T @ v[0:3])
                      + cross3(v_pb[0:3], v_pb[3:6]))
        R_WI = R @ self.R_BI  # its X-Y-Z angles, handed over as Z-Y-X ones
        xyz = [np.arctan2(-R_WI[1, 2], R_WI[2, 2]),
               np.arctan2(R_WI[0, 2], np.hypot(R_WI[0, 0], R_WI[0, 1])),
               np.arctan2(-R_WI[0, 1], R_WI[0, 0])]
        q_pb = np.concatenate((q[0:3] + R @ self.p_BI,
                               self.client.getQuaternionFromEuler(xyz),
                               (self._P[6:, 6:] @ q[7:])))
        out = np.array(self.client.calculateInverseDynamics(
            self.body, q_pb.tolist(), v_pb.tolist(), a_pb.tolist()))
        return T.T @ np.concatenate((out[3:6], out[0:3], out[6:]))

    def bias(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        return self.inverse_dynamics(q, v, np.zeros(len(v)))

    def gravity(self, q: np.ndarray) -> np.ndarray:
        return self.bias(q, np.zeros(len(q) - 1))

    def simulate(self, q0: np.ndarray, v0: np.ndarray, dt: float, n: int) -> np.ndarray:
        """q over n steps of PyBullet's integrator from (q0, v0), no joint torque; the
        quaternion's sign follows q0's continuously (q and -q are one attitude)."""
        from dynval.engines.mujoco_engine import R_to_quat, quat_to_R

        sim = PybulletSimulation(self.path, self.joint_names, dt, self._g, floating=True)
        unconstrained_steps(sim.client, sim.body, sim.movable, self._limits)
        R = quat_to_R(np.asarray(q0[3:7], dtype=float) / np.linalg.norm(q0[3:7]))
        sim.reset(FloatingState(np.asarray(q0[0:3], dtype=float), R,
                                np.asarray(v0[0:3], dtype=float), R @ v0[3:6],
                                np.asarray(q0[7:], dtype=float), np.asarray(v0[6:], dtype=float)))
        out, quat = [np.array(q0, dtype=float)], np.asarray(q0[3:7], dtype=float)
        zero = np.zeros(len(self.joint_names))
        for _ in range(n):
            sim.step(zero, ())
            s = sim.state()
            turned = R_to_quat(s.R_WB)
            quat = turned if turned @ quat >= 0.0 else -turned
            out.append(np.r_[s.p_WB, quat, s.q])
        return np.array(out)
