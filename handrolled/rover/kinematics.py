"""Rover kinematics from the DH description of Table 3.1 (Craig's modified convention):
joint frames, wheel hub poses and Jacobians (3.14)-(3.15), the lowest rim point and the
sinkage (3.5)-(3.13), and the wheel reaction frame with the slip angle (3.16)-(3.22).

Written for n segments (Appendix A getDH.m): joints 1-3 are prismatic (dz, dx, dy),
4-6 revolute (pitch phi_y, roll phi_z, yaw phi_x of the rear segment), 7.. the turning
joints. Frame 0 has x0 vertical up, so "depth" is the first coordinate (section 3.2.1).
Everything is numba-compiled: it runs every 1 ms step for every wheel.
"""

from __future__ import annotations

import math

import numpy as np

from dynval._numba_cache import njit
from dynval.handrolled.vec3 import norm

HALF_PI = 0.5 * math.pi


# cos and sin of Table 3.1's fixed angles +-pi/2, as math.cos and math.sin give them
COS_HALF_PI, SIN_HALF_PI = math.cos(HALF_PI), math.sin(HALF_PI)


@njit(cache=True, inline="always")
def _cos_sin(x: float) -> tuple:
    """(cos x, sin x): the fixed angles 0 and +-pi/2 of Table 3.1 (every twist alpha and
    the prismatic joints' theta, 20 of a two-segment chain's 28 calls) from constants,
    which are the floats the calls give (sin keeps the sign of a zero); others by libm."""
    if x == 0.0:
        return 1.0, x
    if x == HALF_PI:
        return COS_HALF_PI, SIN_HALF_PI
    if x == -HALF_PI:
        return COS_HALF_PI, -SIN_HALF_PI
    return math.cos(x), math.sin(x)


@njit(cache=True, inline="always")
def _dh_into(T: np.ndarray, alpha: float, a: float, d: float, theta: float) -> None:
    """Writes ^{i-1}_i T = RotX(alpha_{i-1}) TransX(a_{i-1}) RotZ(theta_i) TransZ(d_i)
    [Craig] into the 4 x 4 array T."""
    (ca, sa), (ct, st) = _cos_sin(alpha), _cos_sin(theta)
    T[0, 0], T[0, 1], T[0, 2], T[0, 3] = ct, -st, 0.0, a
    T[1, 0], T[1, 1], T[1, 2], T[1, 3] = st * ca, ct * ca, -sa, -sa * d
    T[2, 0], T[2, 1], T[2, 2], T[2, 3] = st * sa, ct * sa, ca, ca * d
    T[3, 0], T[3, 1], T[3, 2], T[3, 3] = 0.0, 0.0, 0.0, 1.0


@njit(cache=True)
def dh_transform(alpha: float, a: float, d: float, theta: float) -> np.ndarray:
    """^{i-1}_i T = RotX(alpha_{i-1}) TransX(a_{i-1}) RotZ(theta_i) TransZ(d_i) [Craig]."""
    T = np.empty((4, 4))
    _dh_into(T, alpha, a, d, theta)
    return T


# joints 1-3 (dz, dx, dy) are prismatic, the rest revolute (Table 3.1)
N_PRISMATIC = 3


@njit(cache=True, inline="always")
def dh_row(q: np.ndarray, L: float, i: int) -> tuple:
    """Row i (0-based: joint i + 1) of Table 3.1 for n = len(q) - 5 segments,
    (alpha_{i-1}, a_{i-1}, d_i, theta_i, revolute): joints 1-3 prismatic (d = q), 4-6
    revolute with the table's offsets, the turning joints from 7 on sit 2L apart after
    the first at L (getDH.m)."""
    if i < N_PRISMATIC:
        return (0.0, HALF_PI, -HALF_PI)[i], 0.0, q[i], (HALF_PI, -HALF_PI, -HALF_PI)[i], 0.0
    if i == 3:
        return 0.0, 0.0, 0.0, q[3], 1.0
    if i == 4:
        return HALF_PI, 0.0, 0.0, q[4] + HALF_PI, 1.0
    if i == 5:
        return HALF_PI, 0.0, 0.0, q[5] - HALF_PI, 1.0
    return 0.0, L if i == 6 else 2.0 * L, 0.0, q[i], 1.0


@njit(cache=True)
def joint_kinds(N: int) -> np.ndarray:
    """The revolute flags of :func:`dh_row` for N joints (1 = R, 0 = P), which q does not
    move."""
    revolute = np.ones(N)
    revolute[:N_PRISMATIC] = 0.0
    return revolute


@njit(cache=True)
def adjacent_transforms(q: np.ndarray, L: float) -> np.ndarray:
    """^{i-1}_i T for i = 1..N (getTadj.m), stacked as (N, 4, 4)."""
    N = q.shape[0]
    T = np.empty((N, 4, 4))
    for i in range(N):
        alpha, a, d, theta, _ = dh_row(q, L, i)
        _dh_into(T[i], alpha, a, d, theta)
    return T


@njit(cache=True)
def joint_frames(T_adj: np.ndarray) -> np.ndarray:
    """^0_i T for i = 1..N (getTjoint.m), stacked as (N, 4, 4)."""
    N = T_adj.shape[0]
    T0 = np.zeros((N, 4, 4))
    T0[0] = T_adj[0]
    for i in range(1, N):  # explicit loops: numpy's @ costs a BLAS call per product
        for r in range(3):
            for c in range(4):
                T0[i, r, c] = (T0[i - 1, r, 0] * T_adj[i, 0, c] + T0[i - 1, r, 1] * T_adj[i, 1, c]
                               + T0[i - 1, r, 2] * T_adj[i, 2, c])
            T0[i, r, 3] += T0[i - 1, r, 3]
        T0[i, 3, 3] = 1.0
    return T0


