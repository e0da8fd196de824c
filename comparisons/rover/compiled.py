"""The rover's closed loop compiled: the hub states read from the plant, the shared
wheel-soil law (dynval.handrolled.rover.wheel_contact), the hub forces applied and the
plant stepped, then the wheel torques from the wheel powers, for many 1 ms steps without
returning to Python; and between the recorded samples the PD steering's update and the
sample's signal values, so that a call runs a block of samples (RoverLoop.samples,
harness.run's ``advance_samples``; RoverLoop.advance_many's chunk is a block of one).
Between two samples Python cost more than the ten steps, and its switches slowed the
steps themselves.

* The hand-rolled model (:func:`handrolled_samples`): model.euler_step, as
  HandRolledRover.advance steps it, so the same bits.
* MuJoCo (:func:`mujoco_samples`): the hubs from mjData's arrays, each segment's attitude
  from its own xmat; the same law as ``EnginePlant.advance`` and
  ``RoverLoop.steering_torques``, held to the Python path at round-off by
  tests/test_rover_compiled.py.
* PyBullet (:func:`pybullet_samples`): the Python path's reads and arithmetic operation
  for operation (the hubs from the links' CoM states, the segments' attitudes from the
  base and the turning joints), so the same bits (tests/test_engine_c_api.py).

After each part of a chunk the engine's state is read as its ``state()`` reads it, in the
thesis' coordinates (frames.thesis_coordinates). A chunk, a block of chunks and the
steering from Python give the same numbers, bit for bit (tests/test_rover_compiled.py).
Each sample function calls the law itself rather than a compiled step function: a
compiled caller re-optimises everything it calls, and one level less is seconds less
compiling.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from dynval._numba_cache import njit
from dynval.comparisons.rover.frames import R_0W, thesis_coordinates
from dynval.engines import mujoco_compiled, pybullet_compiled
from dynval.engines.mujoco_compiled import points, step_with_point_forces
from dynval.handrolled.rover.control import pd_powers, q7_des
from dynval.handrolled.rover.model import Rover, euler_step
from dynval.handrolled.rover.terramechanics import torques_from_power
from dynval.handrolled.rover.wheel_contact import (
    DIAGNOSTICS,
    N_DIAG,
    SINKAGE,
    SLIP,
    V_X,
    wheel_contacts,
)
from dynval.robots.rover.params import R_W0

# Each wheel's recorded diagnostics, in the order of its signals (RoverLoop.signal_names)
WHEEL_DIAG = tuple(DIAGNOSTICS.index(c) for c in ("sinkage", "slip", "beta", "Fx", "Fy", "Fz"))
HEADING_RATE = 7  # the heading rate's place among the signals (RoverLoop.signal_names)
LEFT_SOIL, UNSTABLE = 1, 2  # why compiled samples stopped before their last chunk


class Drive(NamedTuple):
    """RoverLoop's wheel drive as compiled samples run it: the wheel torques T and powers
    P (segments x 2, changed in place; P zero where the torques are held: ``powered``
    False), the wheel radius r, and where ``steered`` the PD steering of
    control.PowerSteering: nominal powers, gains, turning command (rows t_on, t_off,
    q7_des) and the steps between its updates."""

    T: np.ndarray
    P: np.ndarray
    powered: bool
    r: float
    steered: bool
    P_nom: np.ndarray
    K_p: float
    K_d: float
    command: np.ndarray
    every: int

    @classmethod
    def held(cls, T: np.ndarray, P: np.ndarray | None, zeros: np.ndarray, r: float
             ) -> Drive:
        """No steering: the torques T from the powers P, or held where P is None
        (``zeros``, segments x 2, in P's place)."""
        return cls(T, zeros if P is None else P, P is not None, float(r), False, zeros, 0.0,
                   0.0, np.zeros((0, 3)), 1)


class Block(NamedTuple):
    """What compiled samples write, a row per chunk completed: the time and the signal
    values after it (RoverLoop.signal_names' order; an engine's heading rate is left to
    numpy's solve of A x = w, base_axes_W and the root's angular velocity, afterwards);
    the last chunk's wheel diagnostics (segments x 2 x N_DIAG); and, one element each,
    the rows written, why the chunks stopped early (0: they did not, LEFT_SOIL,
    UNSTABLE) and the steps taken."""

    t: np.ndarray
    values: np.ndarray
    A: np.ndarray
    w: np.ndarray
    diag: np.ndarray
    count: np.ndarray
    stop: np.ndarray
    steps: np.ndarray

    @classmethod
    def sized(cls, n: int, n_segments: int, powered: bool) -> Block:
        """Room for n samples of a rover of n_segments segments (with the wheel powers
        among its signals where ``powered``)."""
        return cls(np.empty(n), np.empty((n, signal_count(n_segments, powered))),
                   np.empty((n, 3, 3)), np.empty((n, 3)), np.empty((n_segments, 2, N_DIAG)),
                   np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros(1, np.int64))


def _is_signed_permutation(R: np.ndarray) -> bool:
    """Whether every row and column of R holds one +-1 and zeros besides."""
    return bool(np.all(np.sort(np.abs(R), axis=0) == [[0.0], [0.0], [1.0]])
                and np.all(np.sort(np.abs(R), axis=1) == [0.0, 0.0, 1.0]))


if not (_is_signed_permutation(R_0W) and _is_signed_permutation(R_W0)):
    raise ValueError("R_W0 must be a signed permutation for the frame turns of _turn")


@njit(cache=True)
def _turn(R: np.ndarray, x: np.ndarray, out: np.ndarray) -> None:
    """out = R x for the frame change R_0W or R_W0 (a signed permutation): every product
    is exact, and the sum starts from 0.0 as BLAS's gemv does, so these are the floats
    ``R @ x`` gives, zero signs included (tests/test_rover_compiled.py), without a BLAS
    call per hub (16 a step)."""
    for i in range(3):
        out[i] = 0.0 + R[i, 0] * x[0] + R[i, 1] * x[1] + R[i, 2] * x[2]


@njit(cache=True)
def _turn_matrix(R: np.ndarray, X: np.ndarray, out: np.ndarray) -> None:
    """out = R X column by column, each as :func:`_turn` makes it."""
    for j in range(3):
        for i in range(3):
            out[i, j] = 0.0 + R[i, 0] * X[0, j] + R[i, 1] * X[1, j] + R[i, 2] * X[2, j]


@njit(cache=True)
def _after_step(diag: np.ndarray, T: np.ndarray, P: np.ndarray, powered: bool, r: float
                ) -> bool:
    """True where a wheel left the soil in the step just taken (sinkage <= 0: the loop
    stops there); else the torques T from the powers P when ``powered``
    (RoverLoop.steering_torques)."""
    for h in range(diag.shape[0]):
        if diag[h, SINKAGE] <= 0.0:
            return True
    if powered:
        T[:, :] = torques_from_power(P, diag[:, SLIP].copy().reshape(T.shape),
                                     diag[:, V_X].copy().reshape(T.shape), r)
    return False


@njit(cache=True, inline="always")
def _thesis_state(p_WB: np.ndarray, R_WB: np.ndarray, v_WB: np.ndarray, w_WB: np.ndarray,
                  q_j: np.ndarray, qd_j: np.ndarray, heading: float, n_t: int) -> tuple:
    """EnginePlant.state's inputs from an engine state: (q, qd, A, w_WB, heading) of
    frames.thesis_coordinates, the base rates of qd left to numpy's solve of A x = w_WB
    (the caller's), as EnginePlant.state takes them."""
    q, qd, A, heading = thesis_coordinates(p_WB, R_WB, v_WB, q_j, qd_j, heading, n_t)
    return q, qd, A, w_WB.copy(), heading


@njit(cache=True)
def _rot_z(a: float) -> np.ndarray:
    """so3.rot_z for a real angle (math.cos and math.sin, as there)."""
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


@njit(cache=True)
def signal_values(q: np.ndarray, qd: np.ndarray, speed: float, diag: np.ndarray,
                  T: np.ndarray, P: np.ndarray, powered: bool) -> np.ndarray:
    """RoverLoop.signals' values in the order of RoverLoop.signal_names: the rear
    segment's pose in the ground plane, height, attitude, ``speed`` and heading rate, each
    turning joint's angle and rate, then each wheel's WHEEL_DIAG diagnostics (diag:
    segments x 2 x N_DIAG), torque T and, when ``powered``, power P. Copies only."""
    n_seg, n_w = diag.shape[0], len(WHEEL_DIAG) + 1 + powered
    out = np.empty(8 + 2 * (n_seg - 1) + 2 * n_seg * n_w)
    out[0], out[1], out[2], out[3] = -q[0], q[2], q[1], q[3]
    out[4], out[5], out[6], out[7] = q[4], q[5], speed, qd[5]
    o = 8
    for i in range(6, 5 + n_seg):  # the turning joints
        out[o], out[o + 1] = q[i], qd[i]
        o += 2
    for i in range(n_seg):
        for j in range(2):
            for c in WHEEL_DIAG:
                out[o] = diag[i, j, c]
                o += 1
            out[o] = T[i, j]
            o += 1
            if powered:
                out[o] = P[i, j]
                o += 1
    return out


@njit(cache=True, inline="always")
def _left_soil(diag: np.ndarray) -> bool:
    """Whether a wheel's sinkage (diagnostics: segments x 2 x N_DIAG) is <= 0."""
    for i in range(diag.shape[0]):
        for j in range(2):
            if diag[i, j, SINKAGE] <= 0.0:
                return True
    return False


@njit(cache=True, inline="always")
def _part(left: int, k: int, drive: Drive) -> int:
    """The steps of the next part of a chunk with ``left`` steps to go at step k: all of
    them, or up to the next steering update (RoverLoop.advance_many's chunks)."""
    if drive.steered:
        return min(left, drive.every - k % drive.every)
    return left


@njit(cache=True, inline="always")
def _after_part(q: np.ndarray, qd: np.ndarray, diag: np.ndarray, drive: Drive, t: float,
                k: int, block: Block) -> bool:
    """After a part of a chunk that ended at step k, time t, with the state q, qd and the
    wheel diagnostics diag (segments x 2 x N_DIAG), as RoverLoop.advance_many goes on: False
    where a wheel left the soil (block.stop LEFT_SOIL); else the PD steering's powers and
    the torques from them where an update is due (PowerSteering.powers,
    steering_torques), and True."""
    block.diag[:, :, :] = diag
    if _left_soil(diag):
        block.stop[0] = LEFT_SOIL
        return False
    if drive.powered and drive.steered and k % drive.every == 0:
        drive.P[:, :] = pd_powers(drive.P_nom, drive.K_p, drive.K_d, q[6], qd[6],
                                  q7_des(t, drive.command))
        drive.T[:, :] = torques_from_power(drive.P, diag[:, :, SLIP].copy(),
                                           diag[:, :, V_X].copy(), drive.r)
    return True


@njit(cache=True, inline="always")
def _record(q: np.ndarray, qd: np.ndarray, drive: Drive, t: float, block: Block,
            row: int) -> None:
    """The sample after a chunk: its time and signal values (block.diag: the last part's
    diagnostics) into the block's row."""
    block.t[row] = t
    block.values[row] = signal_values(q, qd, math.hypot(qd[0], qd[2]), block.diag, drive.T,
                                      drive.P, drive.powered)
    block.count[0] = row + 1


@njit(cache=True)
def handrolled_samples(q: np.ndarray, qd: np.ndarray, chunks: np.ndarray, drive: Drive,
                       block: Block, k: int, t: float, dt: float, rover: Rover) -> tuple:
    """RoverLoop.advance_many's chunks ``chunks`` from step k, time t, for the hand-rolled
    plant, each in parts at the steering updates (:func:`_after_part`), and the sample
    after each (:func:`_record`): model.euler_step, then the wheel torques from the powers
    when powered (:func:`_after_step`), the time summed step by step as HandrolledPlant
    sums it; stops where a wheel left the soil. (q, qd, qdd, t)."""
    qdd = np.zeros_like(q)
    diag = np.zeros(block.diag.shape)
    for i in range(chunks.shape[0]):
        left = chunks[i]
        while left > 0:
            n = _part(left, k, drive)
            done = n
            for s in range(n):
                q, qd, qdd, diag = euler_step(q, qd, drive.T, dt, rover)
                t += dt
                if _after_step(diag.reshape((-1, N_DIAG)), drive.T, drive.P, drive.powered,
                               drive.r):
                    done = s + 1
                    break
            k += done
            left -= done
            block.steps[0] += done
            if not _after_part(q, qd, diag, drive, t, k, block):
                return q, qd, qdd, t
        _record(q, qd, drive, t, block, i)
    return q, qd, qdd, t


@njit(cache=True)
def mujoco_samples(plant: mujoco_compiled.Plant, badqacc: np.ndarray, chunks: np.ndarray,
                   drive: Drive, block: Block, k: int, t: float, dt: float, b: float,
                   D: float, soil: tuple, heading: float, n_t: int) -> tuple:
    """:func:`handrolled_samples` for MuJoCo: each step the hubs (at ``offsets`` of
    ``bodies``) from mjData's arrays and each segment's attitude from its own xmat, the
    law (``EnginePlant.advance``'s, held to the Python path at round-off by
    tests/test_rover_compiled.py), the forces applied and the step (mj_step2, mj_step1),
    then the torques from the powers; after each part the state read as
    MujocoSimulation.state reads it (mujoco_compiled.state_and_points,
    :func:`_thesis_state`); the time summed step by step as mj_step2 sums it, A and w of
    each sample kept for its heading rate. Stops also after a part in which MuJoCo reset
    the simulation (its live BADQACC count ``badqacc`` rose: block.stop UNSTABLE). The
    state the last part brought."""
    sim, bodies, offsets, _ = plant
    bad = badqacc[0]
    nh, nj = bodies.shape[0], sim.qadr.shape[0]
    P_W, V_W, R_W = np.empty((nh, 3)), np.empty((nh, 3)), np.empty((nh, 3, 3))
    p_0, v_0, R_0 = np.empty((nh, 3)), np.empty((nh, 3)), np.empty((nh, 3, 3))
    F_W = np.empty((nh, 3))
    tau = np.zeros(sim.dofs.shape[0])  # the turning joints are free (thesis: unactuated)
    diag = np.zeros((nh, N_DIAG))
    state = np.empty(18 + 2 * nj)  # p_WB, R_WB, v_WB, w_WB, q, qd (state_and_points')
    read = (np.zeros(6 + n_t), np.zeros(6 + n_t), np.zeros((3, 3)), np.zeros(3), heading)
    for i in range(chunks.shape[0]):
        left = chunks[i]
        while left > 0:
            n = _part(left, k, drive)
            done = n
            for s in range(n):
                points(sim, bodies, offsets, P_W, V_W, R_W)
                for h in range(nh):  # world -> the thesis' frame 0
                    _turn(R_0W, P_W[h], p_0[h])
                    _turn(R_0W, V_W[h], v_0[h])
                    _turn_matrix(R_0W, R_W[h], R_0[h])
                F_0, diag = wheel_contacts(p_0, R_0, v_0, drive.T.ravel(), drive.r, b, D,
                                           soil)
                for h in range(nh):
                    _turn(R_W0, F_0[h], F_W[h])
                step_with_point_forces(sim, tau, bodies, P_W, F_W)
                t += dt
                if _after_step(diag, drive.T, drive.P, drive.powered, drive.r):
                    done = s + 1
                    break
            k += done
            left -= done
            block.steps[0] += done
            mujoco_compiled.state_and_points(sim, bodies[:0], offsets[:0], state)
            read = _thesis_state(state[0:3], state[3:12].reshape((3, 3)), state[12:15],
                                 state[15:18], state[18:18 + nj], state[18 + nj:18 + 2 * nj],
                                 read[4], n_t)
            if badqacc[0] > bad:
                block.stop[0] = UNSTABLE
                return read
            if not _after_part(read[0], read[1], diag.reshape(block.diag.shape), drive, t,
                               k, block):
                return read
        block.A[i], block.w[i] = read[2], read[3]
        _record(read[0], read[1], drive, t, block, i)
    return read


@njit(cache=True)
def pybullet_samples(plant: pybullet_compiled.Plant, n_segments: int,
                     chunks: np.ndarray, drive: Drive, block: Block, k: int, t: float,
                     dt: float, b: float, D: float, soil: tuple, heading: float) -> tuple:
    """:func:`mujoco_samples` for PyBullet, each step ``EnginePlant.advance`` as the Python
    path takes it (``_wheel_forces``: the state and the hubs' points from one
    actual-state request, each segment's attitude R_W = R_WB rot_z(q_1) ... rot_z(q_i-1),
    the law; then the step with zero torques on the free turning joints and the hub
    forces), after each part the state read as PybulletSimulation.state reads it (one
    actual-state request without links), the time summed step by step as
    PybulletSimulation.compiled_steps_taken sums it."""
    sim, pts, offsets = plant
    nh, nj = offsets.shape[0], sim.q_index.shape[0]
    base, q, qd = np.empty(13), np.empty(nj), np.empty(nj)
    link_states = np.empty((pts.links.shape[0], pybullet_compiled.LINK_STATE_DOUBLES))
    P_W, V_W, R_0 = np.empty((nh, 3)), np.empty((nh, 3)), np.empty((nh, 3, 3))
    p_0, v_0, F_W = np.empty((nh, 3)), np.empty((nh, 3)), np.empty((nh, 3))
    tau = np.zeros(nj)  # the turning joints are free (thesis: unactuated)
    diag = np.zeros((nh, N_DIAG))
    n_t = n_segments - 1
    read = (np.zeros(6 + n_t), np.zeros(6 + n_t), np.zeros((3, 3)), np.zeros(3), heading)
    for i in range(chunks.shape[0]):
        left = chunks[i]
        while left > 0:
            n = _part(left, k, drive)
            done = n
            for s in range(n):
                p_WB, R_WB, v_WB, w_WB = pybullet_compiled.state_and_points(
                    plant, base, q, qd, link_states, P_W, V_W)
                R_W = R_WB
                for j in range(n_segments):
                    if j > 0 and nj >= j:
                        R_W = R_W @ _rot_z(q[j - 1])
                    _turn_matrix(R_0W, R_W, R_0[2 * j])  # R_0W @ R_W
                    R_0[2 * j + 1] = R_0[2 * j]
                for h in range(nh):  # the rows of P_W @ R_W0 and V_W @ R_W0 (R_W0^T = R_0W)
                    _turn(R_0W, P_W[h], p_0[h])
                    _turn(R_0W, V_W[h], v_0[h])
                F_0, diag = wheel_contacts(p_0, R_0, v_0, drive.T.ravel(), drive.r, b, D,
                                           soil)
                for h in range(nh):  # the rows of F_0 @ R_0W (R_0W^T = R_W0)
                    _turn(R_W0, F_0[h], F_W[h])
                pybullet_compiled.step_with_point_forces(sim, tau, pts.point_links, P_W,
                                                         F_W)
                t += dt
                if _after_step(diag, drive.T, drive.P, drive.powered, drive.r):
                    done = s + 1
                    break
            k += done
            left -= done
            block.steps[0] += done
            pybullet_compiled.observe(sim, pts.links[:0], base, q, qd, link_states[:0])
            p_WB, R_WB, v_WB, w_WB = pybullet_compiled.base_frame(base, sim.p_BI, sim.R_BI)
            read = _thesis_state(p_WB, R_WB, v_WB, w_WB, q, qd, read[4], n_t)
            if not _after_part(read[0], read[1], diag.reshape(block.diag.shape), drive, t,
                               k, block):
                return read
        block.A[i], block.w[i] = read[2], read[3]
        _record(read[0], read[1], drive, t, block, i)
    return read


def signal_count(n_segments: int, powered: bool) -> int:
    """How many values :func:`signal_values` gives (RoverLoop.signal_names)."""
    return 8 + 2 * (n_segments - 1) + 2 * n_segments * (len(WHEEL_DIAG) + 1 + powered)
