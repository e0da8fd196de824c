"""Rotations in three dimensions, written once for the hand-rolled models and the
comparisons: elementary rotations, the skew (hat) matrix, the exponential map (Rodrigues)
and its logarithm, unit quaternions and the Euler-angle sets the robots use.

Conventions: ``R_AB`` maps coordinates in B to coordinates in A (v_A = R_AB v_B); every
rotation is active and right-handed. Quaternions are (w, x, y, z), scalar first, as in
MuJoCo (PyBullet and Pinocchio store (x, y, z, w); say so where one is converted).

Who does not use this module, and why:
* ``engines/`` reads each engine's state with the engine's own routines (e.g.
  ``mujoco.mju_quat2Mat``), so the reference side never rests on this math.
* ``robots/description.py`` writes the MJCF and URDF files the engines load with its own
  roll-pitch-yaw, because ``robots/`` is the bottom layer that imports nothing from
  ``handrolled/``; its matrix-to-quaternion conversion is the one this module offers as
  ``quat_from_matrix`` (one conversion for the files and the models).

``skew`` and ``exp`` are compiled (numba) because compiled steppers call them; the rest
is numpy. The elementary rotations also take complex angles, for complex-step derivatives.
"""

from __future__ import annotations

import math

import numpy as np

from dynval._numba_cache import njit

# The descriptions store attitudes as quaternions with the same conversion (robots/ is the
# parameter layer both sides read; it imports nothing from here).
from dynval.robots.description import rotation_to_quat_wxyz as quat_from_matrix  # noqa: F401

# --- elementary rotations ------------------------------------------------------------------


def _cos_sin_zero(a: float | complex) -> tuple:
    """cos a, sin a and a zero of a's kind: math for a real angle (the faster path);
    numpy, and a zero carrying a's dtype, for a complex one."""
    if isinstance(a, (int, float)):  # np.float64 is a float
        return math.cos(a), math.sin(a), 0.0
    return np.cos(a), np.sin(a), 0 * a


def rot_x(a: float | complex) -> np.ndarray:
    """Rotation by the angle a [rad] about the x axis."""
    c, s, z = _cos_sin_zero(a)
    return np.array([[1.0, z, z], [z, c, -s], [z, s, c]])


def rot_y(a: float | complex) -> np.ndarray:
    """Rotation by the angle a [rad] about the y axis."""
    c, s, z = _cos_sin_zero(a)
    return np.array([[c, z, s], [z, 1.0 + z, z], [-s, z, c]])


def rot_z(a: float | complex) -> np.ndarray:
    """Rotation by the angle a [rad] about the z axis."""
    c, s, z = _cos_sin_zero(a)
    return np.array([[c, -s, z], [s, c, z], [z, z, 1.0 + z]])


# --- the skew matrix, exp and log ---------------------------------------------------------


def cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a x b for two 3-vectors: np.cross's arithmetic (a1 b2 - a2 b1, ...), the same floats,
    without its axis handling, which costs 40 us a call: 60 % of the hopper's operator
    products."""
    return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                     a[0] * b[1] - a[1] * b[0]])


@njit(cache=True)
def skew(w: np.ndarray) -> np.ndarray:
    """The skew (hat) matrix [w]x of a 3-vector, so that skew(w) @ b = w x b."""
    return np.array([[0.0, -w[2], w[1]], [w[2], 0.0, -w[0]], [-w[1], w[0], 0.0]])


@njit(cache=True)
def exp(phi: np.ndarray) -> np.ndarray:
    """Rotation matrix of the rotation vector phi (angle |phi| [rad] about phi / |phi|),
    Rodrigues' formula R = I + sin(a)/a K + (1 - cos(a))/a^2 K^2 with K = skew(phi).
    Below |phi| = 1e-12 the first-order I + K is exact to round-off."""
    a = np.sqrt(phi[0] ** 2 + phi[1] ** 2 + phi[2] ** 2)
    K = skew(phi)
    if a < 1e-12:
        return np.eye(3) + K
    return np.eye(3) + np.sin(a) / a * K + (1.0 - np.cos(a)) / (a * a) * (K @ K)


def exp_axis_angle(axis: np.ndarray, angle: float) -> np.ndarray:
    """Rotation by ``angle`` [rad] about the unit vector ``axis``: Rodrigues' formula
    R = I + sin(angle) K + (1 - cos(angle)) K^2 with K = skew(axis)."""
    K = skew(np.asarray(axis, dtype=float))
    return np.eye(3) + np.sin(angle) * K + (1.0 - np.cos(angle)) * K @ K


def log(R: np.ndarray) -> np.ndarray:
    """Rotation vector phi with exp(phi) = R, |phi| in [0, pi]: the inverse of :func:`exp`.

    The angle comes from atan2(sine, cosine), well conditioned everywhere. Near 0 the
    axis term uses the series of angle / sin(angle); near pi, where the skew part of R
    vanishes, the axis comes from the symmetric part, R + R^T = 2 cos(a) I
    + 2 (1 - cos(a)) u u^T, with the sign taken from the skew part."""
    R = np.asarray(R, dtype=float)
    v = np.array([R[2, 1] - R[1, 2], R[0, 2] - R[2, 0], R[1, 0] - R[0, 1]])  # 2 sin(a) u
    s = 0.5 * float(np.linalg.norm(v))
    c = 0.5 * (float(np.trace(R)) - 1.0)
    a = math.atan2(s, c)
    if a < 1e-4:  # a / sin(a) = 1 + a^2/6 + O(a^4)
        return 0.5 * v * (1.0 + a * a / 6.0)
    if c > -0.5:  # a < 120 deg: sin(a) is far from 0
        return v * (a / (2.0 * s))
    uu = (0.5 * (R + R.T) - c * np.eye(3)) / (1.0 - c)  # u u^T
    i = int(np.argmax(np.diag(uu)))
    u = uu[:, i] / math.sqrt(uu[i, i])
    if u @ v < 0.0:
        u = -u
    return a * u


# --- quaternions (w, x, y, z) ---------------------------------------------------------------


def matrix_from_quat(q: np.ndarray) -> np.ndarray:
    """Rotation matrix of the quaternion q = (w, x, y, z); q need not be normalised (it is
    divided by its norm first), so a Gaussian 4-vector gives a uniform random rotation."""
    w, x, y, z = q
    n = np.sqrt(w * w + x * x + y * y + z * z)
    w, x, y, z = w / n, x / n, y / n, z / n
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


# --- Euler angles -----------------------------------------------------------------------------


def matrix_from_euler_zyx(yaw: float, pitch: float, roll: float) -> np.ndarray:
    """R = Rz(yaw) Ry(pitch) Rx(roll): z-up bodies (the quadruped, URDF's rpy)."""
    return rot_z(yaw) @ rot_y(pitch) @ rot_x(roll)


def euler_zyx(R: np.ndarray) -> np.ndarray:
    """(yaw, pitch, roll) with R = Rz(yaw) Ry(pitch) Rx(roll), pitch in [-pi/2, pi/2]
    (R[2, 0] clipped to [-1, 1] by min/max: np.clip costs ten times on one number)."""
    return np.array([np.arctan2(R[1, 0], R[0, 0]), np.arcsin(-min(max(R[2, 0], -1.0), 1.0)),
                     np.arctan2(R[2, 1], R[2, 2])])


def matrix_from_euler_yxz(a_y: float, a_x: float, a_z: float) -> np.ndarray:
    """R = Ry(a_y) Rx(a_x) Rz(a_z): the order of the y-up paper frames (the landing gear's
    yaw, pitch, roll; the rover's phi_y, -phi_z, phi_x)."""
    return rot_y(a_y) @ rot_x(a_x) @ rot_z(a_z)


def euler_yxz(R: np.ndarray) -> tuple[float, float, float]:
    """(a_y, a_x, a_z) with R = Ry(a_y) Rx(a_x) Rz(a_z), a_x in [-pi/2, pi/2]."""
    a_x = math.asin(max(-1.0, min(1.0, -R[1, 2])))
    a_y = math.atan2(R[0, 2], R[2, 2])
    a_z = math.atan2(R[1, 0], R[1, 1])
    return a_y, a_x, a_z
