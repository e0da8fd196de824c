"""The whole robot's Heun step (PlanarHexapod.step) compiled: the same equations in the same
order, eq. (6) summed over the legs (lagrange.H, c, g, J_F, p_F), the body springs (10), the
ground (11)-(12) from the stored touchdown points, the drives (7)-(9) and the gear impacts
(9b)-(9c), with the touchdown bookkeeping after the step. PlanarHexapod.step is the printed
path; tests hold this one to it at round-off. It exists for speed only: the interpreted step
spends its time in numpy's per-call overhead on 4 x 4 arrays (24 small-array calls per
right-hand side), which a compiled loop does not have.

The parameters travel as records, :class:`Scalars` (the papers' scalars) and :class:`Body`
(with the per-joint inertias and segment rest positions as arrays), and the robot's state
as :class:`State`, so the compiled functions are cached once for every parameter set."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from dynval._numba_cache import njit
from dynval.handrolled.hexapod import lagrange, transmission
from dynval.handrolled.lapack import solve_transposed_in_place
from dynval.robots.hexapod.params import HexapodParams, station_x

# the scalar constants, in the order the compiled code reads them
LEVEL = {level: k for k, level in enumerate(transmission.LEVELS)}  # ideal 0, flexible 1, ...
GROUND = {"linear": 0, "nonlinear": 1}


class Scalars(NamedTuple):
    """The scalars the compiled laws read, by the papers' names: the leg's mass terms of
    eq. (6) (lagrange.LegMass), gravity, the ground's (11)-(12), the body springs' (10),
    the drives' (8)-(9) and the torque limit of (7)."""

    m: float
    A: float
    B: float
    J_a: float
    J_2: float
    L_1: float
    L_2: float
    g: float
    K_xF: float
    K_yF: float
    B_xF: float
    B_yF: float
    Bp_xF: float
    Bp_yF: float
    nu_x: float
    nu_y: float
    K_xH: float
    K_yH: float
    B_xH: float
    B_yH: float
    K_ijT: float
    B_ijm: float
    B_ijT: float
    h_ij: float
    eps_ij: float
    tau_max: float


def constants(p: HexapodParams, body_form: str = "corrected"
              ) -> tuple[Scalars, np.ndarray, np.ndarray, np.ndarray]:
    """(the scalars, J_m and J_T per joint, segment rest x positions)."""
    lm = lagrange.LegMass.of(p)
    val = {"m": lm.m, "A": lm.A, "B": lm.B, "J_a": lm.J_a, "J_2": lm.J_2, "L_1": lm.L_1,
           "L_2": lm.L_2}
    c = Scalars(*(float(val[k]) if k in val else float(getattr(p, k))
                  for k in Scalars._fields))
    J_m, J_T = transmission.joint_inertias(p, p.n)
    rest = (np.asarray(station_x(p), float) if body_form == "corrected"
            else np.zeros(p.n_seg))
    return c, J_m, J_T, rest


class Body(NamedTuple):
    """What the compiled step reads besides the state: the scalars, the drives' inertias
    J_m and J_T per joint, the segments' rest x positions, the numbers of legs n and
    segments k, and the codes of the transmission level (LEVEL) and ground law (GROUND)."""

    c: Scalars
    J_m: np.ndarray
    J_T: np.ndarray
    rest: np.ndarray
    n: int
    k: int
    level: int
    ground: int


class State(NamedTuple):
    """PlanarHexapod's state: q and q_dot, the motors' and the transmissions' angles and
    rates, and the feet's touchdown points eta0 (n x 2, NaN in flight)."""

    q: np.ndarray
    qd: np.ndarray
    th_m: np.ndarray
    th_m_dot: np.ndarray
    th_T: np.ndarray
    th_T_dot: np.ndarray
    eta0: np.ndarray


