"""The hexapod's engine comparison loops as compiled loops over many steps: the shared
laws of dynval.handrolled.hexapod.fast.loop (ground with the touchdown points, body
springs, plan, FO controller, saturation, drives) evaluated from the engine's joints and
feet, the slide forces, link torques and foot forces applied and the engine stepped,
without returning to Python. With the engine's own contact (native), no foot force is
applied and the feet's forces are read from its contact list after each step, as
EnginePlant.native_feet_forces reads them. The same arithmetic as HexapodLoop.advance
with the EnginePlant (held to it by tests/test_hexapod_loop_fast.py):

* MuJoCo (:func:`mujoco_steps`, dynval.engines.mujoco_compiled): MujocoSimulation.step's
  calls (mujoco_compiled.step_and_forward: mj_step2 then mj_step1, MuJoCo's split of
  mj_step + mj_forward, where MujocoSimulation.split_step allows it; with native contact
  mj_step and mj_forward), the native forces by mujoco_compiled.listed_contact_forces;
* PyBullet (:func:`pybullet_steps`, dynval.engines.pybullet_compiled): Bullet's C client,
  the commands of PybulletSimulation's reads and step, one actual-state request a step,
  the native forces by pybullet_compiled.contact_forces.
"""

from __future__ import annotations

import numpy as np

from dynval._numba_cache import njit
from dynval.engines import mujoco_compiled, pybullet_compiled
from dynval.handrolled.hexapod.fast.loop import Laws, LoopState, after_step


@njit(cache=True)
def mujoco_steps(plant: mujoco_compiled.Plant, off: np.ndarray,
                 contacts: mujoco_compiled.ContactList, native_rows: np.ndarray,
                 state: LoopState, laws: Laws, steps: int, t: float, count: int
                 ) -> tuple[float, int]:
    """``count`` steps of HexapodLoop.advance on MuJoCo, the loop's ``state`` in place
    (fastloop.LoopState; ``laws``: fastloop.Laws): EnginePlant.step (efforts on the slides
    and hinges, the feet's nonzero forces at their centres; mujoco_compiled.step_and_forward
    with MujocoSimulation.split_step's ``split``), EnginePlant.read (q + off, the feet by
    points), with MuJoCo's own contact (``native_rows``: MujocoSimulation.contact_row_table
    of the feet; empty for the shared ground) no foot force applied and the feet's forces
    read from ``contacts`` (MujocoSimulation.compiled_contacts) as
    EnginePlant.native_feet_forces reads them, then fastloop.after_step. Returns (t,
    impacts)."""
    F_feet, F_seg, tau_link, dt = state.F_feet, state.F_seg, state.tau_link, laws.dt
    sim, bodies, offsets, split = plant  # offsets: zeros, the feet's centres
    qpos, qvel, qadr, dofs = sim.qpos, sim.qvel, sim.qadr, sim.dofs
    nb, nq = bodies.shape[0], off.shape[0]
    native = native_rows.shape[0] > 0
    P, V, R = np.empty((nb, 3)), np.empty((nb, 3)), np.empty((nb, 3, 3))
    q_new, qd_new, feet, feet_v = np.empty(nq), np.empty(nq), np.empty((nb, 2)), \
        np.empty((nb, 2))
    F_native = np.empty((nb, 3))
    mujoco_compiled.points(sim, bodies, offsets, P, V, R)
    hits = 0
    for _ in range(count):
        sel, F_W = _pushed(F_feet, native)
        mujoco_compiled.step_and_forward(sim, np.concatenate((F_seg.ravel(), tau_link)),
                                         bodies[sel], offsets[sel], F_W, split)
        t += dt
        steps += 1
        for r in range(nq):
            q_new[r] = qpos[qadr[r]] + off[r]
            qd_new[r] = qvel[dofs[r]]
        mujoco_compiled.points(sim, bodies, offsets, P, V, R)
        _feet(P, V, feet, feet_v)
        if native:
            F_native[:] = 0.0
            mujoco_compiled.listed_contact_forces(sim, contacts, native_rows, F_native)
            _native_feet(F_native, F_feet)
        hits += after_step(state, laws, q_new, qd_new, feet, feet_v, steps, t)
    return t, hits


