"""The leg's inverse dynamics by Lagrange, eqs. (5)-(6), in closed form.

Leg i with its share of the body: Theta = [x_iH, y_iH, theta_i1, theta_i2] (hip position in
the paper's plane, then the hip and knee angles of ``kinematics``), Gamma = [f_ixH, f_iyH,
tau_i1, tau_i2]:

    Gamma = H(Theta) Theta_dd + c(Theta, Theta_d) + g(Theta) - F_RH - J_F^T(Theta) F_RF   (6)

Bodies: the hip point of mass m_H = M_b / n (Sec. III.3's segments, one share per leg),
the thigh (M_i1, centre c_i1 L_i1 from the hip, inertia I_i1), the shank (M_i2, centre
c_i2 L_i2 from the knee, I_i2) and the foot (M_if, a sphere at the shank tip). With u(a) =
(sin a, -cos a) and a = theta_1, b = theta_1 + theta_2 the kinetic energy (5a) is

    K = 1/2 m |v_H|^2 + v_H . [A u'(a) a_d + B u'(b) b_d] + 1/2 J_a a_d^2 + 1/2 J_2 b_d^2
        + B L_1 cos(theta_2) a_d b_d,     U = g (m y_H - A cos a - B cos b),

with m the leg's total mass, A = M_i1 c_i1 L_i1 + (M_i2 + M_if) L_i1 and B = M_i2 c_i2 L_i2
+ M_if L_i2 the first moments about the hip and the knee, J_a the thigh's inertia about the
hip plus (M_i2 + M_if) L_i1^2, and J_2 the shank and foot's inertia about the knee. H, c and
g below are (5b) applied to it; tests check them against a numerically differentiated
Lagrangian and against Pinocchio on hexapod_leg.urdf.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dynval.robots.hexapod.model_description import foot_inertia, rod_pitch_inertia
from dynval.robots.hexapod.params import HexapodParams


@dataclass(frozen=True)
class LegMass:
    """The five numbers the leg's Lagrangian depends on, plus the link lengths."""

    m: float    # hip share + thigh + shank + foot [kg]
    A: float    # first moment of thigh, shank and foot about the hip along the thigh [kg m]
    B: float    # first moment of shank and foot about the knee along the shank [kg m]
    J_a: float  # thigh about the hip + (shank + foot) mass at the knee [kg m^2]
    J_2: float  # shank + foot about the knee [kg m^2]
    L_1: float
    L_2: float

    @classmethod
    def of(cls, p: HexapodParams, m_H: float | None = None) -> LegMass:
        """The leg of ``p`` with a hip share m_H (default M_b / n)."""
        m_H = p.M_b / p.n if m_H is None else m_H
        L1, L2, r = p.L_i1, p.L_i2, p.r_link
        m_s = p.M_i2 + p.M_if
        I_1 = rod_pitch_inertia(p.M_i1, L1, r)
        I_2 = rod_pitch_inertia(p.M_i2, L2, r)
        J_1 = I_1 + p.M_i1 * (p.c_i1 * L1) ** 2
        J_2 = I_2 + p.M_i2 * (p.c_i2 * L2) ** 2 + foot_inertia(p) + p.M_if * L2**2
        return cls(m=m_H + p.M_i1 + m_s, A=p.M_i1 * p.c_i1 * L1 + m_s * L1,
                   B=p.M_i2 * p.c_i2 * L2 + p.M_if * L2, J_a=J_1 + m_s * L1**2, J_2=J_2,
                   L_1=L1, L_2=L2)


def H(Theta: np.ndarray, lm: LegMass) -> np.ndarray:
    """Inertia matrix H(Theta) of eq. (6) (4 x 4, symmetric positive definite)."""
    _, _, t1, t2 = Theta
    a, b = t1, t1 + t2
    ca, sa, cb, sb, c2 = np.cos(a), np.sin(a), np.cos(b), np.sin(b), np.cos(t2)
    h13, h14 = lm.A * ca + lm.B * cb, lm.B * cb
    h23, h24 = lm.A * sa + lm.B * sb, lm.B * sb
    h34 = lm.J_2 + lm.B * lm.L_1 * c2
    h33 = lm.J_a + lm.J_2 + 2.0 * lm.B * lm.L_1 * c2
    return np.array([[lm.m, 0.0, h13, h14],
                     [0.0, lm.m, h23, h24],
                     [h13, h23, h33, h34],
                     [h14, h24, h34, lm.J_2]])


