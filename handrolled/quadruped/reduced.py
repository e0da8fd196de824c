"""Section 5's reduced coordinates: with the supporting feet on the ground the body pose
follows from their joint angles (12 coordinates for the static walk) or from them and the
roll about the support line (13 for the trot, whose two feet leave that rotation free).

Here the supporting feet are holonomic point constraints on the floating model, which is
the same dynamics without choosing the independent coordinates by hand: forward dynamics
solves eq. (5) together with zero foot acceleration.  ``body_pose_from_stance`` is the
paper's kinematic step, the body pose from the supporting legs (a least-squares fit of
their feet, exact for three or more)."""

from __future__ import annotations

from functools import cache

import numpy as np

from dynval._numba_cache import njit
from dynval.handrolled import ModelInputError
from dynval.handrolled.quadruped import kinematics, terms
from dynval.handrolled.quadruped.dh import link_origin, link_rotation
from dynval.handrolled.quadruped.rnea import inverse_dynamics
from dynval.handrolled.quadruped.robot import QuadrupedModel
from dynval.handrolled.so3 import exp_axis_angle, skew
from dynval.handrolled.vec3 import cross
from dynval.robots.quadruped.params import LEGS


def contact_jacobian(model: QuadrupedModel, theta: np.ndarray, stance: tuple[str, ...]
                     ) -> np.ndarray:
    """J_c (3 n_c x 18): foot velocities R^T v_foot = v_B + omega_B x p_B4 + J theta_dot."""
    th = np.reshape(theta, (4, 3))
    rows = []
    for leg in stance:
        k = LEGS.index(leg)
        J = np.zeros((3, 18))
        p, J_leg = kinematics.foot_position_and_jacobian(model, k, th[k])
        J[:, :3] = np.eye(3)
        J[:, 3:6] = -skew(p)  # -[p]x: omega_B x p = -p x omega_B
        J[:, 6 + 3 * k:9 + 3 * k] = J_leg
        rows.append(J)
    return np.vstack(rows) if rows else np.zeros((0, 18))


