"""Craig's recursive Newton-Euler algorithm (Introduction to Robotics, eqs. 6.45-6.53)
for the whole floating quadruped, as section 3 lays it out: outward velocities and
accelerations from the body through frames 0-4 of each leg, inward forces and moments
from the foot to the HAA joint, and the body's six equations (3)-(4).

Base coordinates: nu = (v_B, omega_B), the body-origin velocity and body angular
velocity, both in body axes; nudot is their time derivative.  The returned body wrench
(f_b, n_b) is what the world must apply to the body (at its origin, body axes) for the
motion: zero for a free body, the ground-reaction sum when feet touch.  Gravity enters
as an upward acceleration of the base (Craig, section 6.5).
"""

from __future__ import annotations

import numpy as np

from dynval._numba_cache import njit
from dynval.handrolled.quadruped.robot import Links, QuadrupedModel
from dynval.handrolled.vec3 import add, cross, mtv, mv, scale, vec


@njit(cache=True)
def _rnea(L: Links, R_WB, nu, nudot, theta, thetad, thetadd, g_W, F_foot_B):
    alpha, a, R_B0, p_B0, m, P_C, I_C, m_b, P_Cb, I_Cb, _, _ = L
    v_B, w_B = (nu[0], nu[1], nu[2]), (nu[3], nu[4], nu[5])
    w_dot_B = (nudot[3], nudot[4], nudot[5])
    # classical acceleration of the body origin, minus gravity (Craig 6.5)
    vd_B = add(add((nudot[0], nudot[1], nudot[2]), cross(w_B, v_B)),
                scale(-1.0, mtv(R_WB, vec(g_W))))
    tau = np.zeros((4, 3))
    f_1B = np.zeros((4, 3))  # force exerted by the body on link 1, body axes (eq. 1)
    n_1B = np.zeros((4, 3))  # moment exerted by the body on link 1 at the HAA joint (eq. 2)
    a_4B = np.zeros((4, 3))  # acceleration of each foot (plus -g), body axes
    Rs = np.zeros((5, 3, 3))  # R^{i-1}_i, i = 1..4
    R_Bi = np.zeros((3, 3))
    F = np.zeros((4, 3))
    N = np.zeros((4, 3))
    z = (0.0, 0.0, 1.0)
    for leg in range(4):
        # frame 0 is fixed to the body: carry omega, omega dot, vdot to its origin
        p0 = vec(p_B0[leg])
        w = mtv(R_B0, w_B)
        wd = mtv(R_B0, w_dot_B)
        vd = mtv(R_B0, add(add(cross(w_dot_B, p0), cross(w_B, cross(w_B, p0))), vd_B))
        R_Bi[:, :] = R_B0
        for i in range(1, 5):
            # eq. (3.6): R^{i-1}_i = RotX(alpha_{i-1}) RotZ(theta_i), P^{i-1}_i = (a, 0, 0)
            th = theta[leg, i - 1] if i < 4 else 0.0
            ca, sa, ct, st = np.cos(alpha[i - 1]), np.sin(alpha[i - 1]), np.cos(th), np.sin(th)
            Ri = Rs[i]
            Ri[0, 0], Ri[0, 1], Ri[0, 2] = ct, -st, 0.0
            Ri[1, 0], Ri[1, 1], Ri[1, 2] = st * ca, ct * ca, -sa
            Ri[2, 0], Ri[2, 1], Ri[2, 2] = st * sa, ct * sa, ca
        for i in range(1, 4):
            Ri = Rs[i]
            P_i = (a[i - 1], 0.0, 0.0)
            R_Bi[:, :] = R_Bi @ Ri
            td, tdd = thetad[leg, i - 1], thetadd[leg, i - 1]
            vd = mtv(Ri, add(add(cross(wd, P_i), cross(w, cross(w, P_i))), vd))  # (6.47)
            Rtw = mtv(Ri, w)
            wd = add(add(mtv(Ri, wd), cross(Rtw, scale(td, z))), scale(tdd, z))  # (6.46)
            w = add(Rtw, scale(td, z))  # (6.45)
            c = vec(P_C[leg, i - 1])
            vdc = add(add(cross(wd, c), cross(w, cross(w, c))), vd)  # (6.48)
            I = I_C[leg, i - 1]
            Fi = scale(m[leg, i - 1], vdc)  # (6.49)
            Ni = add(mv(I, wd), cross(w, mv(I, w)))  # (6.50)
            for k in range(3):
                F[i, k], N[i, k] = Fi[k], Ni[k]
        P_4 = (a[3], 0.0, 0.0)
        a_4 = mv(R_Bi, add(add(cross(wd, P_4), cross(w, cross(w, P_4))), vd))  # (6.47)
        # the foot pushes on the ground with -F_foot: f_4 in frame 4 (= frame 3 axes)
        f = scale(-1.0, mtv(R_Bi, vec(F_foot_B[leg])))
        n = (0.0, 0.0, 0.0)
        for i in range(3, 0, -1):
            Rn = Rs[i + 1]
            P_n = (a[i], 0.0, 0.0)  # P^i_{i+1}
            Rf = mv(Rn, f)
            Fi, Ni = vec(F[i]), vec(N[i])
            n = add(add(Ni, mv(Rn, n)),
                     add(cross(vec(P_C[leg, i - 1]), Fi), cross(P_n, Rf)))  # (6.52)
            f = add(Rf, Fi)  # (6.51)
            tau[leg, i - 1] = n[2]  # (6.53)
        f1 = mv(R_B0, mv(Rs[1], f))
        n1 = mv(R_B0, mv(Rs[1], n))
        for k in range(3):
            f_1B[leg, k], n_1B[leg, k], a_4B[leg, k] = f1[k], n1[k], a_4[k]
    # body: Newton-Euler about its centre of mass plus the legs' reactions (eqs. 3-4)
    cb = vec(P_Cb)
    vdc = add(add(cross(w_dot_B, cb), cross(w_B, cross(w_B, cb))), vd_B)
    F_b = scale(m_b, vdc)
    f_b = np.array(F_b)
    n_b = np.array(add(add(mv(I_Cb, w_dot_B), cross(w_B, mv(I_Cb, w_B))),
                        cross(cb, F_b)))
    for leg in range(4):
        f_b += f_1B[leg]
        n_b += n_1B[leg] + np.array(cross(vec(p_B0[leg]), vec(f_1B[leg])))
    return f_b, n_b, tau, f_1B, n_1B, a_4B


