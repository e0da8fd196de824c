"""One wheel's soil force from its hub pose and velocity (sections 3.2.1-3.2.4).

The same function serves the hand-rolled model (hub state from the DH kinematics) and
the engine-backed runs (hub state read from MuJoCo or PyBullet), so every implementation
sees the identical wheel-soil law. Inputs and the returned force are in the thesis' base
frame 0 (x0 up); the ground surface is x0 = 0.
"""

from __future__ import annotations

import numpy as np

from dynval._numba_cache import njit
from dynval.handrolled.rover.kinematics import (
    entry_angle,
    lowest_rim_point,
    sinkage,
    wheel_reaction_frame,
)
from dynval.handrolled.rover.terramechanics import wheel_forces

# Layout of the diagnostics vector returned with each wheel force.
DIAGNOSTICS = ("sinkage", "theta1", "slip", "beta", "H", "R", "Fx", "Fy", "Fz", "v_x", "v_y",
               "v_z", "saturated")
N_DIAG = len(DIAGNOSTICS)
SINKAGE, SLIP, V_X = (DIAGNOSTICS.index(c) for c in ("sinkage", "slip", "v_x"))


@njit(cache=True)
def wheel_contact(p_0w: np.ndarray, R_0link: np.ndarray, v_0w: np.ndarray, T_cmd: float,
                  r: float, b: float, D: float, soil: tuple, diag: np.ndarray) -> tuple:
    """F_0, the soil force on the wheel in frame 0 applied at the hub (a 3-tuple), and its
    diagnostics written into ``diag`` (N_DIAG).

    A wheel that has left the soil (z0 <= 0) carries no force; its sinkage is returned
    negative so the caller can stop the run, as simcore.m does.
    """
    diag[:] = 0.0
    p_low = lowest_rim_point(R_0link, p_0w, r)  # (3.5)-(3.8)
    z0, r_slope = sinkage(p_low, p_0w)  # (3.9)-(3.12)
    diag[0] = z0
    if z0 <= 0.0:
        return 0.0, 0.0, 0.0
    X, Y, Z = wheel_reaction_frame(R_0link, r_slope)  # (3.16)-(3.19)
    v_wr = (X[0] * v_0w[0] + X[1] * v_0w[1] + X[2] * v_0w[2],
            Y[0] * v_0w[0] + Y[1] * v_0w[1] + Y[2] * v_0w[2],
            Z[0] * v_0w[0] + Z[1] * v_0w[1] + Z[2] * v_0w[2])  # (3.20)-(3.21): R^T v
    theta1 = entry_angle(min(z0, 2.0 * r), r)  # (3.13)
    Fx, Fy, Fz, s, beta, H, R, saturated = wheel_forces(
        theta1, v_wr[0], v_wr[1], v_wr[2], T_cmd, r, b, D, soil)  # (3.23)-(3.27)
    diag[1], diag[2], diag[3], diag[4], diag[5] = theta1, s, beta, H, R
    diag[6], diag[7], diag[8] = Fx, Fy, Fz
    diag[9], diag[10], diag[11] = v_wr[0], v_wr[1], v_wr[2]
    diag[12] = 1.0 if saturated else 0.0
    return (X[0] * Fx + Y[0] * Fy + Z[0] * Fz, X[1] * Fx + Y[1] * Fy + Z[1] * Fz,
            X[2] * Fx + Y[2] * Fy + Z[2] * Fz)  # eq. (3.27), expressed in frame 0


@njit(cache=True)
def wheel_contacts(p_0w: np.ndarray, R_0link: np.ndarray, v_0w: np.ndarray,
                   T_cmd: np.ndarray, r: float, b: float, D: float, soil: tuple) -> tuple:
    """:func:`wheel_contact` for n wheels in one compiled call: hubs ``p_0w``, ``v_0w``
    (n, 3), their links' attitudes ``R_0link`` (n, 3, 3), torques ``T_cmd`` (n,); returns
    forces (n, 3) and diagnostics (n, N_DIAG), row by row the same numbers."""
    n = p_0w.shape[0]
    F = np.zeros((n, 3))
    diag = np.zeros((n, N_DIAG))
    for k in range(n):
        F[k, 0], F[k, 1], F[k, 2] = wheel_contact(p_0w[k], R_0link[k], v_0w[k], T_cmd[k], r,
                                                  b, D, soil, diag[k])
    return F, diag
