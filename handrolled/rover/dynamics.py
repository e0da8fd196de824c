"""The modified Newton-Euler method (3.30)-(3.31) for an n-segment rover on the DH chain
of Table 3.1, and the configuration-space equation (3.32)-(3.33) built from it numerically
(Walker-Orin: M column by column from unit accelerations, the bias from one pass).

Craig's iterative Newton-Euler, outward for velocities and accelerations, inward for
forces; gravity enters as an upward base acceleration g x0 (Appendix B: vdot_0 = (g,0,0)).
The combined wheel force and moment at each segment CG, eqs. (3.28)-(3.29), enter the
segment's Newton and Euler equations. Printed, (3.30) ADDS them to m vdot_C; with the
wheel forces of (3.27) (soil on wheel) the force a joint must supply is m vdot_C MINUS
them, which is what simcore.m's "+Fwcoeff*Fs" in (3.33) amounts to. ``wheel_sign`` picks
+1 (as printed) or -1 (corrected); see the erratum in comparisons/rover.
"""

from __future__ import annotations

import numpy as np

from dynval._numba_cache import njit
from dynval.handrolled.lapack import solve_transposed_in_place
from dynval.handrolled.rover.kinematics import adjacent_transforms, joint_kinds
from dynval.handrolled.vec3 import add, cross, mtv, mv, row, scale

WHEEL_SIGN = {"printed": 1.0, "corrected": -1.0}


@njit(cache=True)
def rnea(q: np.ndarray, qd: np.ndarray, qdd: np.ndarray, g: float, L: float,
         mass: np.ndarray, p_C: np.ndarray, I_C: np.ndarray,
         F_Cw: np.ndarray, N_Cw: np.ndarray, wheel_sign: float) -> np.ndarray:
    """Joint forces/torques tau (N,) of the chain: links i = 1..N with mass[i-1], CG p_C
    and central inertia I_C in link axes, wheel force F_Cw and moment N_Cw at the CG (link
    axes); zero ``mass`` for the massless base links 1-5."""
    return rnea_in_frames(adjacent_transforms(q, L), joint_kinds(q.shape[0]), qd, qdd, g,
                          mass, p_C, I_C, F_Cw, N_Cw, wheel_sign)


@njit(cache=True)
def rnea_in_frames(T: np.ndarray, revolute: np.ndarray, qd: np.ndarray, qdd: np.ndarray,
                   g: float, mass: np.ndarray, p_C: np.ndarray, I_C: np.ndarray,
                   F_Cw: np.ndarray, N_Cw: np.ndarray, wheel_sign: float) -> np.ndarray:
    """:func:`rnea` with the chain's adjacent transforms T and joint kinds at q given: the
    N + 1 passes of one forward-dynamics evaluation (Walker-Orin) share them, computed once
    (the same numbers, without 28 cosines and sines and 13 small arrays a pass)."""
    N = qd.shape[0]
    w = (0.0, 0.0, 0.0)
    wd = (0.0, 0.0, 0.0)
    vd = (g, 0.0, 0.0)  # gravity as base acceleration (Appendix B)
    F = np.zeros((N, 3))
    Nm = np.zeros((N, 3))
    for i in range(N):  # outward iterations
        R = T[i, :3, :3]  # ^{i-1}_i R; its transpose maps frame i-1 into frame i
        p = (T[i, 0, 3], T[i, 1, 3], T[i, 2, 3])  # ^{i-1} P_i
        vd_prev = add(add(cross(wd, p), cross(w, cross(w, p))), vd)
        w_prev = mtv(R, w)
        zqd = (0.0, 0.0, qd[i])
        if revolute[i] > 0.5:
            w = add(w_prev, zqd)
            wd = add(add(mtv(R, wd), cross(w_prev, zqd)), (0.0, 0.0, qdd[i]))
            vd = mtv(R, vd_prev)
        else:
            w = w_prev
            wd = mtv(R, wd)
            vd = add(add(mtv(R, vd_prev), scale(2.0, cross(w, zqd))), (0.0, 0.0, qdd[i]))
        if mass[i] != 0.0:
            pC = row(p_C, i)
            vdC = add(add(cross(wd, pC), cross(w, cross(w, pC))), vd)
            Fi = add(scale(mass[i], vdC), scale(wheel_sign, row(F_Cw, i)))  # eq. (3.30)
            Ni = add(add(mv(I_C[i], wd), cross(w, mv(I_C[i], w))),
                     scale(wheel_sign, row(N_Cw, i)))  # eq. (3.31)
            for k in range(3):
                F[i, k], Nm[i, k] = Fi[k], Ni[k]
    tau = np.zeros(N)
    _inward(T, revolute, mass, F, Nm, p_C, tau)
    return tau


