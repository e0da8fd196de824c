"""The fast path the hand-rolled quadruped steps with: the same RNEA as rnea.py (Craig's
outward/inward recursions, section 3) written with every vector in body axes and scalar
loops instead of 3 x 3 matrix products, the mass matrix by composite rigid bodies
(Walker-Orin's method 3 instead of the n RNEA calls of their method 1), and the
pinned-feet forward dynamics of reduced.py with its semi-implicit Euler step
(simulation.py) as one compiled function.  Nothing here is new physics: the tests
(tests/test_quadruped_fast.py) hold every term and step to the printed path at round-off.

The model's arrays travel as one record, ``L`` (robot.Links: Table 1's rows and each
link's inertial, as ``QuadrupedModel.links`` gives them).
"""

from __future__ import annotations

import numpy as np

from dynval._numba_cache import njit
from dynval.handrolled.quadruped.robot import QuadrupedModel
from dynval.robots.quadruped.params import LEGS


@njit(cache=True)
def _frames(L, theta, R, p):
    """R[l, i], p[l, i]: attitude and origin of frame i = 0..4 of leg l in the body frame
    (Table 1, eq. 3.6: R^{i-1}_i = RotX(alpha_{i-1}) RotZ(theta_i), P^{i-1}_i = (a, 0, 0))."""
    for leg in range(4):
        for r in range(3):
            p[leg, 0, r] = L.p_B0[leg, r]
            for c in range(3):
                R[leg, 0, r, c] = L.R_B0[r, c]
        for i in range(1, 5):
            a, ca, sa = L.a[i - 1], L.cos_alpha[i - 1], L.sin_alpha[i - 1]
            if i < 4:
                th = theta[3 * leg + i - 1]
                ct, st = np.cos(th), np.sin(th)
            else:  # theta_4 = 0 (Table 1)
                ct, st = 1.0, 0.0
            for r in range(3):
                x, y, z = R[leg, i - 1, r, 0], R[leg, i - 1, r, 1], R[leg, i - 1, r, 2]
                p[leg, i, r] = p[leg, i - 1, r] + a * x
                # row r of R_{B,i-1} RotX(alpha) RotZ(theta)
                u = y * ca + z * sa
                v = -y * sa + z * ca
                R[leg, i, r, 0] = x * ct + u * st
                R[leg, i, r, 1] = -x * st + u * ct
                R[leg, i, r, 2] = v


@njit(cache=True, inline="always")
def _cross(a0, a1, a2, b0, b1, b2):
    return a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0


@njit(cache=True)
def _link_inertia(L, R, leg, i, out):
    """Link i's inertia about its centre of mass in body axes, R I_C R^T."""
    I_C = L.I_C[leg, i - 1]
    for r in range(3):
        # row r of R I_C, then its products with the rows of R
        t0 = (R[leg, i, r, 0] * I_C[0, 0] + R[leg, i, r, 1] * I_C[1, 0]
              + R[leg, i, r, 2] * I_C[2, 0])
        t1 = (R[leg, i, r, 0] * I_C[0, 1] + R[leg, i, r, 1] * I_C[1, 1]
              + R[leg, i, r, 2] * I_C[2, 1])
        t2 = (R[leg, i, r, 0] * I_C[0, 2] + R[leg, i, r, 1] * I_C[1, 2]
              + R[leg, i, r, 2] * I_C[2, 2])
        for c in range(3):
            out[r, c] = t0 * R[leg, i, c, 0] + t1 * R[leg, i, c, 1] + t2 * R[leg, i, c, 2]


@njit(cache=True, inline="always")
def _inertia_times(L, R, leg, i, x0, x1, x2):
    """R I_C R^T x: link i's inertia (body axes) times x, through the link frame."""
    I_C = L.I_C[leg, i - 1]
    y0 = R[leg, i, 0, 0] * x0 + R[leg, i, 1, 0] * x1 + R[leg, i, 2, 0] * x2
    y1 = R[leg, i, 0, 1] * x0 + R[leg, i, 1, 1] * x1 + R[leg, i, 2, 1] * x2
    y2 = R[leg, i, 0, 2] * x0 + R[leg, i, 1, 2] * x1 + R[leg, i, 2, 2] * x2
    z0 = I_C[0, 0] * y0 + I_C[0, 1] * y1 + I_C[0, 2] * y2
    z1 = I_C[1, 0] * y0 + I_C[1, 1] * y1 + I_C[1, 2] * y2
    z2 = I_C[2, 0] * y0 + I_C[2, 1] * y1 + I_C[2, 2] * y2
    return (R[leg, i, 0, 0] * z0 + R[leg, i, 0, 1] * z1 + R[leg, i, 0, 2] * z2,
            R[leg, i, 1, 0] * z0 + R[leg, i, 1, 1] * z1 + R[leg, i, 1, 2] * z2,
            R[leg, i, 2, 0] * z0 + R[leg, i, 2, 1] * z1 + R[leg, i, 2, 2] * z2)


