"""The fast path the hand-rolled quadruped steps with: the same RNEA as rnea.py (Craig's
outward/inward recursions, section 3) written with every vector in body axes and scalar
loops instead of 3 x 3 matrix products, the mass matrix by composite rigid bodies
(Walker-Orin's method 3 instead of the n RNEA calls of their method 1), and the
pinned-feet forward dynamics of reduced.py with its semi-implicit Euler step
(simulation.py) as one compiled function.  Nothing here is new physics: the tests
(tests/test_quadruped_fast.py) hold every term and step to the printed path at round-off.

The frames and the RNEA are ``rnea`` (re-exported here); this module adds the mass
matrix, the contact-constrained solve and the step.  The model's arrays travel as one
record, ``L`` (robot.Links: Table 1's rows and each link's inertial, as
``QuadrupedModel.links`` gives them).
"""

from __future__ import annotations

import numpy as np

from dynval._numba_cache import njit
from dynval.handrolled.quadruped.fast.rnea import (  # noqa: F401  (re-exported)
    _com,
    _cross,
    _frames,
    _inertia_times,
    _link_inertia,
    _rnea_into,
)
from dynval.handrolled.quadruped.robot import QuadrupedModel
from dynval.robots.quadruped.params import LEGS


@njit(cache=True)
def _add_inertia(m, c, I_c, C):
    """Add a body of mass m, centre of mass c and inertia I_c (about c, body axes) to the
    composite C = (m, h = m c, Ibar the inertia about the body origin) packed as
    C[0] = m, C[1:4] = h, C[4:13] = Ibar = I_c + m (|c|^2 1 - c c^T)."""
    C[0] += m
    cc = c[0] * c[0] + c[1] * c[1] + c[2] * c[2]
    for r in range(3):
        C[1 + r] += m * c[r]
        for k in range(r, 3):  # the upper triangle, mirrored: Ibar exactly symmetric
            v = I_c[r, k] + m * ((cc if r == k else 0.0) - c[r] * c[k])
            C[4 + 3 * r + k] += v
            if k != r:
                C[4 + 3 * k + r] += v


@njit(cache=True, inline="always")
def _apply(C, v0, v1, v2, w0, w1, w2):
    """The composite's spatial inertia times the twist (v, w) about the body origin:
    f = m v - h x w,  n = h x v + Ibar w."""
    m = C[0]
    a0, a1, a2 = _cross(C[1], C[2], C[3], w0, w1, w2)
    b0, b1, b2 = _cross(C[1], C[2], C[3], v0, v1, v2)
    return (m * v0 - a0, m * v1 - a1, m * v2 - a2,
            b0 + C[4] * w0 + C[5] * w1 + C[6] * w2,
            b1 + C[7] * w0 + C[8] * w1 + C[9] * w2,
            b2 + C[10] * w0 + C[11] * w1 + C[12] * w2)


