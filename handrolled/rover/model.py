"""The hand-rolled rover: DH kinematics, the wheel-soil law at every wheel, the modified
Newton-Euler dynamics and the integration of section 4.1.

One step (simulation outline, section 4.1): hub poses and velocities from the joint
values -> sinkage, slip angle and slip ratio -> wheel forces (3.23)-(3.27) -> force and
moment at each segment CG (3.28)-(3.29) -> joint accelerations (3.33) -> update by (4.1)-
(4.2). A classical RK4 step (``dynval.handrolled.rk4``, wheel torques held over the step) is
selectable for the integrator convergence study.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from dynval._numba_cache import njit
from dynval.handrolled.rk4 import rk4_step
from dynval.handrolled.rover.dynamics import (
    WHEEL_SIGN,
    forward_dynamics_in_frames,
    segment_inertias,
)
from dynval.handrolled.rover.kinematics import (
    adjacent_transforms,
    hub_velocity,
    joint_frames,
    joint_kinds,
    segment_frame_index,
)
from dynval.handrolled.rover.wheel_contact import N_DIAG, wheel_contact
from dynval.handrolled.vec3 import add, cross, mtv, mv, row, scale
from dynval.robots.rover.params import SIDES, RoverParams, cg_position, hub_positions

INTEGRATORS = ("euler", "rk4")


@njit(cache=True)
def wheel_loads(q: np.ndarray, qd: np.ndarray, T_cmd: np.ndarray, L: float,
                p_hub: np.ndarray, p_cg: np.ndarray, r: float, b: float, D: float,
                soil: tuple) -> tuple:
    """Wheel force F_Cw and moment N_Cw at each link's CG in link axes (3.28)-(3.29), and
    the per-wheel diagnostics (segments x 2 x N_DIAG)."""
    return _wheel_loads(adjacent_transforms(q, L), joint_kinds(q.shape[0]), qd, T_cmd, p_hub,
                        p_cg, r, b, D, soil)


@njit(cache=True)
def _wheel_loads(T_adj: np.ndarray, revolute: np.ndarray, qd: np.ndarray, T_cmd: np.ndarray,
                 p_hub: np.ndarray, p_cg: np.ndarray, r: float, b: float, D: float,
                 soil: tuple) -> tuple:
    """:func:`wheel_loads` from the chain's adjacent transforms and joint kinds at q."""
    N = qd.shape[0]
    n_seg = p_hub.shape[0]
    T0 = joint_frames(T_adj)
    F_Cw = np.zeros((N, 3))
    N_Cw = np.zeros((N, 3))
    diag = np.zeros((n_seg, 2, N_DIAG))
    p_0w, v_0w = np.empty(3), np.empty(3)
    R = np.empty((3, 3))  # the layout the compiled laws take
    for i in range(n_seg):
        k = segment_frame_index(i + 1)
        R[:, :] = T0[k, :3, :3]
        for j in range(2):
            h = row(p_hub[i], j)
            p_0w[0], p_0w[1], p_0w[2] = add(mv(R, h), (T0[k, 0, 3], T0[k, 1, 3], T0[k, 2, 3]))
            v_0w[0], v_0w[1], v_0w[2] = hub_velocity(T0, revolute, k, p_0w, qd)  # (3.14)
            F_0 = wheel_contact(p_0w, R, v_0w, T_cmd[i, j], r, b, D, soil, diag[i, j])
            F = mtv(R, F_0)
            arm = add(h, scale(-1.0, row(p_cg, i)))  # wheel position relative to the CG
            M = cross(arm, F)
            for c in range(3):
                F_Cw[k, c] += F[c]  # eq. (3.28)
                N_Cw[k, c] += M[c]  # eq. (3.29)
    return F_Cw, N_Cw, diag


class Rover(NamedTuple):
    """What the equations of motion read besides the state and the wheel torques
    (HandRolledRover.constants): gravity, the segment length l, the segments' masses,
    centres and inertias (segment_inertias), the hubs and the segments' centres of gravity,
    the wheel radius and width, the damping D, the soil, the sign of eq. (3.30) and the
    number of joints that move (6 where the turning joints are held)."""

    g: float
    L: float
    mass: np.ndarray
    p_C: np.ndarray
    I_C: np.ndarray
    p_hub: np.ndarray
    p_cg: np.ndarray
    r: float
    b: float
    D: float
    soil: tuple
    wheel_sign: float
    n_free: int


