"""The terms of eq. (19) by recursion instead of operator products: the compiled copy of
the readable model's terms (model.py, soa.py) that the fast simulation steps with.

The same spatial algebra as ``dynval.handrolled.hopper.soa`` (corrected form): velocities and
accelerations outwards link by link, eqs. (3) and (12); spatial forces inwards, eq. (15);
joint forces as their projections, eq. (18). The mass matrix is sum_k J_k^T M_k J_k over
the links' spatial Jacobians, built outwards with J_k = Phi_{k,k-1} J_{k-1} + H_k (the
columns of Phi H). One compiled function (``_terms``, through its four passes) computes
M, J and tau with scalar loops; the simulation step, the inverse dynamics and the mass
matrix all call it, and the tests hold every term to the operator products at round-off.
"""

from __future__ import annotations

import numpy as np

from dynval._numba_cache import njit
from dynval.handrolled.hopper.chain import REVOLUTE, Chain
from dynval.handrolled.lapack import solve_transposed_in_place


@njit(cache=True)
def _rot_rows(a, angle) -> tuple:
    """The rows of the rotation by ``angle`` about the unit axis a,
    c I + s [a]x + (1 - c) a a^T, as three 3-tuples (no array on the per-step path)."""
    c, s = np.cos(angle), np.sin(angle)
    t = 1.0 - c
    return ((c + t * a[0] * a[0], t * a[0] * a[1] - s * a[2], t * a[0] * a[2] + s * a[1]),
            (t * a[1] * a[0] + s * a[2], c + t * a[1] * a[1], t * a[1] * a[2] - s * a[0]),
            (t * a[2] * a[0] - s * a[1], t * a[2] * a[1] + s * a[0], c + t * a[2] * a[2]))


@njit(cache=True)
def rnea(kind, axis, offset, com, inertia, mass, q, qd, qdd, Vd_base, F_tip):
    """tau = M qdd + C + M_b Vd_base + J^T F_tip on a still base (eqs. 12, 15, 18)."""
    return _terms(kind, axis, offset, com, inertia, mass, q, qd, qdd, Vd_base, F_tip,
                  1.0)[2]


@njit(cache=True)
def mass_and_jacobian(kind, axis, offset, com, inertia, mass, q):
    """The generalised mass matrix sum_k J_k^T M_k J_k and the tip Jacobian of eq. (9)
    (the tip at the last frame's origin)."""
    zero = np.zeros(q.shape[0])
    M, J, _ = _terms(kind, axis, offset, com, inertia, mass, q, zero, zero, np.zeros(6),
                     np.zeros(6), 1.0)
    return M, J


