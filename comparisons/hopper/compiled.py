"""The hopper's engine plants as compiled chunks, with the shared contact law or the
engine's own contact: the steps of ``HopperLoop.advance`` (comparisons/hopper/loop.py)
with an engine plant, for a number of steps without returning to Python.  Each step is
what the Python path does, call for call and operation for operation:

* ``EnginePlant.step``: the joint efforts (hip torque, leg force) and, with the shared
  law, the foot's ground force (F_x, 0, F_n) [world] at the leg link's origin, then the
  engine's step;
* ``EnginePlant.observe``: the state and the foot point in one read (the layout of
  ``flat_state``), seen in the planar coordinates (:func:`_observation`);
* ``HopperLoop._update_inputs``: handrolled/hopper/fastloop.after_step, the
  hand-rolled chunk's own post-step function; with the engine's own contact, the foot's
  force read from its contact list (``EnginePlant.native_foot_force``) and
  fastloop.after_native_step.

The engines are called through dynval.engines.mujoco_compiled (:func:`mujoco_chunk`:
MujocoSimulation.step's and flat_state's compiled passes, contact_forces' over its contact
list) and dynval.engines.pybullet_compiled (:func:`pybullet_chunk`: Bullet's C client, one
actual-state request a step, one contact-point request with native contact).  The
traces are the Python path's, bit for bit (tests/test_hopper_fast_paths.py).
"""

from __future__ import annotations

import math

import numpy as np

from dynval._numba_cache import njit
from dynval.engines import chunk_args, mujoco_compiled, pybullet_compiled
from dynval.handrolled.hopper.fast.loop import (
    LoopState,
    after_native_step,
    after_step,
    named,
    plain,
)


@njit(cache=True)
def _observation(f: np.ndarray, obs: np.ndarray) -> None:
    """EnginePlant.observe from the flat state f (p_WB, R_WB by rows, v_WB, w_WB, (theta_1,
    r), their rates, the foot's p and v), into obs (fastloop.update_inputs' order): the
    pitch is loop.pitch_of_R_WB's atan2(R_20, R_00), its rate -w_y."""
    obs[0], obs[1], obs[2] = f[0], f[2], math.atan2(f[9], f[3])
    obs[3], obs[4] = f[18], f[19]
    obs[5], obs[6], obs[7], obs[8], obs[9] = f[12], f[14], -f[16], f[20], f[21]
    obs[10], obs[11], obs[12], obs[13] = f[22], f[24], f[25], f[27]


@njit(cache=True)
def _efforts(s: LoopState, tau: np.ndarray, F_W: np.ndarray) -> None:
    """EnginePlant.step's inputs: (hip torque, leg force) into tau, the foot's force
    (F_x, 0, F_n) into F_W[0]."""
    tau[0], tau[1] = s.tau_hip, s.F_leg
    F_W[0, 0], F_W[0, 1], F_W[0, 2] = s.F_x, 0.0, s.F_n


@njit(cache=True)
def mujoco_chunk(plant: mujoco_compiled.Plant,
                 contacts: mujoco_compiled.ContactList, native_rows: np.ndarray,
                 s: tuple, t: float, dt: float, p: tuple, c: tuple, n_steps: int
                 ) -> tuple:
    """``n_steps`` of HopperLoop.advance on MuJoCo with the shared contact law (or its
    own: below): MujocoSimulation.step (mujoco_compiled.step_and_forward: the efforts,
    the foot's force at the ``plant``'s point (the leg's origin), mj_step and
    mj_forward, or mj_step2 and mj_step1 where the plant splits the step), the state and
    the foot as flat_state reads them (mujoco_compiled.state_and_points), then
    fastloop.after_step.  s, p, c: as fastloop.run_chunk's.  Returns (state, the flat
    state after the last step: what flat_state reads).

    With MuJoCo's own contact (``native_rows``: MujocoSimulation.contact_row_table of the
    leg; empty for the shared law), the step pushes nothing but the efforts, and the
    foot's force is the engine's, read from ``contacts``
    (MujocoSimulation.compiled_contacts) after each step as contact_forces sums it
    (mujoco_compiled.listed_contact_forces), for fastloop.after_native_step."""
    s, p, c = named(s, p, c)
    sim, bodies, offsets, split = plant
    native = native_rows.shape[0] > 0
    pushed = 0 if native else 1  # the foot's force: the law's, none with native contact
    tau, F_W, F_foot = np.empty(2), np.empty((1, 3)), np.empty((1, 3))
    f, obs = np.empty(18 + 2 * sim.qadr.shape[0] + 6), np.empty(14)
    for _ in range(n_steps):
        _efforts(s, tau, F_W)
        mujoco_compiled.step_and_forward(sim, tau, bodies[:pushed], offsets[:pushed],
                                         F_W[:pushed], split)
        t += dt  # mj_step's d->time += timestep
        mujoco_compiled.state_and_points(sim, bodies, offsets, f)
        _observation(f, obs)
        if native:
            F_foot[:] = 0.0
            mujoco_compiled.listed_contact_forces(sim, contacts, native_rows, F_foot)
            s = after_native_step(s, t, obs, F_foot[0, 0], F_foot[0, 2], p, c)
        else:
            s = after_step(s, t, obs, p, c)
    return plain(s), f


