"""PyBullet adapter: a tree stepped in time (floating or fixed base) with joint torques and
point forces, read and stepped through Bullet's C API where it is at hand
(dynval.engines.pybullet_compiled). The loading and the frame conventions are
dynval.engines.pybullet_client's."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from operator import itemgetter
from pathlib import Path

import numpy as np
import pybullet

from dynval.engines import pybullet_compiled
from dynval.engines.base import FloatingState, Ground, PointForce, cross3
from dynval.engines.pybullet_client import PybulletClient, R_to_quat_xyzw, quat_xyzw_to_R, turn
from dynval.engines.pybullet_compiled import CompiledPoints, CompiledPybullet

_NO_LINKS = np.zeros(0, dtype=np.int64)  # an actual-state request for the state alone
_NO_POINTS = np.zeros((0, 3))  # a step without external forces


class PybulletSimulation(PybulletClient):
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
        self.R_BI = quat_xyzw_to_R(info[4])
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
                                       baseOrientation=R_to_quat_xyzw(R))
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
            c.resetBasePositionAndOrientation(self.body, list(p_WI), R_to_quat_xyzw(R_WI))
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
        R_WI = quat_xyzw_to_R(q_WI)
        R_WB = turn(R_WI, self.R_BI.T)
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
                    R_LI_T = self._R_LI_T[li] = quat_xyzw_to_R(ls[3]).T
                R_WL = turn(quat_xyzw_to_R(ls[1]), R_LI_T)
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
        pybullet_compiled.observe(c, links, base, q, qd, states)
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
        P, V = np.empty((len(links), 3)), np.empty((len(links), 3))
        pybullet_compiled.points(states, plan.rows, plan.R_LI_T, s.p_WB, s.R_WB, s.v_WB_W,
                                 s.w_WB_W, offsets, P, V)
        if self._state is None:  # the same numbers a state() read gives
            self._state = s
            for a in vars(s).values():
                a.setflags(write=False)
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
        pybullet_compiled.step_with_point_forces(
            self._c, np.asarray(tau, dtype=float).reshape(-1), links, P, F)
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
                self._R_LI_T.setdefault(int(li), quat_xyzw_to_R(ls[3]).T)
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
