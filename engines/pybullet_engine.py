"""PyBullet adapter: simulation (floating or fixed base) and fixed-base dynamics terms
from URDF, any joint layout.

Pitfalls handled here: every joint's default velocity motor is switched off; link
and joint damping are set to zero; inertia is read from the file
(URDF_USE_INERTIA_FROM_FILE; PyBullet turns a full inertia into principal axes and
rotates its inertial frame accordingly); every pose PyBullet reports (LINK_FRAME
included) is a link's inertial (centre-of-mass) frame, converted back to the link frame
here; calculateJacobian takes its point from the link origin along the inertial frame's
axes; calculateInverseDynamics and calculateJacobian work in the base's inertial frame
(a fixed base whose <inertial> is turned gets gravity and Jacobians turned here);
external forces are re-applied every step (PyBullet clears them); joints are looked up
by name (PyBullet numbers them in file order, fixed joints included).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from operator import itemgetter
from pathlib import Path

import numpy as np
import pybullet
from pybullet_utils.bullet_client import BulletClient

from dynval.engines import DescriptionError, EngineRefusalError, pybullet_compiled
from dynval.engines.base import (
    JOINT_UNITS,
    FloatingState,
    Ground,
    JointLimit,
    LinkInertial,
    PointForce,
    composite_inertial,
    cross3,
    inertia_from_principal,
)

_I3 = np.eye(3)
_ONE_DOF = {pybullet.JOINT_REVOLUTE: "revolute", pybullet.JOINT_PRISMATIC: "prismatic"}


def _quat_xyzw_to_R(q) -> np.ndarray:
    return np.array(pybullet.getMatrixFromQuaternion(q)).reshape(3, 3)


def _turn(R: np.ndarray, S: np.ndarray) -> np.ndarray:
    """R S, or R itself where S is exactly the identity (the product's values are R's: it
    only adds exact zeros), as the compiled reads take it (pybullet_compiled._turn_into)."""
    return R if np.array_equal(S, _I3) else R @ S


def _R_to_quat_xyzw(R: np.ndarray) -> list[float]:
    from dynval.engines.mujoco_engine import R_to_quat

    w, x, y, z = R_to_quat(R)
    return [x, y, z, w]


def _skew(x: np.ndarray) -> np.ndarray:
    """[x]x: the matrix of x cross."""
    return np.array([[0.0, -x[2], x[1]], [x[2], 0.0, -x[0]], [-x[1], x[0], 0.0]])


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


def _unconstrained_steps(client: BulletClient, body: int, movable: Sequence[int],
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


class _Client:
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
            R_WI, R_LI = _quat_xyzw_to_R(q_WI), _quat_xyzw_to_R(q_LI)
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


_NO_LINKS = np.zeros(0, dtype=np.int64)  # an actual-state request for the state alone
_NO_POINTS = np.zeros((0, 3))  # a step without external forces


@dataclass(frozen=True)
class CompiledPybullet:
    """A simulation as compiled code sees it (dynval.engines.pybullet_compiled): the C
    functions, the client handle and body, the joints' q and u indices in the state
    vectors, and the base inertial frame in the base link frame."""

    fns: np.ndarray  # the C functions' addresses (pybullet_compiled.functions)
    client: np.uint64
    body: int
    q_index: np.ndarray
    u_index: np.ndarray
    p_BI: np.ndarray
    R_BI: np.ndarray


@dataclass(frozen=True)
class CompiledPoints:
    """How compiled code reads the points of ``PybulletSimulation.points``: the links
    whose states the actual-state request returns (``links``, sorted), for each point the
    row of its link there (-1: the base) and its link's constant R_LI^T, and each point's
    link index (for the forces applied at it)."""

    links: np.ndarray
    rows: np.ndarray
    R_LI_T: np.ndarray
    point_links: np.ndarray


class PybulletSimulation(_Client):
    """Time-stepping a tree with joint torques and point forces; ``floating`` puts the
    URDF's root link on a free body, else it is fixed where the file puts it."""

    name = "pybullet"

    def __init__(self, path: Path | str, joint_names: Sequence[str], dt: float,
                 gravity: Sequence[float] = (0.0, 0.0, -9.81), ground: Ground | None = None,
                 floating: bool = True) -> None:
        super().__init__(path, fixed=not floating, gravity=np.asarray(gravity))
        self.dt = dt
        self.client.setTimeStep(dt)
        self.client.setPhysicsEngineParameter(numSubSteps=0, deterministicOverlappingPairs=1)
        self.jidx = self.joints(joint_names)
        info = self.client.getDynamicsInfo(self.body, -1)
        self.p_BI = np.array(info[3])  # base inertial frame in the base link frame
        self.R_BI = _quat_xyzw_to_R(info[4])
        self._time = 0.0
        self._foot_links: dict[int, str] = {}
        self._contact_rows: dict[Sequence[str], dict[int, int]] = {}  # link -> 3 row
        self._contact_tables: dict[Sequence[str], np.ndarray] = {}  # the same, compiled
        # link states of the current step: the loop reads a foot, then applies a force at
        # it, on the same state; cleared whenever the state changes
        self._link_states: dict[int, tuple] = {}
        self._frames: dict[int, tuple[np.ndarray, ...]] = {}
        self._positions: dict[tuple[str, bytes], np.ndarray] = {}
        self._state: FloatingState | None = None
        self._R_LI_T: dict[int, np.ndarray] = {}
        c = self.client  # BulletClient makes a new partial on every attribute access
        self._getLinkState, self._stepSimulation = c.getLinkState, c.stepSimulation
        self._applyExternalForce = c.applyExternalForce
        self._getBasePositionAndOrientation = c.getBasePositionAndOrientation
        self._getBaseVelocity, self._getJointStates = c.getBaseVelocity, c.getJointStates
        self._setJointMotorControlArray = c.setJointMotorControlArray
        self._getLinkStates, self._getContactPoints = c.getLinkStates, c.getContactPoints
        if ground is not None:
            self._add_ground(ground)
        # the C client for the per-step reads and the step (pybullet_compiled: the same
        # commands, the same bits, a tenth of the time); None: the Python API
        self._c = self._compiled_client()
        self._point_plans: dict[tuple[str, ...], CompiledPoints] = {}

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
        """State ``s`` at time zero; a fixed root ignores the root fields of ``s``."""
        c = self.client
        if self.floating:
            R_WI = s.R_WB @ self.R_BI
            p_WI = s.p_WB + s.R_WB @ self.p_BI
            c.resetBasePositionAndOrientation(self.body, list(p_WI), _R_to_quat_xyzw(R_WI))
            v_WI = s.v_WB_W + cross3(s.w_WB_W, p_WI - s.p_WB)
            c.resetBaseVelocity(self.body, list(v_WI), list(s.w_WB_W))
        for j, q, qd in zip(self.jidx, s.q, s.qd, strict=True):
            c.resetJointState(self.body, j, float(q), float(qd))
        self._time = 0.0
        self._forget()

    def state(self) -> FloatingState:
        """The state, read once per step (a loop reads it, then its points, then applies
        forces at them): the cached arrays are read-only, so no caller can change it."""
        if self._state is None:
            self._state = self._read_state()
            for a in vars(self._state).values():
                a.setflags(write=False)
        return self._state

    def _read_state(self) -> FloatingState:
        if self._c is not None:
            return self._observe(_NO_LINKS)[0]
        p_WI, q_WI = self._getBasePositionAndOrientation(self.body)
        v_WI, w = self._getBaseVelocity(self.body)
        R_WI = _quat_xyzw_to_R(q_WI)
        R_WB = _turn(R_WI, self.R_BI.T)
        p_WB = np.array(p_WI) - (R_WB @ self.p_BI if self.p_BI.any() else 0.0)
        w = np.array(w)
        v_WB = np.array(v_WI) + cross3(w, p_WB - np.array(p_WI))
        js = self._getJointStates(self.body, self.jidx) if self.jidx else []
        return FloatingState(p_WB, R_WB, v_WB, w, np.array([s[0] for s in js], dtype=float),
                             np.array([s[1] for s in js], dtype=float))

    def joint_state(self) -> tuple[np.ndarray, np.ndarray]:
        """The named joints' positions and rates, :meth:`state`'s q and qd (new arrays),
        from one getJointStates call where the state has not been read (the compiled
        actual-state request reads the base and every link besides: slower for these)."""
        if self._state is not None or not self.jidx:
            s = self.state()
            return s.q.copy(), s.qd.copy()
        js = self._getJointStates(self.body, self.jidx)  # (q, qd, reaction, torque) each
        return (np.fromiter(map(itemgetter(0), js), float, len(js)),
                np.fromiter(map(itemgetter(1), js), float, len(js)))

    def flat_state(self, links: Sequence[str], offsets: np.ndarray) -> np.ndarray:
        """:meth:`state` and :meth:`points` side by side in one array, for a loop that
        reads both every step: p_WB (3), R_WB (9, row by row), v_WB_W (3), w_WB_W (3), q,
        qd, then each point's position and velocity (3 + 3); one compiled request where
        the C client is at hand, the points' positions kept for ``step``."""
        PV = np.empty((0, 6))
        if len(links):  # the points first: the state comes with them
            PV = np.hstack(self.points(links, offsets))
        s = self.state()
        return np.concatenate([s.p_WB, s.R_WB.ravel(), s.v_WB_W, s.w_WB_W, s.q, s.qd,
                               PV.ravel()])

    def _frame(self, li: int) -> tuple[np.ndarray, ...]:
        """(a, R, c, v_a, w) of link ``li`` at this step, read once: a point o of the link
        frame is at p = a + R (o - c) and moves at v_a + w x (p - a). For a link, a is its
        CoM (PyBullet's link-frame origin carries ~1e-8 m of error, the CoM frame does
        not) and c the CoM in the link frame; for the base, a is the link origin, c = 0."""
        f = self._frames.get(li)
        if f is None:
            if li == -1:
                s = self.state()
                f = (s.p_WB, s.R_WB, np.zeros(3), s.v_WB_W, s.w_WB_W)
            else:
                ls = self._link_states.get(li)
                if ls is None:
                    ls = self._link_states[li] = self._getLinkState(
                        self.body, li, computeLinkVelocity=1, computeForwardKinematics=1)
                R_LI_T = self._R_LI_T.get(li)  # the inertial frame in the link: constant
                if R_LI_T is None:
                    R_LI_T = self._R_LI_T[li] = _quat_xyzw_to_R(ls[3]).T
                R_WL = _turn(_quat_xyzw_to_R(ls[1]), R_LI_T)
                f = (np.array(ls[0]), R_WL, np.array(ls[2]), np.array(ls[6]),
                     np.array(ls[7]))
            self._frames[li] = f
        return f

    def point(self, link: str, offset: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """World position and velocity of a point fixed in a link; the position is kept
        for ``step`` to apply a force at (the loop reads a foot, then pushes on it)."""
        if self._c is not None:
            P, V = self._compiled_points((link,), np.asarray(offset, float).reshape(1, 3))
            return P[0], V[0]
        a, R, c, v_a, w = self._frame(self.link(link))
        p = a + R @ (np.asarray(offset) - c)
        self._positions[(link, np.asarray(offset, dtype=float).tobytes())] = p
        return p, v_a + cross3(w, p - a)

    def _observe(self, links: np.ndarray) -> tuple[FloatingState, np.ndarray]:
        """The state and the b3LinkStates of ``links`` from one compiled actual-state
        request (pybullet_compiled.observe; the Python path's numbers, bit for bit)."""
        c = self._c
        base, n = np.empty(13), len(c.q_index)
        q, qd = np.empty(n), np.empty(n)
        states = np.empty((len(links), pybullet_compiled.LINK_STATE_DOUBLES))
        pybullet_compiled.observe(c.fns, c.client, c.body, c.q_index, c.u_index, links, base,
                                  q, qd, states)
        return FloatingState(*pybullet_compiled.base_frame(base, c.p_BI, c.R_BI), q, qd), states

    def points(self, links: Sequence[str], offsets: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:
        """``point`` for many points, the links' states read in one getLinkStates call (one
        compiled request where the C client is at hand); the positions are kept for
        ``step`` to apply forces at."""
        if self._c is not None:
            return self._compiled_points(tuple(links), np.ascontiguousarray(offsets, float))
        missing = sorted({li for li in map(self.link, links)
                          if li >= 0 and li not in self._link_states})
        if missing:
            states = self._getLinkStates(self.body, missing, computeLinkVelocity=1,
                                         computeForwardKinematics=1)
            self._link_states.update(zip(missing, states, strict=True))
        P, V = np.empty((len(links), 3)), np.empty((len(links), 3))
        for k, (link, o) in enumerate(zip(links, offsets, strict=True)):
            P[k], V[k] = self.point(link, o)
        return P, V

    def _compiled_points(self, links: tuple[str, ...], offsets: np.ndarray
                         ) -> tuple[np.ndarray, np.ndarray]:
        plan = self._point_plans.get(links)
        if plan is None:
            plan = self._point_plans[links] = self.compiled_points(links)
        s, states = self._observe(plan.links)
        if self._state is None:  # the same numbers a state() read gives
            self._state = s
            for a in vars(s).values():
                a.setflags(write=False)
        P, V = np.empty((len(links), 3)), np.empty((len(links), 3))
        pybullet_compiled.points(states, plan.rows, plan.R_LI_T, s.p_WB, s.R_WB, s.v_WB_W,
                                 s.w_WB_W, offsets, P, V)
        for link, o, p in zip(links, offsets, P, strict=True):
            self._positions[(link, o.tobytes())] = p
        return P, V

    def step(self, tau: np.ndarray, forces: Sequence[PointForce]) -> None:
        if self._c is not None:
            self._compiled_step(tau, forces)
            return
        if self.jidx:
            self._setJointMotorControlArray(self.body, self.jidx, pybullet.TORQUE_CONTROL,
                                            forces=[float(t) for t in tau])
        for f in forces:
            p = self._positions.get((f.link, np.asarray(f.offset, dtype=float).tobytes()))
            if p is None:
                p, _ = self.point(f.link, f.offset)
            self._applyExternalForce(self.body, self.link(f.link), list(f.F_W), list(p),
                                     pybullet.WORLD_FRAME)
        self._stepSimulation()
        self._time += self.dt
        self._forget()

    def _compiled_step(self, tau: np.ndarray, forces: Sequence[PointForce]) -> None:
        """``step`` through the C client: the same commands in the same order."""
        links, P, F = _NO_LINKS, _NO_POINTS, _NO_POINTS
        if forces:
            keys = [(f.link, np.asarray(f.offset, dtype=float)) for f in forces]
            unread = [(link, o) for link, o in keys
                      if (link, o.tobytes()) not in self._positions]
            if unread:  # points no loop read on this state: read them all in one request
                self.points([link for link, _ in unread], np.array([o for _, o in unread]))
            P = np.array([self._positions[(link, o.tobytes())] for link, o in keys],
                         dtype=float).reshape(-1, 3)
            links = np.array([self.link(f.link) for f in forces], dtype=np.int64)
            F = np.array([f.F_W for f in forces], dtype=float).reshape(-1, 3)
        c = self._c
        pybullet_compiled.step_with_point_forces(
            c.fns, c.client, c.body, c.u_index, np.asarray(tau, dtype=float).reshape(-1),
            links, P, F)
        self._time += self.dt
        self._forget()

    def bare_step_seconds(self, n: int) -> float:
        """Seconds per bare stepSimulation (no applied force, nothing read) from the
        current state, which is restored afterwards: the benchmarks' yardstick. Timed from
        compiled code through the C client where it is at hand (as the compiled loops step),
        else from Python."""
        import time

        with self.restored():
            c = self._c
            if c is None:
                t0 = time.perf_counter()
                for _ in range(n):
                    self._stepSimulation()
                return (time.perf_counter() - t0) / n
            pybullet_compiled.bare_steps(c.fns, c.client, 1)  # compiled on first use
            t0 = time.perf_counter()
            pybullet_compiled.bare_steps(c.fns, c.client, n)
            return (time.perf_counter() - t0) / n

    @contextlib.contextmanager
    def restored(self) -> Iterator[None]:
        """What runs inside (a benchmark's steps) leaves the simulation as it found it:
        PyBullet's saveState and restoreState, what was read forgotten."""
        c = self.client
        saved = c.saveState()
        try:
            yield
        finally:
            c.restoreState(saved)
            c.removeState(saved)
            self._forget()

    def _forget(self) -> None:
        """Drop what was read of the state: it has changed."""
        self._link_states.clear()
        self._frames.clear()
        self._positions.clear()
        self._state = None

    def compiled(self) -> CompiledPybullet | None:
        """What a numba-compiled loop needs to step this simulation without Python
        (dynval.engines.pybullet_compiled), or None where PyBullet's C client is not at
        hand (then loops take the Python path); found once, when the simulation is made."""
        return self._c

    def _compiled_client(self) -> CompiledPybullet | None:
        """:meth:`compiled`'s value: the C functions, the checked client handle, the
        joints' state indices."""
        fns = pybullet_compiled.functions()
        c = self.client
        handle = pybullet_compiled.client_handle(c._client, c.getNumBodies())
        if fns is None or handle is None:
            return None
        infos = [c.getJointInfo(self.body, j) for j in self.jidx]
        return CompiledPybullet(fns, np.uint64(handle), self.body,
                                np.array([i[3] for i in infos], dtype=np.int64),
                                np.array([i[4] for i in infos], dtype=np.int64),
                                self.p_BI.copy(), self.R_BI.copy())

    def compiled_points(self, links: Sequence[str]) -> CompiledPoints:
        """The plan by which compiled code reads ``points(links, ...)`` (CompiledPoints)."""
        index = [self.link(link) for link in links]
        read = np.array(sorted({li for li in index if li >= 0}), dtype=np.int64)
        if len(read):  # R_LI^T as the Python path takes it, from a link state
            states = self._getLinkStates(self.body, list(read), computeForwardKinematics=1)
            for li, ls in zip(read, states, strict=True):
                self._R_LI_T.setdefault(int(li), _quat_xyzw_to_R(ls[3]).T)
        rows = np.array([-1 if li < 0 else int(np.searchsorted(read, li)) for li in index],
                        dtype=np.int64)
        R_LI_T = np.array([np.eye(3) if li < 0 else self._R_LI_T[li] for li in index],
                          dtype=float).reshape(-1, 3, 3)
        return CompiledPoints(read, rows, R_LI_T, np.array(index, dtype=np.int64))

    def compiled_steps_taken(self, n: int) -> None:
        """Book ``n`` steps that compiled code took: the clock advanced as ``step``
        advances it (one dt at a time, the same float), what was read forgotten."""
        for _ in range(n):
            self._time += self.dt
        self._forget()

    def contact_forces(self) -> dict[str, np.ndarray]:
        """Native-contact force on each foot link, world frame [N]."""
        out = {name: np.zeros(3) for name in self._foot_links.values()}
        for cp in self._getContactPoints(bodyA=self.body):
            if cp[3] in self._foot_links:
                n = np.array(cp[7])  # contact normal on B, pointing towards A
                F = cp[9] * n + cp[10] * np.array(cp[11]) + cp[12] * np.array(cp[13])
                out[self._foot_links[cp[3]]] += F
        return out

    def contact_force_rows(self, links: Sequence[str]) -> np.ndarray:
        """:meth:`contact_forces` of the named links (a tuple) as the rows of an (n, 3)
        array [N, world]: the same sums in the same order, on plain floats (no small
        arrays per contact point); the link-to-row table of a tuple is made once."""
        rows = self._contact_row_offsets(links)
        if self._c is not None:  # the same sums from the C client's contact list
            c = self._c
            forces = np.zeros((len(links), 3))
            pybullet_compiled.contact_forces(c.fns, c.client, c.body,
                                             self.contact_row_table(links), forces)
            return forces
        out = [0.0] * (3 * len(links))
        for cp in self._getContactPoints(bodyA=self.body):
            r = rows.get(cp[3])
            if r is not None:  # f_n n + f_1 t1 + f_2 t2, as contact_forces sums it
                f_n, n, f_1, t1, f_2, t2 = cp[9], cp[7], cp[10], cp[11], cp[12], cp[13]
                out[r] += f_n * n[0] + f_1 * t1[0] + f_2 * t2[0]
                out[r + 1] += f_n * n[1] + f_1 * t1[1] + f_2 * t2[1]
                out[r + 2] += f_n * n[2] + f_1 * t1[2] + f_2 * t2[2]
        return np.array(out).reshape(-1, 3)

    def _contact_row_offsets(self, links: tuple[str, ...]) -> dict[int, int]:
        """{link index: 3 x its row} for the named links that carry contact geoms."""
        rows = self._contact_rows.get(links)
        if rows is None:
            rows = self._contact_rows[links] = {
                self.link(link): 3 * k for k, link in enumerate(links)
                if self.link(link) in self._foot_links}
        return rows

    def contact_row_table(self, links: tuple[str, ...]) -> np.ndarray:
        """What compiled code needs to sum :meth:`contact_force_rows` of the named links
        (pybullet_compiled.contact_forces): the row of link l at l + 1 (the base at 0),
        -1 for a link not named or without contact geoms; made once per tuple."""
        table = self._contact_tables.get(links)
        if table is None:
            table = self._contact_tables[links] = np.full(len(self.link_index), -1,
                                                          dtype=np.int64)
            for li, r in self._contact_row_offsets(links).items():
                table[li + 1] = r // 3
        return table

    @property
    def time(self) -> float:
        return self._time


class PybulletTerms(_Client):
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
        self.switched_off = (_unconstrained_steps(self.client, self.body, self.movable,
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
        self._R_WI = _I3 if floating else _quat_xyzw_to_R(
            self.client.getBasePositionAndOrientation(self.body)[1])
        self._turned = not np.array_equal(self._R_WI, _I3)

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
        return _point_from_com_frame(self._link_state(self.link(name)),
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
        R_LI = _quat_xyzw_to_R(self._link_state(li)[3])
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
        self.p_BI, self.R_BI = np.array(info[3]), _quat_xyzw_to_R(info[4])
        n = len(facts.movable)
        if len(self.joint_names) != n:
            raise DescriptionError(f"{path}: a free root's model names every joint ({n})")
        self._P = np.zeros((6 + n, 6 + n))  # caller's v (base, joints) -> PyBullet's order
        self._P[np.r_[0:6, 6 + facts._order], np.arange(6 + n)] = 1.0

    def _T(self, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """R_WB and T (v_pb = T v) at q."""
        quat = np.asarray(q[3:7], dtype=float) / np.linalg.norm(q[3:7])
        R = _quat_xyzw_to_R([quat[1], quat[2], quat[3], quat[0]])
        T = self._P.copy()
        T[0:3, 0:6] = np.c_[np.zeros((3, 3)), self.R_BI.T]
        T[3:6, 0:6] = np.c_[self.R_BI.T @ R.T, -self.R_BI.T @ _skew(self.p_BI)]
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
        _unconstrained_steps(sim.client, sim.body, sim.movable, self._limits)
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