@njit(cache=True)
def pybullet_chunk(plant: pybullet_compiled.Plant, native_rows: np.ndarray,
                   P: np.ndarray, s: tuple, t: float, dt: float, p: tuple, c: tuple,
                   n_steps: int) -> tuple:
    """:func:`mujoco_chunk` for PyBullet: PybulletSimulation.step's commands (the efforts,
    the foot's force at its point read on this state, the step), then the state and the
    foot from one actual-state request (pybullet_compiled.state_and_points, as flat_state
    reads them), then fastloop.after_step.  P: the foot's position on this state,
    read by the caller (its row updated by each read); returns as :func:`mujoco_chunk`.
    With PyBullet's own contact (``native_rows``: PybulletSimulation.contact_row_table of
    the leg; empty for the shared law), the step pushes nothing but the efforts, and the
    foot's force is the engine's contact force, read from its contact list after each
    step (pybullet_compiled.contact_forces, as contact_forces sums it), for
    fastloop.after_native_step."""
    sim, pts, _ = plant
    s, p, c = named(s, p, c)
    nj = sim.q_index.shape[0]
    native = native_rows.shape[0] > 0
    pushed = 0 if native else 1  # the foot's force: the law's, none with native contact
    base, q, qd = np.empty(13), np.empty(nj), np.empty(nj)
    link_states = np.empty((pts.links.shape[0], pybullet_compiled.LINK_STATE_DOUBLES))
    V, F_W, tau, F_foot = np.empty((1, 3)), np.empty((1, 3)), np.empty(2), np.empty((1, 3))
    f, obs = np.empty(18 + 2 * nj + 6), np.empty(14)
    read = (plant, base, q, qd, link_states, P, V)
    for _ in range(n_steps):
        _efforts(s, tau, F_W)
        pybullet_compiled.step_with_point_forces(sim, tau, pts.point_links[:pushed],
                                                 P[:pushed], F_W[:pushed])
        t += dt  # PybulletSimulation.step's clock
        p_WB, R_WB, v_WB, w_WB = pybullet_compiled.state_and_points(*read)
        f[0:3], f[3:12], f[12:15], f[15:18] = p_WB, R_WB.ravel(), v_WB, w_WB
        f[18:18 + nj], f[18 + nj:18 + 2 * nj] = q, qd
        f[18 + 2 * nj:21 + 2 * nj], f[21 + 2 * nj:24 + 2 * nj] = P[0], V[0]
        _observation(f, obs)
        if native:
            F_foot[:] = 0.0
            pybullet_compiled.contact_forces(sim.fns, sim.client, sim.body, native_rows,
                                             F_foot)
            s = after_native_step(s, t, obs, F_foot[0, 0], F_foot[0, 2], p, c)
        else:
            s = after_step(s, t, obs, p, c)
    return plain(s), f


class EngineChunks:
    """An engine plant's compiled chunks: what the kernels take from the simulation,
    gathered once; :meth:`run` steps it.  ``native``: the engine's own contact, the
    foot's force read from its contact list after each step."""

    def __init__(self, sim, link: str, dt: float, native: bool = False) -> None:
        self.sim, self.dt, self.link = sim, dt, link
        self.offsets = np.zeros((1, 3))  # the foot: the leg link's origin
        self._foot: tuple[np.ndarray, float] | None = None  # (P, the time it was read at)
        self.points = ([link], self.offsets)  # what each step reads and pushes on
        self.plant = chunk_args.step_args(sim, [link], self.offsets)
        self._native_rows, self._contacts = chunk_args.contact_args(sim, [link], native)

    available = staticmethod(chunk_args.available)

    native_available = staticmethod(chunk_args.native_available)

    def run(self, s: tuple, t: float, p: tuple, c: tuple, n: int) -> tuple:
        """``n`` steps (:func:`mujoco_chunk` or :func:`pybullet_chunk`; s, p, c as theirs),
        the simulation told of them (MuJoCo: raises where it found its accelerations
        unstable; PyBullet: its clock advanced): (the loop's state, the flat state)."""
        sim = self.sim
        if sim.name == "mujoco":
            bad = sim.badqacc_count()
            out = mujoco_chunk(self.plant, self._contacts, self._native_rows, s, t, self.dt,
                               p, c, n)
            sim.check_stable(bad)
            return out
        # the foot's point on this state, where the first force pushes: the last chunk's
        # read where nothing has stepped the simulation since, else read here
        P = self._foot[0] if self._foot is not None and self._foot[1] == sim.time \
            else sim.points([self.link], self.offsets)[0]
        out = pybullet_chunk(self.plant, self._native_rows, P, s, t, self.dt, p, c, n)
        sim.compiled_steps_taken(n)
        self._foot = (P, sim.time)
        return out
