"""PyBullet adapter, its ground floor: a URDF loaded into its own physics client, with
the description facts read back (links' inertials, joints' axes and limits), and the
conversions between PyBullet's frames and poses and the link frames.

Pitfalls the adapter handles (here, in pybullet_simulation and in pybullet_terms): every
joint's default velocity motor is switched off; link and joint damping are set to zero;
inertia is read from the file (URDF_USE_INERTIA_FROM_FILE; PyBullet turns a full inertia
into principal axes and rotates its inertial frame accordingly); every pose PyBullet
reports (LINK_FRAME included) is a link's inertial (centre-of-mass) frame, converted
back to the link frame here; calculateJacobian takes its point from the link origin
along the inertial frame's axes; calculateInverseDynamics and calculateJacobian work in
the base's inertial frame (a fixed base whose <inertial> is turned gets gravity and
Jacobians turned here); external forces are re-applied every step (PyBullet clears
them); joints are looked up by name (PyBullet numbers them in file order, fixed joints
included).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pybullet
from pybullet_utils.bullet_client import BulletClient

from dynval.engines import DescriptionError, EngineRefusalError
from dynval.engines.base import (
    JOINT_UNITS,
    JointLimit,
    LinkInertial,
    composite_inertial,
    inertia_from_principal,
)

I3 = np.eye(3)
_ONE_DOF = {pybullet.JOINT_REVOLUTE: "revolute", pybullet.JOINT_PRISMATIC: "prismatic"}


def quat_xyzw_to_R(q) -> np.ndarray:
    return np.array(pybullet.getMatrixFromQuaternion(q)).reshape(3, 3)


def turn(R: np.ndarray, S: np.ndarray) -> np.ndarray:
    """R S, or R itself where S is exactly the identity (the product's values are R's: it
    only adds exact zeros), as the compiled reads take it (pybullet_compiled._turn_into)."""
    return R if np.array_equal(S, I3) else R @ S


def R_to_quat_xyzw(R: np.ndarray) -> list[float]:
    from dynval.engines.mujoco_engine import R_to_quat

    w, x, y, z = R_to_quat(R)
    return [x, y, z, w]


def skew(x: np.ndarray) -> np.ndarray:
    """[x]x: the matrix of x cross."""
    return np.array([[0.0, -x[2], x[1]], [x[2], 0.0, -x[0]], [-x[1], x[0], 0.0]])


def point_from_com_frame(link_state, offset) -> np.ndarray:
    """World position of a point given in the link frame, computed from the link's CoM
    frame: PyBullet's reported link-frame origin carries ~1e-8 m of error, the CoM frame
    does not."""
    p_com, q_com, p_LI, q_LI = link_state[0], link_state[1], link_state[2], link_state[3]
    R_WL = quat_xyzw_to_R(q_com) @ quat_xyzw_to_R(q_LI).T
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
        raise DescriptionError(f"{path}: PyBullet cannot load this URDF "
                               f"({_why_unloadable(path)})") from None


def _why_unloadable(path: Path | str) -> str:
    """What PyBullet, which prints its reasons to a C stream, most likely refused: XML that
    is not well formed, or a mesh file that is not where the URDF says."""
    import xml.etree.ElementTree as ET

    try:
        root = ET.parse(str(path)).getroot()
    except ET.ParseError as exc:
        return f"not well-formed XML: {exc}"
    for link in root.iter("link"):
        for mesh in link.iter("mesh"):
            name = mesh.get("filename", "")
            file = name.removeprefix("file://")
            if name.startswith("package://") or not (Path(path).parent / file).is_file():
                return (f"link {link.get('name')!r}: mesh {name!r} not found"
                        + (" (PyBullet does not resolve package:// paths)"
                           if name.startswith("package://") else ""))
    return "PyBullet gives no reason"


def _links_without_inertial(path: Path | str) -> list[str]:
    """The URDF's links that declare no <inertial> (massless by the URDF standard)."""
    import xml.etree.ElementTree as ET

    try:
        root = ET.parse(str(path)).getroot()
    except ET.ParseError:
        return []
    return [lk.get("name", "") for lk in root.iter("link") if lk.find("inertial") is None]


