"""MuJoCo adapter: simulation and dynamics terms from an MJCF file, any joint layout
(a free root, a fixed root, a planar or prismatic root made of slide and hinge joints).

Conventions handled here: free-joint qpos is (p, quat wxyz), qvel is (v world,
omega *body*); point forces go in through mj_applyFT; joint torques through
qfrc_applied (no actuators, so no actuator dynamics); joints, bodies and sites are
looked up by name, never by position in the file.
"""

from __future__ import annotations

import contextlib
import copy
import re
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import mujoco
import numpy as np

from dynval.engines import (
    DescriptionError,
    EngineInstabilityError,
    EngineRefusalError,
    mujoco_compiled,
)
from dynval.engines.base import (
    JOINT_UNITS,
    FloatingState,
    Ground,
    JointLimit,
    LinkInertial,
    PointForce,
    composite_inertial,
    inertia_from_principal,
)
from dynval.engines.mjcf_tree import unnamed_body
from dynval.engines.mujoco_compiled import CompiledMujoco

_J = mujoco.mjtJoint
_ONE_DOF = {int(_J.mjJNT_HINGE): "revolute", int(_J.mjJNT_SLIDE): "prismatic"}
# (qpos, qvel) sizes of each joint type
_SIZES = {int(_J.mjJNT_FREE): (7, 6), int(_J.mjJNT_BALL): (4, 3), int(_J.mjJNT_SLIDE): (1, 1),
          int(_J.mjJNT_HINGE): (1, 1)}


BADQACC = int(mujoco.mjtWarning.mjWARN_BADQACC)
WARNINGS: list[str] = []  # MuJoCo's warnings of this process, newest last


def _keep_warning(message: str) -> None:
    """MuJoCo's warnings are kept here (the adapter turns the ones that matter into errors)
    instead of going to MUJOCO_LOG.TXT in whatever folder the user is in."""
    WARNINGS.append(message)


mujoco.set_mju_user_warning(_keep_warning)


class MasslessBodyError(EngineRefusalError):
    """MuJoCo refuses a moving body without mass or inertia, such as the massless links of
    an explicit six-joint base chain (PyBullet and Pinocchio accept them)."""


FREE_ROOT = "root"  # the name of the free joint load_model gives a URDF's root link


def load_model(path: Path | str, free_root: bool = False) -> mujoco.MjModel:
    """Compile an MJCF (or URDF) file, turning MuJoCo's errors into a DescriptionError.
    A URDF keeps its fixed-joint links as bodies (MuJoCo's URDF import would fuse them into
    their parents, and a frame a model names, like a hand, would be gone); ``free_root``
    puts a URDF's root link on a free joint named FREE_ROOT (a URDF has no free joint)."""
    try:
        if Path(path).suffix.lower() == ".urdf":
            spec = mujoco.MjSpec.from_file(str(path))
            spec.compiler.fusestatic = False
            # a URDF's inertia is its <inertial>: a link without one has none, whatever
            # geometry it carries (MuJoCo would otherwise compute one from its meshes)
            spec.compiler.inertiafromgeom = mujoco.mjtInertiaFromGeom.mjINERTIAFROMGEOM_FALSE
            if free_root:
                spec.worldbody.first_body().add_freejoint(name=FREE_ROOT)
            return spec.compile()
        return mujoco.MjModel.from_xml_path(str(path))
    except (ValueError, FileNotFoundError) as exc:
        # the whole message on one line ("XML parse error 14: Error=... Line number=1: ...")
        msg = " ".join(str(exc).split()) or type(exc).__name__
        kind = "URDF" if Path(path).suffix.lower() == ".urdf" else "MJCF"
        if "mjMINVAL" in msg:
            body = re.search(r"Element name '([^']*)'", msg)
            raise MasslessBodyError(
                f"{path}: MuJoCo refuses moving bodies without mass or rotational inertia"
                f"{f' (body {body.group(1)!r})' if body else ''}, which the {kind} has"
            ) from None
        raise DescriptionError(f"{path}: MuJoCo cannot load this {kind} ({msg})") from None


def quat_to_R(q: np.ndarray) -> np.ndarray:
    R = np.zeros(9)
    mujoco.mju_quat2Mat(R, np.asarray(q, dtype=float))
    return R.reshape(3, 3)


def R_to_quat(R: np.ndarray) -> np.ndarray:
    q = np.zeros(4)
    mujoco.mju_mat2Quat(q, np.asarray(R, dtype=float).reshape(9))
    return q