def constrained_forward_dynamics(model: QuadrupedModel, R_WB: np.ndarray, theta: np.ndarray,
                                 nu: np.ndarray, tau: np.ndarray, g_W: np.ndarray,
                                 stance: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """nudot and the ground forces (n_c x 3, body axes) with the stance feet pinned:
        M nudot + C + G = (0, tau) + J_c^T F,   J_c nudot + Jdot_c nu = 0,
    the system assembled compiled from M and the RNEA's bias (:func:`pinned_system`)."""
    M = terms.mass_matrix(model, R_WB, theta)
    f_b, n_b, tau_h, _, _, a_4B = inverse_dynamics(model, R_WB, nu[:6], np.zeros(6),
                                                   np.reshape(theta, (4, 3)),
                                                   np.reshape(nu[6:], (4, 3)),
                                                   np.zeros((4, 3)), g_W)
    f = np.ascontiguousarray
    frames = (model.alpha, model.a, model.R_B0, model.p_B0)
    K, rhs = pinned_system(frames, M, (f_b, n_b, tau_h, a_4B), R_WB.T @ g_W,
                           f(np.ravel(theta), dtype=float), f(np.ravel(tau), dtype=float),
                           _leg_indices(tuple(stance)))
    x = np.linalg.solve(K, rhs)
    return x[:18], x[18:].reshape(-1, 3)


@cache
def _leg_indices(stance: tuple[str, ...]) -> np.ndarray:
    return np.array([LEGS.index(leg) for leg in stance], dtype=np.int64)


@njit(cache=True)
def _jacobian_rows(alpha, a, R_B0, p_B0, leg, theta, J):
    """contact_jacobian's three rows of one leg into J (zeroed): kinematics.leg_frames and
    foot_position_and_jacobian step for step (numba's @ calls the BLAS routines numpy's
    does, so the products are the same floats)."""
    z, p = np.empty((5, 3)), np.empty((5, 3))
    p[0] = p_B0[leg]
    R = R_B0.copy()
    for i in range(4):
        th = theta[i] if i < 3 else 0.0  # theta_4 = 0 (Table 1)
        p[i + 1] = p[i] + R @ link_origin(alpha[i], a[i], 0.0)
        R = R @ link_rotation(alpha[i], th)
        z[i + 1] = R[:, 2]
    S = skew(p[4])
    for r in range(3):
        J[r, r] = 1.0
        for c in range(3):
            J[r, 3 + c] = -S[r, c]  # -[p]x: omega_B x p = -p x omega_B
    for i in (1, 2, 3):  # column i: z_i x (p_4 - p_i)
        d = p[4] - p[i]
        col = cross(z[i], d)
        for r in range(3):
            J[r, 6 + 3 * leg + i - 1] = col[r]


@njit(cache=True)
def pinned_system(frames, M, bias, g_B, theta, tau, legs):
    """constrained_forward_dynamics' linear system K x = rhs, x = (nudot, F):
        K = [[M, -J_c^T], [J_c, 0]],  rhs = ((0, tau) - h, -a),
    with h = (f_b, n_b, tau_h) = C + G and a_4B of the RNEA at no acceleration (``bias``:
    the legs' joint rates and the body's twist, gravity), J_c by :func:`_jacobian_rows`
    and a the supporting feet's accelerations a_4B with gravity g_B = R_WB^T g_W taken
    out.  frames: the model's alpha, a, R_B0, p_B0; legs: the supporting legs' indices in
    LEGS, in the support's order."""
    f_b, n_b, tau_h, a_4B = bias
    alpha, a, R_B0, p_B0 = frames
    th = theta.reshape(4, 3)
    n, nc = 18, 3 * legs.shape[0]
    K, rhs = np.zeros((n + nc, n + nc)), np.empty(n + nc)
    K[:n, :n] = M
    for r in range(3):
        rhs[r], rhs[3 + r] = 0.0 - f_b[r], 0.0 - n_b[r]
    for j in range(12):
        rhs[6 + j] = tau[j] - tau_h[j // 3, j % 3]
    J = np.empty((3, n))
    for c in range(legs.shape[0]):
        leg = legs[c]
        J[:, :] = 0.0
        _jacobian_rows(alpha, a, R_B0, p_B0, leg, th[leg], J)
        for r in range(3):
            for k in range(n):
                K[n + 3 * c + r, k] = J[r, k]
                K[k, n + 3 * c + r] = -J[r, k]
            # foot accelerations at nudot = 0 without gravity: a_4B with gravity removed
            rhs[n + 3 * c + r] = -(a_4B[leg, r] + g_B[r])
    return K, rhs


def touchdown_impulse(model: QuadrupedModel, R_WB: np.ndarray, theta: np.ndarray,
                      nu: np.ndarray, stance: tuple[str, ...]) -> np.ndarray:
    """nu after a plastic impact that stops the stance feet (the least change of kinetic
    energy, M-metric projection onto J_c nu = 0)."""
    if not stance:
        return nu
    M = terms.mass_matrix(model, R_WB, theta)
    Jc = contact_jacobian(model, theta, stance)
    MiJt = np.linalg.solve(M, Jc.T)
    return nu - MiJt @ np.linalg.solve(Jc @ MiJt, Jc @ nu)


def body_pose_from_stance(p_W4: np.ndarray, p_B4: np.ndarray, roll: float | None = None
                          ) -> tuple[np.ndarray, np.ndarray]:
    """(p_WB, R_WB) that carries the supporting feet's body-frame positions p_B4 onto their
    ground points p_W4: Kabsch's least-squares fit for three or more feet (section 5's 12
    coordinates); for two feet the rotation about the line through them is free, and the
    body roll (the trot's 13th coordinate, roll of R = Rz Ry Rx) fixes it."""
    p_W4, p_B4 = np.asarray(p_W4, float), np.asarray(p_B4, float)
    if len(p_W4) >= 3:
        cw, cb = p_W4.mean(axis=0), p_B4.mean(axis=0)
        U, _, Vt = np.linalg.svd((p_B4 - cb).T @ (p_W4 - cw))
        d = np.sign(np.linalg.det(Vt.T @ U.T))
        R = Vt.T @ np.diag([1.0, 1.0, d]) @ U.T
        return cw - R @ cb, R
    if len(p_W4) != 2 or roll is None:
        raise ModelInputError("the body pose needs three supporting feet, or two and the roll")
    R0 = _align(p_B4[1] - p_B4[0], p_W4[1] - p_W4[0])
    axis = (p_W4[1] - p_W4[0]) / np.linalg.norm(p_W4[1] - p_W4[0])

    def roll_error(phi: float) -> float:
        R = exp_axis_angle(axis, phi) @ R0
        return float(np.angle(np.exp(1j * (np.arctan2(R[2, 1], R[2, 2]) - roll))))

    from scipy.optimize import brentq  # slow to import: only here

    grid = np.linspace(-np.pi, np.pi, 73)
    errs = [roll_error(g) for g in grid]
    roots = [brentq(roll_error, a, b) for a, b, ea, eb in zip(grid, grid[1:], errs, errs[1:],
                                                              strict=False)
             if ea * eb < 0 and abs(ea - eb) < np.pi]  # a sign change, not the wrap at +-pi
    # of the solutions (the body upright or upside down) keep the upright one
    R = max((exp_axis_angle(axis, r) @ R0 for r in roots), key=lambda R: R[2, 2])
    return p_W4[0] - R @ p_B4[0], R


def _align(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The smallest rotation taking the direction of a onto that of b."""
    a, b = a / np.linalg.norm(a), b / np.linalg.norm(b)
    v, c = np.cross(a, b), float(a @ b)
    s = np.linalg.norm(v)
    if s < 1e-15:  # parallel, or opposite: a half turn about any perpendicular
        if c > 0:
            return np.eye(3)
        perp = np.cross(a, np.eye(3)[int(np.argmin(np.abs(a)))])
        return exp_axis_angle(perp / np.linalg.norm(perp), np.pi)
    return exp_axis_angle(v / s, float(np.arctan2(s, c)))
