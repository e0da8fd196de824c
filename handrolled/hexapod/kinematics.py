"""Leg kinematics of eq. (4): Psi maps the joint angles to the hip-minus-foot vector.

Paper frame P: x forward, y up; a leg's angles are counter-clockwise in that plane (x to the
right), theta_i1 the thigh's angle from the downward vertical and theta_i2 the knee's
relative angle, so the shank's absolute angle is theta_i1 + theta_i2. A forward knee (the
paper's choice, Sec. II.2) has theta_i2 < 0. The engine frame W has the paper's y as its z
(the planar angles are about W's -y); :func:`paper_to_world` is the one conversion.
"""

from __future__ import annotations

import math

import numpy as np


def paper_to_world(p_P: np.ndarray, y_W: float = 0.0) -> np.ndarray:
    """A point (x, y) of the paper's plane as (x, y_W, z) in the engine frame W."""
    p_P = np.asarray(p_P, float)
    return np.array([p_P[0], y_W, p_P[1]])


def world_to_paper(p_W: np.ndarray) -> np.ndarray:
    """The engine point (x, y, z) as (x, y) of the paper's plane (y_W dropped)."""
    p_W = np.asarray(p_W, float)
    return np.array([p_W[0], p_W[2]])


def foot_from_hip(theta_1: float, theta_2: float, L_1: float, L_2: float) -> np.ndarray:
    """Foot minus hip, p_HF = L_1 u(theta_1) + L_2 u(theta_1 + theta_2), u(a) = (sin a,
    -cos a) [m]."""
    a, b = theta_1, theta_1 + theta_2
    return np.array([L_1 * np.sin(a) + L_2 * np.sin(b), -L_1 * np.cos(a) - L_2 * np.cos(b)])


def Psi(theta_1: float, theta_2: float, L_1: float, L_2: float) -> np.ndarray:
    """Eq. (4b): P = Psi(Theta) = hip minus foot = -p_HF [m]."""
    return -foot_from_hip(theta_1, theta_2, L_1, L_2)


def J(theta_1: float, theta_2: float, L_1: float, L_2: float) -> np.ndarray:
    """Eq. (4c): J = dPsi/dTheta (2 x 2)."""
    a, b = theta_1, theta_1 + theta_2
    return -np.array([[L_1 * np.cos(a) + L_2 * np.cos(b), L_2 * np.cos(b)],
                      [L_1 * np.sin(a) + L_2 * np.sin(b), L_2 * np.sin(b)]])


def Psi_inv(P: np.ndarray, L_1: float, L_2: float) -> np.ndarray:
    """Eq. (4b): Theta = Psi^-1(P), the forward-knee solution (theta_2 <= 0). P is the hip
    minus the foot; out of reach raises ValueError. The angles by the C library's scalar
    functions (math), as the compiled copy (fastloop.psi_inv) has them: numpy's arccos and
    arctan2 come from its own SIMD library on AVX-512 machines and differ from them in the
    last bit for about one argument in ten."""
    d = -np.asarray(P, float)  # foot from hip
    r2 = float(d @ d)
    c2 = (r2 - L_1 * L_1 - L_2 * L_2) / (2.0 * L_1 * L_2)
    if not -1.0 <= c2 <= 1.0:
        raise ValueError(f"foot at {np.sqrt(r2):.4g} m from the hip is out of the leg's reach "
                         f"[{abs(L_1 - L_2):.4g}, {L_1 + L_2:.4g}] m")
    theta_2 = -math.acos(c2)  # forward knee
    # absolute direction of the hip-foot line, measured like u(a) = (sin a, -cos a)
    phi = math.atan2(d[0], -d[1])
    theta_1 = phi - math.atan2(L_2 * math.sin(theta_2), L_1 + L_2 * math.cos(theta_2))
    return np.array([theta_1, theta_2])


def Theta_dot(Theta: np.ndarray, P_dot: np.ndarray, L_1: float, L_2: float) -> np.ndarray:
    """Eq. (4c): Theta_dot = J^-1 P_dot."""
    return np.linalg.solve(J(Theta[0], Theta[1], L_1, L_2), np.asarray(P_dot, float))
