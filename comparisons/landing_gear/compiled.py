"""The landing gear's engine plants as compiled chunks, with the shared contact law or the
engine's own contact: the steps of ``LandingGearLoop.advance``
(comparisons/landing_gear/loop.py) with an engine plant, for a number of steps without
returning to Python.  Each step is what the Python path does, call for call and
operation for operation:

* ``EnginePlant.step``: the joint torques, the thrust F_th along P's y on the link "body"
  at its origin and each foot's force l_L along its lower leg (the plant's contact
  points, ``loop.contact_points``), all turned to W (frames.vec_W), then the engine's
  step;
* ``EnginePlant.observe``: the engine's state and the four feet, turned to the paper
  frame P (frames.vec_P, frames.R_PB_from_R_WB; omega_B is left out: nothing after the
  observation reads it, and the caller turns the last state the chunk read with
  EnginePlant.observation);
* ``LandingGearLoop._update_inputs``: handrolled/landing_gear/fastloop.update_inputs,
  the hand-rolled chunk's own post-step function; with the engine's own contact, the feet
  pushed by the engine alone (the step applies the thrust only) and their forces read
  from its contact list (``EnginePlant.native_foot_forces``), then
  fastloop.update_controls.

The frame changes are frames.py's products with R_WP written out sum by sum
(:func:`_P_of`, :func:`_W_of`): R_WP permutes the axes, so each sum has one nonzero
term and is exact, the float the product gives; the engines are called through
dynval.engines.mujoco_compiled (:func:`mujoco_chunk`: MujocoSimulation.step's and
flat_state's compiled passes) and dynval.engines.pybullet_compiled
(:func:`pybullet_chunk`: Bullet's C client, one actual-state request a step).  The traces
are the Python path's, bit for bit (tests/test_landing_gear_fast_paths.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from dynval._numba_cache import njit
from dynval.engines import chunk_args, mujoco_compiled, pybullet_compiled
from dynval.handrolled.landing_gear.fast.loop import update_controls, update_inputs
from dynval.robots.landing_gear.params import R_WP


@njit(cache=True, inline="always")
def _P_of(v0: float, v1: float, v2: float, j: int) -> float:
    """Component j of frames.vec_P of the W-vector (v0, v1, v2): the sum of v_W R_WP
    written out, accumulated from +0 as BLAS accumulates a product.  R_WP permutes the
    axes, so the sum has one nonzero term and is exact: the float the product gives (a
    zero comes out +0 either way), without its call."""
    return 0.0 + v0 * R_WP[0, j] + v1 * R_WP[1, j] + v2 * R_WP[2, j]


@njit(cache=True, inline="always")
def _W_of(v0: float, v1: float, v2: float, j: int) -> float:
    """Component j of frames.vec_W of the P-vector (v0, v1, v2): v_P R_WP^T, as
    :func:`_P_of` sums it."""
    return 0.0 + v0 * R_WP[j, 0] + v1 * R_WP[j, 1] + v2 * R_WP[j, 2]


@njit(cache=True, inline="always")
def _R_PB_into(flat: np.ndarray, R_PB: np.ndarray) -> None:
    """frames.R_PB_from_R_WB of R_WB = flat[3:12] (row by row) into R_PB: R_WP^T R_WB,
    then that times R_WP, each product's sums as :func:`_P_of` sums them."""
    A = np.empty((3, 3))
    for i in range(3):
        for j in range(3):
            A[i, j] = 0.0 + R_WP[0, i] * flat[3 + j] + R_WP[1, i] * flat[6 + j] \
                + R_WP[2, i] * flat[9 + j]
    for i in range(3):
        for j in range(3):
            R_PB[i, j] = _P_of(A[i, 0], A[i, 1], A[i, 2], j)


@njit(cache=True)
def _forces_W(F_th: float, F_PF: np.ndarray, F_W: np.ndarray) -> None:
    """EnginePlant.step's forces in W, into the rows of F_W: the thrust (0, F_th, 0) on the
    body first, then the feet's F_PF."""
    for j in range(3):
        F_W[0, j] = _W_of(0.0, F_th, 0.0, j)
        for k in range(F_PF.shape[0]):
            F_W[k + 1, j] = _W_of(F_PF[k, 0], F_PF[k, 1], F_PF[k, 2], j)


