"""The landing gear's engine plants as compiled chunks, with the shared contact law or the
engine's own contact: the steps of ``LandingGearLoop.advance``
(comparisons/landing_gear/loop.py) with an engine plant, for a number of steps without
returning to Python.  Each step is what the Python path does, call for call and
operation for operation:

* ``EnginePlant.step``: the joint torques, the thrust F_th along P's y on the link "body"
  at its origin and each foot's force at ``foot_offset`` on its lower leg, all turned to
  W (frames.vec_W), then the engine's step;
* ``EnginePlant.observe``: the engine's state and the four feet, turned to the paper
  frame P (frames.vec_P, frames.R_PB_from_R_WB; omega_B is left out: nothing after the
  observation reads it, and the caller observes again after the chunk);
* ``LandingGearLoop._update_inputs``: handrolled/landing_gear/fastloop.update_inputs,
  the hand-rolled chunk's own post-step function; with the engine's own contact, the feet
  pushed by the engine alone (the step applies the thrust only) and their forces read
  from its contact list (``EnginePlant.native_foot_forces``), then
  fastloop.update_controls.

The frame changes are frames.py compiled from its own source (products with the
permutation R_WP: exact in any order); the engines are called through
dynval.engines.mujoco_compiled (:func:`mujoco_chunk`: MujocoSimulation.step's and
flat_state's compiled passes) and dynval.engines.pybullet_compiled
(:func:`pybullet_chunk`: Bullet's C client, one actual-state request a step).  The traces
are the Python path's, bit for bit (tests/test_landing_gear_fast_paths.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from dynval._numba_cache import njit
from dynval.comparisons.landing_gear import frames
from dynval.engines import chunk_args, mujoco_compiled, pybullet_compiled
from dynval.handrolled.landing_gear.fastloop import update_controls, update_inputs

_vec_P = njit(cache=True)(frames.vec_P)
_vec_W = njit(cache=True)(frames.vec_W)
_R_PB_from_R_WB = njit(cache=True)(frames.R_PB_from_R_WB)


@njit(cache=True)
def _forces_W(F_th: float, F_PF: np.ndarray, F_W: np.ndarray) -> None:
    """EnginePlant.step's forces in W, into the rows of F_W: the thrust (0, F_th, 0) on the
    body first, then the feet's F_PF."""
    F_W[0] = _vec_W(np.array([0.0, F_th, 0.0]))
    for k in range(F_PF.shape[0]):
        F_W[k + 1] = _vec_W(F_PF[k].copy())


@njit(cache=True)
def _after_observe(t, R_WB, v_WB, q, qd, P, V, F_native, consts, shared, F_th, t_touchdown):
    """EnginePlant.observe's conversion to P of an engine's state (the body's attitude and
    velocity in W, the joints q and qd, the feet's world points P and velocities V), then
    fastloop.update_inputs; with the engine's own contact (F_native: the feet's forces in
    W, EnginePlant.native_foot_forces; empty for the shared law), those forces turned to P
    and fastloop.update_controls: (tau, F_PF, whether the joint controller reached)."""
    R_PB = _R_PB_from_R_WB(R_WB)
    v_PB = _vec_P(v_WB)
    tau = np.empty((4, 2))
    theta, thetad = q.reshape(4, 2), qd.reshape(4, 2)
    dt, m, g = consts[0], consts[1], consts[2]
    if F_native.shape[0]:
        F_PF = _vec_P(F_native)
        ok = update_controls(t, R_PB, v_PB[1], theta, thetad, F_PF, dt, m, g, shared, F_th,
                             t_touchdown, tau)
    else:
        F_PF, ok = update_inputs(t, R_PB, v_PB[1], theta, thetad, _vec_P(P), _vec_P(V), dt,
                                 m, g, shared, F_th, t_touchdown, tau)
    return tau, F_PF, ok