UNBOUNDED_RATE = 1e12  # [rad/s or m/s]: PyBullet's joint-rate clamp (100 by default) lifted


def unconstrained_steps(client: BulletClient, body: int, movable: Sequence[int],
                         limits: bool = False) -> list[str]:
    """Joint limits off in PyBullet's steps (a limit that can exert no force; kept where
    ``limits``) and its clamp of every joint rate at 100 rad/s lifted (a chaotic arm's
    light link swings faster); what was on, one phrase each (a joint with lower <= upper
    is limited)."""
    infos = [client.getJointInfo(body, j) for j in movable]
    limited = 0 if limits else sum(1 for info in infos if info[8] <= info[9])
    for j in movable:
        client.changeDynamics(body, j, maxJointVelocity=UNBOUNDED_RATE)
        if not limits:
            client.changeDynamics(body, j, jointLimitForce=0.0)
    if not movable:
        return []
    clamp = [f"the clamp of joint rates at 100 rad/s ({len(movable)})"]
    return ([f"joint limits ({limited})"] if limited else []) + clamp


class PybulletClient:
    """One PyBullet world holding one URDF: names to indices, and what PyBullet made of
    the description (shared by the simulation and the terms)."""

    def __init__(self, path: Path | str, fixed: bool, gravity: np.ndarray) -> None:
        with _quiet():
            self.client = BulletClient(connection_mode=pybullet.DIRECT)
        self.client.setGravity(*gravity)
        self.floating = not fixed
        self.body = _load(self.client, path, fixed)
        c = self.client
        try:
            c.getBasePositionAndOrientation(self.body)
        except pybullet.error:  # seen with 129 joints: past its 128-degree-of-freedom state
            raise EngineRefusalError(
                f"{path}: PyBullet loads it ({c.getNumJoints(self.body)} joints) but cannot "
                "read its state back") from None
        self.joint_index: dict[str, int] = {}
        self.link_index: dict[str, int] = {c.getBodyInfo(self.body)[0].decode(): -1}
        for j in range(c.getNumJoints(self.body)):
            info = c.getJointInfo(self.body, j)
            self.joint_index[info[1].decode()] = j
            self.link_index[info[12].decode()] = j
        # URDF: a link without <inertial> has no mass; PyBullet gives it 1 kg and a unit
        # inertia (a frame such as a hand or a tool point would weigh a kilogram)
        bare = _links_without_inertial(path)
        root = c.getBodyInfo(self.body)[0].decode()
        if self.floating and root in bare:
            raise EngineRefusalError(
                f"{path}: PyBullet gives a free base without <inertial> (root link {root!r}) "
                "1 kg and a unit inertia, and a massless one would not move: its free base "
                "cannot be compared")
        for name in bare:
            if self.link_index.get(name, -1) >= 0:
                c.changeDynamics(self.body, self.link_index[name], mass=0.0,
                                 localInertiaDiagonal=[0.0, 0.0, 0.0])
        # the joints with a degree of freedom, in PyBullet's order (that of its q vectors)
        self.movable = [j for j in range(c.getNumJoints(self.body))
                        if c.getJointInfo(self.body, j)[2] != pybullet.JOINT_FIXED]
        c.setJointMotorControlArray(self.body, self.movable, pybullet.VELOCITY_CONTROL,
                                    forces=[0.0] * len(self.movable))
        for link in self.link_index.values():
            c.changeDynamics(self.body, link, linearDamping=0.0, angularDamping=0.0,
                             jointDamping=0.0)

    def joints(self, names: Sequence[str]) -> list[int]:
        missing = [n for n in names if n not in self.joint_index]
        if missing:
            raise DescriptionError(f"URDF model has no joint named {missing[0]!r}")
        return [self.joint_index[n] for n in names]

    def link(self, name: str) -> int:
        if name not in self.link_index:
            raise DescriptionError(f"URDF model has no link named {name!r}")
        return self.link_index[name]

    def _one_dof_joints(self) -> list[tuple[int, str, str]]:
        """(index, name, "revolute" or "prismatic") of every joint PyBullet moves."""
        out = []
        for name, j in self.joint_index.items():
            kind = self.client.getJointInfo(self.body, j)[2]
            if kind in _ONE_DOF:
                out.append((j, name, _ONE_DOF[kind]))
        return out

    def _inertial_frame(self, li: int) -> np.ndarray:
        """Rotation from link ``li``'s inertial (principal) frame to its link frame, by
        MuJoCo's quaternion conversion (the L0 figures' reference; PyBullet's own
        conversion differs in the last bits)."""
        from dynval.engines.mujoco_engine import quat_to_R

        x, y, z, w = self.client.getDynamicsInfo(self.body, li)[4]
        return quat_to_R([w, x, y, z])

    def link_inertials(self) -> dict[str, LinkInertial]:
        """Every link's mass, CoM and inertia in link axes; a fixed base is left out, since
        PyBullet discards its inertial (mass zero)."""
        out = {}
        for name, li in self.link_index.items():
            if li == -1 and not self.floating:
                continue
            info = self.client.getDynamicsInfo(self.body, li)
            out[name] = LinkInertial(float(info[0]), np.array(info[3]),
                                     inertia_from_principal(info[2], self._inertial_frame(li)))
        return out

    def body_inertials(self) -> dict[str, LinkInertial]:
        """Every moving link with the links welded to it, merged in its frame with every
        joint at zero (DescriptionFacts.body_inertials); a fixed base and what is welded to
        it are left out."""
        c = self.client
        saved = [s[:2] for s in c.getJointStates(self.body, self.movable) or ()]
        for j in self.movable:
            c.resetJointState(self.body, j, 0.0, 0.0)
        moving: dict[int, int] = {-1: -1}
        for j in range(c.getNumJoints(self.body)):  # parents come before children
            info = c.getJointInfo(self.body, j)
            moving[j] = moving[info[16]] if info[2] == pybullet.JOINT_FIXED else j
        parts: dict[int, list] = {}
        frames: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        for li in moving:
            p_WI, q_WI, p_LI, q_LI = self._link_state(li)[:4]
            R_WI, R_LI = quat_xyzw_to_R(q_WI), quat_xyzw_to_R(q_LI)
            R_WL = R_WI @ R_LI.T
            frames[li] = (np.array(p_WI) - R_WL @ np.array(p_LI), R_WL)
            info = c.getDynamicsInfo(self.body, li)
            parts.setdefault(moving[li], []).append(
                (float(info[0]), np.array(p_WI), inertia_from_principal(info[2], R_WI)))
        for j, (q, v) in zip(self.movable, saved, strict=True):
            c.resetJointState(self.body, j, q, v)
        names = {li: name for name, li in self.link_index.items()}
        return {names[li]: composite_inertial(group, *frames[li])
                for li, group in parts.items() if li != -1 or self.floating}

    def joint_axes(self) -> dict[str, np.ndarray]:
        """Axis of every revolute and prismatic joint in its child link's frame (PyBullet
        gives it in the child's inertial frame)."""
        return {name: self._inertial_frame(j) @ np.array(self.client.getJointInfo(self.body,
                                                                                  j)[13])
                for j, name, _ in self._one_dof_joints()}

    def joint_limits(self) -> dict[str, JointLimit]:
        """Limits of every revolute [rad] and prismatic [m] joint, as PyBullet read them."""
        out = {}
        for j, name, kind in self._one_dof_joints():
            info = self.client.getJointInfo(self.body, j)
            out[name] = JointLimit(float(info[8]), float(info[9]), JOINT_UNITS[kind])
        return out

    def _link_state(self, li: int) -> tuple:
        """(p_WI, quat_WI, p_LI, quat_LI) of link ``li``'s inertial frame I, as
        getLinkState gives them; the base (-1) in the same form."""
        if li >= 0:
            return self.client.getLinkState(self.body, li, computeForwardKinematics=1)
        p_WI, q_WI = self.client.getBasePositionAndOrientation(self.body)
        info = self.client.getDynamicsInfo(self.body, -1)
        return p_WI, q_WI, info[3], info[4]