@njit(cache=True)
def _after_observe(t, flat, F_native, consts, shared, F_th, t_touchdown, tau):
    """EnginePlant.observe's conversion to P of an engine's state and feet (``flat``: p_WB,
    R_WB row by row, v_WB, w_WB, the joints q and qd, then each foot's world position and
    velocity), then fastloop.update_inputs, the torques into ``tau``; with the engine's
    own contact (F_native: the feet's forces in W, EnginePlant.native_foot_forces; empty
    for the shared law), those forces turned to P and fastloop.update_controls: (F_PF,
    whether the joint controller reached)."""
    n_legs = tau.shape[0]
    nj, feet = 2 * n_legs, 18 + 4 * n_legs  # q, qd; where the feet begin
    R_PB = np.empty((3, 3))
    _R_PB_into(flat, R_PB)
    ydot = _P_of(flat[12], flat[13], flat[14], 1)  # frames.vec_P(v_WB)[1]
    theta, thetad = np.empty((n_legs, 2)), np.empty((n_legs, 2))
    for i in range(n_legs):
        for j in range(2):
            theta[i, j], thetad[i, j] = flat[18 + 2 * i + j], flat[18 + nj + 2 * i + j]
    dt, m, g = consts[0], consts[1], consts[2]
    if F_native.shape[0]:
        F_PF = np.empty((n_legs, 3))
        for k in range(n_legs):
            for j in range(3):
                F_PF[k, j] = _P_of(F_native[k, 0], F_native[k, 1], F_native[k, 2], j)
        ok = update_controls(t, R_PB, ydot, theta, thetad, F_PF, dt, m, g, shared, F_th,
                             t_touchdown, tau)
        return F_PF, ok
    p_PF, v_PF = np.empty((n_legs, 3)), np.empty((n_legs, 3))
    for k in range(n_legs):
        b = feet + 6 * k
        for j in range(3):
            p_PF[k, j] = _P_of(flat[b], flat[b + 1], flat[b + 2], j)
            v_PF[k, j] = _P_of(flat[b + 3], flat[b + 4], flat[b + 5], j)
    return update_inputs(t, R_PB, ydot, theta, thetad, p_PF, v_PF, dt, m, g, shared, F_th,
                         t_touchdown, tau)


@njit(cache=True)
def _observed(flat: np.ndarray, n_legs: int) -> np.ndarray:
    """EnginePlant.observe's numbers in P from an engine's flat state (as
    :func:`_after_observe` reads it), the frames turned by :func:`_P_of`'s sums: p_PB,
    R_PB row by row, v_PB, the body's angular velocity in P (omega_B = R_PB^T of it), the
    joints' theta and thetad (leg by leg), then the feet's positions and velocities (rows
    of 3 each)."""
    feet = 18 + 4 * n_legs  # where the feet begin
    out, R_PB = np.empty(feet + 6 * n_legs), np.empty((3, 3))
    _R_PB_into(flat, R_PB)
    for j in range(3):
        out[j] = _P_of(flat[0], flat[1], flat[2], j)
        for i in range(3):
            out[3 + 3 * i + j] = R_PB[i, j]
        out[12 + j] = _P_of(flat[12], flat[13], flat[14], j)
        out[15 + j] = _P_of(flat[15], flat[16], flat[17], j)
    out[18:feet] = flat[18:feet]
    for k in range(n_legs):
        b = feet + 6 * k
        for j in range(3):
            out[feet + 3 * k + j] = _P_of(flat[b], flat[b + 1], flat[b + 2], j)
            out[feet + 3 * n_legs + 3 * k + j] = _P_of(flat[b + 3], flat[b + 4],
                                                       flat[b + 5], j)
    return out