@njit(cache=True)
def mujoco_chunk(fns: np.ndarray, m: np.uint64, d: np.uint64, qfrc_applied: np.ndarray,
                 dofs: np.ndarray, qpos: np.ndarray, qvel: np.ndarray, qadr: np.ndarray,
                 frames_: tuple, bodies: np.ndarray, offsets: np.ndarray, split: bool,
                 contacts: mujoco_compiled.ContactList, native_rows: np.ndarray,
                 t: np.ndarray, tau: np.ndarray, F_PF: np.ndarray, F_th: np.ndarray,
                 consts: np.ndarray, shared: tuple, t_touchdown: np.ndarray, n_steps: int
                 ) -> tuple:
    """``n_steps`` of LandingGearLoop.advance on MuJoCo with the shared contact law (or its
    own: below): MujocoSimulation.step (mujoco_compiled.step_and_forward: the torques, the forces at
    the points ``offsets`` of ``bodies``, the body first and then the feet, mj_step and
    mj_forward, or mj_step2 and mj_step1 with ``split``), the state and the feet as
    MujocoSimulation.state and points read them (mujoco_compiled.state_and_points), then
    :func:`_after_observe`.  frames_: (xpos, xmat, cvel, subtree_com, body_rootid);
    consts: dt, m, g; t, F_th and t_touchdown are 1-arrays, updated.  Returns (steps done,
    negated where the joint controller found a reference foot out of reach after the last
    of them, tau, F_PF, the state and the feet read after the last step: p_WB, R_WB row by
    row, v_WB, w_WB, q, qd, then each foot's position and velocity, the layout of
    MujocoSimulation.flat_state), as fastloop.run_chunk.

    With MuJoCo's own contact (``native_rows``: MujocoSimulation.contact_row_table of the
    feet; empty for the shared law), the step pushes with the thrust alone, and the feet's
    forces are the engine's, read from ``contacts`` (MujocoSimulation.compiled_contacts)
    after each step as contact_forces sums them (mujoco_compiled.listed_contact_forces),
    for :func:`_after_observe`."""
    xpos, xmat, cvel, subtree_com, body_rootid = frames_
    nj, nf = qadr.shape[0], bodies.shape[0] - 1
    native = native_rows.shape[0] > 0
    feet, foot_offsets = bodies[1:].copy(), offsets[1:].copy()
    F_W, out = np.empty((nf + 1, 3)), np.empty(18 + 2 * nj + 6 * nf)
    pushed = 1 if native else nf + 1  # the thrust alone with the engine's own contact
    F_feet = np.empty((nf if native else 0, 3))  # the engine's, or none: the law's
    for step in range(n_steps):
        _forces_W(F_th[0], F_PF, F_W)
        mujoco_compiled.step_and_forward(fns, m, d, qfrc_applied, dofs, tau.ravel(), xpos,
                                         xmat, bodies[:pushed], offsets[:pushed],
                                         F_W[:pushed], split)
        t[0] += consts[0]  # mj_step's d->time += timestep
        mujoco_compiled.state_and_points(fns, qpos, qvel, qadr, dofs, xpos, xmat, cvel,
                                         subtree_com, body_rootid, feet, foot_offsets, out)
        if native:
            F_feet[:] = 0.0
            mujoco_compiled.listed_contact_forces(fns, m, d, contacts, native_rows, F_feet)
        PV = out[18 + 2 * nj:].reshape(nf, 6)
        tau, F_PF, ok = _after_observe(
            t[0], out[3:12].copy().reshape(3, 3), out[12:15].copy(),
            out[18:18 + nj].copy(), out[18 + nj:18 + 2 * nj].copy(),
            np.ascontiguousarray(PV[:, 0:3]), np.ascontiguousarray(PV[:, 3:6]), F_feet,
            consts, shared, F_th, t_touchdown)
        if not ok:
            return -(step + 1), tau, F_PF, out
    return n_steps, tau, F_PF, out


@njit(cache=True)
def pybullet_chunk(fns: np.ndarray, client: np.uint64, body: int, q_index: np.ndarray,
                   u_index: np.ndarray, p_BI: np.ndarray, R_BI: np.ndarray,
                   links: np.ndarray, rows: np.ndarray, R_LI_T: np.ndarray,
                   point_links: np.ndarray, offsets: np.ndarray, native_rows: np.ndarray,
                   t: np.ndarray, tau: np.ndarray, F_PF: np.ndarray, F_th: np.ndarray,
                   consts: np.ndarray, shared: tuple, t_touchdown: np.ndarray, n_steps: int
                   ) -> tuple:
    """:func:`mujoco_chunk` for PyBullet: PybulletSimulation.step's commands (the torques,
    the body's and the feet's forces at their points read on this state, the step), then
    its state and the feet from one actual-state request (PybulletSimulation.state and
    points: the same numbers; the body's origin is p_WB + R_WB 0, as the Python path
    reads it for the thrust), then :func:`_after_observe`.  The points: the body's origin,
    then the feet (PybulletSimulation.compiled_points of ["body", *feet]); the state and the
    feet after the last step come back as :func:`mujoco_chunk` returns them.

    With PyBullet's own contact (``native_rows``: PybulletSimulation.contact_row_table of
    the feet; empty for the shared law), the step pushes with the thrust alone, and the
    feet's forces are the engine's contact forces, read from its contact list after each
    step (pybullet_compiled.contact_forces, as contact_forces sums them), for
    :func:`_after_observe`."""
    nj, npts = q_index.shape[0], offsets.shape[0]
    native = native_rows.shape[0] > 0
    base, q, qd = np.empty(13), np.empty(nj), np.empty(nj)
    link_states = np.empty((links.shape[0], pybullet_compiled.LINK_STATE_DOUBLES))
    P, V, F_W = np.empty((npts, 3)), np.empty((npts, 3)), np.empty((npts, 3))
    pushed = 1 if native else npts  # the thrust alone with the engine's own contact
    F_feet = np.empty((npts - 1 if native else 0, 3))  # the engine's, or none: the law's
    read = (fns, client, body, q_index, u_index, p_BI, R_BI, links, rows, R_LI_T, offsets,
            base, q, qd, link_states, P, V)
    # the points on this state, where the forces push
    p_WB, R_WB, v_WB, w_WB = pybullet_compiled.state_and_points(*read)
    for step in range(n_steps):
        _forces_W(F_th[0], F_PF, F_W)
        pybullet_compiled.step_with_point_forces(fns, client, body, u_index, tau.ravel(),
                                                 point_links[:pushed], P[:pushed],
                                                 F_W[:pushed])
        t[0] += consts[0]  # PybulletSimulation.step's clock
        p_WB, R_WB, v_WB, w_WB = pybullet_compiled.state_and_points(*read)
        if native:
            F_feet[:] = 0.0
            pybullet_compiled.contact_forces(fns, client, body, native_rows, F_feet)
        tau, F_PF, ok = _after_observe(t[0], R_WB, v_WB, q, qd, P[1:].copy(), V[1:].copy(),
                                       F_feet, consts, shared, F_th, t_touchdown)
        if not ok:
            return -(step + 1), tau, F_PF, _flat(p_WB, R_WB, v_WB, w_WB, q, qd, P[1:], V[1:])
    return n_steps, tau, F_PF, _flat(p_WB, R_WB, v_WB, w_WB, q, qd, P[1:], V[1:])