class Recursive:
    """Eq. (19) for one chain by the recursions above. The tip must be the last link
    frame's origin (l_{n,t} = 0), as the hopper's foot is."""

    def __init__(self, chain: Chain) -> None:
        if np.any(chain.tip != 0.0):
            raise ValueError("the recursive terms take the tip at the last frame's origin")
        self.chain = chain
        self._args = (chain.kind.astype(np.int64), chain.axis, chain.offset, chain.com,
                      chain.inertia, chain.mass)

    def inverse_dynamics(self, q: np.ndarray, qd: np.ndarray, qdd: np.ndarray,
                         Vd_base: np.ndarray, F_tip: np.ndarray | None = None) -> np.ndarray:
        """tau for the accelerations qdd with the base accelerating at Vd_base (gravity
        included as in ``soa.gravity_acceleration``) and F_tip applied by the tip, given
        at the last link's frame origin."""
        F = np.zeros(6) if F_tip is None else np.asarray(F_tip, float)
        return rnea(*self._args, np.asarray(q, float), np.asarray(qd, float),
                    np.asarray(qdd, float), np.asarray(Vd_base, float), F)

    def mass_and_jacobian(self, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(M, J) at q."""
        return mass_and_jacobian(*self._args, np.asarray(q, float))

    def euler_step(self, q: np.ndarray, qd: np.ndarray, tau: np.ndarray,
                   Vd_base: np.ndarray, F_tip: np.ndarray, dt: float,
                   printed: bool = False) -> tuple:
        """(q, qd, tip position, tip velocity) one semi-implicit Euler step later (with
        the bias a_k of eq. (12) as printed when ``printed``)."""
        return euler_step(*self._args, q, qd, tau, Vd_base, F_tip, dt,
                          0.0 if printed else 1.0)

    def tip(self, q: np.ndarray, qd: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Tip position and velocity, world axes."""
        return tip_state(*self._args, np.asarray(q, float), np.asarray(qd, float))


@njit(cache=True)
def tip_state(kind, axis, offset, com, inertia, mass, q, qd):
    """Position and linear velocity of the tip (the last frame's origin), by the
    position and velocity recursion (3) alone: h = R a_k, p_k = p_{k-1} + R l_k (R the
    parent's attitude, l_k the offset, plus a_k q_k for a sliding joint), R_k = R
    Rot(a_k, q_k), V_k = Phi_{k,k-1} V_{k-1} + H_k qd_k. Written element by element with
    the operations of the vector form (A x and A B as sums from 0.0, ``_rot_rows``, Phi by
    np.cross's formula, H q_dot) in their order: the same floats without an array per
    product (tests/test_hopper_fast_paths.py)."""
    R, Rn = np.eye(3), np.empty((3, 3))
    p, dp, h, V = np.zeros(3), np.empty(3), np.empty(3), np.zeros(6)
    for k in range(kind.shape[0]):
        a = axis[k]
        for i in range(3):  # h = R a_k
            h[i] = 0.0 + R[i, 0] * a[0] + R[i, 1] * a[1] + R[i, 2] * a[2]
        revolute = kind[k] == REVOLUTE
        l0, l1, l2 = offset[k, 0], offset[k, 1], offset[k, 2]
        if not revolute:
            l0, l1, l2 = l0 + a[0] * q[k], l1 + a[1] * q[k], l2 + a[2] * q[k]
        for i in range(3):  # p_next - p, with p_next = p + R l
            p_next = p[i] + (0.0 + R[i, 0] * l0 + R[i, 1] * l1 + R[i, 2] * l2)
            dp[i] = p_next - p[i]
            p[i] = p_next
        if revolute:  # R = R Rot(a_k, q_k)
            (r00, r01, r02), (r10, r11, r12), (r20, r21, r22) = _rot_rows(a, q[k])
            for i in range(3):
                Rn[i, 0] = 0.0 + R[i, 0] * r00 + R[i, 1] * r10 + R[i, 2] * r20
                Rn[i, 1] = 0.0 + R[i, 0] * r01 + R[i, 1] * r11 + R[i, 2] * r21
                Rn[i, 2] = 0.0 + R[i, 0] * r02 + R[i, 1] * r12 + R[i, 2] * r22
            R, Rn = Rn, R
        # V = Phi(dp) V + H qd: the angular rows keep V's, the linear rows lose dp x w;
        # H is h in the joint's rows and 0.0 in the others
        w0, w1, w2 = V[0], V[1], V[2]
        x0, x1, x2 = dp[1] * w2 - dp[2] * w1, dp[2] * w0 - dp[0] * w2, dp[0] * w1 - dp[1] * w0
        for i in range(3):
            H_w, H_v = (h[i], 0.0) if revolute else (0.0, h[i])
            V[i] = V[i] + H_w * qd[k]
            V[3 + i] = (V[3 + i] - (x0, x1, x2)[i]) + H_v * qd[k]
    return p, V[3:].copy()


@njit(cache=True)
def _cross_into(a, b, out):
    out[0] = a[1] * b[2] - a[2] * b[1]
    out[1] = a[2] * b[0] - a[0] * b[2]
    out[2] = a[0] * b[1] - a[1] * b[0]


@njit(cache=True)
def euler_step(kind, axis, offset, com, inertia, mass, q, qd, tau, Vd_base, F_tip, dt,
               coriolis=1.0):
    """One semi-implicit Euler step of M q_dd = tau - (C + M_b Vd_base + J^T F_tip), and
    the tip's position and velocity after it: the whole of a simulation step in one
    compiled call. ``coriolis`` 0 drops the sliding joint's Coriolis term 2 w x h
    theta_dot, as the printed eq. (12) does (soa.bias_a)."""
    n = q.shape[0]
    x = np.zeros(n)  # q_dd = 0 for _terms, then the right-hand side, then the solution
    M, _, bias = _terms(kind, axis, offset, com, inertia, mass, q, qd, x, Vd_base, F_tip,
                        coriolis)
    for i in range(n):
        x[i] = tau[i] - bias[i]
    solve_transposed_in_place(M, x)  # M is symmetric: np.linalg.solve(M, x)'s dgesv
    qd_next, q_next = np.empty(n), np.empty(n)
    for i in range(n):  # element by element: no temporary array per operation
        qd_next[i] = qd[i] + dt * x[i]
        q_next[i] = q[i] + dt * qd_next[i]
    foot, foot_v = tip_state(kind, axis, offset, com, inertia, mass, q_next, qd_next)
    return q_next, qd_next, foot, foot_v


@njit(cache=True)
def _terms(kind, axis, offset, com, inertia, mass, q, qd, qdd, Vd_base, F_tip, coriolis):
    """(M, J, tau): the mass matrix sum_k J_k^T M_k J_k, the last link's spatial Jacobian
    (the tip's, eq. 9) and tau = M qdd + C + M_b Vd_base + J^T F_tip by the Newton-Euler
    recursions (3), (12), (15), (18), written with scalar loops into a few arrays: at this
    size the small temporaries of a vector form cost three times the arithmetic (the
    tests hold every term to the operator products at round-off).  The frames and spatial
    inertias are ``_frames``, M and J ``_mass_jacobian``, the outward recursion of
    velocities and accelerations ``_outward``, the inward one of forces ``_inward``."""
    n = kind.shape[0]
    R = np.empty((n, 3, 3))
    h = np.empty((n, 3))
    lv = np.empty((n, 3))
    lc = np.empty((n, 3))
    Mk = np.zeros((n, 6, 6))
    v3 = np.empty(3)
    _frames(kind, axis, offset, com, inertia, mass, q, R, h, lv, lc, Mk, v3)
    M, Jk = _mass_jacobian(kind, mass, h, lv, Mk, v3)
    V, A = _outward(kind, qd, qdd, Vd_base, coriolis, h, lv, v3)
    tau_out = _inward(kind, mass, F_tip, h, lv, lc, Mk, V, A, v3)
    return M, Jk, tau_out


@njit(cache=True)
def _frames(kind, axis, offset, com, inertia, mass, q, R, h, lv, lc, Mk, v3):
    """Each link's attitude R_k, joint axis h_k = R_{k-1} a_k, offset l_k and centre of
    mass R_k c_k in world axes, and its spatial inertia M_k about its frame's origin, eq.
    (15), into R, h, lv, lc, Mk (v3: scratch)."""
    Rp = np.eye(3)
    tmp = np.empty((3, 3))
    for k in range(kind.shape[0]):  # frames and spatial inertias, eq. (15)
        for i in range(3):
            h[k, i] = Rp[i, 0] * axis[k, 0] + Rp[i, 1] * axis[k, 1] + Rp[i, 2] * axis[k, 2]
        if kind[k] == REVOLUTE:  # R_k = R_{k-1} Rot(a_k, q_k)
            (r00, r01, r02), (r10, r11, r12), (r20, r21, r22) = _rot_rows(axis[k], q[k])
            for i in range(3):
                R[k, i, 0] = Rp[i, 0] * r00 + Rp[i, 1] * r10 + Rp[i, 2] * r20
                R[k, i, 1] = Rp[i, 0] * r01 + Rp[i, 1] * r11 + Rp[i, 2] * r21
                R[k, i, 2] = Rp[i, 0] * r02 + Rp[i, 1] * r12 + Rp[i, 2] * r22
            for i in range(3):
                v3[i] = offset[k, i]
        else:
            R[k] = Rp
            for i in range(3):
                v3[i] = offset[k, i] + axis[k, i] * q[k]
        for i in range(3):
            lv[k, i] = Rp[i, 0] * v3[0] + Rp[i, 1] * v3[1] + Rp[i, 2] * v3[2]
            lc[k, i] = R[k, i, 0] * com[k, 0] + R[k, i, 1] * com[k, 1] + R[k, i, 2] * com[k, 2]
        for i in range(3):  # tmp = R I_c
            for j in range(3):
                tmp[i, j] = (R[k, i, 0] * inertia[k, 0, j] + R[k, i, 1] * inertia[k, 1, j]
                             + R[k, i, 2] * inertia[k, 2, j])
        c = lc[k]
        cc = c[0] * c[0] + c[1] * c[1] + c[2] * c[2]
        m = mass[k]
        for i in range(3):
            for j in range(3):  # R I_c R^T - m L L = R I_c R^T + m (|c|^2 I - c c^T)
                Mk[k, i, j] = (tmp[i, 0] * R[k, j, 0] + tmp[i, 1] * R[k, j, 1]
                               + tmp[i, 2] * R[k, j, 2]) - m * c[i] * c[j]
            Mk[k, i, i] += m * cc
            Mk[k, 3 + i, 3 + i] = m
        # m L = m [c]x (top right), -m L (bottom left)
        Mk[k, 0, 4], Mk[k, 0, 5] = -m * c[2], m * c[1]
        Mk[k, 1, 3], Mk[k, 1, 5] = m * c[2], -m * c[0]
        Mk[k, 2, 3], Mk[k, 2, 4] = -m * c[1], m * c[0]
        for i in range(3):
            for j in range(3):
                Mk[k, 3 + i, j] = -Mk[k, i, 3 + j]
        Rp = R[k]


@njit(cache=True)
def _mass_jacobian(kind, mass, h, lv, Mk, v3):
    """(M, J): the mass matrix sum_k J_k^T M_k J_k over the link Jacobians built outwards,
    J_k = Phi_{k,k-1} J_{k-1} + H_k, and the last one, the tip's (eq. 9)."""
    n = kind.shape[0]
    Jk = np.zeros((6, n))
    M = np.zeros((n, n))
    MJ = np.empty((6, n))
    for k in range(n):
        for j in range(k):
            _cross_into(lv[k], Jk[:3, j], v3)
            for i in range(3):
                Jk[3 + i, j] -= v3[i]
        for i in range(3):
            Jk[i, k] = h[k, i] if kind[k] == REVOLUTE else 0.0
            Jk[3 + i, k] = 0.0 if kind[k] == REVOLUTE else h[k, i]
        if mass[k] == 0.0:
            continue
        for i in range(6):
            for j in range(k + 1):
                acc = 0.0
                for r in range(6):
                    acc += Mk[k, i, r] * Jk[r, j]
                MJ[i, j] = acc
        for a in range(k + 1):
            for b in range(k + 1):
                acc = 0.0
                for r in range(6):
                    acc += Jk[r, a] * MJ[r, b]
                M[a, b] += acc
    for a in range(n):  # the mass matrix is symmetric: fill the upper triangle
        for b in range(a + 1, n):
            M[a, b] = M[b, a]
    return M, Jk


@njit(cache=True)
def _outward(kind, qd, qdd, Vd_base, coriolis, h, lv, v3):
    """(V, A): each link's spatial velocity and acceleration, outwards from the base
    accelerating at Vd_base, eqs. (3) and (12) (``coriolis`` 0: the sliding joint's
    2 w x h theta_dot dropped, as printed)."""
    n = kind.shape[0]
    V = np.zeros((n, 6))
    A = np.zeros((n, 6))
    Vp = np.zeros(6)
    Ap = Vd_base.copy()
    w_l = np.empty(3)
    for k in range(n):
        _cross_into(lv[k], Vp[:3], v3)
        for i in range(3):
            V[k, i] = Vp[i]
            V[k, 3 + i] = Vp[3 + i] - v3[i]
        _cross_into(lv[k], Ap[:3], v3)
        for i in range(3):
            A[k, i] = Ap[i]
            A[k, 3 + i] = Ap[3 + i] - v3[i]
        if kind[k] == REVOLUTE:
            for i in range(3):
                V[k, i] += h[k, i] * qd[k]
            _cross_into(Vp[:3], V[k, :3], v3)  # w_{k-1} x w_k
            for i in range(3):
                A[k, i] += v3[i]
                A[k, i] += h[k, i] * qdd[k]  # H_k theta_dd_k
        else:
            for i in range(3):
                V[k, 3 + i] += h[k, i] * qd[k]
            _cross_into(Vp[:3], h[k], v3)  # 2 w_{k-1} x h_k theta_dot_k
            for i in range(3):
                A[k, 3 + i] += coriolis * 2.0 * v3[i] * qd[k]
                A[k, 3 + i] += h[k, i] * qdd[k]  # H_k theta_dd_k
        _cross_into(Vp[:3], lv[k], w_l)  # w_{k-1} x (w_{k-1} x l)
        _cross_into(Vp[:3], w_l, v3)
        for i in range(3):
            A[k, 3 + i] += v3[i]
        Vp = V[k]
        Ap = A[k]
    return V, A


@njit(cache=True)
def _inward(kind, mass, F_tip, h, lv, lc, Mk, V, A, v3):
    """tau: the spatial forces inwards from the tip's F_tip, eq. (15), and the joint
    forces as their projections on the joint axes, eq. (18)."""
    n = kind.shape[0]
    F = F_tip.copy()
    tau_out = np.zeros(n)
    Iw = np.empty(3)
    w_l = np.empty(3)
    for k in range(n - 1, -1, -1):
        w = V[k, :3]
        for i in range(6):
            acc = 0.0
            for r in range(6):
                acc += Mk[k, i, r] * A[k, r]
            F[i] += acc
        for i in range(3):
            Iw[i] = Mk[k, i, 0] * w[0] + Mk[k, i, 1] * w[1] + Mk[k, i, 2] * w[2]
        _cross_into(w, Iw, v3)
        for i in range(3):
            F[i] += v3[i]
        _cross_into(w, lc[k], w_l)
        _cross_into(w, w_l, v3)
        for i in range(3):
            F[3 + i] += mass[k] * v3[i]
        acc = 0.0
        for i in range(3):
            acc += h[k, i] * (F[i] if kind[k] == REVOLUTE else F[3 + i])
        tau_out[k] = acc
        _cross_into(lv[k], F[3:], v3)  # Phi^T: the moment about the parent's origin
        for i in range(3):
            F[i] += v3[i]
    return tau_out
