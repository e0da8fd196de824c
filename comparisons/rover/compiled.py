"""The rover's engine plants as compiled loops: the hub states read from the engine, the
shared wheel-soil law (dynval.handrolled.rover.wheel_contact), the hub forces applied and
the engine stepped, then the wheel torques from the wheel powers, for many 1 ms steps
without returning to Python; the per-step Python around a 2-3 us engine step cost 30-50
times the step.

* MuJoCo (:func:`mujoco_steps`): the hubs from mjData's arrays, each segment's attitude
  from its own xmat; the same law as ``EnginePlant.advance`` and
  ``RoverLoop.steering_torques``, held to the Python path at round-off by
  tests/test_rover_compiled.py.
* PyBullet (:func:`pybullet_steps`): the Python path's reads and arithmetic operation for
  operation (the hubs from the links' CoM states, the segments' attitudes from the base and
  the turning joints), so the same bits (tests/test_pybullet_compiled.py).
"""

from __future__ import annotations

import math

import numpy as np

from dynval._numba_cache import njit
from dynval.comparisons.rover.frames import R_0W
from dynval.engines import pybullet_compiled
from dynval.engines.mujoco_compiled import points, step_with_point_forces
from dynval.handrolled.rover.terramechanics import torques_from_power
from dynval.handrolled.rover.wheel_contact import N_DIAG, SINKAGE, SLIP, V_X, wheel_contacts
from dynval.robots.rover.params import R_W0


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
    """out = R X column by column (:func:`_turn`)."""
    for j in range(3):
        _turn(R, X[:, j], out[:, j])


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


@njit(cache=True)
def mujoco_steps(fns: np.ndarray, m: int, d: int, xpos: np.ndarray,
                 xmat: np.ndarray, cvel: np.ndarray, subtree_com: np.ndarray,
                 body_rootid: np.ndarray, qfrc_applied: np.ndarray, dofs: np.ndarray,
                 bodies: np.ndarray, offsets: np.ndarray, T: np.ndarray, P: np.ndarray,
                 powered: bool, n: int, r: float, b: float, D: float, soil: tuple
                 ) -> tuple:
    """Up to ``n`` steps with wheel torques T (segments x 2, updated in place from the
    powers P after each step when ``powered``): (diagnostics of the last step's wheels,
    steps taken).  Stops after the step in which a wheel left the soil (sinkage <= 0),
    where the caller raises, as ``RoverLoop.advance`` does."""
    nh = bodies.shape[0]
    P_W, V_W, R_W = np.empty((nh, 3)), np.empty((nh, 3)), np.empty((nh, 3, 3))
    p_0, v_0, R_0 = np.empty((nh, 3)), np.empty((nh, 3)), np.empty((nh, 3, 3))
    F_W = np.empty((nh, 3))
    tau = np.zeros(dofs.shape[0])  # the turning joints are free (thesis: unactuated)
    diag = np.zeros((nh, N_DIAG))
    for k in range(n):
        points(xpos, xmat, cvel, subtree_com, body_rootid, bodies, offsets, P_W, V_W, R_W)
        for h in range(nh):  # world -> the thesis' frame 0
            _turn(R_0W, P_W[h], p_0[h])
            _turn(R_0W, V_W[h], v_0[h])
            _turn_matrix(R_0W, R_W[h], R_0[h])
        F_0, diag = wheel_contacts(p_0, R_0, v_0, T.ravel(), r, b, D, soil)
        for h in range(nh):
            _turn(R_W0, F_0[h], F_W[h])
        step_with_point_forces(fns, m, d, qfrc_applied, dofs, tau, bodies, P_W, F_W)
        if _after_step(diag, T, P, powered, r):
            return diag, k + 1
    return diag, n


@njit(cache=True)
def _rot_z(a: float) -> np.ndarray:
    """so3.rot_z for a real angle (math.cos and math.sin, as there)."""
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


@njit(cache=True)
def pybullet_steps(fns: np.ndarray, client: np.uint64, body: int, q_index: np.ndarray,
                   u_index: np.ndarray, p_BI: np.ndarray, R_BI: np.ndarray,
                   links: np.ndarray, rows: np.ndarray, R_LI_T: np.ndarray,
                   hub_links: np.ndarray, offsets: np.ndarray,
                   n_segments: int, T: np.ndarray, P: np.ndarray, powered: bool, n: int,
                   r: float, b: float, D: float, soil: tuple) -> tuple:
    """:func:`mujoco_steps` for PyBullet: up to ``n`` steps of ``EnginePlant.advance`` as
    the Python path takes them (``_wheel_forces``: the state and the hubs' points, each
    segment's attitude R_W = R_WB rot_z(q_1) ... rot_z(q_i-1), the law; then the step with
    zero torques on the free turning joints and the hub forces), T updated from the powers
    P after each step when ``powered``: (diagnostics of the last step's wheels, steps
    taken, fewer where a wheel left the soil)."""
    nh, nj = offsets.shape[0], q_index.shape[0]
    base, q, qd = np.empty(13), np.empty(nj), np.empty(nj)
    link_states = np.empty((links.shape[0], pybullet_compiled.LINK_STATE_DOUBLES))
    P_W, V_W, R_0 = np.empty((nh, 3)), np.empty((nh, 3)), np.empty((nh, 3, 3))
    p_0, v_0, F_W = np.empty((nh, 3)), np.empty((nh, 3)), np.empty((nh, 3))
    tau = np.zeros(nj)  # the turning joints are free (thesis: unactuated)
    diag = np.zeros((nh, N_DIAG))
    for k in range(n):
        pybullet_compiled.observe(fns, client, body, q_index, u_index, links, base, q, qd,
                                  link_states)
        p_WB, R_WB, v_WB, w_WB = pybullet_compiled.base_frame(base, p_BI, R_BI)
        pybullet_compiled.points(link_states, rows, R_LI_T, p_WB, R_WB, v_WB, w_WB,
                                 offsets, P_W, V_W)
        R_W = R_WB
        for i in range(n_segments):
            if i > 0 and nj >= i:
                R_W = R_W @ _rot_z(q[i - 1])
            _turn_matrix(R_0W, R_W, R_0[2 * i])  # R_0W @ R_W
            R_0[2 * i + 1] = R_0[2 * i]
        for h in range(nh):  # the rows of P_W @ R_W0 and V_W @ R_W0 (R_W0^T = R_0W)
            _turn(R_0W, P_W[h], p_0[h])
            _turn(R_0W, V_W[h], v_0[h])
        F_0, diag = wheel_contacts(p_0, R_0, v_0, T.ravel(), r, b, D, soil)
        for h in range(nh):  # the rows of F_0 @ R_0W (R_0W^T = R_W0)
            _turn(R_W0, F_0[h], F_W[h])
        pybullet_compiled.step_with_point_forces(fns, client, body, u_index, tau,
                                                 hub_links, P_W, F_W)
        if _after_step(diag, T, P, powered, r):
            return diag, k + 1
    return diag, n