@njit(cache=True)
def _com(L, R, p, leg, i, out):
    """Link i's centre of mass in the body frame."""
    P_C = L.P_C[leg, i - 1]
    for r in range(3):
        out[r] = p[leg, i, r] + (R[leg, i, r, 0] * P_C[0] + R[leg, i, r, 1] * P_C[1]
                                 + R[leg, i, r, 2] * P_C[2])


@njit(cache=True)
def _rnea_into(L, R, p, R_WB, nu, nudot, theta_d, theta_dd, g_W, F_foot_B, gen, a_4B,
               f_1B, n_1B, buf):
    """The RNEA of rnea.py in body axes, frames from ``_frames``: gen = (f_b, n_b, tau)
    (18), a_4B (4 x 3) the feet's accelerations minus g, (f_1B, n_1B) the HAA reactions.
    Outward (Craig 6.45-6.48, vectors in body axes):
        w_i = w_{i-1} + td_i z_i,  wd_i = wd_{i-1} + w_{i-1} x td_i z_i + tdd_i z_i,
        vd_i = vd_{i-1} + wd_{i-1} x r + w_{i-1} x (w_{i-1} x r),  r = p_i - p_{i-1};
    inward (6.49-6.53): f_i = F_i + f_{i+1},
        n_i = N_i + n_{i+1} + (c_i - p_i) x F_i + (p_{i+1} - p_i) x f_{i+1},  tau_i = z_i.n_i.
    ``buf`` is scratch space, (27, 3) at least.
    """
    w, wd, vd = buf[0:5], buf[5:10], buf[10:15]
    Fl, Nl, c = buf[15:19], buf[19:23], buf[23:27]
    g0 = R_WB[0, 0] * g_W[0] + R_WB[1, 0] * g_W[1] + R_WB[2, 0] * g_W[2]
    g1 = R_WB[0, 1] * g_W[0] + R_WB[1, 1] * g_W[1] + R_WB[2, 1] * g_W[2]
    g2 = R_WB[0, 2] * g_W[0] + R_WB[1, 2] * g_W[1] + R_WB[2, 2] * g_W[2]
    wB0, wB1, wB2 = nu[3], nu[4], nu[5]
    x0, x1, x2 = _cross(wB0, wB1, wB2, nu[0], nu[1], nu[2])
    vdB = (nudot[0] + x0 - g0, nudot[1] + x1 - g1, nudot[2] + x2 - g2)
    for k in range(6):
        gen[k] = 0.0
    for leg in range(4):
        # frame 0 (and 1's origin, a_0 = 0) moves with the body: carry vdot to p_0
        r0, r1, r2 = p[leg, 0, 0], p[leg, 0, 1], p[leg, 0, 2]
        y0, y1, y2 = _cross(wB0, wB1, wB2, r0, r1, r2)
        y0, y1, y2 = _cross(wB0, wB1, wB2, y0, y1, y2)
        z0, z1, z2 = _cross(nudot[3], nudot[4], nudot[5], r0, r1, r2)
        w[0, 0], w[0, 1], w[0, 2] = wB0, wB1, wB2
        wd[0, 0], wd[0, 1], wd[0, 2] = nudot[3], nudot[4], nudot[5]
        vd[0, 0], vd[0, 1], vd[0, 2] = vdB[0] + z0 + y0, vdB[1] + z1 + y1, vdB[2] + z2 + y2
        for i in range(1, 5):
            # origin i is fixed in link i-1: vd_i from link i-1's motion
            r0 = p[leg, i, 0] - p[leg, i - 1, 0]
            r1 = p[leg, i, 1] - p[leg, i - 1, 1]
            r2 = p[leg, i, 2] - p[leg, i - 1, 2]
            a0, a1, a2 = w[i - 1, 0], w[i - 1, 1], w[i - 1, 2]
            y0, y1, y2 = _cross(a0, a1, a2, r0, r1, r2)
            y0, y1, y2 = _cross(a0, a1, a2, y0, y1, y2)
            z0, z1, z2 = _cross(wd[i - 1, 0], wd[i - 1, 1], wd[i - 1, 2], r0, r1, r2)
            vd[i, 0] = vd[i - 1, 0] + z0 + y0
            vd[i, 1] = vd[i - 1, 1] + z1 + y1
            vd[i, 2] = vd[i - 1, 2] + z2 + y2
            if i == 4:
                break
            td, tdd = theta_d[3 * leg + i - 1], theta_dd[3 * leg + i - 1]
            e0, e1, e2 = R[leg, i, 0, 2], R[leg, i, 1, 2], R[leg, i, 2, 2]
            q0, q1, q2 = _cross(a0, a1, a2, td * e0, td * e1, td * e2)
            wd[i, 0] = wd[i - 1, 0] + q0 + tdd * e0
            wd[i, 1] = wd[i - 1, 1] + q1 + tdd * e1
            wd[i, 2] = wd[i - 1, 2] + q2 + tdd * e2
            w[i, 0], w[i, 1], w[i, 2] = a0 + td * e0, a1 + td * e1, a2 + td * e2
            # the link's centre of mass, inertial force and moment (6.48-6.50)
            _com(L, R, p, leg, i, c[i])
            r0 = c[i, 0] - p[leg, i, 0]
            r1 = c[i, 1] - p[leg, i, 1]
            r2 = c[i, 2] - p[leg, i, 2]
            a0, a1, a2 = w[i, 0], w[i, 1], w[i, 2]
            y0, y1, y2 = _cross(a0, a1, a2, r0, r1, r2)
            y0, y1, y2 = _cross(a0, a1, a2, y0, y1, y2)
            z0, z1, z2 = _cross(wd[i, 0], wd[i, 1], wd[i, 2], r0, r1, r2)
            m = L.m[leg, i - 1]
            Fl[i, 0] = m * (vd[i, 0] + z0 + y0)
            Fl[i, 1] = m * (vd[i, 1] + z1 + y1)
            Fl[i, 2] = m * (vd[i, 2] + z2 + y2)
            Iw0, Iw1, Iw2 = _inertia_times(L, R, leg, i, a0, a1, a2)
            q0, q1, q2 = _cross(a0, a1, a2, Iw0, Iw1, Iw2)
            y0, y1, y2 = _inertia_times(L, R, leg, i, wd[i, 0], wd[i, 1], wd[i, 2])
            Nl[i, 0], Nl[i, 1], Nl[i, 2] = y0 + q0, y1 + q1, y2 + q2
        for k in range(3):
            a_4B[leg, k] = vd[4, k]
        # the foot pushes on the ground with -F_foot
        f0, f1, f2 = -F_foot_B[leg, 0], -F_foot_B[leg, 1], -F_foot_B[leg, 2]
        n0, n1, n2 = 0.0, 0.0, 0.0
        for i in range(3, 0, -1):
            r0 = p[leg, i + 1, 0] - p[leg, i, 0]
            r1 = p[leg, i + 1, 1] - p[leg, i, 1]
            r2 = p[leg, i + 1, 2] - p[leg, i, 2]
            y0, y1, y2 = _cross(r0, r1, r2, f0, f1, f2)
            z0, z1, z2 = _cross(c[i, 0] - p[leg, i, 0], c[i, 1] - p[leg, i, 1],
                                c[i, 2] - p[leg, i, 2], Fl[i, 0], Fl[i, 1], Fl[i, 2])
            n0 = Nl[i, 0] + n0 + z0 + y0
            n1 = Nl[i, 1] + n1 + z1 + y1
            n2 = Nl[i, 2] + n2 + z2 + y2
            f0, f1, f2 = f0 + Fl[i, 0], f1 + Fl[i, 1], f2 + Fl[i, 2]
            gen[6 + 3 * leg + i - 1] = (R[leg, i, 0, 2] * n0 + R[leg, i, 1, 2] * n1
                                        + R[leg, i, 2, 2] * n2)
        f_1B[leg, 0], f_1B[leg, 1], f_1B[leg, 2] = f0, f1, f2
        n_1B[leg, 0], n_1B[leg, 1], n_1B[leg, 2] = n0, n1, n2
        # the leg's reaction on the body, moments about the body origin (eqs. 1-2)
        y0, y1, y2 = _cross(p[leg, 1, 0], p[leg, 1, 1], p[leg, 1, 2], f0, f1, f2)
        gen[0] += f0
        gen[1] += f1
        gen[2] += f2
        gen[3] += n0 + y0
        gen[4] += n1 + y1
        gen[5] += n2 + y2
    # the body about its centre of mass (eqs. 3-4)
    cb0, cb1, cb2 = L.P_Cb[0], L.P_Cb[1], L.P_Cb[2]
    y0, y1, y2 = _cross(wB0, wB1, wB2, cb0, cb1, cb2)
    y0, y1, y2 = _cross(wB0, wB1, wB2, y0, y1, y2)
    z0, z1, z2 = _cross(nudot[3], nudot[4], nudot[5], cb0, cb1, cb2)
    mb = L.m_b
    F0, F1, F2 = mb * (vdB[0] + z0 + y0), mb * (vdB[1] + z1 + y1), mb * (vdB[2] + z2 + y2)
    I = L.I_Cb
    Iw0 = I[0, 0] * wB0 + I[0, 1] * wB1 + I[0, 2] * wB2
    Iw1 = I[1, 0] * wB0 + I[1, 1] * wB1 + I[1, 2] * wB2
    Iw2 = I[2, 0] * wB0 + I[2, 1] * wB1 + I[2, 2] * wB2
    q0, q1, q2 = _cross(wB0, wB1, wB2, Iw0, Iw1, Iw2)
    y0, y1, y2 = _cross(cb0, cb1, cb2, F0, F1, F2)
    gen[3] += I[0, 0] * nudot[3] + I[0, 1] * nudot[4] + I[0, 2] * nudot[5] + q0 + y0
    gen[4] += I[1, 0] * nudot[3] + I[1, 1] * nudot[4] + I[1, 2] * nudot[5] + q1 + y1
    gen[5] += I[2, 0] * nudot[3] + I[2, 1] * nudot[4] + I[2, 2] * nudot[5] + q2 + y2
    gen[0] += F0
    gen[1] += F1
    gen[2] += F2


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
