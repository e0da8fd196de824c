"""MuJoCo's step callable from numba-compiled loops, so that a loop whose forces come from
shared code (the rover's wheel-soil law) runs many steps without returning to Python.

The Python bindings' per-call cost (a few microseconds per ``mj_*`` call, more for every
array read) is many times the physics of a small tree (2 us a step for the rover).  Here
``mj_step``, ``mj_step1``, ``mj_step2``, ``mj_applyFT`` and the rest of
:func:`step_addresses` are taken from the very libmujoco the bindings loaded and called
by address (dynval.engines.ccall: numba unboxes a ctypes function object on every call
from Python, 1-2 us apiece); the state, and the native contacts' list
(:func:`contact_list`), are read from the bindings' own array views of mjData, which
live as long as the data.  One step is ``mj_step2`` then ``mj_step1``:
MuJoCo's documented split of ``mj_step`` (Euler: identical numbers), which leaves the
positions and velocities of the new time computed, as ``MujocoSimulation.step``'s
``mj_forward`` does.  Engine calls stay in this layer: loops call :func:`points` and
:func:`step_with_point_forces`, never MuJoCo itself.
"""

from __future__ import annotations

import ctypes
from functools import cache
from pathlib import Path
from typing import NamedTuple

import mujoco
import numpy as np

from dynval._numba_cache import njit
from dynval.engines import ccall


@cache
def _library() -> ctypes.CDLL | None:
    """The libmujoco next to the bindings (the one they loaded), or None where it is not
    found."""
    here = Path(mujoco.__file__).parent
    found = [f for pattern in ("libmujoco.so*", "libmujoco*.dylib", "mujoco.dll")
             for f in sorted(here.glob(pattern))]
    return ctypes.CDLL(str(found[0])) if found else None


# The functions compiled code calls, by index in the array :func:`step_addresses` returns
# (addresses, not ctypes objects, which numba unboxes on every call: dynval.engines.ccall)
MJ_STEP, MJ_FORWARD, MJ_APPLY_FT, MJ_STEP1, MJ_STEP2, MJ_CONTACT_FORCE, MJU_QUAT2MAT = range(7)


@cache
def step_addresses() -> np.ndarray | None:
    """The addresses of mj_step, mj_forward, mj_applyFT, mj_step1, mj_step2,
    mj_contactForce and mju_quat2Mat in the libmujoco the bindings loaded (uint64, by the
    indices above), or None where that library is not found."""
    lib = _library()
    if lib is None:
        return None
    return np.array([ccall.address(getattr(lib, name))
                     for name in ("mj_step", "mj_forward", "mj_applyFT", "mj_step1",
                                  "mj_step2", "mj_contactForce", "mju_quat2Mat")],
                    dtype=np.uint64)


@njit(cache=True)
def points(sim: CompiledMujoco, bodies: np.ndarray, offsets: np.ndarray, P: np.ndarray,
           V: np.ndarray, R: np.ndarray) -> None:
    """World position P[k], velocity V[k] and attitude R[k] of the link of the point
    ``offsets[k]`` of body ``bodies[k]``, into the given arrays: p = x + R o, and
    v = v_c + w x (p - c) from cvel's (w, v_c) at the tree's subtree_com c (what
    mj_objectVelocity shifts)."""
    xpos, xmat, cvel, subtree_com, body_rootid = (sim.xpos, sim.xmat, sim.cvel,
                                                  sim.subtree_com, sim.body_rootid)
    for k in range(bodies.shape[0]):
        b = bodies[k]
        root = body_rootid[b]  # c: subtree_com[root], read by index (no view per point)
        for i in range(3):
            R[k, i, 0], R[k, i, 1], R[k, i, 2] = xmat[b, 3 * i], xmat[b, 3 * i + 1], \
                xmat[b, 3 * i + 2]
            P[k, i] = xpos[b, i] + (R[k, i, 0] * offsets[k, 0] + R[k, i, 1] * offsets[k, 1]
                                    + R[k, i, 2] * offsets[k, 2])
        w0, w1, w2 = cvel[b, 0], cvel[b, 1], cvel[b, 2]
        r0, r1, r2 = P[k, 0] - subtree_com[root, 0], P[k, 1] - subtree_com[root, 1], \
            P[k, 2] - subtree_com[root, 2]
        V[k, 0] = cvel[b, 3] + (w1 * r2 - w2 * r1)
        V[k, 1] = cvel[b, 4] + (w2 * r0 - w0 * r2)
        V[k, 2] = cvel[b, 5] + (w0 * r1 - w1 * r0)


