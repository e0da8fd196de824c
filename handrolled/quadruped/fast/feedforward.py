"""Section 4's feedforward of inverse.py compiled: legs in the air for the body wrench
(``legs_in_the_air``), grf.py's assumed ground forces (``_solve_grf``, the support cases'
force patterns from grf._patterns itself: ``pattern_tables``), then the joint torques
with them (``_feedforward``, the leg recursion's second run done by its linearity in
the foot force).  ``loop`` runs it and re-exports every name."""

from __future__ import annotations

import numpy as np

from dynval._numba_cache import njit
from dynval.handrolled.quadruped import grf
from dynval.handrolled.quadruped.fast import model as fast
from dynval.handrolled.quadruped.fast.plan import stance_of
from dynval.robots.quadruped.params import LEGS

EPS = float(np.finfo(float).eps)


def pattern_tables(split: str = "paper") -> tuple[np.ndarray, np.ndarray]:
    """For each stance mask (bit k: leg LEGS[k] down): the unknowns' force direction per
    leg (-1: none, 0/1/2: x/y/z), (16, 12, 4) (twelve: the "min-norm" split's four free
    feet), and their number (-1 where section 4 has no assumption: one leg down)."""
    dirs = np.full((16, 12, 4), -1, dtype=np.int64)
    count = np.zeros(16, dtype=np.int64)
    for mask in range(16):
        stance = stance_of(mask)
        try:
            pats = grf._patterns(stance, split)
        except ValueError:
            count[mask] = -1
            continue
        count[mask] = len(pats)
        for j, pat in enumerate(pats):
            for leg, e in pat.items():
                dirs[mask, j, LEGS.index(leg)] = int(np.argmax(e))
    return dirs, count


@njit(cache=True)
def _min_norm_lstsq(A, w, rcond):
    """The minimum-norm least-squares solution of A x = w (np.linalg.lstsq's, singular
    values below rcond times the largest dropped) by a one-sided Jacobi SVD (Hestenes):
    rotate A's columns until they are orthogonal, U = A V = (sigma_j u_j), then
    x = sum_j (U_j . w / sigma_j^2) V_j.  For these 6 x 6 systems LAPACK's driver costs
    more than the sweeps."""
    m, n = A.shape
    U = A.copy()
    V = np.eye(n)
    # a column down to round-off of A's norm is a null direction: leave it be (rotating
    # it against the others only stirs round-off; rcond drops it below)
    tiny = EPS * EPS * np.sum(A * A)
    for _ in range(60):
        rotated = False
        for i in range(n - 1):
            for j in range(i + 1, n):
                a = b = g = 0.0
                for k in range(m):
                    a += U[k, i] * U[k, i]
                    b += U[k, j] * U[k, j]
                    g += U[k, i] * U[k, j]
                if g == 0.0 or abs(g) <= EPS * np.sqrt(a * b) or min(a, b) <= tiny:
                    continue
                rotated = True
                zeta = (b - a) / (2.0 * g)
                t = (1.0 if zeta >= 0.0 else -1.0) / (abs(zeta) + np.sqrt(1.0 + zeta * zeta))
                c = 1.0 / np.sqrt(1.0 + t * t)
                s = c * t
                for k in range(m):
                    ui, uj = U[k, i], U[k, j]
                    U[k, i], U[k, j] = c * ui - s * uj, s * ui + c * uj
                for k in range(n):
                    vi, vj = V[k, i], V[k, j]
                    V[k, i], V[k, j] = c * vi - s * vj, s * vi + c * vj
        if not rotated:
            break
    sig2 = np.empty(n)
    top = 0.0
    for j in range(n):
        acc = 0.0
        for k in range(m):
            acc += U[k, j] * U[k, j]
        sig2[j] = acc
        top = max(top, acc)
    x = np.zeros(n)
    for j in range(n):
        if sig2[j] <= rcond * rcond * top:
            continue
        acc = 0.0
        for k in range(m):
            acc += U[k, j] * w[k]
        acc /= sig2[j]
        for k in range(n):
            x[k] += acc * V[k, j]
    return x