@njit(cache=True, inline="always")
def _inward(T: np.ndarray, revolute: np.ndarray, mass: np.ndarray, F: np.ndarray,
            Nm: np.ndarray, p_C: np.ndarray, tau: np.ndarray) -> None:
    """The inward iterations of (3.30)-(3.31): each link's force F and moment Nm at its CG
    (link axes) passed down the chain; the joint forces/torques into ``tau``. A massless
    link (the base links 1-5) has F = Nm = 0 and p_C = 0, and adding its exact zeros is
    left out: the same values (only the sign of an exact zero may differ)."""
    N = revolute.shape[0]
    f = (0.0, 0.0, 0.0)
    n = (0.0, 0.0, 0.0)
    for i in range(N - 1, -1, -1):
        Fi, Ni, pC = row(F, i), row(Nm, i), row(p_C, i)
        if i + 1 < N:
            R_next = T[i + 1, :3, :3]  # ^{i}_{i+1} R
            p_next = (T[i + 1, 0, 3], T[i + 1, 1, 3], T[i + 1, 2, 3])
            Rf = mv(R_next, f)
            if mass[i] != 0.0:
                n = add(add(Ni, mv(R_next, n)), add(cross(pC, Fi), cross(p_next, Rf)))
                f = add(Rf, Fi)
            else:  # Fi, Ni and pC are exact zeros: the same sums without them
                n = add(mv(R_next, n), cross(p_next, Rf))
                f = Rf
        else:
            n = add(Ni, cross(pC, Fi))
            f = Fi
        tau[i] = n[2] if revolute[i] > 0.5 else f[2]


@njit(cache=True)
def mass_matrix(q: np.ndarray, L: float, mass: np.ndarray, p_C: np.ndarray,
                I_C: np.ndarray) -> np.ndarray:
    """M(q) of eq. (3.32), column j = tau(q, 0, e_j) without gravity or wheel forces."""
    return _mass_matrix(adjacent_transforms(q, L), joint_kinds(q.shape[0]), mass, p_C, I_C)


@njit(cache=True)
def _mass_matrix(T: np.ndarray, revolute: np.ndarray, mass: np.ndarray, p_C: np.ndarray,
                 I_C: np.ndarray) -> np.ndarray:
    """:func:`mass_matrix` from the transforms and joint kinds (rnea_in_frames)."""
    N = revolute.shape[0]
    M = np.empty((N, N))
    zero = np.zeros(N)
    none = np.zeros((N, 3))
    for j in range(N):
        e = np.zeros(N)
        e[j] = 1.0
        M[:, j] = rnea_in_frames(T, revolute, zero, e, 0.0, mass, p_C, I_C, none, none, 0.0)
    return M


@njit(cache=True)
def unit_acceleration_columns(T: np.ndarray, revolute: np.ndarray, mass: np.ndarray,
                              p_C: np.ndarray, I_C: np.ndarray) -> np.ndarray:
    """:func:`mass_matrix` by the same Walker-Orin passes, with what is exactly zero in
    them left out: at qd = 0, g = 0 and no wheel loads every angular velocity is zero, so
    the w x terms vanish, and links before joint j do not accelerate when only qdd_j = 1,
    so column j's outward pass starts at link j and their forces are zero. Every term
    that remains is computed as :func:`rnea_in_frames` computes it, in the same order, so
    M has the same values (only the sign of an exact zero may differ; tested), at about a
    third of the cost and with no array made per column."""
    N = revolute.shape[0]
    M = np.empty((N, N))
    F = np.zeros((N, 3))
    Nm = np.zeros((N, 3))
    for j in range(N):
        F[:j] = 0.0  # no force on the links before the joint: they do not accelerate
        Nm[:j] = 0.0
        wd = (0.0, 0.0, 0.0)
        vd = (0.0, 0.0, 0.0)
        for i in range(j, N):  # outward iterations, from the accelerated joint on
            R = T[i, :3, :3]
            p = (T[i, 0, 3], T[i, 1, 3], T[i, 2, 3])
            vd_prev = add(cross(wd, p), vd)
            qdd = 1.0 if i == j else 0.0
            if revolute[i] > 0.5:
                wd = add(mtv(R, wd), (0.0, 0.0, qdd))
                vd = mtv(R, vd_prev)
            else:
                wd = mtv(R, wd)
                vd = add(mtv(R, vd_prev), (0.0, 0.0, qdd))
            if mass[i] != 0.0:
                pC = row(p_C, i)
                Fi = scale(mass[i], add(cross(wd, pC), vd))  # eq. (3.30)
                Ni = mv(I_C[i], wd)  # eq. (3.31)
                for k in range(3):
                    F[i, k], Nm[i, k] = Fi[k], Ni[k]
        _inward(T, revolute, mass, F, Nm, p_C, M[:, j])
    return M


