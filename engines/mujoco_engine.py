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
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import mujoco
import numpy as np

from dynval.engines import (
    DescriptionError,
    EngineInstabilityError,
    mujoco_compiled,
)
from dynval.engines.base import (
    FloatingState,
    Ground,
    PointForce,
)
from dynval.engines.mujoco_compiled import CompiledMujoco
from dynval.engines.mujoco_model import (
    _J,
    BADQACC,
    FREE_ROOT,
    WARNINGS,
    MasslessBodyError,
    R_to_quat,
    _MujocoModel,
    load_model,
    quat_to_R,
)
from dynval.engines.mujoco_terms import MujocoTerms

# what callers import from here: the simulation, and the model's and terms' names
__all__ = ["BADQACC", "FREE_ROOT", "WARNINGS", "MasslessBodyError", "MujocoSimulation",
           "MujocoTerms", "R_to_quat", "load_model", "quat_to_R"]


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