@njit(cache=True)
def _flat(p_WB, R_WB, v_WB, w_WB, q, qd, P, V):
    """A state and points side by side, as mujoco_compiled.state_and_points lays them out
    (PybulletSimulation.flat_state's layout)."""
    nj = q.shape[0]
    out = np.empty(18 + 2 * nj + 6 * P.shape[0])
    out[0:3], out[3:12], out[12:15], out[15:18] = p_WB, R_WB.ravel(), v_WB, w_WB
    out[18:18 + nj], out[18 + nj:18 + 2 * nj] = q, qd
    for k in range(P.shape[0]):
        out[18 + 2 * nj + 6 * k:21 + 2 * nj + 6 * k] = P[k]
        out[21 + 2 * nj + 6 * k:24 + 2 * nj + 6 * k] = V[k]
    return out


# What mujoco_chunk reads as the contact list where MuJoCo's is not found: never read (no
# native_rows), of the same types as the list's views, so that the chunk compiles once
_NO_CONTACTS = mujoco_compiled.ContactList(
    np.zeros(1, dtype=np.int32), np.zeros((2, 4), dtype=np.int32)[:, :2],
    np.zeros((2, 18))[:, :9])


class EngineChunks:
    """An engine plant's compiled chunks: what the kernels take from the simulation,
    gathered once; :meth:`run` steps it.  ``native``: the engine's own contact, its
    forces read from its contact list after each step."""

    def __init__(self, sim, foot_links: Sequence[str], foot_offset: np.ndarray,
                 dt: float, m: float, g: float, native: bool = False) -> None:
        self.sim = sim
        links = ["body", *foot_links]
        self.offsets = np.vstack([np.zeros(3), np.tile(foot_offset, (len(foot_links), 1))])
        self.consts = np.array([dt, m, g])
        self.points = (links, self.offsets)  # what each step reads and pushes on
        self._args = chunk_args.step_args(sim, links, self.offsets)
        if native and not self.native_available(sim):
            raise ValueError("compiled chunks with an engine's own contact need its contact "
                             "list at hand in compiled code")
        self._native_rows = sim.contact_row_table(tuple(foot_links)) if native \
            else np.empty(0, dtype=np.int64)
        if sim.name == "mujoco":
            self._contacts = sim.compiled_contacts() or _NO_CONTACTS

    available = staticmethod(chunk_args.available)

    @staticmethod
    def native_available(sim) -> bool:
        """Whether the chunks can run ``sim`` with its own contact: PyBullet's C client,
        or MuJoCo's library and its contact list (MujocoSimulation.compiled_contacts)."""
        return chunk_args.available(sim) and (
            sim.name == "pybullet" or sim.compiled_contacts() is not None)

    def run(self, t: np.ndarray, tau: np.ndarray, F_PF: np.ndarray, F_th: np.ndarray,
            shared: tuple, t_touchdown: np.ndarray, n: int) -> tuple:
        """``n`` steps (:func:`mujoco_chunk` or :func:`pybullet_chunk`), the simulation told
        of them (MuJoCo: raises where it found its accelerations unstable; PyBullet: its
        clock advanced): (steps done, negated where the joint controller gave up, tau,
        F_PF, the state and the feet after the last step as the chunks return them)."""
        sim = self.sim
        if sim.name == "mujoco":
            bad = sim.badqacc_count()
            out = mujoco_chunk(*self._args, self._contacts, self._native_rows, t, tau, F_PF,
                               F_th, self.consts, shared, t_touchdown, n)
            sim.check_stable(bad)
        else:
            out = pybullet_chunk(*self._args, self._native_rows, t, tau, F_PF, F_th,
                                 self.consts, shared, t_touchdown, n)
            sim.compiled_steps_taken(abs(out[0]))
        return out