@njit(cache=True)
def _mass_matrix(L: Links, R_WB, theta, floating):
    """Walker-Orin method 1: column k is the RNEA with unit acceleration k, no velocity,
    no gravity (see terms.py)."""
    nb = 6 if floating else 0
    n = nb + 12
    M = np.empty((n, n))
    zero6, zero12, zero3 = np.zeros(6), np.zeros((4, 3)), np.zeros(3)
    for k in range(n):
        nudot = np.zeros(6)
        thetadd = np.zeros((4, 3))
        if k < nb:
            nudot[k] = 1.0
        else:
            thetadd[(k - nb) // 3, (k - nb) % 3] = 1.0
        f_b, n_b, tau, _, _, _ = _rnea(L, R_WB, zero6, nudot, theta, zero12, thetadd, zero3,
                                       zero12)
        if floating:
            M[0:3, k] = f_b
            M[3:6, k] = n_b
        for j in range(12):
            M[nb + j, k] = tau[j // 3, j % 3]
    return M


def mass_matrix(model: QuadrupedModel, R_WB: np.ndarray, theta: np.ndarray,
                floating: bool = True) -> np.ndarray:
    """M(q) by the RNEA, compiled (terms.mass_matrix is the same algorithm)."""
    return _mass_matrix(model.links, np.ascontiguousarray(R_WB, dtype=float),
                        np.ascontiguousarray(np.reshape(theta, (4, 3)), dtype=float), floating)


def inverse_dynamics(model: QuadrupedModel, R_WB: np.ndarray, nu: np.ndarray,
                     nudot: np.ndarray, theta: np.ndarray, thetad: np.ndarray,
                     thetadd: np.ndarray, g_W: np.ndarray,
                     F_foot_B: np.ndarray | None = None) -> tuple[np.ndarray, ...]:
    """Body wrench (f_b, n_b), joint torques tau (4 x 3), the HAA reactions (f_1B, n_1B)
    of eqs. (1)-(2) and the feet's accelerations a_4B (world acceleration in body axes,
    minus g), for a motion and the ground forces on the feet (body axes, (4 x 3), zero
    when omitted: all legs in the air)."""
    F = np.zeros((4, 3)) if F_foot_B is None else np.ascontiguousarray(F_foot_B, dtype=float)
    f = np.ascontiguousarray
    return _rnea(model.links, f(R_WB, dtype=float), f(nu, dtype=float),
                 f(nudot, dtype=float), f(np.reshape(theta, (4, 3)), dtype=float),
                 f(np.reshape(thetad, (4, 3)), dtype=float),
                 f(np.reshape(thetadd, (4, 3)), dtype=float), f(g_W, dtype=float), F)