# The per-leg pieces below take and return tuples (numba keeps them on the stack), each
# component computed as the array expressions of lagrange and ground.py compute it.
@njit(cache=True)
def _leg_index(i: int, k: int) -> tuple:
    """Leg i's coordinates in q: its segment's x and y, its hip and knee angles."""
    return 2 * (i // 2), 2 * (i // 2) + 1, 2 * k + 2 * i, 2 * k + 2 * i + 1


@njit(cache=True)
def _foot(q: np.ndarray, qd: np.ndarray, idx: tuple, c: Scalars) -> tuple:
    """p_F, J_F (its two rows) of lagrange for one leg, and the foot velocity
    J_F Theta_dot, summed over the columns in order."""
    L1, L2 = c.L_1, c.L_2
    t1, t2 = q[idx[2]], q[idx[3]]
    a, b = t1, t1 + t2
    J0 = (1.0, 0.0, L1 * math.cos(a) + L2 * math.cos(b), L2 * math.cos(b))
    J1 = (0.0, 1.0, L1 * math.sin(a) + L2 * math.sin(b), L2 * math.sin(b))
    pos = (q[idx[0]] + L1 * math.sin(a) + L2 * math.sin(b),
           q[idx[1]] - L1 * math.cos(a) - L2 * math.cos(b))
    v0 = v1 = 0.0
    for s in range(4):
        v0 += J0[s] * qd[idx[s]]
        v1 += J1[s] * qd[idx[s]]
    return pos, (J0, J1), (v0, v1)


@njit(cache=True)
def _ground(pos: tuple, vel: tuple, eta0: tuple, c: Scalars, ground: int) -> tuple:
    """Eq. (11) or (12) for a foot below y = 0 with touchdown point eta0 (ground.py):
    -K (p - eta0) - B v, component by component."""
    if ground == 0:
        B0, B1 = c.B_xF, c.B_yF
    else:
        pen = -(pos[1] - eta0[1])
        if pen <= 0.0:
            return 0.0, 0.0
        B0, B1 = c.Bp_xF * pen ** c.nu_x, c.Bp_yF * pen ** c.nu_y
    return (-c.K_xF * (pos[0] - eta0[0]) - B0 * vel[0],
            -c.K_yF * (pos[1] - eta0[1]) - B1 * vel[1])


@njit(cache=True)
def body_forces(q: np.ndarray, qd: np.ndarray, c: Scalars, rest: np.ndarray, k: int
                ) -> np.ndarray:
    """body.F_RH: eq. (10)'s spring-dashpots between adjacent segments, (f_xH, f_yH) on
    each segment (k x 2), the stretch measured from the rest positions ``rest``."""
    F = np.zeros((k, 2))
    for s in range(k - 1):
        dxs = (q[2 * s] - rest[s]) - (q[2 * s + 2] - rest[s + 1])
        fx = -c.K_xH * dxs - c.B_xH * (qd[2 * s] - qd[2 * s + 2])  # (10a)
        fy = -c.K_yH * (q[2 * s + 1] - q[2 * s + 3]) - c.B_yH * (qd[2 * s + 1] - qd[2 * s + 3])
        F[s, 0] += fx
        F[s + 1, 0] -= fx
        F[s, 1] += fy
        F[s + 1, 1] -= fy
    return F


@njit(cache=True)
def H_bias(q: np.ndarray, qd: np.ndarray, c: Scalars, n: int, k: int):
    """PlanarHexapod.H and .bias: eq. (6)'s H(Theta) and c + g summed over the legs."""
    nq = 2 * k + 2 * n
    m, A, B, J_a, J_2, L_1, g0 = c.m, c.A, c.B, c.J_a, c.J_2, c.L_1, c.g
    H = np.zeros((nq, nq))
    bias = np.zeros(nq)
    for i in range(n):
        idx = _leg_index(i, k)
        t1, t2 = q[idx[2]], q[idx[3]]
        w1, w2 = qd[idx[2]], qd[idx[3]]
        a, b, wb = t1, t1 + t2, w1 + w2
        ca, sa, cb, sb, c2, s2 = (math.cos(a), math.sin(a), math.cos(b), math.sin(b),
                                  math.cos(t2), math.sin(t2))
        h13, h14 = A * ca + B * cb, B * cb
        h23, h24 = A * sa + B * sb, B * sb
        h34 = J_2 + B * L_1 * c2
        h33 = J_a + J_2 + 2.0 * B * L_1 * c2
        x, y, p1, p2 = idx[0], idx[1], idx[2], idx[3]  # H(Theta) of eq. (6), leg i's block
        H[x, x] += m
        H[y, y] += m
        H[x, p1] += h13
        H[p1, x] += h13
        H[x, p2] += h14
        H[p2, x] += h14
        H[y, p1] += h23
        H[p1, y] += h23
        H[y, p2] += h24
        H[p2, y] += h24
        H[p1, p1] += h33
        H[p1, p2] += h34
        H[p2, p1] += h34
        H[p2, p2] += J_2
        # c(Theta, Theta_dot) + g(Theta)
        bias[x] += (-A * sa * w1**2 - B * sb * wb**2) + g0 * 0.0
        bias[y] += (A * ca * w1**2 + B * cb * wb**2) + g0 * m
        bias[p1] += -B * L_1 * s2 * (2.0 * w1 * w2 + w2**2) + g0 * (A * sa + B * sb)
        bias[p2] += B * L_1 * s2 * w1**2 + g0 * (B * sb)
    return H, bias


@njit(cache=True)
def torque_terms(Th: np.ndarray, Thd: np.ndarray, Thdd: np.ndarray, c: Scalars):
    """lagrange.torque_terms of one leg: eq. (6)'s inertial H Theta_dd, centrifugal /
    Coriolis c and gravitational g, each (4,)."""
    m, A, B, J_a, J_2, L_1, g0 = c.m, c.A, c.B, c.J_a, c.J_2, c.L_1, c.g
    t1, t2 = Th[2], Th[3]
    w1, w2 = Thd[2], Thd[3]
    a, b, wb = t1, t1 + t2, w1 + w2
    ca, sa, cb, sb, c2 = math.cos(a), math.sin(a), math.cos(b), math.sin(b), math.cos(t2)
    h13, h14 = A * ca + B * cb, B * cb
    h23, h24 = A * sa + B * sb, B * sb
    h34 = J_2 + B * L_1 * c2
    h33 = J_a + J_2 + 2.0 * B * L_1 * c2
    H = np.array([[m, 0.0, h13, h14], [0.0, m, h23, h24], [h13, h23, h33, h34],
                  [h14, h24, h34, J_2]])
    s2 = math.sin(t2)
    CC = np.array([-A * math.sin(a) * w1**2 - B * math.sin(b) * wb**2,
                   A * math.cos(a) * w1**2 + B * math.cos(b) * wb**2,
                   -B * L_1 * s2 * (2.0 * w1 * w2 + w2**2), B * L_1 * s2 * w1**2])
    G = g0 * np.array([0.0, m, A * math.sin(a) + B * math.sin(b), B * math.sin(b)])
    return np.dot(H, Thdd), CC, G


@njit(cache=True)
def rhs(x: State, tau_m: np.ndarray, b: Body) -> tuple:
    """PlanarHexapod.rhs: the time derivative of (q, qd, th_m, th_m_dot, th_T, th_T_dot)."""
    q, qd, th_m, th_m_dot, th_T, th_T_dot, eta0 = x
    c, J_m, J_T, rest, n, k, level, ground = b
    nq = 2 * k + 2 * n
    Q = np.zeros(nq)
    th = q[2 * k:]
    # the drives' link torques, (7), (8b), (9d)
    if level == 0:
        Q[2 * k:] += tau_m
    elif level == 1:
        Q[2 * k:] += c.K_ijT * (th_m - th)
    else:
        Q[2 * k:] += c.K_ijT * (th_T - th)
    F_H = body_forces(q, qd, c, rest, k)  # eq. (10)
    for s in range(k):
        Q[2 * s] += F_H[s, 0]
        Q[2 * s + 1] += F_H[s, 1]
    for i in range(n):  # J_F^T F_RF of the feet below the ground, eqs. (11)-(12)
        idx = _leg_index(i, k)
        pos, J, v = _foot(q, qd, idx, c)
        if pos[1] >= 0.0:
            continue
        e0 = (eta0[i, 0], eta0[i, 1])
        if math.isnan(e0[0]):
            e0 = (pos[0], 0.0)
        F = _ground(pos, v, e0, c, ground)
        for s in range(4):
            Q[idx[s]] += J[0][s] * F[0] + J[1][s] * F[1]
    H, bias = H_bias(q, qd, c, n, k)
    qdd = Q  # Q - bias, then H^-1 (Q - bias) in place: H is symmetric, so this is
    for j in range(nq):  # np.linalg.solve(H, Q - bias)'s dgesv on the same numbers
        qdd[j] = Q[j] - bias[j]
    solve_transposed_in_place(H, qdd)
    zero = np.zeros(2 * n)
    if level == 0:
        return qd, qdd, zero, zero, zero, zero
    if level == 1:
        a_m = (tau_m - c.B_ijm * th_m_dot - c.K_ijT * (th_m - th)) / J_m  # (8a)
        return qd, qdd, th_m_dot, a_m, zero, zero
    a_m = (tau_m - c.B_ijm * th_m_dot) / J_m  # (9a)
    a_T = (-c.B_ijT * th_T_dot - c.K_ijT * (th_T - th)) / J_T
    return qd, qdd, th_m_dot, a_m, th_T_dot, a_T


@njit(cache=True)
def feet(q: np.ndarray, qd: np.ndarray, c: Scalars, n: int, k: int):
    """PlanarHexapod.feet: foot positions and velocities (n x 2)."""
    pos, vel = np.zeros((n, 2)), np.zeros((n, 2))
    for i in range(n):
        (pos[i, 0], pos[i, 1]), _, (vel[i, 0], vel[i, 1]) = _foot(q, qd, _leg_index(i, k), c)
    return pos, vel


@njit(cache=True)
def held_step(q, qd, F_seg, tau, F_feet, c, n, k, dt):
    """One step of eq. (6) with Q = [F_RH; tau] + sum_i J_Fi^T F_RFi held over it, by
    semi-implicit Euler: qd += dt H^-1 (Q - c - g), then q += dt qd (the scheme of MuJoCo's
    Euler integrator, PyBullet's step and the comparisons' readable hand plant, so that
    every implementation takes the same forces the same way; the paper's Heun step is
    PlanarHexapod.step)."""
    Q = np.concatenate((F_seg.ravel(), tau))
    for i in range(n):
        if F_feet[i, 0] == 0.0 and F_feet[i, 1] == 0.0:
            continue
        idx = _leg_index(i, k)
        _, J, _ = _foot(q, qd, idx, c)
        for s in range(4):
            Q[idx[s]] += J[0][s] * F_feet[i, 0] + J[1][s] * F_feet[i, 1]
    H, bias = H_bias(q, qd, c, n, k)
    qdd = np.linalg.solve(H, Q - bias)
    qd2 = qd + dt * qdd
    return q + dt * qd2, qd2


@njit(cache=True)
def _euler(x: np.ndarray, dt: float, k: np.ndarray) -> np.ndarray:
    """x + dt k, element by element (one array, not one per operation)."""
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        out[i] = x[i] + dt * k[i]
    return out


@njit(cache=True)
def _heun(x: np.ndarray, h: float, k1: np.ndarray, k2: np.ndarray) -> np.ndarray:
    """x + h (k1 + k2), element by element."""
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        out[i] = x[i] + h * (k1[i] + k2[i])
    return out


@njit(cache=True)
def heun_step(x: State, tau_C: np.ndarray, b: Body, dt: float) -> tuple[State, int]:
    """PlanarHexapod.step: saturation (7), one Heun step, the gear impacts, the feet's
    touchdown / lift-off bookkeeping. Returns the new state (eta0 a new array) and the
    impacts."""
    c, n, k = b.c, b.n, b.k
    tau_m = np.minimum(np.maximum(tau_C, -c.tau_max), c.tau_max)  # (7)
    k1 = rhs(x, tau_m, b)
    x1 = State(_euler(x.q, dt, k1[0]), _euler(x.qd, dt, k1[1]), _euler(x.th_m, dt, k1[2]),
               _euler(x.th_m_dot, dt, k1[3]), _euler(x.th_T, dt, k1[4]),
               _euler(x.th_T_dot, dt, k1[5]), x.eta0)
    k2 = rhs(x1, tau_m, b)
    h = 0.5 * dt
    q2 = _heun(x.q, h, k1[0], k2[0])
    qd2 = _heun(x.qd, h, k1[1], k2[1])
    m2, md2 = _heun(x.th_m, h, k1[2], k2[2]), _heun(x.th_m_dot, h, k1[3], k2[3])
    T2, Td2 = _heun(x.th_T, h, k1[4], k2[4]), _heun(x.th_T_dot, h, k1[5], k2[5])
    hits = 0
    if b.level == 2:
        hits = transmission.resolve_play(m2, md2, T2, Td2, b.J_m, b.J_T, 0.5 * c.h_ij,
                                         c.eps_ij)
    e2 = x.eta0.copy()
    for i in range(n):
        pos, _, _ = _foot(q2, qd2, _leg_index(i, k), c)
        if pos[1] >= 0.0:
            e2[i, 0], e2[i, 1] = np.nan, np.nan
        elif math.isnan(e2[i, 0]):
            e2[i, 0], e2[i, 1] = pos[0], 0.0
    return State(q2, qd2, m2, md2, T2, Td2, e2), hits


@njit(cache=True)
def heun_steps(x: State, tau_C: np.ndarray, b: Body, dt: float, t: float, count: int
               ) -> tuple[State, int, float]:
    """``count`` calls of :func:`heun_step` with tau_C held (between controller samples),
    and the time advanced by dt at each as PlanarHexapod.step does."""
    hits = 0
    for _ in range(count):
        x, h = heun_step(x, tau_C, b, dt)
        hits += h
        t += dt
    return x, hits, t
