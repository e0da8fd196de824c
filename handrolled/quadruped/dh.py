"""Craig's modified D-H link transform (Introduction to Robotics, eq. 3.6) for Table 1."""

from __future__ import annotations

import numpy as np

from dynval._numba_cache import njit


@njit(cache=True)
def link_rotation(alpha: float, theta: float) -> np.ndarray:
    """R^{i-1}_i = RotX(alpha_{i-1}) RotZ(theta_i)  (eq. 3.6)."""
    ca, sa = np.cos(alpha), np.sin(alpha)
    ct, st = np.cos(theta), np.sin(theta)
    return np.array([[ct, -st, 0.0], [st * ca, ct * ca, -sa], [st * sa, ct * sa, ca]])


@njit(cache=True)
def link_origin(alpha: float, a: float, d: float) -> np.ndarray:
    """P^{i-1}_i, the origin of frame i in frame i-1 (eq. 3.6)."""
    return np.array([a, -np.sin(alpha) * d, np.cos(alpha) * d])
