"""The damped planar pendulum in closed form: a bob of mass m and inertia I about its
centre at distance l from a hinged pivot, viscous damping b.

    (m l^2 + I) theta'' + b theta' + m g l sin(theta) = tau          (1)

theta from the hanging position, about the pivot axis (robots/pendulum/FRAMES.md)."""

from __future__ import annotations

import math

import numpy as np


def inertia(m: float, l: float, I: float) -> float:
    """J = m l^2 + I, the inertia about the pivot (parallel axes) [kg m^2]."""
    return m * l**2 + I  # eq. (1), left-hand side


def gravity(theta: float, m: float, l: float, g: float) -> float:
    """G(theta) = m g l sin(theta), the gravity torque term of eq. (1) [N m]."""
    return m * g * l * math.sin(theta)


def inverse_dynamics(theta: float, theta_dot: float, theta_ddot: float, m: float, l: float,
                     I: float, b: float, g: float) -> float:
    """tau of eq. (1) [N m]."""
    return inertia(m, l, I) * theta_ddot + b * theta_dot + gravity(theta, m, l, g)


def forward_dynamics(theta: float, theta_dot: float, tau: float, m: float, l: float,
                     I: float, b: float, g: float) -> float:
    """theta'' = (tau - b theta' - m g l sin theta) / (m l^2 + I), eq. (1) solved [rad/s^2]."""
    return (tau - b * theta_dot - gravity(theta, m, l, g)) / inertia(m, l, I)


def bob_position(theta: float, l: float) -> np.ndarray:
    """The bob's centre in W, (-l sin theta, 0, -l cos theta) [m]."""
    return np.array([-l * math.sin(theta), 0.0, -l * math.cos(theta)])


def energy(theta: float, theta_dot: float, m: float, l: float, I: float,
           g: float) -> float:
    """Kinetic plus potential energy, zero hanging at rest [J]."""
    return 0.5 * inertia(m, l, I) * theta_dot**2 + m * g * l * (1.0 - math.cos(theta))