class _MujocoModel:
    """A compiled MJCF model: names to ids, and what MuJoCo made of the description
    (shared by the simulation and the terms)."""

    def __init__(self, path: Path | str, free_root: bool = False) -> None:
        self.model = load_model(path, free_root)
        self._body_ids: dict[str, int] = {}

    def _id(self, kind: mujoco.mjtObj, name: str) -> int:
        """The id of a named object (an unnamed body by the name :meth:`_name` gives it),
        or -1."""
        if not isinstance(name, str):  # MuJoCo's lookup crashes the process on None
            return -1
        i = mujoco.mj_name2id(self.model, kind, name)
        if i < 0 and kind == mujoco.mjtObj.mjOBJ_BODY and name.startswith("#"):
            return next((b for b in range(1, self.model.nbody) if self._name(kind, b) == name),
                        -1)
        return i

    def _name(self, kind: mujoco.mjtObj, i: int) -> str:
        """The object's name; an unnamed body's is its id and its parent
        (``mjcf_tree.unnamed_body``), as every engine here names it."""
        name = mujoco.mj_id2name(self.model, kind, i)
        if name is None and kind == mujoco.mjtObj.mjOBJ_BODY:
            parent = int(self.model.body_parentid[i])
            return unnamed_body(i, parent, mujoco.mj_id2name(self.model, kind, parent))
        return name

    def joint_id(self, name: str) -> int:
        j = self._id(mujoco.mjtObj.mjOBJ_JOINT, name)
        if j < 0:
            raise DescriptionError(f"MJCF model has no joint named {name!r}")
        return j

    def body_id(self, link: str) -> int:
        if link not in self._body_ids:
            b = self._id(mujoco.mjtObj.mjOBJ_BODY, link)
            if b < 0:
                raise DescriptionError(f"MJCF model has no body named {link!r}")
            self._body_ids[link] = b
        return self._body_ids[link]

    def _one_dof_joints(self) -> list[tuple[int, str, str]]:
        """(id, name, "revolute" or "prismatic") of every hinge and slide joint."""
        m = self.model
        return [(j, self._name(mujoco.mjtObj.mjOBJ_JOINT, j), _ONE_DOF[int(m.jnt_type[j])])
                for j in range(m.njnt) if int(m.jnt_type[j]) in _ONE_DOF]

    def link_inertials(self) -> dict[str, LinkInertial]:
        """Every body's mass, CoM and inertia in body axes (MuJoCo keeps principal moments
        and their frame; they are turned back into a full inertia here)."""
        m = self.model
        return {self._name(mujoco.mjtObj.mjOBJ_BODY, b): LinkInertial(
                    float(m.body_mass[b]), m.body_ipos[b].copy(),
                    inertia_from_principal(m.body_inertia[b], quat_to_R(m.body_iquat[b])))
                for b in range(1, m.nbody)}

    def joint_axes(self) -> dict[str, np.ndarray]:
        """Axis of every hinge and slide joint in its body's frame."""
        return {name: self.model.jnt_axis[j].copy() for j, name, _ in self._one_dof_joints()}

    def free_joint(self, names: Sequence[str] = ()) -> int | None:
        """The id of the free joint of a body attached to the world (a URDF's added one,
        or an MJCF's own), or None; with joint ``names``, the one at the root of their tree
        (an MJCF may hold free objects beside the robot), None when that tree has none."""
        m = self.model
        roots = {int(m.body_rootid[m.jnt_bodyid[self.joint_id(n)]]) for n in names}
        for j in range(m.njnt):
            if (int(m.jnt_type[j]) == int(_J.mjJNT_FREE)
                    and m.body_parentid[m.jnt_bodyid[j]] == 0
                    and (not roots or int(m.jnt_bodyid[j]) in roots)):
                return j
        return None

    def moving_body(self, b: int) -> int:
        """The body that body ``b`` moves with: itself if a joint moves it, else its parent's
        moving body; 0 (the world) for bodies welded to the world."""
        m = self.model
        while b != 0 and m.body_jntnum[b] == 0:
            b = int(m.body_parentid[b])
        return b

    def body_inertials(self) -> dict[str, LinkInertial]:
        """Every moving body with the bodies welded to it, merged in its frame at qpos0
        (DescriptionFacts.body_inertials)."""
        m = self.model
        d = mujoco.MjData(m)
        mujoco.mj_kinematics(m, d)
        parts: dict[int, list] = {}
        for b in range(1, m.nbody):
            R_WI = d.ximat[b].reshape(3, 3)
            parts.setdefault(self.moving_body(b), []).append(
                (float(m.body_mass[b]), d.xipos[b].copy(),
                 inertia_from_principal(m.body_inertia[b], R_WI)))
        return {self._name(mujoco.mjtObj.mjOBJ_BODY, b): composite_inertial(
                    group, d.xpos[b].copy(), d.xmat[b].reshape(3, 3).copy())
                for b, group in parts.items() if b != 0}

    def joint_limits(self) -> dict[str, JointLimit]:
        """Range of every hinge [rad] and slide [m] joint; (-inf, inf) where unlimited."""
        m = self.model
        out = {}
        for j, name, kind in self._one_dof_joints():
            lo, hi = m.jnt_range[j] if m.jnt_limited[j] else (-np.inf, np.inf)
            out[name] = JointLimit(float(lo), float(hi), JOINT_UNITS[kind])
        return out

    def total_mass(self) -> float:
        """Sum of MuJoCo's body masses, world body included [kg]."""
        return float(np.sum(self.model.body_mass))

    def _joint_addresses(self, names: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """qpos and qvel indices of the named joints, in the order given."""
        m = self.model
        iq, iv = [], []
        for name in names:
            j = self.joint_id(name)
            nq, nv = _SIZES[int(m.jnt_type[j])]
            iq += range(m.jnt_qposadr[j], m.jnt_qposadr[j] + nq)
            iv += range(m.jnt_dofadr[j], m.jnt_dofadr[j] + nv)
        return np.array(iq, dtype=int), np.array(iv, dtype=int)


class MujocoSimulation(_MujocoModel):
    """Time-stepping a tree with joint torques and point forces.

    The root is floating when the MJCF's first joint is a free joint on its root body;
    otherwise it is fixed (welded, or moved only by the named joints)."""

    name = "mujoco"

    def __init__(self, path: Path | str, joint_names: Sequence[str], dt: float,
                 gravity: Sequence[float] | None = None, ground: Ground | None = None) -> None:
        super().__init__(path)
        self.dt = dt
        self._gravity = gravity  # None: the file's
        self._point_bodies: dict[tuple[str, ...], np.ndarray] = {}  # body ids
        self._contact_rows: dict[Sequence[str], np.ndarray] = {}  # geom id -> row
        self._configure()
        m = self.model
        free = [j for j in range(m.njnt) if int(m.jnt_type[j]) == int(_J.mjJNT_FREE)]
        if free and (free != [0] or m.jnt_bodyid[0] != 1):
            raise DescriptionError(f"{path}: the only free joint must be the root body's "
                                   "first joint")
        self.floating = bool(free)
        self.root = 1  # the root link: the first body of the worldbody
        self.qadr, self.dof = self._joint_addresses(joint_names)
        self._dofs = np.asarray(self.dof, dtype=np.int64)
        if len(self.qadr) != len(joint_names) or len(self.dof) != len(joint_names):
            raise DescriptionError(f"{path}: joint_names must name hinge and slide joints only")
        if ground is not None:
            self._add_ground(ground)

    def _configure(self) -> None:
        """Step, gravity and fresh data for the (re)compiled model."""
        self.model.opt.timestep = self.dt
        if self._gravity is not None:
            self.model.opt.gravity[:] = self._gravity
        self.data = mujoco.MjData(self.model)
        # the bindings make a new view at each attribute read; these live with the data
        d = self.data
        self._qpos, self._qvel = d.qpos, d.qvel
        self._warnings = d.warning.number  # how often each warning was raised, live
        self._compiled: CompiledMujoco | None = None  # made once for the data (compiled())
        self._contact_list: mujoco_compiled.ContactList | bool | None = None  # made once

    def _add_ground(self, ground: Ground) -> None:
        """Native contact: a plane in an MjSpec copy, and the contact geoms switched on.

        The paper's k, b [N/m, N s/m] become solref = (-k/m_e, -b/m_e) [1/s^2, 1/s]: MuJoCo
        imposes the contact-point acceleration -K r - B v, so the force law is matched when
        m_e is the contact's apparent mass.  With ``ground.mass_scale`` None, m_e is
        computed for each foot at the state passed to ``reset``.  solimp = (0.99, 0.99,
        0.001) keeps the impedance near one; the contact geoms get priority so their
        parameters, not the plane's, are used.  MuJoCo still solves a constraint, not the
        force law of the paper: the static split of a four-foot stance is its solver's.
        """
        spec = mujoco.MjSpec.from_string(self._xml_text())
        z = np.asarray(ground.normal_W, float)
        x = np.cross([0.0, 1.0, 0.0], z)
        x /= np.linalg.norm(x)
        R = np.column_stack([x, np.cross(z, x), z])
        plane = spec.worldbody.add_geom()
        plane.name = "ground"
        plane.type = mujoco.mjtGeom.mjGEOM_PLANE
        plane.size = [0, 0, 1]
        plane.pos = np.asarray(ground.point_W, float)
        plane.quat = R_to_quat(R)
        self.ground = ground
        m_e = ground.mass_scale or 1.0
        solref = [-ground.stiffness / m_e, -ground.damping / m_e]
        for g in spec.geoms:
            if g.name == "ground" or g.name in ground.contact_geoms:
                g.contype, g.conaffinity = 1, 1
                g.solref = solref
                g.solimp = [0.99, 0.99, 0.001, 0.5, 2.0]
                g.friction = [ground.friction, 0.0, 0.0]
                g.condim = 3
                g.priority = 0 if g.name == "ground" else 1
        self.model = spec.compile()
        self._configure()
        self._geom_to_link = {}
        for name in ground.contact_geoms:
            gid = mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_GEOM, name)
            if gid < 0:
                raise DescriptionError(f"MJCF model has no contact geom named {name!r}")
            self._geom_to_link[gid] = self._name(mujoco.mjtObj.mjOBJ_BODY,
                                                 int(self.model.geom_bodyid[gid]))

    def _xml_text(self) -> str:
        import os
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "m.xml")
            mujoco.mj_saveLastXML(out, self.model)
            return Path(out).read_text()

    def reset(self, s: FloatingState) -> None:
        """State ``s`` at time zero; a fixed root ignores the root fields of ``s``."""
        d = self.data
        mujoco.mj_resetData(self.model, d)
        if self.floating:
            d.qpos[0:3] = s.p_WB
            d.qpos[3:7] = R_to_quat(s.R_WB)
            d.qvel[0:3] = s.v_WB_W
            d.qvel[3:6] = np.asarray(s.R_WB).T @ s.w_WB_W  # free-joint omega: body frame
        d.qpos[self.qadr] = s.q
        d.qvel[self.dof] = s.qd
        mujoco.mj_forward(self.model, d)
        if getattr(self, "ground", None) is not None and self.ground.mass_scale is None:
            self._set_solref_from_apparent_mass()

    def apparent_mass(self, gid: int, normal_W: np.ndarray) -> float:
        """1/(n^T J M^-1 J^T n) at the centre of geom ``gid`` for the current state [kg]."""
        m, d = self.model, self.data
        jacp = np.zeros((3, m.nv))
        mujoco.mj_jac(m, d, jacp, None, d.geom_xpos[gid], int(m.geom_bodyid[gid]))
        Jn = normal_W @ jacp
        x = np.zeros(m.nv)
        mujoco.mj_solveM(m, d, x.reshape(1, -1), Jn.reshape(1, -1))
        return 1.0 / float(Jn @ x)

    def _set_solref_from_apparent_mass(self) -> None:
        self.contact_mass = {}
        for gid, link in self._geom_to_link.items():
            m_e = self.apparent_mass(gid, np.asarray(self.ground.normal_W, float))
            self.contact_mass[link] = m_e
            self.model.geom_solref[gid] = [-self.ground.stiffness / m_e,
                                           -self.ground.damping / m_e]

    def state(self) -> FloatingState:
        d = self.data
        qpos, qvel = self._qpos, self._qvel
        q, qd = qpos[self.qadr], qvel[self.dof]  # index arrays: copies
        if self.floating:
            R = quat_to_R(qpos[3:7])
            return FloatingState(qpos[0:3].copy(), R, qvel[0:3].copy(), R @ qvel[3:6], q, qd)
        b = self.root
        vel = np.zeros(6)  # (omega, v of the body origin), world axes
        mujoco.mj_objectVelocity(self.model, d, mujoco.mjtObj.mjOBJ_XBODY, b, vel, 0)
        return FloatingState(d.xpos[b].copy(), d.xmat[b].reshape(3, 3).copy(), vel[3:].copy(),
                             vel[:3].copy(), q, qd)

    def joint_state(self) -> tuple[np.ndarray, np.ndarray]:
        """The named joints' positions and rates, :meth:`state`'s q and qd without the
        root's pose and velocity (new arrays)."""
        return self._qpos[self.qadr], self._qvel[self.dof]

    def flat_state(self, links: Sequence[str], offsets: np.ndarray) -> np.ndarray:
        """:meth:`state` and :meth:`points` side by side in one array, for a loop that
        reads both every step: p_WB (3), R_WB (9, row by row), v_WB_W (3), w_WB_W (3), q,
        qd, then each point's position and velocity (3 + 3); the same floats, a free
        root's read in one compiled pass (tests/test_engine_fast_reads.py)."""
        sim = self.compiled()
        if not self.floating or sim is None:  # a fixed root (mj_objectVelocity), or no
            s = self.state()                  # library at hand: state() itself
            P, V = self.points(links, offsets)
            return np.concatenate([s.p_WB, s.R_WB.ravel(), s.v_WB_W, s.w_WB_W, s.q, s.qd,
                                   np.hstack([P, V]).ravel()])
        out = np.empty(18 + 2 * len(self.qadr) + 6 * len(links))
        mujoco_compiled.state_and_points(sim, self._bodies(links),
                                         np.ascontiguousarray(offsets, dtype=float), out)
        return out

    def point(self, link: str, offset: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """World position and velocity of a point fixed in a link: :meth:`points` for one
        point (mj_objectVelocity's shift of cvel, compiled; tests/test_engine_fast_reads.py
        holds it to mj_objectVelocity at mjOBJ_XBODY)."""
        P, V = self.points((link,), np.asarray(offset, dtype=float).reshape(1, 3))
        return P[0], V[0]

    def points(self, links: Sequence[str], offsets: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:
        """``point`` for many points in one compiled pass over xpos, xmat and cvel (cvel:
        the body's (omega, v) at its tree's subtree_com, world axes; what
        mj_objectVelocity shifts to the body origin), without a Python call per point;
        the body ids of a list of links are looked up once."""
        b = self._bodies(links)
        n = len(b)
        P, V, R = np.empty((n, 3)), np.empty((n, 3)), np.empty((n, 3, 3))
        sim = self.compiled() or self._record(np.zeros(0, dtype=np.uint64))  # reads only
        mujoco_compiled.points(sim, b, np.ascontiguousarray(offsets, dtype=float), P, V, R)
        return P, V

    def _bodies(self, links: Sequence[str]) -> np.ndarray:
        """The body ids of a list of links, looked up once."""
        key = tuple(links)
        b = self._point_bodies.get(key)
        if b is None:
            b = self._point_bodies[key] = np.fromiter(
                (self.body_id(link) for link in links), dtype=np.int64, count=len(links))
        return b

    def step(self, tau: np.ndarray, forces: Sequence[PointForce]) -> None:
        d = self.data
        sim = self.compiled()
        if sim is not None:  # the same calls in one compiled pass: the same bits
            bad_before = self.badqacc_count()
            mujoco_compiled.step_and_forward(
                sim, np.asarray(tau, dtype=float).reshape(-1),
                np.array([self.body_id(f.link) for f in forces], dtype=np.int64),
                np.array([f.offset for f in forces], dtype=float).reshape(-1, 3),
                np.array([f.F_W for f in forces], dtype=float).reshape(-1, 3),
                self.split_step())
            self.check_stable(bad_before)
            return
        d.qfrc_applied[:] = 0.0
        d.qfrc_applied[self.dof] = tau
        for f in forces:
            b = self.body_id(f.link)
            p = d.xpos[b] + d.xmat[b].reshape(3, 3) @ f.offset
            mujoco.mj_applyFT(self.model, d, f.F_W, np.zeros(3), p, b, d.qfrc_applied)
        bad_before = self.badqacc_count()
        mujoco.mj_step(self.model, d)
        self.check_stable(bad_before)
        mujoco.mj_forward(self.model, d)  # positions and velocities at the new time

    def split_step(self) -> bool:
        """Whether a step may be mj_step2 then mj_step1 (one forward pass) instead of
        mj_step then mj_forward: MuJoCo's documented split of mj_step for its Euler and
        implicit integrators. The trajectory is the same either way: mj_forward's
        acceleration stage at the new time persists nothing the next step reads (the
        solver's warm start, qacc_warmstart, is saved by the step's integration), measured
        with joint limits engaged (tests/test_engine_c_api.py). Not with native contact,
        whose forces are read from the constraint solve at the new time, which only
        mj_forward makes; and not with equalities or actuators, which no robot here has
        to test it on."""
        split = getattr(self, "_split", None)
        if split is None:
            m = self.model
            split = self._split = (
                getattr(self, "ground", None) is None and m.neq == 0 and m.nu == 0
                and int(m.opt.integrator) != int(mujoco.mjtIntegrator.mjINT_RK4))
        return split

    def bare_step_seconds(self, n: int) -> float:
        """Seconds per bare mj_step (no applied force, nothing read) from a copy of the
        current state: the benchmarks' yardstick for what a loop adds. Timed from compiled
        code where MuJoCo's library is at hand (as the compiled loops call it), else from
        Python."""
        d = copy.copy(self.data)
        fns = mujoco_compiled.step_addresses()
        if fns is None:
            t0 = time.perf_counter()
            for _ in range(n):
                mujoco.mj_step(self.model, d)
            return (time.perf_counter() - t0) / n
        m, at = np.uint64(self.model._address), np.uint64(d._address)
        mujoco_compiled.bare_steps(fns, m, at, 1)  # compiled on first use
        t0 = time.perf_counter()
        mujoco_compiled.bare_steps(fns, m, at, n)
        return (time.perf_counter() - t0) / n

    @contextlib.contextmanager
    def restored(self) -> Iterator[None]:
        """What runs inside (a benchmark's steps) leaves the simulation as it found it:
        mjData copied back into the same buffers, so every view of it stays valid."""
        saved = copy.copy(self.data)
        try:
            yield
        finally:
            mujoco.mj_copyData(self.data, self.model, saved)

    def badqacc_count(self) -> int:
        """How often MuJoCo has found its accelerations unstable (and reset) so far."""
        return int(self._warnings[BADQACC])

    def badqacc_counter(self) -> np.ndarray:
        """The count of :meth:`badqacc_count` as a live one-element view, for compiled
        code that steps this simulation and must stop where MuJoCo reset it."""
        return self._warnings[BADQACC:BADQACC + 1]

    def check_stable(self, bad_before: int) -> None:
        """Raise if MuJoCo reset the state since its BADQACC count was ``bad_before``."""
        if self._warnings[BADQACC] > bad_before:  # MuJoCo reset the state: say so
            raise EngineInstabilityError(
                f"MuJoCo found its accelerations unstable (mjWARN_BADQACC) and reset the "
                f"simulation at t = {self.data.time:.4f} s")

    def compiled(self) -> CompiledMujoco | None:
        """What a numba-compiled loop needs to step this simulation without Python
        (dynval.engines.mujoco_compiled), or None where MuJoCo's library is not at hand."""
        fns = mujoco_compiled.step_addresses()
        if fns is None:
            return None
        if self._compiled is None:  # views of the data: valid as long as the data
            self._compiled = self._record(fns)
        return self._compiled

    def _record(self, fns: np.ndarray) -> CompiledMujoco:
        """The data's views and addresses with the C functions ``fns``."""
        m, d = self.model, self.data
        return CompiledMujoco(fns, np.uint64(m._address), np.uint64(d._address), d.xpos,
                              d.xmat, d.cvel, d.subtree_com, m.body_rootid, d.qfrc_applied,
                              self._dofs, self._qpos, self._qvel,
                              np.asarray(self.qadr, dtype=np.int64))

    def contact_forces(self) -> dict[str, np.ndarray]:
        """Native-contact force on the link of each contact geom, world frame [N]."""
        geom_to_link = getattr(self, "_geom_to_link", {})
        out = {name: np.zeros(3) for name in geom_to_link.values()}
        d = self.data
        if d.ncon == 0:
            return out
        f6 = np.zeros(6)
        contacts = d.contact  # the list's fields in one read each, not a struct per contact
        geoms, frames = contacts.geom.tolist(), contacts.frame
        for i, (g0, g1) in enumerate(geoms):
            for gid, sign in ((g0, -1.0), (g1, 1.0)):
                link = geom_to_link.get(gid)
                if link is not None:
                    mujoco.mj_contactForce(self.model, d, i, f6)
                    frame = frames[i].reshape(3, 3)  # rows: normal, t1, t2
                    out[link] += sign * (frame.T @ f6[:3])
        return out

    def contact_row_table(self, links: tuple[str, ...]) -> np.ndarray:
        """What compiled code needs to sum :meth:`contact_forces` of the named links into
        the rows of an (n, 3) array (mujoco_compiled.contact_forces): the row of each
        contact geom's link, by geom id (-1: a geom of no named link); made once for a
        tuple of links."""
        rows = self._contact_rows.get(links)
        if rows is None:
            rows = np.full(self.model.ngeom, -1, dtype=np.int64)
            for gid, link in getattr(self, "_geom_to_link", {}).items():
                if link in links:
                    rows[gid] = list(links).index(link)
            self._contact_rows[links] = rows
        return rows

    def compiled_contacts(self) -> mujoco_compiled.ContactList | None:
        """The contact list as compiled code reads it after each step
        (mujoco_compiled.contact_list: live views of the data), made once for the data;
        None where MuJoCo's library is not at hand or the list is not where it is
        looked for."""
        if self._contact_list is None:
            found = (mujoco_compiled.contact_list(self.data)
                     if mujoco_compiled.step_addresses() is not None else None)
            self._contact_list = False if found is None else found
        return self._contact_list or None

    def contact_force_rows(self, links: Sequence[str]) -> np.ndarray:
        """:meth:`contact_forces` of the named links (a tuple) as the rows of an (n, 3)
        array [N, world], in one compiled pass over the contact list (the same floats:
        tests/test_engine_fast_reads.py)."""
        rows = self.contact_row_table(tuple(links))
        sim, contacts = self.compiled(), self.compiled_contacts()
        if sim is None or contacts is None:  # one contact at a time
            f = self.contact_forces()
            return np.array([f.get(link, np.zeros(3)) for link in links]).reshape(-1, 3)
        out = np.zeros((len(links), 3))
        # the list's live views, as the compiled chunks read it: one compiled function
        mujoco_compiled.listed_contact_forces(sim, contacts, rows, out)
        return out

    @property
    def time(self) -> float:
        return float(self.data.time)


class MujocoTerms(_MujocoModel):
    """M(q), bias, gravity and inverse dynamics of an MJCF model, and its frames.

    q and v are MuJoCo's qpos and qvel (a free joint included) unless ``joint_names``
    is given: then they are those joints' coordinates, in that order, and every other
    joint stays at its reference position.  ``gravity`` replaces the file's when given.
    ``free_root`` (a URDF) puts the root link on a free joint whose 7 and 6 coordinates
    come first: q = (p_WB, quat_WB as w, x, y, z, joints), v = (v_WB in W, w_WB in B,
    joint rates).
    """

    name = "mujoco"

    def __init__(self, path: Path | str, gravity: Sequence[float] | None = None, *,
                 joint_names: Sequence[str] | None = None, free_root: bool = False,
                 rigid_body: bool = False, damping: bool = False, limits: bool = False
                 ) -> None:
        super().__init__(path, free_root)
        if gravity is not None:
            self.model.opt.gravity[:] = gravity
        self.switched_off = self._rigid_body_only(damping, limits) if rigid_body else []
        self.data = mujoco.MjData(self.model)
        if joint_names is None:
            self._iq, self._iv = np.arange(self.model.nq), np.arange(self.model.nv)
        elif free_root:
            free = self.free_joint(joint_names)
            if free is None:
                raise DescriptionError(f"{path}: no free joint at the root")
            iq, iv = self._joint_addresses(joint_names)
            self._iq = np.r_[np.arange(7) + self.model.jnt_qposadr[free], iq].astype(int)
            self._iv = np.r_[np.arange(6) + self.model.jnt_dofadr[free], iv].astype(int)
        else:
            self._iq, self._iv = self._joint_addresses(joint_names)

    def _rigid_body_only(self, damping: bool = False, limits: bool = False) -> list[str]:
        """Switch off what MuJoCo adds to rigid-body dynamics (in its inverse dynamics and
        its steps; armature also in M): constraints (contacts, joint limits, equalities
        such as a URDF's mimic, friction loss), passive forces (damping, springs, gravity
        compensation, fluid drag), actuators and armature; and step by semi-implicit
        Euler, the scheme L3 compares.  ``damping`` keeps the file's joint damping and
        ``limits`` its joint limits (a model that declares them; a limit exerts no force
        inside its range).  Returns what the file had on, one phrase each."""
        m = self.model
        found = [(0 if limits else int(np.sum(m.jnt_limited)), "joint limits"),
                 (m.neq, "equality constraints (a URDF's mimic joints)"),
                 (int(np.sum(m.dof_frictionloss > 0)), "friction loss"),
                 (0 if damping else int(np.sum(m.dof_damping > 0)), "joint damping"),
                 (int(np.sum(m.jnt_stiffness > 0)), "joint springs"),
                 (int(np.sum(m.dof_armature > 0)), "armature (rotor inertia added to M)"),
                 (int(np.sum(m.body_gravcomp > 0)), "gravity compensation"),
                 (m.nu, "actuators"),
                 (int(m.opt.density > 0 or m.opt.viscosity > 0), "fluid forces"),
                 (m.ngeom, "contacts between geoms"),
                 (int(m.opt.integrator != mujoco.mjtIntegrator.mjINT_EULER),
                  "its integrator other than semi-implicit Euler")]
        off = mujoco.mjtDisableBit
        constraints = (off.mjDSBL_CONTACT | off.mjDSBL_EQUALITY | off.mjDSBL_FRICTIONLOSS
                       if limits else off.mjDSBL_CONSTRAINT)  # limits alone kept
        m.opt.disableflags |= int(constraints | off.mjDSBL_SPRING | off.mjDSBL_ACTUATION)
        # kept, joint damping enters inverse dynamics and, explicitly, the Euler step (the
        # model's semi-implicit Euler; MuJoCo's own treats damping implicitly by default)
        m.opt.disableflags |= int(off.mjDSBL_EULERDAMP if damping else off.mjDSBL_DAMPER)
        if np.any(m.dof_armature):  # MuJoCo 4 builds M from dof_M0, set when compiled
            m.dof_armature[:] = 0.0
            mujoco.mj_setConst(m, mujoco.MjData(m))
        m.body_gravcomp[:] = 0.0
        m.opt.density = m.opt.viscosity = 0.0
        m.opt.integrator = mujoco.mjtIntegrator.mjINT_EULER  # the scheme L3 compares
        return [f"{what} ({count})" for count, what in found if count]

    def _set(self, q: np.ndarray, v: np.ndarray | None = None) -> None:
        d = self.data
        d.qpos[:] = self.model.qpos0
        d.qpos[self._iq] = q
        d.qvel[:] = 0.0
        if v is not None:
            d.qvel[self._iv] = v
        d.qacc[:] = 0.0
        mujoco.mj_forward(self.model, d)

    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        self._set(q)
        M = np.zeros((self.model.nv, self.model.nv))
        mujoco.mj_fullM(self.model, self.data, M)
        return M[np.ix_(self._iv, self._iv)]

    def bias(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        self._set(q, v)
        return self.data.qfrc_bias[self._iv]

    def gravity(self, q: np.ndarray) -> np.ndarray:
        return self.bias(q, np.zeros(len(self._iv)))

    def inverse_dynamics(self, q: np.ndarray, v: np.ndarray, vdot: np.ndarray) -> np.ndarray:
        self._set(q, v)
        self.data.qacc[:] = 0.0
        self.data.qacc[self._iv] = vdot
        mujoco.mj_inverse(self.model, self.data)
        return self.data.qfrc_inverse[self._iv]

    def acceleration(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Unforced forward dynamics vdot(q, v) (gravity only)."""
        self._set(q, v)
        return self.data.qacc[self._iv]

    def simulate(self, q0: np.ndarray, v0: np.ndarray, dt: float, n: int) -> np.ndarray:
        """Joint positions over n steps of MuJoCo's own (semi-implicit Euler) integrator."""
        m, d = self.model, self.data
        m.opt.timestep = dt
        mujoco.mj_resetData(m, d)
        d.qpos[self._iq], d.qvel[self._iv] = q0, v0
        out = [d.qpos[self._iq]]
        for k in range(n):
            mujoco.mj_step(m, d)
            if d.warning[BADQACC].number:  # MuJoCo reset the state: the run diverged
                raise EngineInstabilityError("MuJoCo flagged its accelerations as non-finite "
                                             "or beyond its limit", (k + 1) * dt,
                                             np.array(out))
            out.append(d.qpos[self._iq])
        return np.array(out)

    def _frame(self, name: str) -> tuple[mujoco.mjtObj, int]:
        """A site of that name, else a body."""
        for kind in (mujoco.mjtObj.mjOBJ_SITE, mujoco.mjtObj.mjOBJ_BODY):
            i = self._id(kind, name)
            if i >= 0:
                return kind, i
        raise DescriptionError(f"MJCF model has no site or body named {name!r}")

    def _point(self, name: str, offset: np.ndarray | None) -> tuple[np.ndarray, int]:
        """World position of the point and the body it is fixed in, at the state set."""
        kind, i = self._frame(name)
        d = self.data
        if kind == mujoco.mjtObj.mjOBJ_SITE:
            p, R, body = d.site_xpos[i], d.site_xmat[i], int(self.model.site_bodyid[i])
        else:
            p, R, body = d.xpos[i], d.xmat[i], i
        if offset is None:
            return p.copy(), body
        return p + R.reshape(3, 3) @ np.asarray(offset, dtype=float), body

    def frame_position(self, name: str, q: np.ndarray,
                       offset: np.ndarray | None = None) -> np.ndarray:
        """World position of a site or body frame, or of the point ``offset`` in it."""
        self._set(q)
        return self._point(name, offset)[0]

    def frame_jacobian(self, name: str, q: np.ndarray,
                       offset: np.ndarray | None = None) -> np.ndarray:
        """3 x n linear Jacobian of that point (a site itself: MuJoCo's mj_jacSite)."""
        self._set(q)
        jacp = np.zeros((3, self.model.nv))
        kind, i = self._frame(name)
        if kind == mujoco.mjtObj.mjOBJ_SITE and offset is None:
            mujoco.mj_jacSite(self.model, self.data, jacp, None, i)
        else:
            p, body = self._point(name, offset)
            mujoco.mj_jac(self.model, self.data, jacp, None, p, body)
        return jacp[:, self._iv]
