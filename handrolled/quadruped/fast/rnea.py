"""The fast path's recursions: each leg's frames (Table 1, eq. 3.6) and the RNEA of rnea.py
(Craig's outward/inward recursions, section 3) written with every vector in body axes
and scalar loops instead of 3 x 3 matrix products; ``model`` builds the mass matrix and
the step on them and re-exports every name.  The tests (tests/test_quadruped_fast.py)
hold every term to the printed path at round-off.
"""

from __future__ import annotations

import numpy as np

from dynval._numba_cache import njit


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
    ``buf`` is scratch space, (27, 3) at least.  Each leg's outward pass is ``_outward``,
    its inward pass ``_inward``; the body's own equations (3)-(4) are ``_body``.
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
        _outward(L, R, p, leg, nu, nudot, vdB, theta_d, theta_dd, w, wd, vd, Fl, Nl, c)
        for k in range(3):
            a_4B[leg, k] = vd[4, k]
        f0, f1, f2, n0, n1, n2 = _inward(R, p, leg, F_foot_B, Fl, Nl, c, gen)
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
    _body(L, nu, nudot, vdB, gen)


@njit(cache=True)
def _outward(L, R, p, leg, nu, nudot, vdB, theta_d, theta_dd, w, wd, vd, Fl, Nl, c):
    """One leg's outward pass (Craig 6.45-6.50): w, wd, vd of frames 0-4 and, of links
    1-3, the centre of mass c, the inertial force Fl and moment Nl, in body axes."""
    wB0, wB1, wB2 = nu[3], nu[4], nu[5]
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


@njit(cache=True)
def _inward(R, p, leg, F_foot_B, Fl, Nl, c, gen):
    """One leg's inward pass (Craig 6.51-6.53) from the foot, which pushes on the ground
    with -F_foot, to the HAA joint: the joint torques into gen[6:], and the HAA reaction
    (f_1, n_1) returned."""
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
    return f0, f1, f2, n0, n1, n2


@njit(cache=True)
def _body(L, nu, nudot, vdB, gen):
    """The body about its centre of mass (eqs. 3-4), added to gen[:6]."""
    wB0, wB1, wB2 = nu[3], nu[4], nu[5]
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
