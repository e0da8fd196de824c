"""The paper's decoupled landing-gear model (Secs. II-III, Fig. 3).

The body is the point mass m with inertia I at the body centre (eqs. 1-9); each leg
is an independent fixed-base two-link model (eqs. 12-14) whose foot force enters
through J^T; legs move the feet but do not push back on the body except through
the ground forces.  Integration is semi-implicit Euler at the step dt.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from dynval._numba_cache import njit
from dynval.handrolled import so3
from dynval.handrolled.landing_gear import com_dynamics, single_leg
from dynval.handrolled.landing_gear.state import Observation
from dynval.robots.landing_gear.params import LEGS, R_BL, LandingGearParams, body_inertia_P, p_BH


@dataclass(frozen=True)
class Forms:
    """Which form of each audited equation the model uses ("printed" or "corrected")."""

    leg_gravity: str = "corrected"  # eq. (12)
    moments: str = "corrected"  # eqs. (7)-(9)
    level: str = "corrected"  # eqs. (21)-(24), used by the controller

    @classmethod
    def printed(cls) -> Forms:
        return cls("printed", "printed", "printed")


def standing_angles(p: LandingGearParams) -> np.ndarray:
    """Joint angles (4 x 2) of the initial leg height y_0: eqs. (15)-(17)."""
    return np.array([single_leg.inverse_kinematics(p.x_0, p.y_0, p.l_U, p.l_L)] * 4)


def system_inertia(p: LandingGearParams, theta: np.ndarray) -> np.ndarray:
    """Diagonal inertia of the whole system about the body centre at the pose theta (4 x 2)
    [kg m^2]: the body box plus the link point masses (Sec. III) at the knees and feet,
    the I of eqs. (4)-(6), which the paper holds constant."""
    I = body_inertia_P(p).copy()
    for i, leg in enumerate(LEGS):
        hf = single_leg.forward_kinematics(theta[i, 0], theta[i, 1], p.l_U, p.l_L)
        knee = np.array([p.l_U * np.cos(theta[i, 0]), p.l_U * np.sin(theta[i, 0]), 0.0])
        for mass, r_L in ((p.m_U, knee), (p.m_L, np.array([hf[0], hf[1], 0.0]))):
            r = p_BH(leg, p) + R_BL(leg) @ r_L
            I += mass * (r @ r * np.eye(3) - np.outer(r, r))
    return np.diag(I).copy()


@njit(cache=True, inline="always")
def _leg_to_body(R_BL, x, y, out):
    """R_BL (x, y, 0) into ``out``: a leg-plane vector in body axes. Each sum is written
    out, accumulated from +0 as BLAS accumulates a product; R_BL turns the body's axes
    into one another (a signed permutation, params.R_BL), so each sum has one nonzero
    term and is exact: the float the matrix product gives, without its call."""
    for i in range(3):
        out[i] = 0.0 + R_BL[i, 0] * x + R_BL[i, 1] * y + R_BL[i, 2] * 0.0


@njit(cache=True)
def feet_in_body(theta, thetad, p_BH, R_BL, l_U, l_L):
    """Foot positions and velocities relative to the body, body axes (n x 3 each)."""
    n = theta.shape[0]
    r_B = np.zeros((n, 3))
    rd_B = np.zeros((n, 3))
    turned = np.empty(3)
    for i in range(n):
        p_hf = single_leg.forward_kinematics(theta[i, 0], theta[i, 1], l_U, l_L)  # eqs. (18)-(19)
        J = single_leg.jacobian(theta[i, 0], theta[i, 1], l_U, l_L)
        v_hf = J @ thetad[i]
        _leg_to_body(R_BL[i], p_hf[0], p_hf[1], turned)
        for k in range(3):
            r_B[i, k] = p_BH[i, k] + turned[k]
        _leg_to_body(R_BL[i], v_hf[0], v_hf[1], rd_B[i])
    return r_B, rd_B


class Gear(NamedTuple):
    """The constants of the decoupled model's step: the time step, the mass and gravity of
    eqs. (1)-(3), the body's principal inertias of (4)-(6), each leg's hip position p_BH and
    leg-plane rotation R_BL in the body, the leg's masses and lengths of eqs. (12)-(14),
    and which printed forms the step takes (the leg gravity of (12), the moment sums)."""

    dt: float
    m: float
    g: float
    I_diag: np.ndarray
    p_BH: np.ndarray
    R_BL: np.ndarray
    m_U: float
    m_L: float
    l_U: float
    l_L: float
    printed_gravity: bool
    printed_moments: bool


class BodyState(NamedTuple):
    """The decoupled model's state in the paper frame P: the body's position, velocity,
    attitude and body-axes rate, each leg's joint angles and rates (n x 2)."""

    p_PB: np.ndarray
    v_PB: np.ndarray
    R_PB: np.ndarray
    omega_B: np.ndarray
    theta: np.ndarray
    thetad: np.ndarray