@njit(cache=True)
def mujoco_chunk(plant: mujoco_compiled.Plant,
                 contacts: mujoco_compiled.ContactList, native_rows: np.ndarray,
                 t: np.ndarray, tau: np.ndarray, F_PF: np.ndarray, F_th: np.ndarray,
                 consts: np.ndarray, shared: tuple, t_touchdown: np.ndarray, n_steps: int
                 ) -> tuple:
    """``n_steps`` of LandingGearLoop.advance on MuJoCo with the shared contact law (or its
    own: below): MujocoSimulation.step (mujoco_compiled.step_and_forward: the torques, the
    forces at the ``plant``'s points, the body first and then the feet, mj_step and
    mj_forward, or mj_step2 and mj_step1 where the plant splits the step), the state and
    the feet as MujocoSimulation.state and points read them
    (mujoco_compiled.state_and_points), then :func:`_after_observe`.  consts: dt, m, g;
    t, F_th and t_touchdown are 1-arrays, updated.  Returns (steps done,
    negated where the joint controller found a reference foot out of reach after the last
    of them, tau, F_PF, the state and the feet read after the last step in P,
    :func:`_observed`), as fastloop.run_chunk.

    With MuJoCo's own contact (``native_rows``: MujocoSimulation.contact_row_table of the
    feet; empty for the shared law), the step pushes with the thrust alone, and the feet's
    forces are the engine's, read from ``contacts`` (MujocoSimulation.compiled_contacts)
    after each step as contact_forces sums them (mujoco_compiled.listed_contact_forces),
    for :func:`_after_observe`."""
    sim, bodies, offsets, split = plant
    nj, nf = sim.qadr.shape[0], bodies.shape[0] - 1
    native = native_rows.shape[0] > 0
    feet, foot_offsets = bodies[1:].copy(), offsets[1:].copy()
    F_W, out = np.empty((nf + 1, 3)), np.empty(18 + 2 * nj + 6 * nf)
    pushed = 1 if native else nf + 1  # the thrust alone with the engine's own contact
    on, at, F_at = bodies[:pushed], offsets[:pushed], F_W[:pushed]
    F_feet = np.empty((nf if native else 0, 3))  # the engine's, or none: the law's
    tau = tau.copy()  # the torques of each step, then the next step's from the controller
    efforts = tau.reshape(nj)
    mujoco_compiled.state_and_points(sim, feet, foot_offsets, out)
    for step in range(n_steps):
        _forces_W(F_th[0], F_PF, F_W)
        mujoco_compiled.step_and_forward(sim, efforts, on, at, F_at, split)
        t[0] += consts[0]  # mj_step's d->time += timestep
        mujoco_compiled.state_and_points(sim, feet, foot_offsets, out)
        if native:
            F_feet[:] = 0.0
            mujoco_compiled.listed_contact_forces(sim, contacts, native_rows, F_feet)
        F_PF, ok = _after_observe(t[0], out, F_feet, consts, shared, F_th, t_touchdown, tau)
        if not ok:
            return -(step + 1), tau, F_PF, _observed(out, nf)
    return n_steps, tau, F_PF, _observed(out, nf)