@njit(cache=True)
def segment_frame_index(segment: int) -> int:
    """Array index into joint_frames of segment ``segment`` (1 = rear -> frame 6)."""
    return segment + 4


@njit(cache=True)
def point_jacobian(T0: np.ndarray, revolute: np.ndarray, k: int, p_0: np.ndarray) -> np.ndarray:
    """Translational Jacobian (3 x N) in frame 0 of a point p_0 fixed to frame k+1:
    column j is z_j x (p - p_j) for a revolute joint and z_j for a prismatic one,
    eq. (3.14) expressed in frame 0 instead of the wheel frame."""
    N = T0.shape[0]
    J = np.zeros((3, N))
    for j in range(k + 1):
        z = T0[j, :3, 2]
        if revolute[j] > 0.5:
            r = p_0 - T0[j, :3, 3]
            J[0, j] = z[1] * r[2] - z[2] * r[1]
            J[1, j] = z[2] * r[0] - z[0] * r[2]
            J[2, j] = z[0] * r[1] - z[1] * r[0]
        else:
            J[0, j], J[1, j], J[2, j] = z[0], z[1], z[2]
    return J


@njit(cache=True)
def hub_velocity(T0: np.ndarray, revolute: np.ndarray, k: int, p_0: np.ndarray,
                 qd: np.ndarray) -> tuple:
    """The velocity J qd in frame 0 of the point p_0 fixed to frame k+1, eq. (3.14) with
    :func:`point_jacobian`'s columns, summed column by column in the same order (the zero
    columns of joints beyond k included), without the Jacobian as an array; a 3-tuple."""
    v0 = v1 = v2 = 0.0
    for c in range(T0.shape[0]):
        J0 = J1 = J2 = 0.0
        if c <= k:
            z0, z1, z2 = T0[c, 0, 2], T0[c, 1, 2], T0[c, 2, 2]
            if revolute[c] > 0.5:
                r0, r1, r2 = p_0[0] - T0[c, 0, 3], p_0[1] - T0[c, 1, 3], p_0[2] - T0[c, 2, 3]
                J0, J1, J2 = z1 * r2 - z2 * r1, z2 * r0 - z0 * r2, z0 * r1 - z1 * r0
            else:
                J0, J1, J2 = z0, z1, z2
        v0 += J0 * qd[c]
        v1 += J1 * qd[c]
        v2 += J2 * qd[c]
    return v0, v1, v2


@njit(cache=True)
def lowest_rim_point(R_0w: np.ndarray, p_0w: np.ndarray, r: float) -> tuple:
    """The rim point with the smallest x0 (3.5)-(3.8), a 3-tuple; getplow0.m keeps the
    lower of the two stationary points gamma_min and gamma_min +- pi."""
    A, C = R_0w[0, 0], R_0w[0, 2]
    gamma = math.atan2(C, A)  # eq. (3.8)
    other = gamma - math.pi if gamma > 0.0 else gamma + math.pi
    best0 = best1 = best2 = 0.0
    lowest = math.inf
    for g in (gamma, other):
        rc, rs = r * math.cos(g), r * math.sin(g)
        p0 = p_0w[0] + R_0w[0, 0] * rc + R_0w[0, 2] * rs  # (3.5)-(3.6), row by row
        if p0 < lowest:
            lowest = best0 = p0
            best1 = p_0w[1] + R_0w[1, 0] * rc + R_0w[1, 2] * rs
            best2 = p_0w[2] + R_0w[2, 0] * rc + R_0w[2, 2] * rs
    return best0, best1, best2


@njit(cache=True)
def sinkage(p_low: tuple, p_0w: np.ndarray) -> tuple:
    """Sinkage z0 along the line from the lowest point to the axle (3.9)-(3.12) and the
    unit vector r_slope of that line (a 3-tuple); z0 > 0 means the wheel is in the soil."""
    r_line = (p_0w[0] - p_low[0], p_0w[1] - p_low[1], p_0w[2] - p_low[2])  # eq. (3.9)
    n = norm(r_line)
    r_slope = (r_line[0] / n, r_line[1] / n, r_line[2] / n)  # eq. (3.10)
    z0 = -p_low[0] / r_slope[0]  # eq. (3.12)
    return z0, r_slope


@njit(cache=True)
def wheel_reaction_frame(R_0link: np.ndarray, r_slope: tuple) -> tuple:
    """^0_wr R = [X_wr Y_wr Z_wr] (3.17)-(3.19) as its columns, three 3-tuples: Y along
    the wheel axle, Z along r_slope, X parallel to the ground."""
    Y = (R_0link[0, 1], R_0link[1, 1], R_0link[2, 1])  # eq. (3.17)
    Z = r_slope  # eq. (3.18)
    X = (Y[1] * Z[2] - Y[2] * Z[1], Y[2] * Z[0] - Y[0] * Z[2],
         Y[0] * Z[1] - Y[1] * Z[0])  # Y x Z, np.cross's formula
    n = norm(X)
    return (X[0] / n, X[1] / n, X[2] / n), Y, Z  # eq. (3.19)


@njit(cache=True)
def entry_angle(z0: float, r: float) -> float:
    """theta_1 = acos(1 - z0/r), eq. (3.13)."""
    return math.acos(1.0 - z0 / r)