@njit(cache=True)
def _mass_into(L, R, p, M):
    """M(q), floating base, by composite rigid bodies (Walker-Orin's method 3): joint j's
    twist S_j = (p_j x z_j, z_j) about the body origin, C_j the composite of links j..3
    of its leg, M[:6, j] = C_j S_j, M[k, j] = S_k . C_j S_j for k <= j in the leg, and
    M[:6, :6] the whole robot's composite."""
    M[:, :] = 0.0
    body = np.zeros(13)
    I = np.empty((3, 3))
    c = np.empty(3)
    for r in range(3):
        for k in range(3):
            I[r, k] = L.I_Cb[r, k]
    _add_inertia(L.m_b, L.P_Cb, I, body)
    C = np.zeros(13)
    S = np.empty((4, 6))
    for leg in range(4):
        C[:] = 0.0
        for j in range(1, 4):
            z0, z1, z2 = R[leg, j, 0, 2], R[leg, j, 1, 2], R[leg, j, 2, 2]
            v0, v1, v2 = _cross(p[leg, j, 0], p[leg, j, 1], p[leg, j, 2], z0, z1, z2)
            S[j, 0], S[j, 1], S[j, 2], S[j, 3], S[j, 4], S[j, 5] = v0, v1, v2, z0, z1, z2
        for j in range(3, 0, -1):
            _com(L, R, p, leg, j, c)
            _link_inertia(L, R, leg, j, I)
            _add_inertia(L.m[leg, j - 1], c, I, C)
            F = _apply(C, S[j, 0], S[j, 1], S[j, 2], S[j, 3], S[j, 4], S[j, 5])
            col = 6 + 3 * leg + j - 1
            for r in range(6):
                M[r, col] = F[r]
                M[col, r] = F[r]
            for k in range(1, j + 1):
                v = (S[k, 0] * F[0] + S[k, 1] * F[1] + S[k, 2] * F[2] + S[k, 3] * F[3]
                     + S[k, 4] * F[4] + S[k, 5] * F[5])
                row = 6 + 3 * leg + k - 1
                M[row, col] = v
                M[col, row] = v
        body += C
    for r in range(3):
        M[r, r] = body[0]
    h0, h1, h2 = body[1], body[2], body[3]
    # [[m 1, -[h]x], [[h]x, Ibar]]
    M[0, 4], M[0, 5], M[1, 3], M[1, 5], M[2, 3], M[2, 4] = h2, -h1, -h2, h0, h1, -h0
    M[4, 0], M[5, 0], M[3, 1], M[5, 1], M[3, 2], M[4, 2] = h2, -h1, -h2, h0, h1, -h0
    for r in range(3):
        for k in range(3):
            M[3 + r, 3 + k] = body[4 + 3 * r + k]


@njit(cache=True)
def _solve_inplace(A, b, n):
    """b <- A^-1 b for the leading n x n block by Gaussian elimination with partial
    pivoting (A is overwritten); b may hold several right-hand sides as columns."""
    m = b.shape[1]
    for k in range(n):
        piv, best = k, abs(A[k, k])
        for r in range(k + 1, n):
            if abs(A[r, k]) > best:
                piv, best = r, abs(A[r, k])
        if piv != k:
            for c in range(n):
                A[k, c], A[piv, c] = A[piv, c], A[k, c]
            for c in range(m):
                b[k, c], b[piv, c] = b[piv, c], b[k, c]
        d = A[k, k]
        for r in range(k + 1, n):
            f = A[r, k] / d
            if f != 0.0:
                for c in range(k + 1, n):
                    A[r, c] -= f * A[k, c]
                for c in range(m):
                    b[r, c] -= f * b[k, c]
    for k in range(n - 1, -1, -1):
        for c in range(m):
            acc = b[k, c]
            for j in range(k + 1, n):
                acc -= A[k, j] * b[j, c]
            b[k, c] = acc / A[k, k]


@njit(cache=True)
def _contact_rows(R, p, stance, K):
    """J_c into K's lower-left block and -J_c^T into its upper-right one."""
    row = 18
    for leg in range(4):
        if not stance[leg]:
            continue
        p40, p41, p42 = p[leg, 4, 0], p[leg, 4, 1], p[leg, 4, 2]
        for k in range(3):
            K[row + k, k] = 1.0
        K[row, 4], K[row, 5] = p42, -p41
        K[row + 1, 3], K[row + 1, 5] = -p42, p40
        K[row + 2, 3], K[row + 2, 4] = p41, -p40
        for j in range(1, 4):
            col = 6 + 3 * leg + j - 1
            s0, s1, s2 = _cross(R[leg, j, 0, 2], R[leg, j, 1, 2], R[leg, j, 2, 2],
                                p40 - p[leg, j, 0], p41 - p[leg, j, 1], p42 - p[leg, j, 2])
            K[row, col], K[row + 1, col], K[row + 2, col] = s0, s1, s2
        for k in range(3):
            for col in range(18):
                K[col, row + k] = -K[row + k, col]
        row += 3


@njit(cache=True)
def _kkt(M, R, p, stance, K):
    """K = [[M, -J_c^T], [J_c, 0]] for the stance feet (in LEGS order); returns its size."""
    nc = 0
    for leg in range(4):
        nc += stance[leg]
    n = 18 + 3 * nc
    for r in range(n):
        for s in range(n):
            K[r, s] = M[r, s] if (r < 18 and s < 18) else 0.0
    _contact_rows(R, p, stance, K)
    return n


