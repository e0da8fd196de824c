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
from numba import njit

from handrolled.quadruped.dh import link_origin, link_rotation
from handrolled.quadruped.robot import QuadrupedModel


@njit(cache=True)
def _rnea(alpha, a, R_B0, p_B0, m, P_C, I_C, m_b, P_Cb, I_Cb, R_WB, nu, nudot, theta, thetad,
          thetadd, g_W, F_foot_B):
    v_B, w_B = nu[:3].copy(), nu[3:].copy()
    w_dot_B = nudot[3:].copy()
    # classical acceleration of the body origin, minus gravity (Craig 6.5)
    vd_B = nudot[:3] + np.cross(w_B, v_B) - R_WB.T @ g_W
    tau = np.zeros((4, 3))
    f_1B = np.zeros((4, 3))  # force exerted by the body on link 1, body axes (eq. 1)
    n_1B = np.zeros((4, 3))  # moment exerted by the body on link 1 at the HAA joint (eq. 2)
    z = np.array([0.0, 0.0, 1.0])
    for leg in range(4):
        # frame 0 is fixed to the body: carry omega, omega dot, vdot to its origin
        p0 = p_B0[leg]
        R = R_B0.T.copy()
        w = R @ w_B
        wd = R @ w_dot_B
        vd = R @ (np.cross(w_dot_B, p0) + np.cross(w_B, np.cross(w_B, p0)) + vd_B)
        Rs = np.zeros((5, 3, 3))  # R^{i-1}_i, i = 1..4
        Ps = np.zeros((5, 3))  # P^{i-1}_i
        F = np.zeros((4, 3))
        N = np.zeros((4, 3))
        R_Bi = R_B0.copy()
        for i in range(1, 4):
            R_i = link_rotation(alpha[i - 1], theta[leg, i - 1])
            P_i = link_origin(alpha[i - 1], a[i - 1], 0.0)
            Rs[i], Ps[i] = R_i, P_i
            R_Bi = R_Bi @ R_i
            Rt = R_i.T.copy()
            td, tdd = thetad[leg, i - 1], thetadd[leg, i - 1]
            vd = Rt @ (np.cross(wd, P_i) + np.cross(w, np.cross(w, P_i)) + vd)  # (6.47)
            wd = Rt @ wd + np.cross(Rt @ w, td * z) + tdd * z  # (6.46)
            w = Rt @ w + td * z  # (6.45)
            c = P_C[leg, i - 1]
            vdc = np.cross(wd, c) + np.cross(w, np.cross(w, c)) + vd  # (6.48)
            I = I_C[leg, i - 1]
            F[i] = m[leg, i - 1] * vdc  # (6.49)
            N[i] = I @ wd + np.cross(w, I @ w)  # (6.50)
        Rs[4] = link_rotation(alpha[3], 0.0)
        Ps[4] = link_origin(alpha[3], a[3], 0.0)
        # the foot pushes on the ground with -F_foot: f_4 in frame 4 (= frame 3 axes)
        f = -(R_Bi @ Rs[4]).T @ F_foot_B[leg]
        n = np.zeros(3)
        for i in range(3, 0, -1):
            Rf = Rs[i + 1] @ f
            n = N[i] + Rs[i + 1] @ n + np.cross(P_C[leg, i - 1], F[i]) \
                + np.cross(Ps[i + 1], Rf)  # (6.52)
            f = Rf + F[i]  # (6.51)
            tau[leg, i - 1] = n[2]  # (6.53)
        R_B1 = R_B0 @ Rs[1]
        f_1B[leg] = R_B1 @ f
        n_1B[leg] = R_B1 @ n
    # body: Newton-Euler about its centre of mass plus the legs' reactions (eqs. 3-4)
    vdc = np.cross(w_dot_B, P_Cb) + np.cross(w_B, np.cross(w_B, P_Cb)) + vd_B
    F_b = m_b * vdc
    f_b = F_b.copy()
    n_b = I_Cb @ w_dot_B + np.cross(w_B, I_Cb @ w_B) + np.cross(P_Cb, F_b)
    for leg in range(4):
        f_b += f_1B[leg]
        n_b += n_1B[leg] + np.cross(p_B0[leg], f_1B[leg])
    return f_b, n_b, tau, f_1B, n_1B


def inverse_dynamics(model: QuadrupedModel, R_WB: np.ndarray, nu: np.ndarray,
                     nudot: np.ndarray, theta: np.ndarray, thetad: np.ndarray,
                     thetadd: np.ndarray, g_W: np.ndarray,
                     F_foot_B: np.ndarray | None = None) -> tuple[np.ndarray, ...]:
    """Body wrench (f_b, n_b), joint torques tau (4 x 3) and the HAA reactions
    (f_1B, n_1B) of eqs. (1)-(2), for a motion and the ground forces on the feet
    (body axes, (4 x 3), zero when omitted: all legs in the air)."""
    F = np.zeros((4, 3)) if F_foot_B is None else np.ascontiguousarray(F_foot_B, dtype=float)
    f = np.ascontiguousarray
    return _rnea(model.alpha, model.a, model.R_B0, model.p_B0, model.m, model.P_C, model.I_C,
                 model.m_b, model.P_Cb, model.I_Cb, f(R_WB, dtype=float), f(nu, dtype=float),
                 f(nudot, dtype=float), f(np.reshape(theta, (4, 3)), dtype=float),
                 f(np.reshape(thetad, (4, 3)), dtype=float),
                 f(np.reshape(thetadd, (4, 3)), dtype=float), f(g_W, dtype=float), F)