def c(Theta: np.ndarray, Theta_d: np.ndarray, lm: LegMass) -> np.ndarray:
    """Centrifugal/Coriolis vector c(Theta, Theta_dot) of eq. (6): the Christoffel sums of
    H's derivatives (only theta_1, theta_2 enter H)."""
    _, _, t1, t2 = Theta
    _, _, w1, w2 = Theta_d
    a, b, wb = t1, t1 + t2, w1 + w2
    s2 = np.sin(t2)
    return np.array([-lm.A * np.sin(a) * w1**2 - lm.B * np.sin(b) * wb**2,
                     lm.A * np.cos(a) * w1**2 + lm.B * np.cos(b) * wb**2,
                     -lm.B * lm.L_1 * s2 * (2.0 * w1 * w2 + w2**2),
                     lm.B * lm.L_1 * s2 * w1**2])


def g(Theta: np.ndarray, lm: LegMass, g0: float) -> np.ndarray:
    """Gravitational vector g(Theta) = dU/dTheta of eq. (6), gravity g0 along -y."""
    _, _, t1, t2 = Theta
    a, b = t1, t1 + t2
    return g0 * np.array([0.0, lm.m, lm.A * np.sin(a) + lm.B * np.sin(b),
                          lm.B * np.sin(b)])


def J_F(Theta: np.ndarray, lm: LegMass) -> np.ndarray:
    """Foot Jacobian J_F = d p_F / d Theta (2 x 4), p_F the foot centre in the paper's
    plane; J_F^T F_RF of eq. (6) is the generalised force of a ground force F_RF on it."""
    _, _, t1, t2 = Theta
    a, b = t1, t1 + t2
    return np.array([[1.0, 0.0, lm.L_1 * np.cos(a) + lm.L_2 * np.cos(b), lm.L_2 * np.cos(b)],
                     [0.0, 1.0, lm.L_1 * np.sin(a) + lm.L_2 * np.sin(b), lm.L_2 * np.sin(b)]])


def p_F(Theta: np.ndarray, lm: LegMass) -> np.ndarray:
    """Foot centre in the paper's plane [m]."""
    x, y, t1, t2 = Theta
    a, b = t1, t1 + t2
    return np.array([x + lm.L_1 * np.sin(a) + lm.L_2 * np.sin(b),
                     y - lm.L_1 * np.cos(a) - lm.L_2 * np.cos(b)])


def Gamma(Theta: np.ndarray, Theta_d: np.ndarray, Theta_dd: np.ndarray, lm: LegMass,
          g0: float, F_RH: np.ndarray | None = None, F_RF: np.ndarray | None = None
          ) -> np.ndarray:
    """Eq. (6): the forces/torques Gamma that give Theta_dd at (Theta, Theta_dot).
    F_RH = [f_ixH, f_iyH] (eq. 10) acts on the hip, F_RF (ground) on the foot."""
    out = H(Theta, lm) @ Theta_dd + c(Theta, Theta_d, lm) + g(Theta, lm, g0)
    if F_RH is not None:
        out[:2] -= F_RH
    if F_RF is not None:
        out -= J_F(Theta, lm).T @ F_RF
    return out


def torque_terms(Theta: np.ndarray, Theta_d: np.ndarray, Theta_dd: np.ndarray, lm: LegMass,
                 g0: float) -> dict[str, np.ndarray]:
    """Eq. (6)'s split of Figs. 7, 8, 12, 15: inertial H Theta_dd, centrifugal/Coriolis c
    and gravitational g (tau_ijI, tau_ijCC, tau_ijG are their entries 3 and 4)."""
    return {"I": H(Theta, lm) @ Theta_dd, "CC": c(Theta, Theta_d, lm), "G": g(Theta, lm, g0)}


def lagrangian(Theta: np.ndarray, Theta_d: np.ndarray, lm: LegMass, g0: float) -> float:
    """L = K - U of eq. (5a), written from the bodies' velocities independently of H (the
    tests differentiate it numerically)."""
    x, y, t1, t2 = Theta
    xd, yd, w1, w2 = Theta_d
    a, b, wb = t1, t1 + t2, w1 + w2
    up_a, up_b = np.array([np.cos(a), np.sin(a)]), np.array([np.cos(b), np.sin(b)])
    v_H = np.array([xd, yd])
    K = (0.5 * lm.m * v_H @ v_H + v_H @ (lm.A * up_a * w1 + lm.B * up_b * wb)
         + 0.5 * lm.J_a * w1**2 + 0.5 * lm.J_2 * wb**2 + lm.B * lm.L_1 * np.cos(t2) * w1 * wb)
    U = g0 * (lm.m * y - lm.A * np.cos(a) - lm.B * np.cos(b))
    return float(K - U)


def energy(Theta: np.ndarray, Theta_d: np.ndarray, lm: LegMass, g0: float) -> float:
    """K + U [J], from H and the potential."""
    x, y, t1, t2 = Theta
    U = g0 * (lm.m * y - lm.A * np.cos(t1) - lm.B * np.cos(t1 + t2))
    return float(0.5 * Theta_d @ H(Theta, lm) @ Theta_d + U)