@njit(cache=True)
def _apply(fns: np.ndarray, m: np.uint64, d: np.uint64, qfrc_applied: np.ndarray,
           dofs: np.ndarray, tau: np.ndarray, bodies: np.ndarray, P: np.ndarray,
           F: np.ndarray) -> None:
    """qfrc_applied as the Python path makes it: the joint efforts ``tau`` on ``dofs``,
    then each force F[k] [N, world] at the world point P[k] of ``bodies[k]``
    (mj_applyFT, in order)."""
    qfrc_applied[:] = 0.0
    for i in range(dofs.shape[0]):
        qfrc_applied[dofs[i]] = tau[i]
    zero, f, p = np.zeros(3), np.empty(3), np.empty(3)
    at = np.uint64
    for k in range(bodies.shape[0]):
        for i in range(3):  # copied by index: no array view per force
            f[i], p[i] = F[k, i], P[k, i]
        ccall.call_void(fns[MJ_APPLY_FT], (m, d, at(f.ctypes.data), at(zero.ctypes.data),
                                           at(p.ctypes.data), np.int32(bodies[k]),
                                           at(qfrc_applied.ctypes.data)))


@njit(cache=True)
def step_with_point_forces(sim: CompiledMujoco, tau: np.ndarray, bodies: np.ndarray,
                           P: np.ndarray, F: np.ndarray) -> None:
    """One step under joint efforts ``tau`` on the simulation's dofs and forces F[k]
    [N, world] at the world points P[k] of ``bodies[k]`` (:func:`_apply`), then the new
    time's positions and velocities (mj_step2, mj_step1)."""
    _apply(sim.fns, sim.m, sim.d, sim.qfrc_applied, sim.dofs, tau, bodies, P, F)
    ccall.call_void(sim.fns[MJ_STEP2], (sim.m, sim.d))
    ccall.call_void(sim.fns[MJ_STEP1], (sim.m, sim.d))


@njit(cache=True)
def step_and_forward(sim: CompiledMujoco, tau: np.ndarray, bodies: np.ndarray,
                     offsets: np.ndarray, F: np.ndarray, split: bool) -> None:
    """MujocoSimulation.step's calls in one compiled pass: joint efforts ``tau`` on the
    simulation's dofs, forces F[k] [N, world] at the points ``offsets[k]`` of ``bodies[k]`` (p = x
    + R o, by the matrix product numpy's matmul makes; :func:`_apply`), then mj_step and
    mj_forward (the new time's positions, velocities and accelerations), or with
    ``split`` mj_step2 and mj_step1 (the step from the stages mj_step1 left, then the new
    time's positions and velocities: one forward pass a step instead of two)."""
    fns, m, d, xpos, xmat = sim.fns, sim.m, sim.d, sim.xpos, sim.xmat
    P = np.empty((bodies.shape[0], 3))
    R, o, Ro = np.empty((3, 3)), np.empty(3), np.empty(3)
    for k in range(bodies.shape[0]):
        b = bodies[k]
        for i in range(3):  # copied by index: no array views per point
            o[i] = offsets[k, i]
            for j in range(3):
                R[i, j] = xmat[b, 3 * i + j]
        np.dot(R, o, Ro)  # R o: the BLAS call of numpy's (and numba's) matmul
        for i in range(3):
            P[k, i] = xpos[b, i] + Ro[i]
    _apply(fns, m, d, sim.qfrc_applied, sim.dofs, tau, bodies, P, F)
    if split:
        ccall.call_void(fns[MJ_STEP2], (m, d))
        ccall.call_void(fns[MJ_STEP1], (m, d))
    else:
        ccall.call_void(fns[MJ_STEP], (m, d))
        ccall.call_void(fns[MJ_FORWARD], (m, d))