@njit(cache=True)
def _rotation_exp(x, y, z, out):
    """so3.exp: Rodrigues' formula of the rotation vector (x, y, z)."""
    a = np.sqrt(x * x + y * y + z * z)
    K = np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])
    s, c = (1.0, 0.0) if a < 1e-12 else (np.sin(a) / a, (1.0 - np.cos(a)) / (a * a))
    for r in range(3):
        for k in range(3):
            KK = K[r, 0] * K[0, k] + K[r, 1] * K[1, k] + K[r, 2] * K[2, k]
            out[r, k] = (1.0 if r == k else 0.0) + s * K[r, k] + c * KK


@njit(cache=True)
def _step(L, p_WB, R_WB, theta, nu, tau, stance, old_stance, g_W, dt, F_foot_B, nudot):
    """One step of simulation.PinnedFeetSimulation.step, in place: the plastic impact of
    a foot joining the support (reduced.touchdown_impulse, as the KKT system
    [[M, -J^T], [J, 0]] (dnu, l) = (0, -J nu)), eq. (5) with the stance feet pinned
    (reduced.constrained_forward_dynamics), then semi-implicit Euler."""
    R = np.empty((4, 5, 3, 3))
    p = np.empty((4, 5, 3))
    M = np.empty((18, 18))
    K = np.empty((30, 30))
    b = np.empty((30, 1))
    gen = np.empty(18)
    a4 = np.empty((4, 3))
    f1 = np.empty((4, 3))
    n1 = np.empty((4, 3))
    _frames(L, theta, R, p)
    _mass_into(L, R, p, M)
    joins = False
    for leg in range(4):
        joins = joins or (stance[leg] and not old_stance[leg])
    if joins:
        n = _kkt(M, R, p, stance, K)
        for r in range(n):
            acc = 0.0
            if r >= 18:
                for s in range(18):
                    acc -= K[r, s] * nu[s]
            b[r, 0] = acc
        _solve_inplace(K, b, n)
        for r in range(18):
            nu[r] += b[r, 0]
    zero = np.zeros(18)
    _rnea_into(L, R, p, R_WB, nu, zero, nu[6:], zero[6:], g_W, np.zeros((4, 3)), gen, a4,
               f1, n1, np.empty((27, 3)))
    n = _kkt(M, R, p, stance, K)
    for r in range(18):
        b[r, 0] = (tau[r - 6] if r >= 6 else 0.0) - gen[r]
    row = 18
    for leg in range(4):
        if stance[leg]:
            # foot acceleration at nudot = 0 without gravity
            for k in range(3):
                gB = R_WB[0, k] * g_W[0] + R_WB[1, k] * g_W[1] + R_WB[2, k] * g_W[2]
                b[row + k, 0] = -(a4[leg, k] + gB)
            row += 3
    _solve_inplace(K, b, n)
    row = 18
    for leg in range(4):
        for k in range(3):
            F_foot_B[leg, k] = b[row + k, 0] if stance[leg] else 0.0
        if stance[leg]:
            row += 3
    for r in range(18):
        nudot[r] = b[r, 0]
        nu[r] += dt * b[r, 0]
    for j in range(12):
        theta[j] += dt * nu[6 + j]
    for r in range(3):
        p_WB[r] += dt * (R_WB[r, 0] * nu[0] + R_WB[r, 1] * nu[1] + R_WB[r, 2] * nu[2])
    E = np.empty((3, 3))
    _rotation_exp(dt * nu[3], dt * nu[4], dt * nu[5], E)
    R0 = R_WB.copy()
    for r in range(3):
        for k in range(3):
            R_WB[r, k] = R0[r, 0] * E[0, k] + R0[r, 1] * E[1, k] + R0[r, 2] * E[2, k]


