"""The terms of eq. (19) by recursion instead of operator products: the fast path the
simulation steps with.

The same spatial algebra as ``handrolled.hopper.soa`` (corrected form): velocities and
accelerations outwards link by link, eqs. (3) and (12); spatial forces inwards, eq. (15);
joint forces as their projections, eq. (18). The mass matrix is sum_k J_k^T M_k J_k over
the links' spatial Jacobians, built outwards with J_k = Phi_{k,k-1} J_{k-1} + H_k (the
columns of Phi H). Compiled with numba; the tests hold every term to the operator products
at round-off.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from handrolled.hopper.chain import REVOLUTE, Chain
from handrolled.so3 import exp, skew


@njit(cache=True)
def _frames(kind, axis, offset, com, inertia, mass, q):
    n = kind.shape[0]
    R_prev = np.eye(3)
    p_prev = np.zeros(3)
    h = np.zeros((n, 3))
    lvec = np.zeros((n, 3))
    l_c = np.zeros((n, 3))
    Mk = np.zeros((n, 6, 6))
    p = np.zeros((n, 3))
    for k in range(n):
        h[k] = R_prev @ axis[k]
        if kind[k] == REVOLUTE:
            R = R_prev @ exp(axis[k] * q[k])
            pk = p_prev + R_prev @ offset[k]
        else:
            R = R_prev
            pk = p_prev + R_prev @ (offset[k] + axis[k] * q[k])
        lvec[k] = pk - p_prev
        p[k] = pk
        l_c[k] = R @ com[k]
        L = skew(l_c[k])
        Mk[k, :3, :3] = R @ inertia[k] @ R.T - mass[k] * (L @ L)  # eq. (15)
        Mk[k, :3, 3:] = mass[k] * L
        Mk[k, 3:, :3] = -mass[k] * L
        for i in range(3):
            Mk[k, 3 + i, 3 + i] = mass[k]
        R_prev = R
        p_prev = pk
    return h, lvec, l_c, Mk, p


@njit(cache=True)
def _phi(l, V):
    """Phi_{k,k-1} V, eq. (5)."""
    out = V.copy()
    out[3:] -= np.cross(l, V[:3])
    return out


@njit(cache=True)
def _phi_T(l, F):
    """Phi_{k,k-1}^T F: a spatial force moved from frame k to frame k-1."""
    out = F.copy()
    out[:3] += np.cross(l, F[3:])
    return out


@njit(cache=True)
def _H(kind, h):
    out = np.zeros(6)
    if kind == REVOLUTE:
        out[:3] = h
    else:
        out[3:] = h
    return out


@njit(cache=True)
def rnea(kind, axis, offset, com, inertia, mass, q, qd, qdd, Vd_base, F_tip):
    """tau = M qdd + C + M_b Vd_base + J^T F_tip on a still base (eqs. 12, 15, 18)."""
    h, lvec, l_c, Mk, _ = _frames(kind, axis, offset, com, inertia, mass, q)
    return _rnea(kind, mass, h, lvec, l_c, Mk, qd, qdd, Vd_base, F_tip)


@njit(cache=True)
def _rnea(kind, mass, h, lvec, l_c, Mk, qd, qdd, Vd_base, F_tip):
    n = kind.shape[0]
    V = np.zeros((n, 6))
    A = np.zeros((n, 6))
    V_prev = np.zeros(6)
    A_prev = Vd_base.copy()
    for k in range(n):
        Hk = _H(kind[k], h[k])
        V[k] = _phi(lvec[k], V_prev) + Hk * qd[k]  # eq. (3)
        w_prev = V_prev[:3]
        a = np.zeros(6)
        a[3:] = np.cross(w_prev, np.cross(w_prev, lvec[k]))
        if kind[k] == REVOLUTE:
            a[:3] = np.cross(w_prev, V[k, :3])
        else:
            a[3:] += 2.0 * np.cross(w_prev, h[k]) * qd[k]
        A[k] = _phi(lvec[k], A_prev) + Hk * qdd[k] + a  # eq. (12)
        V_prev = V[k]
        A_prev = A[k]
    tau = np.zeros(n)
    F = F_tip.copy()  # Phi_t^T F_t: the tip is the last frame's origin
    for k in range(n - 1, -1, -1):
        w = V[k, :3]
        b = np.zeros(6)
        b[:3] = np.cross(w, np.ascontiguousarray(Mk[k, :3, :3]) @ w)
        b[3:] = mass[k] * np.cross(w, np.cross(w, l_c[k]))
        F = F + Mk[k] @ A[k] + b  # eq. (15)
        tau[k] = _H(kind[k], h[k]) @ F  # eq. (18)
        F = _phi_T(lvec[k], F)
    return tau


@njit(cache=True)
def mass_and_jacobian(kind, axis, offset, com, inertia, mass, q):
    """The generalised mass matrix sum_k J_k^T M_k J_k and the tip Jacobian of eq. (9)
    (the tip at the last frame's origin)."""
    h, lvec, l_c, Mk, p = _frames(kind, axis, offset, com, inertia, mass, q)
    return _mass_jac(kind, h, lvec, Mk)


@njit(cache=True)
def _mass_jac(kind, h, lvec, Mk):
    n = kind.shape[0]
    Jk = np.zeros((6, n))
    M = np.zeros((n, n))
    for k in range(n):
        for j in range(k):
            Jk[:, j] = _phi(lvec[k], Jk[:, j])
        Jk[:, k] = _H(kind[k], h[k])
        M += Jk.T @ Mk[k] @ Jk
    return M, Jk


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
                   Vd_base: np.ndarray, F_tip: np.ndarray, dt: float) -> tuple:
        """(q, qd, tip position, tip velocity) one semi-implicit Euler step later."""
        return euler_step(*self._args, q, qd, tau, Vd_base, F_tip, dt)

    def tip(self, q: np.ndarray, qd: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Tip position and velocity, world axes."""
        return tip_state(*self._args, np.asarray(q, float), np.asarray(qd, float))


@njit(cache=True)
def tip_state(kind, axis, offset, com, inertia, mass, q, qd):
    """Position and linear velocity of the tip (the last frame's origin)."""
    h, lvec, _, Mk, p = _frames(kind, axis, offset, com, inertia, mass, q)
    _, J = _mass_jac(kind, h, lvec, Mk)
    return p[-1].copy(), np.ascontiguousarray(J[3:]) @ qd


@njit(cache=True)
def euler_step(kind, axis, offset, com, inertia, mass, q, qd, tau, Vd_base, F_tip, dt):
    """One semi-implicit Euler step of M q_dd = tau - (C + M_b Vd_base + J^T F_tip), and
    the tip's position and velocity after it: the whole of a simulation step in one
    compiled call."""
    h, lvec, l_c, Mk, _ = _frames(kind, axis, offset, com, inertia, mass, q)
    M, _ = _mass_jac(kind, h, lvec, Mk)
    bias = _rnea(kind, mass, h, lvec, l_c, Mk, qd, np.zeros(q.shape[0]), Vd_base, F_tip)
    qd_next = qd + dt * np.linalg.solve(M, tau - bias)
    q_next = q + dt * qd_next
    foot, foot_v = tip_state(kind, axis, offset, com, inertia, mass, q_next, qd_next)
    return q_next, qd_next, foot, foot_v
