"""Centre-of-mass dynamics of Sec. II: Newton (1)-(3), Euler (4)-(6), moment sums
(7)-(9) and the thrust controller (10).

Paper frame P: y up, gravity -g y.  The whole system is a point mass m with the
rotational inertia diag(I_xx, I_yy, I_zz) at the body centre (the paper's
simplification).  ``printed`` selects the moment sums:

* printed: M_x = sum(F_y z + F_z y), M_y = sum(F_x z + F_z x),
  M_z = sum(F_x y + F_y x), eqs. (7)-(9) as printed;
* corrected: M = sum(r_i x F_i), i.e. M_x = sum(y F_z - z F_y),
  M_y = sum(z F_x - x F_z), M_z = sum(x F_y - y F_x).
"""

from __future__ import annotations

import numpy as np

from dynval._numba_cache import njit


@njit(cache=True)
def linear_acceleration(F_feet: np.ndarray, F_th: float, m: float, g: float) -> np.ndarray:
    """CoM acceleration in P from the foot forces (n x 3) and thrust: eqs. (1)-(3)."""
    F = F_feet.sum(axis=0)
    return np.array((
        F[0] / m,  # eq. (1)
        (F[1] + F_th - m * g) / m,  # eq. (2)
        F[2] / m,  # eq. (3)
    ))


@njit(cache=True)
def moment_sums(r_B: np.ndarray, F_B: np.ndarray, printed: bool = False) -> np.ndarray:
    """Sum of moments about the CoM of forces F_B applied at r_B (both n x 3, body axes)."""
    x, y, z = r_B[:, 0], r_B[:, 1], r_B[:, 2]
    Fx, Fy, Fz = F_B[:, 0], F_B[:, 1], F_B[:, 2]
    if printed:
        return np.array((
            np.sum(Fy * z) + np.sum(Fz * y),  # eq. (7)
            np.sum(Fx * z) + np.sum(Fz * x),  # eq. (8)
            np.sum(Fx * y) + np.sum(Fy * x),  # eq. (9)
        ))
    return np.array((
        np.sum(y * Fz - z * Fy),
        np.sum(z * Fx - x * Fz),
        np.sum(x * Fy - y * Fx),
    ))


@njit(cache=True)
def angular_acceleration(M_B: np.ndarray, omega_B: np.ndarray, I_diag: np.ndarray) -> np.ndarray:
    """Body-frame angular acceleration from Euler's equations (4)-(6)."""
    Ixx, Iyy, Izz = I_diag
    wx, wy, wz = omega_B
    return np.array((
        (M_B[0] + (Iyy - Izz) * wy * wz) / Ixx,  # eq. (4)
        (M_B[1] + (Izz - Ixx) * wx * wz) / Iyy,  # eq. (5)
        (M_B[2] + (Ixx - Iyy) * wx * wy) / Izz,  # eq. (6)
    ))


def thrust(ydot: float, ydot_ref: float, C: float, m: float, g: float) -> float:
    """Descent-rate thrust controller: eq. (10)."""
    return C * (ydot_ref - ydot) + m * g