@njit(cache=True)
def pybullet_chunk(plant: pybullet_compiled.Plant, native_rows: np.ndarray,
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
    sim, pts, offsets = plant
    nj, npts = sim.q_index.shape[0], offsets.shape[0]
    native = native_rows.shape[0] > 0
    base, q, qd = np.empty(13), np.empty(nj), np.empty(nj)
    link_states = np.empty((pts.links.shape[0], pybullet_compiled.LINK_STATE_DOUBLES))
    P, V, F_W = np.empty((npts, 3)), np.empty((npts, 3)), np.empty((npts, 3))
    out = np.empty(18 + 2 * nj + 6 * (npts - 1))
    pushed = 1 if native else npts  # the thrust alone with the engine's own contact
    on, at, F_at = pts.point_links[:pushed], P[:pushed], F_W[:pushed]
    F_feet = np.empty((npts - 1 if native else 0, 3))  # the engine's, or none: the law's
    tau = tau.copy()  # the torques of each step, then the next step's from the controller
    efforts = tau.reshape(nj)
    read = (plant, base, q, qd, link_states, P, V)
    # the points on this state, where the forces push
    _flat_into(pybullet_compiled.state_and_points(*read), q, qd, P, V, out)
    for step in range(n_steps):
        _forces_W(F_th[0], F_PF, F_W)
        pybullet_compiled.step_with_point_forces(sim, efforts, on, at, F_at)
        t[0] += consts[0]  # PybulletSimulation.step's clock
        _flat_into(pybullet_compiled.state_and_points(*read), q, qd, P, V, out)
        if native:
            F_feet[:] = 0.0
            pybullet_compiled.contact_forces(sim.fns, sim.client, sim.body, native_rows,
                                             F_feet)
        F_PF, ok = _after_observe(t[0], out, F_feet, consts, shared, F_th, t_touchdown, tau)
        if not ok:
            return -(step + 1), tau, F_PF, _observed(out, npts - 1)
    return n_steps, tau, F_PF, _observed(out, npts - 1)


@njit(cache=True)
def _flat_into(frame: tuple, q: np.ndarray, qd: np.ndarray, P: np.ndarray, V: np.ndarray,
               out: np.ndarray) -> None:
    """The base frame (p_WB, R_WB, v_WB, w_WB), the joints and the points after the first
    (the body's origin) side by side in ``out``, as mujoco_compiled.state_and_points lays
    them out (PybulletSimulation.flat_state of the feet)."""
    p_WB, R_WB, v_WB, w_WB = frame
    nj = q.shape[0]
    for i in range(3):
        out[i], out[12 + i], out[15 + i] = p_WB[i], v_WB[i], w_WB[i]
        for j in range(3):
            out[3 + 3 * i + j] = R_WB[i, j]
    for i in range(nj):
        out[18 + i], out[18 + nj + i] = q[i], qd[i]
    for k in range(1, P.shape[0]):
        b = 18 + 2 * nj + 6 * (k - 1)
        for i in range(3):
            out[b + i], out[b + 3 + i] = P[k, i], V[k, i]


class EngineChunks:
    """An engine plant's compiled chunks: what the kernels take from the simulation,
    gathered once; :meth:`run` steps it.  ``native``: the engine's own contact, its
    forces read from its contact list after each step."""

    def __init__(self, sim, links: Sequence[str], offsets: np.ndarray,
                 dt: float, m: float, g: float, native: bool = False) -> None:
        """``links`` and ``offsets``: the plant's contact points, the body's origin (where
        the thrust acts) first, then the feet."""
        self.sim = sim
        links = list(links)
        self.offsets = np.array(offsets, dtype=float)
        self.consts = np.array([dt, m, g])
        self.points = (links, self.offsets)  # what each step reads and pushes on
        self.plant = chunk_args.step_args(sim, links, self.offsets)
        self._native_rows, self._contacts = chunk_args.contact_args(sim, links[1:], native)

    available = staticmethod(chunk_args.available)

    native_available = staticmethod(chunk_args.native_available)

    def run(self, t: np.ndarray, tau: np.ndarray, F_PF: np.ndarray, F_th: np.ndarray,
            shared: tuple, t_touchdown: np.ndarray, n: int) -> tuple:
        """``n`` steps (:func:`mujoco_chunk` or :func:`pybullet_chunk`), the simulation told
        of them (MuJoCo: raises where it found its accelerations unstable; PyBullet: its
        clock advanced): (steps done, negated where the joint controller gave up, tau,
        F_PF, the state and the feet after the last step in P: compiled._observed)."""
        sim = self.sim
        if sim.name == "mujoco":
            bad = sim.badqacc_count()
            out = mujoco_chunk(self.plant, self._contacts, self._native_rows, t, tau, F_PF,
                               F_th, self.consts, shared, t_touchdown, n)
            sim.check_stable(bad)
        else:
            out = pybullet_chunk(self.plant, self._native_rows, t, tau, F_PF, F_th,
                                 self.consts, shared, t_touchdown, n)
            sim.compiled_steps_taken(abs(out[0]))
        return out