@njit(cache=True)
def accelerations(q: np.ndarray, qd: np.ndarray, T_cmd: np.ndarray, rover: Rover) -> tuple:
    """Joint accelerations (3.33) at (q, qd) under wheel torques T_cmd, and diagnostics;
    the chain's transforms at q computed once for the wheels and the dynamics."""
    g, L, mass, p_C, I_C, p_hub, p_cg, r, b, D, soil, wheel_sign, n_free = rover
    T_adj, revolute = adjacent_transforms(q, L), joint_kinds(q.shape[0])
    F_Cw, N_Cw, diag = _wheel_loads(T_adj, revolute, qd, T_cmd, p_hub, p_cg, r, b, D, soil)
    qdd = forward_dynamics_in_frames(T_adj, revolute, qd, g, mass, p_C, I_C, F_Cw, N_Cw,
                                     wheel_sign, n_free)
    return qdd, diag


@njit(cache=True)
def euler_step(q: np.ndarray, qd: np.ndarray, T_cmd: np.ndarray, dt: float,
               rover: Rover) -> tuple:
    """(q, qd, qdd, diagnostics) one step of eqs. (4.1)-(4.2) later; the diagnostics are
    those at the step start."""
    a1, diag = accelerations(q, qd, T_cmd, rover)
    q_next, qd_next = np.empty_like(q), np.empty_like(qd)
    for i in range(q.shape[0]):  # element by element: no temporary array per operation
        q_next[i] = q[i] + qd[i] * dt + 0.5 * a1[i] * dt * dt  # eq. (4.1)
        qd_next[i] = qd[i] + a1[i] * dt  # eq. (4.2)
    return q_next, qd_next, a1, diag


def _qdd(q: np.ndarray, qd: np.ndarray, *args) -> np.ndarray:
    """The joint accelerations alone, for the RK4 stages."""
    return accelerations(q, qd, *args)[0]


class HandRolledRover:
    """The thesis' rover model with its state (q, qd) in the coordinates of Table 3.1.

    ``wheel_form`` "corrected" applies the soil forces to the rover, "printed" uses the
    sign of eq. (3.30) as printed (see dynamics.py); ``rigid`` holds the turning joint(s)
    fixed as in section 4.2.
    """

    def __init__(self, p: RoverParams, soil: tuple, wheel_form: str = "corrected",
                 integrator: str = "euler", rigid: bool = False) -> None:
        if integrator not in INTEGRATORS:
            raise ValueError(f"unknown integrator {integrator!r}; use one of "
                             f"{', '.join(INTEGRATORS)}")
        self.p = p
        self.soil = soil
        self.wheel_sign = WHEEL_SIGN[wheel_form]
        self.rk4 = integrator == "rk4"
        N = p.n_joints
        self.n_free = 6 if rigid else N
        segs = range(1, p.n_segments + 1)
        self.p_cg = np.array([cg_position(p, i) for i in segs])
        self.p_hub = np.array([[hub_positions(p, i)[s] for s in SIDES] for i in segs])
        self.mass, self.p_C, self.I_C = segment_inertias(N, p.m_seg, p.I_seg, list(self.p_cg))
        self.q = np.zeros(N)
        self.qd = np.zeros(N)
        self.qdd = np.zeros(N)
        self.diag = np.zeros((p.n_segments, 2, N_DIAG))

    @property
    def constants(self) -> Rover:
        """What the equations of motion read besides the state and the torques."""
        p = self.p
        return Rover(p.g, p.l, self.mass, self.p_C, self.I_C, self.p_hub, self.p_cg, p.r,
                     p.b, p.D, self.soil, self.wheel_sign, self.n_free)

    def reset(self, q: np.ndarray, qd: np.ndarray) -> None:
        self.q = np.asarray(q, dtype=float).copy()
        self.qd = np.asarray(qd, dtype=float).copy()
        if self.n_free < self.q.shape[0]:
            self.qd[self.n_free:] = 0.0

    def advance(self, T_cmd: np.ndarray, dt: float) -> np.ndarray:
        """Step by dt under wheel torques T_cmd (segments x 2); returns the diagnostics
        (sinkage, slip, ... per wheel) at the start of the step."""
        T_cmd = np.ascontiguousarray(T_cmd, dtype=float)
        if not self.rk4:
            self.q, self.qd, self.qdd, self.diag = euler_step(self.q, self.qd, T_cmd, dt,
                                                              self.constants)
            return self.diag
        args = (T_cmd, self.constants)
        self.qdd, self.diag = accelerations(self.q, self.qd, *args)
        self.q, self.qd = rk4_step(_qdd, self.q, self.qd, self.qdd, dt, args)
        return self.diag

    def wheel_state(self, T_cmd: np.ndarray) -> np.ndarray:
        """Diagnostics of every wheel at the current state without stepping."""
        p = self.p
        _, _, diag = wheel_loads(self.q, self.qd, np.ascontiguousarray(T_cmd, dtype=float),
                                 p.l, self.p_hub, self.p_cg, p.r, p.b, p.D, self.soil)
        return diag
