"""3-vectors as float tuples for the compiled per-step code: numba keeps tuples on the
stack, where small numpy arrays would be allocated and numpy's @ would call BLAS."""

from __future__ import annotations

import math

import numpy as np

from dynval._numba_cache import njit

Vec = tuple[float, float, float]


@njit(cache=True, inline="always")
def add(a: Vec, b: Vec) -> Vec:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


@njit(cache=True, inline="always")
def scale(k: float, a: Vec) -> Vec:
    return (k * a[0], k * a[1], k * a[2])


@njit(cache=True, inline="always")
def cross(a: Vec, b: Vec) -> Vec:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


@njit(cache=True, inline="always")
def norm(a: Vec) -> float:
    """|a|, summed in index order (not BLAS's dot, whose order and fused multiply-adds
    depend on the CPU's kernel)."""
    return math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])


@njit(cache=True, inline="always")
def mv(R: np.ndarray, v: Vec) -> Vec:
    """R v for a 3 x 3 array R."""
    return (R[0, 0] * v[0] + R[0, 1] * v[1] + R[0, 2] * v[2],
            R[1, 0] * v[0] + R[1, 1] * v[1] + R[1, 2] * v[2],
            R[2, 0] * v[0] + R[2, 1] * v[1] + R[2, 2] * v[2])


@njit(cache=True, inline="always")
def mtv(R: np.ndarray, v: Vec) -> Vec:
    """R^T v for a 3 x 3 array R."""
    return (R[0, 0] * v[0] + R[1, 0] * v[1] + R[2, 0] * v[2],
            R[0, 1] * v[0] + R[1, 1] * v[1] + R[2, 1] * v[2],
            R[0, 2] * v[0] + R[1, 2] * v[1] + R[2, 2] * v[2])


@njit(cache=True, inline="always")
def vec(a: np.ndarray) -> Vec:
    """A length-3 array as a vector."""
    return (a[0], a[1], a[2])


@njit(cache=True, inline="always")
def row(A: np.ndarray, i: int) -> Vec:
    """Row i of an (n, 3) array as a vector."""
    return (A[i, 0], A[i, 1], A[i, 2])
