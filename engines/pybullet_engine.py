"""PyBullet adapter: floating-base simulation and fixed-base dynamics terms from URDF.

Pitfalls handled here: every joint's default velocity motor is switched off; link
and joint damping are set to zero; inertia is read from the file
(URDF_USE_INERTIA_FROM_FILE; PyBullet turns a full inertia into principal axes and
rotates its inertial frame accordingly); the base pose
PyBullet reports is its inertial frame, converted back to the link frame;
external forces are re-applied every step (PyBullet clears them).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import numpy as np
import pybullet
from pybullet_utils.bullet_client import BulletClient

from engines import DescriptionError
from engines.base import FloatingState, Ground, PointForce


def _quat_xyzw_to_R(q) -> np.ndarray:
    return np.array(pybullet.getMatrixFromQuaternion(q)).reshape(3, 3)


def _R_to_quat_xyzw(R: np.ndarray) -> list[float]:
    from engines.mujoco_engine import R_to_quat

    w, x, y, z = R_to_quat(R)
    return [x, y, z, w]


def _point_from_com_frame(link_state, offset) -> np.ndarray:
    """World position of a point given in the link frame, computed from the link's CoM
    frame: PyBullet's reported link-frame origin carries ~1e-8 m of error, the CoM frame
    does not."""
    p_com, q_com, p_LI, q_LI = link_state[0], link_state[1], link_state[2], link_state[3]
    R_WL = _quat_xyzw_to_R(q_com) @ _quat_xyzw_to_R(q_LI).T
    return np.array(p_com) + R_WL @ (np.asarray(offset) - np.array(p_LI))


@contextlib.contextmanager
def _quiet():
    """Silence the C-level chatter PyBullet prints on connect and URDF load."""
    fd = os.dup(1)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
            yield
    finally:
        os.dup2(fd, 1)
        os.close(fd)


def _load(client: BulletClient, path: Path | str, fixed: bool) -> int:
    if not Path(path).is_file():
        raise DescriptionError(f"{path}: URDF file not found")
    try:
        with _quiet():
            return client.loadURDF(str(path), useFixedBase=fixed,
                               flags=pybullet.URDF_USE_INERTIA_FROM_FILE)
    except pybullet.error:
        raise DescriptionError(f"{path}: PyBullet cannot load this URDF") from None


class _Client:
    def __init__(self, path: Path | str, fixed: bool, gravity: np.ndarray) -> None:
        with _quiet():
            self.client = BulletClient(connection_mode=pybullet.DIRECT)
        self.client.setGravity(*gravity)
        self.body = _load(self.client, path, fixed)
        c = self.client
        self.joint_index: dict[str, int] = {}
        self.link_index: dict[str, int] = {c.getBodyInfo(self.body)[0].decode(): -1}
        for j in range(c.getNumJoints(self.body)):
            info = c.getJointInfo(self.body, j)
            self.joint_index[info[1].decode()] = j
            self.link_index[info[12].decode()] = j
        movable = [j for j in range(c.getNumJoints(self.body))
                   if c.getJointInfo(self.body, j)[2] != pybullet.JOINT_FIXED]
        c.setJointMotorControlArray(self.body, movable, pybullet.VELOCITY_CONTROL,
                                    forces=[0.0] * len(movable))
        for link in self.link_index.values():
            c.changeDynamics(self.body, link, linearDamping=0.0, angularDamping=0.0,
                             jointDamping=0.0)

    def joints(self, names: list[str]) -> list[int]:
        missing = [n for n in names if n not in self.joint_index]
        if missing:
            raise DescriptionError(f"URDF model has no joint named {missing[0]!r}")
        return [self.joint_index[n] for n in names]

    def link(self, name: str) -> int:
        if name not in self.link_index:
            raise DescriptionError(f"URDF model has no link named {name!r}")
        return self.link_index[name]


class PybulletSimulation(_Client):
    """Time-stepping a floating tree with joint torques and point forces."""

    name = "pybullet"

    def __init__(self, path: Path | str, joint_names: list[str], dt: float,
                 gravity=(0.0, 0.0, -9.81), ground: Ground | None = None) -> None:
        super().__init__(path, fixed=False, gravity=np.asarray(gravity))
        self.dt = dt
        self.client.setTimeStep(dt)
        self.client.setPhysicsEngineParameter(numSubSteps=0, deterministicOverlappingPairs=1)
        self.jidx = self.joints(joint_names)
        info = self.client.getDynamicsInfo(self.body, -1)
        self.p_BI = np.array(info[3])  # base inertial frame in the base link frame
        self.R_BI = _quat_xyzw_to_R(info[4])
        self._time = 0.0
        self._foot_links: dict[int, str] = {}
        if ground is not None:
            self._add_ground(ground)

    def _add_ground(self, ground: Ground) -> None:
        """Native contact: a static plane; k and b map to PyBullet's contactStiffness and
        contactDamping (force units), friction to lateralFriction."""
        c = self.client
        z = np.asarray(ground.normal_W, float)
        x = np.cross([0.0, 1.0, 0.0], z)
        x /= np.linalg.norm(x)
        R = np.column_stack([x, np.cross(z, x), z])
        shape = c.createCollisionShape(pybullet.GEOM_PLANE)
        self.plane = c.createMultiBody(0, shape, basePosition=list(ground.point_W),
                                       baseOrientation=_R_to_quat_xyzw(R))
        c.changeDynamics(self.plane, -1, lateralFriction=ground.friction,
                         contactStiffness=ground.stiffness, contactDamping=ground.damping)
        for link_name in ground.contact_geoms:
            li = self.link(link_name)
            self._foot_links[li] = link_name
            c.changeDynamics(self.body, li, lateralFriction=ground.friction,
                             contactStiffness=ground.stiffness, contactDamping=ground.damping)

    def reset(self, s: FloatingState) -> None:
        c = self.client
        R_WI = s.R_WB @ self.R_BI
        p_WI = s.p_WB + s.R_WB @ self.p_BI
        c.resetBasePositionAndOrientation(self.body, list(p_WI), _R_to_quat_xyzw(R_WI))
        v_WI = s.v_WB_W + np.cross(s.w_WB_W, p_WI - s.p_WB)
        c.resetBaseVelocity(self.body, list(v_WI), list(s.w_WB_W))
        for j, q, qd in zip(self.jidx, s.q, s.qd, strict=True):
            c.resetJointState(self.body, j, float(q), float(qd))
        self._time = 0.0

    def state(self) -> FloatingState:
        c = self.client
        p_WI, q_WI = c.getBasePositionAndOrientation(self.body)
        v_WI, w = c.getBaseVelocity(self.body)
        R_WI = _quat_xyzw_to_R(q_WI)
        R_WB = R_WI @ self.R_BI.T
        p_WB = np.array(p_WI) - R_WB @ self.p_BI
        w = np.array(w)
        v_WB = np.array(v_WI) + np.cross(w, p_WB - np.array(p_WI))
        js = c.getJointStates(self.body, self.jidx) if self.jidx else []
        return FloatingState(p_WB, R_WB, v_WB, w, np.array([s[0] for s in js], dtype=float),
                             np.array([s[1] for s in js], dtype=float))

    def point(self, link: str, offset: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        li = self.link(link)
        if li == -1:
            s = self.state()
            p = s.p_WB + s.R_WB @ offset
            return p, s.v_WB_W + np.cross(s.w_WB_W, p - s.p_WB)
        ls = self.client.getLinkState(self.body, li, computeLinkVelocity=1,
                                      computeForwardKinematics=1)
        p = _point_from_com_frame(ls, offset)
        w = np.array(ls[7])
        return p, np.array(ls[6]) + np.cross(w, p - np.array(ls[0]))

    def step(self, tau: np.ndarray, forces: list[PointForce]) -> None:
        c = self.client
        if self.jidx:
            c.setJointMotorControlArray(self.body, self.jidx, pybullet.TORQUE_CONTROL,
                                        forces=[float(t) for t in tau])
        for f in forces:
            p, _ = self.point(f.link, f.offset)
            c.applyExternalForce(self.body, self.link(f.link), list(f.F_W), list(p),
                                 pybullet.WORLD_FRAME)
        c.stepSimulation()
        self._time += self.dt

    def contact_forces(self) -> dict[str, np.ndarray]:
        """Native-contact force on each foot link, world frame [N]."""
        out = {name: np.zeros(3) for name in self._foot_links.values()}
        for cp in self.client.getContactPoints(bodyA=self.body):
            if cp[3] in self._foot_links:
                n = np.array(cp[7])  # contact normal on B, pointing towards A
                F = cp[9] * n + cp[10] * np.array(cp[11]) + cp[12] * np.array(cp[13])
                out[self._foot_links[cp[3]]] += F
        return out

    @property
    def time(self) -> float:
        return self._time


class PybulletTerms(_Client):
    """M(q), bias and inverse dynamics of a fixed-base URDF (PyBullet's calls are
    reliable only for fixed bases)."""

    name = "pybullet"

    def __init__(self, path: Path | str, gravity=(0.0, 0.0, -9.81)) -> None:
        super().__init__(path, fixed=True, gravity=np.asarray(gravity))

    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        return np.array(self.client.calculateMassMatrix(self.body, [float(x) for x in q]))

    def inverse_dynamics(self, q, qd, qdd) -> np.ndarray:
        return np.array(self.client.calculateInverseDynamics(
            self.body, [float(x) for x in q], [float(x) for x in qd], [float(x) for x in qdd]))

    def bias(self, q: np.ndarray, qd: np.ndarray) -> np.ndarray:
        return self.inverse_dynamics(q, qd, np.zeros_like(q))

    def simulate(self, q0: np.ndarray, qd0: np.ndarray, dt: float, n: int) -> np.ndarray:
        """Joint positions over n steps of PyBullet's own integrator, no joint torque."""
        c = self.client
        c.setTimeStep(dt)
        joints = list(range(len(q0)))
        for j in joints:
            c.resetJointState(self.body, j, float(q0[j]), float(qd0[j]))
        out = [np.array(q0, dtype=float)]
        for _ in range(n):
            c.stepSimulation()
            out.append(np.array([s[0] for s in c.getJointStates(self.body, joints)]))
        return np.array(out)

    def point_position(self, q: np.ndarray, link: str, offset: np.ndarray) -> np.ndarray:
        for j, x in zip(range(len(q)), q, strict=True):
            self.client.resetJointState(self.body, j, float(x), 0.0)
        ls = self.client.getLinkState(self.body, self.link(link), computeForwardKinematics=1)
        return _point_from_com_frame(ls, offset)