@njit(cache=True)
def bias(q: np.ndarray, qd: np.ndarray, g: float, L: float, mass: np.ndarray,
         p_C: np.ndarray, I_C: np.ndarray, F_Cw: np.ndarray, N_Cw: np.ndarray,
         wheel_sign: float) -> np.ndarray:
    """B[qd qd] + C[qd^2] + G + F[F_w] + N[N_w] of eq. (3.32): tau at zero acceleration."""
    return rnea(q, qd, np.zeros(q.shape[0]), g, L, mass, p_C, I_C, F_Cw, N_Cw, wheel_sign)


@njit(cache=True)
def forward_dynamics(q: np.ndarray, qd: np.ndarray, g: float, L: float, mass: np.ndarray,
                     p_C: np.ndarray, I_C: np.ndarray, F_Cw: np.ndarray, N_Cw: np.ndarray,
                     wheel_sign: float, n_free: int) -> np.ndarray:
    """qdd = M^{-1} (tau - bias) with tau = 0 (passive joints), eq. (3.33). Only the first
    ``n_free`` coordinates move: n_free = N - 1 holds a two-segment rover's turning joint
    rigid (the thesis' validation runs of section 4.2), its torque then being the reaction."""
    return forward_dynamics_in_frames(adjacent_transforms(q, L), joint_kinds(q.shape[0]), qd,
                                      g, mass, p_C, I_C, F_Cw, N_Cw, wheel_sign, n_free)


@njit(cache=True)
def forward_dynamics_in_frames(T: np.ndarray, revolute: np.ndarray, qd: np.ndarray, g: float,
                               mass: np.ndarray, p_C: np.ndarray, I_C: np.ndarray,
                               F_Cw: np.ndarray, N_Cw: np.ndarray, wheel_sign: float,
                               n_free: int) -> np.ndarray:
    """:func:`forward_dynamics` from the chain's transforms and joint kinds at q, computed
    once for all N + 1 passes (rnea_in_frames; M's by unit_acceleration_columns)."""
    M = unit_acceleration_columns(T, revolute, mass, p_C, I_C)
    h = rnea_in_frames(T, revolute, qd, np.zeros(qd.shape[0]), g, mass, p_C, I_C, F_Cw,
                       N_Cw, wheel_sign)  # bias
    At = np.empty((n_free, n_free))  # the free block of M, transposed for LAPACK
    qdd = np.zeros(qd.shape[0])
    for i in range(n_free):
        qdd[i] = -h[i]
        for j in range(n_free):
            At[j, i] = M[i, j]
    solve_transposed_in_place(At, qdd)  # np.linalg.solve's dgesv, without its copies
    return qdd


def segment_inertias(n_joints: int, m_seg: float, I_seg: float,
                     p_cg: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-link mass, CG and inertia arrays of the chain: links 1-5 massless, link 5 + i
    carries segment i (Appendix B: m = (0, 0, 0, 0, 0, ms, ms)), inertia of eq. (3.4)."""
    mass = np.zeros(n_joints)
    p_C = np.zeros((n_joints, 3))
    I_C = np.zeros((n_joints, 3, 3))
    for i, p in enumerate(p_cg):
        k = 5 + i
        mass[k] = m_seg
        p_C[k] = p
        I_C[k] = I_seg * np.eye(3)
    return mass, p_C, I_C