@njit(cache=True)
def step_kernel(x: BodyState, r_B: np.ndarray, tau: np.ndarray, F_PF: np.ndarray,
                F_th: float, G: Gear) -> BodyState:
    """One semi-implicit Euler step of the decoupled model; returns the new state. r_B: the
    feet relative to the body at this state (:func:`feet_in_body`, which the caller has
    from its observation of the state: :func:`feet_in_P`)."""
    theta, thetad = x.theta, x.thetad
    F_B = F_PF @ x.R_PB  # rows: R_PB^T F_i
    a_PB = com_dynamics.linear_acceleration(F_PF, F_th, G.m, G.g)  # eqs. (1)-(3)
    M_B = com_dynamics.moment_sums(r_B, F_B, G.printed_moments)  # eqs. (7)-(9)
    omegad_B = com_dynamics.angular_acceleration(M_B, x.omega_B, G.I_diag)  # eqs. (4)-(6)
    thetadd = np.zeros_like(theta)
    F_L = np.empty(2)  # the foot force in the leg plane: R_BL^T F_B, as _leg_to_body
    R_BL = G.R_BL
    for i in range(theta.shape[0]):
        for k in range(2):
            F_L[k] = 0.0 + R_BL[i, 0, k] * F_B[i, 0] + R_BL[i, 1, k] * F_B[i, 1] \
                + R_BL[i, 2, k] * F_B[i, 2]
        thetadd[i] = single_leg.forward_dynamics(  # eq. (14)
            theta[i], thetad[i], tau[i], F_L, G.m_U, G.m_L, G.l_U, G.l_L, G.g,
            G.printed_gravity
        )
    dt = G.dt
    v_new = x.v_PB + a_PB * dt
    omega_new = x.omega_B + omegad_B * dt
    thetad_new = thetad + thetadd * dt
    return BodyState(x.p_PB + v_new * dt, v_new, x.R_PB @ so3.exp(omega_new * dt), omega_new,
                     theta + thetad_new * dt, thetad_new)