@njit(cache=True)
def _inverse_dynamics(L, R_WB, nu, nudot, theta, thetad, thetadd, g_W, F_foot_B):
    R = np.empty((4, 5, 3, 3))
    p = np.empty((4, 5, 3))
    gen = np.empty(18)
    buf = np.empty((39, 3))
    a4, f1, n1 = buf[27:31], buf[31:35], buf[35:39]
    _frames(L, np.ascontiguousarray(theta).reshape(12), R, p)
    _rnea_into(L, R, p, R_WB, nu, nudot, np.ascontiguousarray(thetad).reshape(12),
               np.ascontiguousarray(thetadd).reshape(12), g_W, F_foot_B, gen, a4, f1, n1, buf)
    return gen, a4, f1, n1


@njit(cache=True)
def _generalized_forces(L, R_WB, nu, nudot, theta, g_W):
    """(f_b, n_b, tau) only, no foot forces: what Pinocchio's rnea returns."""
    R = np.empty((4, 5, 3, 3))
    p = np.empty((4, 5, 3))
    gen = np.empty(18)
    buf = np.empty((43, 3))
    buf[39:43] = 0.0
    _frames(L, np.ascontiguousarray(theta).reshape(12), R, p)
    _rnea_into(L, R, p, R_WB, nu, nudot, nu[6:], nudot[6:], g_W, buf[39:43], gen, buf[27:31],
               buf[31:35], buf[35:39], buf)
    return gen


@njit(cache=True)
def _mass_matrix(L, theta):
    R = np.empty((4, 5, 3, 3))
    p = np.empty((4, 5, 3))
    M = np.empty((18, 18))
    _frames(L, theta, R, p)
    _mass_into(L, R, p, M)
    return M


_NO_FEET_FORCE = np.zeros((4, 3))


def inverse_dynamics(model: QuadrupedModel, R_WB: np.ndarray, nu: np.ndarray,
                     nudot: np.ndarray, theta: np.ndarray, thetad: np.ndarray,
                     thetadd: np.ndarray, g_W: np.ndarray,
                     F_foot_B: np.ndarray | None = None) -> tuple[np.ndarray, ...]:
    """rnea.inverse_dynamics by the body-axes recursion: (f_b, n_b, tau (4 x 3), f_1B,
    n_1B, a_4B), the same arguments (nu, nudot the base's six; theta and its rates any
    shape of 12)."""
    F = _NO_FEET_FORCE if F_foot_B is None else F_foot_B
    gen, a4, f1, n1 = _inverse_dynamics(model.links, R_WB, nu, nudot, theta, thetad,
                                        thetadd, g_W, F)
    return gen[:3], gen[3:6], gen[6:].reshape(4, 3), f1, n1, a4


def generalized_forces(model: QuadrupedModel, R_WB: np.ndarray, theta: np.ndarray,
                       nu: np.ndarray, nudot: np.ndarray, g_W: np.ndarray) -> np.ndarray:
    """terms.generalized_forces (floating, feet free): (f_b, n_b, tau) as one 18-vector,
    for the 18 rates nu and accelerations nudot."""
    return _generalized_forces(model.links, R_WB, nu, nudot, theta, g_W)


def mass_matrix(model: QuadrupedModel, theta: np.ndarray, floating: bool = True
                ) -> np.ndarray:
    """M(q) (18 x 18 floating, 12 x 12 fixed base: its joint block) by composite rigid
    bodies."""
    M = _mass_matrix(model.links, np.ravel(theta))
    return M if floating else M[6:, 6:].copy()


def stance_mask(stance: tuple[str, ...]) -> np.ndarray:
    """The legs of ``stance`` as a 0/1 vector in LEGS order."""
    return np.array([leg in stance for leg in LEGS], dtype=np.int64)


def step(model: QuadrupedModel, p_WB: np.ndarray, R_WB: np.ndarray, theta: np.ndarray,
         nu: np.ndarray, tau: np.ndarray, stance: np.ndarray, old_stance: np.ndarray,
         g_W: np.ndarray, dt: float, F_foot_B: np.ndarray, nudot: np.ndarray) -> None:
    """One pinned-feet step in place (see ``_step``); ``stance`` and ``old_stance`` are
    ``stance_mask`` vectors."""
    _step(model.links, p_WB, R_WB, theta, nu, tau, stance, old_stance, g_W, dt, F_foot_B,
          nudot)