@njit(cache=True)
def _pushed(F_feet: np.ndarray, native: bool) -> tuple[np.ndarray, np.ndarray]:
    """EnginePlant.step's forces: the feet with a nonzero ground force (F.any()) and that
    force in world axes, (F_x, 0, F_y); none with the engine's own contact (the loop's
    F_applied is zero)."""
    pushed = np.zeros(F_feet.shape[0], np.bool_)
    for i in range(F_feet.shape[0]):
        pushed[i] = not native and (F_feet[i, 0] != 0.0 or F_feet[i, 1] != 0.0)
    sel = np.nonzero(pushed)[0]
    F_W = np.zeros((sel.shape[0], 3))
    for j in range(sel.shape[0]):
        F_W[j, 0], F_W[j, 2] = F_feet[sel[j], 0], F_feet[sel[j], 1]
    return sel, F_W


@njit(cache=True)
def _feet(P: np.ndarray, V: np.ndarray, feet: np.ndarray, feet_v: np.ndarray) -> None:
    """EnginePlant.read's feet: world (x, z) as the paper's (x, y)."""
    for i in range(P.shape[0]):
        feet[i, 0], feet[i, 1] = P[i, 0], P[i, 2]
        feet_v[i, 0], feet_v[i, 1] = V[i, 0], V[i, 2]


@njit(cache=True)
def _native_feet(F_W: np.ndarray, F_feet: np.ndarray) -> None:
    """EnginePlant.native_feet_forces: the engine's world forces (x, z) on the feet as
    the paper's (x, y)."""
    for i in range(F_W.shape[0]):
        F_feet[i, 0], F_feet[i, 1] = F_W[i, 0], F_W[i, 2]


@njit(cache=True)
def pybullet_steps(plant: pybullet_compiled.Plant, off: np.ndarray, native_rows: np.ndarray,
                   state: LoopState, laws: Laws, steps: int, t: float, count: int
                   ) -> tuple[float, int]:
    """:func:`mujoco_steps` for PyBullet: EnginePlant.step (PybulletSimulation.step's
    commands: the efforts, the feet's nonzero forces at the points read on this state, the
    step), EnginePlant.read (one actual-state request with the feet's links, their points
    as PybulletSimulation.points computes them), with PyBullet's own contact
    (``native_rows``: PybulletSimulation.contact_row_table of the feet; empty for the
    shared ground) no foot force applied and the feet's forces read from its contact
    points (pybullet_compiled.contact_forces, the sums of contact_forces), then
    fastloop.after_step."""
    sim, pts, _ = plant  # the plant's offsets: zeros, the feet's centres
    F_feet, F_seg, tau_link, dt = state.F_feet, state.F_seg, state.tau_link, laws.dt
    nb, nj = pts.point_links.shape[0], sim.q_index.shape[0]
    native = native_rows.shape[0] > 0
    F_native = np.empty((nb, 3))
    base, qe, qde = np.empty(13), np.empty(nj), np.empty(nj)
    link_states = np.empty((pts.links.shape[0], pybullet_compiled.LINK_STATE_DOUBLES))
    P, V = np.empty((nb, 3)), np.empty((nb, 3))
    q_new, feet, feet_v = np.empty(nj), np.empty((nb, 2)), np.empty((nb, 2))
    read = (plant, base, qe, qde, link_states, P, V)
    pybullet_compiled.state_and_points(*read)  # the points on this state, where forces push
    hits = 0
    for _ in range(count):
        sel, F_W = _pushed(F_feet, native)
        pybullet_compiled.step_with_point_forces(
            sim, np.concatenate((F_seg.ravel(), tau_link)), pts.point_links[sel], P[sel], F_W)
        t += dt
        steps += 1
        pybullet_compiled.state_and_points(*read)
        for r in range(nj):
            q_new[r] = qe[r] + off[r]
        _feet(P, V, feet, feet_v)
        if native:
            F_native[:] = 0.0
            pybullet_compiled.contact_forces(sim.fns, sim.client, sim.body, native_rows,
                                             F_native)
            _native_feet(F_native, F_feet)
        hits += after_step(state, laws, q_new, qde, feet, feet_v, steps, t)
    return t, hits