@njit(cache=True)
def contact_forces(fns: np.ndarray, m: np.uint64, d: np.uint64, geom: np.ndarray,
                   frame: np.ndarray, rows: np.ndarray, out: np.ndarray) -> None:
    """Add to out[rows[g]] the native-contact force [N, world] on geom g of every contact
    (``geom``, ``frame``: the contact list's fields, one row per contact; rows[g] = -1 for
    a geom not asked for): mj_contactForce's force in the contact frame (rows: normal,
    t1, t2) turned to world axes, with the sign of the side g is on, as
    ``MujocoSimulation.contact_forces`` does contact by contact."""
    f6 = np.zeros(6)
    R = np.empty((3, 3))
    for i in range(geom.shape[0]):
        for side in range(2):
            r = rows[geom[i, side]]
            if r < 0:
                continue
            ccall.call_void(fns[MJ_CONTACT_FORCE],
                            (m, d, np.int32(i), np.uint64(f6.ctypes.data)))
            for k in range(9):
                R[k // 3, k % 3] = frame[i, k]
            # R^T f by np.dot, as numpy's matmul (BLAS) turns it: the same float
            F = np.dot(R.T, f6[:3].copy())
            sign = -1.0 if side == 0 else 1.0
            for a in range(3):
                out[r, a] += sign * F[a]


class CompiledMujoco(NamedTuple):
    """A simulation as compiled code sees it (MujocoSimulation.compiled): the C functions'
    addresses (:func:`step_addresses`), the model's and the data's, mjData's array views
    (read and written in place) and the joints' dofs and qpos addresses."""

    fns: np.ndarray
    m: np.uint64
    d: np.uint64
    xpos: np.ndarray
    xmat: np.ndarray
    cvel: np.ndarray
    subtree_com: np.ndarray
    body_rootid: np.ndarray
    qfrc_applied: np.ndarray
    dofs: np.ndarray
    qpos: np.ndarray  # mjData's qpos and qvel, and the joints' qpos addresses
    qvel: np.ndarray
    qadr: np.ndarray


class Plant(NamedTuple):
    """What a compiled chunk takes to step a MujocoSimulation and push at, and read, the
    points ``offsets[k]`` of ``bodies[k]`` (chunk_args.step_args gathers it once): the
    simulation as compiled code sees it, and whether the split step applies
    (MujocoSimulation.split_step)."""

    sim: CompiledMujoco
    bodies: np.ndarray
    offsets: np.ndarray
    split: bool


class ContactList(NamedTuple):
    """mjData's contact list as compiled code reads it after each step
    (:func:`contact_list`): live views into the data."""

    ncon: np.ndarray  # int32 (1,): mjData.ncon, the contacts listed now
    geom: np.ndarray  # int32 (capacity, 2): each contact's geom pair
    frame: np.ndarray  # float64 (capacity, 9): each contact's frame (rows: normal, t1, t2)


# What a chunk reads as the contact list where it reads none (no contact rows: a shared
# ground, or MuJoCo's list not found): of the same types as the list's views, so that
# the chunk compiles once either way
NO_CONTACTS = ContactList(np.zeros(1, dtype=np.int32),
                          np.zeros((2, 4), dtype=np.int32)[:, :2], np.zeros((2, 18))[:, :9])


def contact_list(d: mujoco.MjData) -> ContactList | None:
    """Views of mjData's contact count and of the geom and frame fields of every contact
    its arena has room for, valid as long as the data: MuJoCo starts the list at the
    arena's first byte at every step (mj_clearEfc: d->contact = d->arena), so the list's
    ncon contacts are the first ncon rows of these views.  The views are the bindings' own
    (d.contact with ncon set to the room, then put back); ncon is the int that follows
    mjData.timer (mjdata.h), checked by writing the count through the bindings and
    reading it back: None where it is not there."""
    timer = d.timer.duration  # &timer[0].duration, one mjTimerStat a stride
    address = timer.ctypes.data + timer.shape[0] * timer.strides[0]
    ncon = np.ctypeslib.as_array((ctypes.c_int32 * 1).from_address(address))
    listed = d.ncon
    try:
        d.ncon = 2  # two rows: the stride of a contact
        room = d.narena // d.contact.geom.strides[0]
        d.ncon = room
        found = int(ncon[0]) == room
        contacts = d.contact
        geom, frame = contacts.geom, contacts.frame
    finally:
        d.ncon = listed
    if not (found and int(ncon[0]) == listed):
        return None
    return ContactList(ncon, geom, frame)


@njit(cache=True)
def listed_contact_forces(sim: CompiledMujoco, contacts: ContactList, rows: np.ndarray,
                          out: np.ndarray) -> None:
    """:func:`contact_forces` of the contacts listed now (the first ncon rows of
    ``contacts``: :func:`contact_list`), without Python between steps."""
    n = contacts.ncon[0]
    contact_forces(sim.fns, sim.m, sim.d, contacts.geom[:n], contacts.frame[:n], rows, out)


@njit(cache=True)
def state_and_points(sim: CompiledMujoco, bodies: np.ndarray, offsets: np.ndarray,
                     out: np.ndarray) -> None:
    """A free root's state and points' positions and velocities side by side in ``out``:
    p_WB (3), R_WB (9, row by row: the free joint's quaternion turned by mju_quat2Mat, as
    MujocoSimulation.state turns it), v_WB (3), w_WB = R_WB omega_B (3, by np.dot as
    state's matmul: BLAS, the same float), the joints' q and qd (n each), then each
    point's position and velocity (:func:`points`)."""
    qpos, qvel, qadr, dof = sim.qpos, sim.qvel, sim.qadr, sim.dofs
    n, m = qadr.shape[0], bodies.shape[0]
    R, quat, omega, w = np.empty((3, 3)), np.empty(4), np.empty(3), np.empty(3)
    for i in range(4):  # everything is copied by index: no array views
        quat[i] = qpos[3 + i]
    ccall.call_void(sim.fns[MJU_QUAT2MAT], (np.uint64(R.ctypes.data),
                                            np.uint64(quat.ctypes.data)))
    for i in range(3):
        out[i], out[12 + i], omega[i] = qpos[i], qvel[i], qvel[3 + i]
        for j in range(3):
            out[3 + 3 * i + j] = R[i, j]
    np.dot(R, omega, w)
    for i in range(3):
        out[15 + i] = w[i]
    for i in range(n):
        out[18 + i] = qpos[qadr[i]]
        out[18 + n + i] = qvel[dof[i]]
    P, V, R_b = np.empty((m, 3)), np.empty((m, 3)), np.empty((m, 3, 3))
    points(sim, bodies, offsets, P, V, R_b)
    k = 18 + 2 * n
    for j in range(m):
        for i in range(3):
            out[k + 6 * j + i], out[k + 6 * j + 3 + i] = P[j, i], V[j, i]


@njit(cache=True)
def bare_steps(fns: np.ndarray, m: np.uint64, d: np.uint64, n: int) -> None:
    """n mj_step calls and nothing else: the benchmarks' bare step, without Python."""
    for _ in range(n):
        ccall.call_void(fns[MJ_STEP], (m, d))


@njit(cache=True)
def plant_steps(plant: Plant, n: int) -> None:
    """n plant steps as a compiled chunk makes them, without a robot's laws: zero efforts
    and zero forces at the points (the same calls as any others), :func:`step_and_forward`,
    then the state and the points read (:func:`state_and_points`)."""
    sim, bodies, offsets, split = plant
    tau, F = np.zeros(sim.dofs.shape[0]), np.zeros((bodies.shape[0], 3))
    out = np.empty(18 + 2 * sim.qadr.shape[0] + 6 * bodies.shape[0])
    for _ in range(n):
        step_and_forward(sim, tau, bodies, offsets, F, split)
        state_and_points(sim, bodies, offsets, out)
