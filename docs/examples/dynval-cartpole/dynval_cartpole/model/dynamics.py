"""The cart-pole's equations of motion, from its Lagrangian (the derivation of Florian,
"Correct equations for the dynamics of the cart-pole system", 2007, without friction and
with theta from upright, robot/FRAMES.md). q = (x, theta): the cart's position on the
rail and the pole's angle; F pushes the cart, tau turns the pole at the hinge.

    (m_c + m_p) x'' + m_p l cos(theta) theta'' - m_p l sin(theta) theta'^2 = F      (1)
    m_p l cos(theta) x'' + (I + m_p l^2) theta'' - m_p g l sin(theta)      = tau    (2)

that is M(q) q'' + C(q, q') q' + G(q) = (F, tau) with

    M = [[m_c + m_p, m_p l cos theta], [m_p l cos theta, I + m_p l^2]]              (3)
    C q' = (-m_p l sin(theta) theta'^2, 0),  G = (0, -m_p g l sin theta)             (4)
"""

from __future__ import annotations

import math

import numpy as np


def mass_matrix(theta: float, m_c: float, m_p: float, l: float, I: float) -> np.ndarray:
    """M(q) of eq. (3) [kg, kg m, kg m^2]."""
    c = m_p * l * math.cos(theta)
    return np.array([[m_c + m_p, c],  # eq. (1): the cart's row
                     [c, I + m_p * l**2]])  # eq. (2): the pole's row


def coriolis(theta: float, theta_dot: float, m_p: float, l: float) -> np.ndarray:
    """C(q, q') q' of eq. (4): the pole's centripetal pull on the cart [N, N m]."""
    return np.array([-m_p * l * math.sin(theta) * theta_dot**2, 0.0])


def gravity(theta: float, m_p: float, l: float, g: float) -> np.ndarray:
    """G(q) of eq. (4): gravity's torque tips the pole away from upright [N, N m]."""
    return np.array([0.0, -m_p * g * l * math.sin(theta)])


def inverse_dynamics(q: np.ndarray, v: np.ndarray, vdot: np.ndarray, m_c: float,
                     m_p: float, l: float, I: float, g: float) -> np.ndarray:
    """(F, tau) of eqs. (1)-(2)."""
    theta, theta_dot = q[1], v[1]
    return (mass_matrix(theta, m_c, m_p, l, I) @ vdot + coriolis(theta, theta_dot, m_p, l)
            + gravity(theta, m_p, l, g))


def forward_dynamics(q: np.ndarray, v: np.ndarray, u: np.ndarray, m_c: float, m_p: float,
                     l: float, I: float, g: float) -> np.ndarray:
    """q'' = M^-1 (u - C q' - G), eqs. (1)-(2) solved for the accelerations."""
    theta, theta_dot = q[1], v[1]
    rhs = u - coriolis(theta, theta_dot, m_p, l) - gravity(theta, m_p, l, g)
    return np.linalg.solve(mass_matrix(theta, m_c, m_p, l, I), rhs)


def pole_centre(q: np.ndarray, l: float) -> np.ndarray:
    """The pole's centre in W, (x + l sin theta, 0, l cos theta) [m] (FRAMES.md)."""
    return np.array([q[0] + l * math.sin(q[1]), 0.0, l * math.cos(q[1])])


def tip(q: np.ndarray, l: float) -> np.ndarray:
    """The pole's tip, 2 l up the pole: (x + 2 l sin theta, 0, 2 l cos theta) in W [m]
    (FRAMES.md)."""
    return np.array([q[0] + 2.0 * l * math.sin(q[1]), 0.0, 2.0 * l * math.cos(q[1])])


def tip_jacobian(q: np.ndarray, l: float) -> np.ndarray:
    """d tip / d q, (3, 2): the tip's velocity is J q' [m/s]; a force F on the tip does
    the work of the generalized forces J^T F."""
    c, s = 2.0 * l * math.cos(q[1]), 2.0 * l * math.sin(q[1])
    return np.array([[1.0, c], [0.0, 0.0], [0.0, -s]])


def energy(q: np.ndarray, v: np.ndarray, m_c: float, m_p: float, l: float, I: float,
           g: float) -> float:
    """Kinetic plus potential energy, zero at rest with the pole upright:
    1/2 q'^T M q' + m_p g l (cos theta - 1) [J]."""
    M = mass_matrix(q[1], m_c, m_p, l, I)
    return 0.5 * float(v @ M @ v) + m_p * g * l * (math.cos(q[1]) - 1.0)
