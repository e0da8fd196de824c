"""M(q), C(q, qd) and G(q) of eq. (5) evaluated numerically with the RNEA, the
Walker-Orin approach section 5 cites: column k of M is the inverse dynamics with unit
acceleration k, no velocity and no gravity; C is the inverse dynamics with the
velocities alone; G with gravity alone.

Generalized coordinates: floating base, nu = (v_B, omega_B, theta_dot) (18, the body
twist in body axes, see rnea.py) with forces (f_b, n_b, tau); fixed base, theta_dot (12).
"""

from __future__ import annotations

import numpy as np

from dynval.handrolled.quadruped import rnea
from dynval.handrolled.quadruped.rnea import inverse_dynamics
from dynval.handrolled.quadruped.robot import QuadrupedModel

ZERO_G = np.zeros(3)


def generalized_forces(model: QuadrupedModel, R_WB: np.ndarray, theta: np.ndarray,
                       nu: np.ndarray, nudot: np.ndarray, g_W: np.ndarray,
                       F_foot_B: np.ndarray | None = None, floating: bool = True
                       ) -> np.ndarray:
    """The RNEA's forces as one vector: (f_b, n_b, tau) floating, tau fixed."""
    nb = 6 if floating else 0
    base = (nu[:6], nudot[:6]) if floating else (np.zeros(6), np.zeros(6))
    f_b, n_b, tau, *_ = inverse_dynamics(model, R_WB, base[0], base[1], theta, nu[nb:],
                                         nudot[nb:], g_W, F_foot_B)
    return np.concatenate([f_b, n_b, tau.ravel()]) if floating else tau.ravel()


def mass_matrix(model: QuadrupedModel, R_WB: np.ndarray, theta: np.ndarray,
                floating: bool = True) -> np.ndarray:
    """M(q) column by column from unit accelerations (Walker & Orin, method 1), in the
    compiled loop of rnea.py."""
    return rnea.mass_matrix(model, R_WB, theta, floating)


def coriolis_vector(model: QuadrupedModel, R_WB: np.ndarray, theta: np.ndarray,
                    nu: np.ndarray, floating: bool = True) -> np.ndarray:
    """C(q, qd): Coriolis and centrifugal forces of eq. (5)."""
    return generalized_forces(model, R_WB, theta, nu, np.zeros_like(nu), ZERO_G,
                              floating=floating)


def gravity_vector(model: QuadrupedModel, R_WB: np.ndarray, theta: np.ndarray,
                   g_W: np.ndarray, floating: bool = True) -> np.ndarray:
    """G(q) of eq. (5)."""
    n = 18 if floating else 12
    return generalized_forces(model, R_WB, theta, np.zeros(n), np.zeros(n), g_W,
                              floating=floating)


def forward_dynamics(model: QuadrupedModel, R_WB: np.ndarray, theta: np.ndarray,
                     nu: np.ndarray, tau: np.ndarray, g_W: np.ndarray,
                     floating: bool = True) -> np.ndarray:
    """Eq. (5): qdd = M^-1 (tau - C - G); ``tau`` includes the body wrench when floating."""
    M = mass_matrix(model, R_WB, theta, floating)
    h = generalized_forces(model, R_WB, theta, nu, np.zeros_like(nu), g_W, floating=floating)
    return np.linalg.solve(M, tau - h)