@njit(cache=True)
def _solve_grf(dirs, count, mask, p_B4, f_b, n_b, F, residual):
    """grf.solve_grf (the split of ``pattern_tables``' dirs and count) into F (4 x 3) and
    the unbalanced wrench residual."""
    F[:, :] = 0.0
    nc = 0
    c = np.zeros(3)
    for k in range(4):
        if mask >> k & 1:
            nc += 1
            c += p_B4[k]
    if nc == 0:
        residual[:3], residual[3:] = f_b, n_b
        return
    c /= nc
    w = np.empty(6)
    m0, m1, m2 = fast._cross(c[0], c[1], c[2], f_b[0], f_b[1], f_b[2])
    w[:3] = f_b
    w[3], w[4], w[5] = n_b[0] - m0, n_b[1] - m1, n_b[2] - m2
    n = count[mask]
    A = np.zeros((6, n))
    for j in range(n):
        for k in range(4):
            e = dirs[mask, j, k]
            if e < 0:
                continue
            A[e, j] += 1.0
            ex = (1.0 if e == 0 else 0.0, 1.0 if e == 1 else 0.0, 1.0 if e == 2 else 0.0)
            m0, m1, m2 = fast._cross(p_B4[k, 0] - c[0], p_B4[k, 1] - c[1], p_B4[k, 2] - c[2],
                                     ex[0], ex[1], ex[2])
            A[3, j] += m0
            A[4, j] += m1
            A[5, j] += m2
    x = _min_norm_lstsq(A, w, EPS * max(6, n))  # np.linalg.lstsq's rcond=None
    for j in range(n):
        for k in range(4):
            e = dirs[mask, j, k]
            if e >= 0:
                F[k, e] += x[j]
    for r in range(6):
        acc = w[r]
        for j in range(n):
            acc -= A[r, j] * x[j]
        residual[r] = acc


@njit(cache=True)
def legs_in_the_air(L, s, g_W, R, p, gen):
    """Section 3's first stage for a planned instant s (:class:`Planned`; body level,
    R_WB = I, no foot force): gen = (f_b, n_b, tau) of the RNEA, with the legs' frames
    R, p.  L: the model's robot.Links."""
    theta, thd, thdd, _, v_B, a_B = s
    buf = np.empty((43, 3))
    a4, f1, n1, F = buf[27:31], buf[31:35], buf[35:39], buf[39:43]
    nu, nudot = np.zeros(6), np.zeros(6)
    nu[:3], nudot[:3] = v_B, a_B
    fast._frames(L, theta.reshape(12), R, p)
    F[:, :] = 0.0
    fast._rnea_into(L, R, p, np.eye(3), nu, nudot, thd.reshape(12), thdd.reshape(12), g_W, F,
                    gen, a4, f1, n1, buf)


@njit(cache=True)
def _feedforward(plan, mask, s, g_W, tau, F, residual):
    """inverse.feedforward: legs in the air for the body wrench, the assumed ground forces,
    then the joint torques with them (body level: R_WB = I).  The leg recursion is
    linear in the foot force, so its second run (inverse.py) is done here as the first
    one's torques plus the force's share, tau_j += z_j . ((p_4 - p_j) x (-F)): the foot
    pushes on the ground with -F (rnea.py)."""
    R = np.empty((4, 5, 3, 3))
    p = np.empty((4, 5, 3))
    gen = np.empty(18)
    legs_in_the_air(plan.links, s, g_W, R, p, gen)
    if plan.count[mask] < 0:
        return False
    _solve_grf(plan.dirs, plan.count, mask, s.p_B4, gen[:3], gen[3:6], F, residual)
    for leg in range(4):
        for j in range(1, 4):
            m0, m1, m2 = fast._cross(p[leg, 4, 0] - p[leg, j, 0], p[leg, 4, 1] - p[leg, j, 1],
                                     p[leg, 4, 2] - p[leg, j, 2],
                                     -F[leg, 0], -F[leg, 1], -F[leg, 2])
            tau[3 * leg + j - 1] = gen[6 + 3 * leg + j - 1] + (
                R[leg, j, 0, 2] * m0 + R[leg, j, 1, 2] * m1 + R[leg, j, 2, 2] * m2)
    return True

