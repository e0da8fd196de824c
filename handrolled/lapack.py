"""LAPACK's dgesv from compiled code, without numba's copies around it.

Inside a numba function, ``np.linalg.solve(A, b)`` checks A and b for NaN, copies A into
Fortran order and b into a new array, allocates the pivots, calls dgesv through numba's
LAPACK helper and copies the solution out: for the rover's 7 x 7 system that wrapping
costs as much again as the solve (0.23 of 0.63 us). :func:`solve_transposed_in_place`
calls the same helper, hence the same dgesv on the same numbers, so its solution is
np.linalg.solve's to the last bit (tested), with the caller owning the arrays. The helper
is numba's internal API: a numba without it gets np.linalg.solve itself (the same bits).
"""

from __future__ import annotations

import numpy as np
from numba import types

from dynval._numba_cache import njit

try:
    from numba.np.linalg import _LAPACK

    _xgesv = _LAPACK().numba_xgesv(types.float64)  # numba's helper behind np.linalg.solve
except (ImportError, AttributeError):  # pragma: no cover - numba moved its internals
    _xgesv = None
_DOUBLE = ord("d")


@njit(cache=True)
def _solve_by_numpy(At: np.ndarray, b: np.ndarray) -> None:
    """:func:`solve_transposed_in_place` through np.linalg.solve (its copies included)."""
    n = At.shape[0]
    b[:n] = np.linalg.solve(At.T, b[:n])


@njit(cache=True)
def _solve_by_helper(At: np.ndarray, b: np.ndarray) -> None:
    """:func:`solve_transposed_in_place` through numba's dgesv helper, without copies."""
    n = At.shape[0]
    if not np.isfinite(At).all() or not np.isfinite(b[:n]).all():
        raise np.linalg.LinAlgError("Array must not contain infs or NaNs.")
    ipiv = np.empty(n, dtype=np.int32)
    if _xgesv(_DOUBLE, n, 1, At.ctypes, n, ipiv.ctypes, b.ctypes, n) > 0:
        raise np.linalg.LinAlgError("Matrix is singular to machine precision.")


# solve_transposed_in_place(At, b): solves A x = b, A (n x n) given as its transpose At
# (C-ordered, i.e. A in the Fortran order dgesv wants; overwritten by the LU factors), b's
# first n entries overwritten with x; raises for a singular A or a NaN or inf, as
# np.linalg.solve does
solve_transposed_in_place = _solve_by_numpy if _xgesv is None else _solve_by_helper
