"""The balancing controller: a linear-quadratic regulator on eqs. (1)-(2) linearized
about the upright pole at rest, F = -K (x, theta, x', theta'). The gains are the model's:
the controller is designed from the hand-rolled model's M and G, as one designs it
before the robot exists, and the same gains push the cart in every implementation."""

from __future__ import annotations

import numpy as np
from scipy.linalg import solve_continuous_are

from dynval_cartpole.model import dynamics
from dynval_cartpole.robot.params import CartPoleParams

# state weights on (x, theta, x', theta') and the force weight: a cart that gives up
# some position to catch the pole, F within a few newtons for a 0.2 rad start
Q = np.diag([1.0, 10.0, 1.0, 1.0])
R = np.array([[0.1]])


def linearized(p: CartPoleParams) -> tuple[np.ndarray, np.ndarray]:
    """A, B of s' = A s + B F about upright rest: M(0) q'' = (F, 0) - dG/dq(0) q."""
    M = dynamics.mass_matrix(0.0, p.m_c, p.m_p, p.l, p.I)  # eq. (3) at theta = 0
    dG = np.array([[0.0, 0.0], [0.0, -p.m_p * p.g * p.l]])  # d/dq of eq. (4)'s G at 0
    Minv = np.linalg.inv(M)
    A = np.block([[np.zeros((2, 2)), np.eye(2)], [-Minv @ dG, np.zeros((2, 2))]])
    B = np.vstack([np.zeros((2, 1)), Minv @ np.array([[1.0], [0.0]])])
    return A, B


def gains(p: CartPoleParams) -> np.ndarray:
    """K of the regulator (the Riccati equation's solution P: K = R^-1 B^T P)."""
    A, B = linearized(p)
    P = solve_continuous_are(A, B, Q, R)
    return (np.linalg.solve(R, B.T @ P)).ravel()


def force(K: np.ndarray, q: np.ndarray, v: np.ndarray) -> float:
    """F = -K s, s = (x, theta, x', theta') [N]."""
    return -float(K @ np.concatenate([q, v]))