class DecoupledLandingGear:
    """The hand-rolled plant: state, observation and step, all in the paper frame P."""

    name = "handrolled"

    def __init__(self, p, p_BH: np.ndarray, R_BL: np.ndarray, I_diag: np.ndarray,
                 forms: Forms = Forms()) -> None:
        self.p = p
        self.p_BH = np.ascontiguousarray(p_BH, dtype=float)
        self.R_BL = np.ascontiguousarray(R_BL, dtype=float)
        self.I_diag = np.asarray(I_diag, dtype=float)
        self.forms = forms
        self.gear = Gear(float(p.dt), float(p.m), float(p.g), self.I_diag, self.p_BH,
                         self.R_BL, float(p.m_U), float(p.m_L), float(p.l_U), float(p.l_L),
                         single_leg.is_printed(forms.leg_gravity),
                         single_leg.is_printed(forms.moments))
        self.t = 0.0

    def reset(self, p_PB, R_PB, v_PB, omega_B, theta, thetad) -> None:
        self.t = 0.0
        self.p_PB = np.array(p_PB, dtype=float)
        self.R_PB = np.array(R_PB, dtype=float)
        self.v_PB = np.array(v_PB, dtype=float)
        self.omega_B = np.array(omega_B, dtype=float)
        self.theta = np.array(theta, dtype=float)
        self.thetad = np.array(thetad, dtype=float)

    def observe(self) -> Observation:
        """The state and the feet's positions and velocities in P, the feet from one
        compiled call (:func:`feet_in_P`; :meth:`observe_stepwise` is the reference)."""
        p_PF, v_PF, _ = feet_in_P(self.p_PB, self.R_PB, self.v_PB, self.omega_B, self.theta,
                                  self.thetad, self.p_BH, self.R_BL, self.p.l_U, self.p.l_L)
        return self.observation(p_PF, v_PF)

    def observation(self, p_PF: np.ndarray, v_PF: np.ndarray) -> Observation:
        """:meth:`observe` with the feet given: those fast.loop.run_chunk computed by
        :func:`feet_in_P` from the state it left."""
        # no copies: step() replaces the state arrays (step_kernel returns new ones), it
        # never writes into them, so an observation keeps its values
        return Observation(self.t, self.p_PB, self.R_PB, self.v_PB, self.omega_B,
                           self.theta, self.thetad, p_PF, v_PF)

    def observe_stepwise(self) -> Observation:
        """:meth:`observe` in numpy operations, one after the other."""
        r_B, rd_B = feet_in_body(self.theta, self.thetad, self.p_BH, self.R_BL,
                                 self.p.l_U, self.p.l_L)
        p_PF = self.p_PB + r_B @ self.R_PB.T
        v_PF = self.v_PB + (_cross_rows(self.omega_B, r_B) + rd_B) @ self.R_PB.T
        return Observation(self.t, self.p_PB.copy(), self.R_PB.copy(), self.v_PB.copy(),
                           self.omega_B.copy(), self.theta.copy(), self.thetad.copy(), p_PF, v_PF)

    @property
    def state(self) -> BodyState:
        return BodyState(self.p_PB, self.v_PB, self.R_PB, self.omega_B, self.theta,
                         self.thetad)

    @state.setter
    def state(self, x: BodyState) -> None:
        self.p_PB, self.v_PB, self.R_PB, self.omega_B, self.theta, self.thetad = x

    def step_P(self, tau: np.ndarray, F_PF: np.ndarray, F_th: float) -> None:
        """One step under the joint torques tau (4 x 2), the feet's forces F_PF and the
        thrust F_th along y, all in P."""
        p = self.p
        r_B, _ = feet_in_body(self.theta, self.thetad, self.p_BH, self.R_BL, p.l_U, p.l_L)
        self.state = step_kernel(self.state, r_B, np.ascontiguousarray(tau, dtype=float),
                                 np.ascontiguousarray(F_PF, dtype=float), float(F_th),
                                 self.gear)
        self.t += p.dt


@njit(cache=True)
def feet_in_P(p_PB, R_PB, v_PB, omega_B, theta, thetad, p_BH, R_BL, l_U, l_L):
    """Foot positions p_PB + R_PB r_i and velocities v_PB + R_PB (omega_B x r_i + rd_i),
    paper frame P (n x 3 each), with r_i, rd_i from :func:`feet_in_body`; and r_B (the r_i),
    which a step from this state takes (:func:`step_kernel`)."""
    r_B, rd_B = feet_in_body(theta, thetad, p_BH, R_BL, l_U, l_L)
    n = r_B.shape[0]
    p_PF, v_PF = np.empty((n, 3)), np.empty((n, 3))
    w0, w1, w2 = omega_B[0], omega_B[1], omega_B[2]
    for k in range(n):
        r0, r1, r2 = r_B[k, 0], r_B[k, 1], r_B[k, 2]
        u0 = w1 * r2 - w2 * r1 + rd_B[k, 0]
        u1 = w2 * r0 - w0 * r2 + rd_B[k, 1]
        u2 = w0 * r1 - w1 * r0 + rd_B[k, 2]
        for i in range(3):
            p_PF[k, i] = p_PB[i] + (r0 * R_PB[i, 0] + r1 * R_PB[i, 1] + r2 * R_PB[i, 2])
            v_PF[k, i] = v_PB[i] + (u0 * R_PB[i, 0] + u1 * R_PB[i, 1] + u2 * R_PB[i, 2])
    return p_PF, v_PF, r_B


def _cross_rows(w: np.ndarray, r: np.ndarray) -> np.ndarray:
    """w x r_i for each row of r: np.cross's arithmetic, without its axis handling that
    costs more than the sums for four feet."""
    return np.column_stack([w[1] * r[:, 2] - w[2] * r[:, 1], w[2] * r[:, 0] - w[0] * r[:, 2],
                            w[0] * r[:, 1] - w[1] * r[:, 0]])
