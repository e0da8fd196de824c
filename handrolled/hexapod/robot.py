"""The whole planar robot: n/2 translating body segments joined by eq. (10), n legs by
eq. (6), the drives of eqs. (7)-(9), the ground of eqs. (11)-(12), stepped by a second-
order Runge-Kutta method (Heun's; the paper says "Runge-Kutta two") at f_sr with the
controller's torques held between its samples at f_sc.

Coordinates (paper frame, x forward, y up): q = [x_1H, y_1H, ..., x_kH, y_kH, theta_11,
theta_12, ..., theta_n1, theta_n2], k = n/2 segments front to back (absolute hip
positions), then hip and knee of legs 1..n. The equations of motion are the sum of the legs'
Lagrangians (each with its hip share M_b / n; two legs share a segment):
H(q) q_dd + c + g = [F_RH; tau_link] + sum_i J_Fi^T F_RFi.
"""

from __future__ import annotations

import numpy as np

from dynval.handrolled.hexapod import body, lagrange, planning, transmission
from dynval.handrolled.hexapod.control import FractionalPD
from dynval.handrolled.hexapod.ground import linear_force, nonlinear_force
from dynval.robots.hexapod.params import HexapodParams, station_x


class PlanarHexapod:
    """State, dynamics and stepping of the whole robot (module docstring)."""

    name = "handrolled"

    def __init__(self, p: HexapodParams, body_form: str = "corrected",
                 plan_form: str = "corrected") -> None:
        """The printed path; fast.robot.CompiledPlanarHexapod steps the same equations
        compiled."""
        self.p = p
        self.k, self.n = p.n_seg, p.n
        self.nq = 2 * self.k + 2 * self.n
        self.lm = lagrange.LegMass.of(p)
        self.body_form, self.plan_form = body_form, plan_form
        self.idx = [np.array([2 * (i // 2), 2 * (i // 2) + 1, 2 * self.k + 2 * i,
                              2 * self.k + 2 * i + 1]) for i in range(self.n)]
        self.block = [np.ix_(idx, idx) for idx in self.idx]  # leg i's rows and columns
        self.J_m, self.J_T = transmission.joint_inertias(p, self.n)
        self.dt = 1.0 / p.f_sr
        self.ratio = int(round(p.f_sr / p.f_sc))
        self.t = 0.0
        self.q = np.zeros(self.nq)
        self.qd = np.zeros(self.nq)
        self.th_m = np.zeros(2 * self.n)
        self.th_m_dot = np.zeros(2 * self.n)
        self.th_T = np.zeros(2 * self.n)
        self.th_T_dot = np.zeros(2 * self.n)
        self.eta_0 = np.full((self.n, 2), np.nan)  # touchdown points, NaN in flight
        self.impacts = 0

    # ---- the rigid-body terms, assembled from eq. (6) leg by leg ----
    def H(self, q: np.ndarray) -> np.ndarray:
        out = np.zeros((self.nq, self.nq))
        for i in range(self.n):
            out[self.block[i]] += lagrange.H(q[self.idx[i]], self.lm)
        return out

    def bias(self, q: np.ndarray, qd: np.ndarray) -> np.ndarray:
        """c(q, q_dot) + g(q)."""
        out = np.zeros(self.nq)
        for i in range(self.n):
            Th, Thd = q[self.idx[i]], qd[self.idx[i]]
            out[self.idx[i]] += lagrange.c(Th, Thd, self.lm) + lagrange.g(Th, self.lm, self.p.g)
        return out

    def gravity(self, q: np.ndarray) -> np.ndarray:
        """g(q)."""
        out = np.zeros(self.nq)
        for i in range(self.n):
            out[self.idx[i]] += lagrange.g(q[self.idx[i]], self.lm, self.p.g)
        return out

    def feet(self, q: np.ndarray, qd: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Foot positions and velocities (n x 2, paper frame)."""
        pos, vel = np.zeros((self.n, 2)), np.zeros((self.n, 2))
        for i in range(self.n):
            Th, Thd = q[self.idx[i]], qd[self.idx[i]]
            pos[i] = lagrange.p_F(Th, self.lm)
            vel[i] = lagrange.J_F(Th, self.lm) @ Thd
        return pos, vel

    def ground_joint_torques(self, q: np.ndarray, F: np.ndarray) -> np.ndarray:
        """The hip and knee rows of J_F^T F_RF (eq. 6) for the feet's forces F (n x 2): the
        ground's torques on the joints, which Fig. 3's force loop feeds back."""
        return np.concatenate([lagrange.J_F(q[self.idx[i]], self.lm).T[2:] @ F[i]
                               for i in range(self.n)])

    def ground_forces(self, q: np.ndarray, qd: np.ndarray) -> np.ndarray:
        """F_RF of every foot, eq. (11) or (12), from the stored touchdown points (a foot
        below y = 0 without one touches down where it is)."""
        pos, vel = self.feet(q, qd)
        F = np.zeros((self.n, 2))
        law = linear_force if self.p.ground == "linear" else nonlinear_force
        for i in range(self.n):
            if pos[i, 1] >= 0.0:
                continue
            eta_0 = self.eta_0[i] if not np.isnan(self.eta_0[i, 0]) else np.array([pos[i, 0], 0.0])
            F[i] = law(pos[i], vel[i], eta_0, self.p)
        return F

    def generalised_forces(self, q: np.ndarray, qd: np.ndarray, tau_link: np.ndarray
                           ) -> np.ndarray:
        """Right-hand side of the equations of motion less c + g: eq. (10)'s F_RH on the
        segments, the drives' torques on the joints, J_F^T F_RF of the feet."""
        k = self.k
        out = np.zeros(self.nq)
        fx, fy = body.F_RH(q[0:2 * k:2], q[1:2 * k:2], qd[0:2 * k:2], qd[1:2 * k:2], self.p,
                           self.body_form)
        out[0:2 * k:2], out[1:2 * k:2] = fx, fy
        out[2 * k:] += tau_link
        F = self.ground_forces(q, qd)
        for i in range(self.n):
            if F[i].any():
                out[self.idx[i]] += lagrange.J_F(q[self.idx[i]], self.lm).T @ F[i]
        return out

    def rhs(self, x: tuple, tau_m: np.ndarray) -> tuple:
        """Time derivative of the state (q, qd, th_m, th_m_dot, th_T, th_T_dot)."""
        q, qd, th_m, th_m_dot, th_T, th_T_dot = x
        level = self.p.transmission
        th = q[2 * self.k:]
        tau_link = transmission.link_torque(tau_m, th_m, th_T, th, self.p, level)
        qdd = np.linalg.solve(self.H(q), self.generalised_forces(q, qd, tau_link)
                              - self.bias(q, qd))
        zero = np.zeros_like(th_m)
        if level == "ideal":
            return qd, qdd, zero, zero, zero, zero
        a_m = transmission.motor_acceleration(tau_m, th_m, th_m_dot, th, self.J_m, self.p, level)
        if level == "flexible":
            return qd, qdd, th_m_dot, a_m, zero, zero
        a_T = transmission.output_acceleration(th_T, th_T_dot, th, self.J_T, self.p)
        return qd, qdd, th_m_dot, a_m, th_T_dot, a_T

    # ---- stepping ----
    def state(self) -> tuple:
        return (self.q, self.qd, self.th_m, self.th_m_dot, self.th_T, self.th_T_dot)

    def step(self, tau_C: np.ndarray) -> None:
        """One Heun (RK2) step of dt = 1 / f_sr with the demanded torques tau_C held, then
        the gear impacts (9b)-(9c) and the feet's touchdown/lift-off bookkeeping."""
        tau_m = transmission.saturate(np.asarray(tau_C, float), self.p.tau_max)  # (7)
        x0 = self.state()
        k1 = self.rhs(x0, tau_m)
        x1 = tuple(a + self.dt * b for a, b in zip(x0, k1, strict=True))
        k2 = self.rhs(x1, tau_m)
        (self.q, self.qd, self.th_m, self.th_m_dot, self.th_T, self.th_T_dot) = tuple(
            a + 0.5 * self.dt * (b + c) for a, b, c in zip(x0, k1, k2, strict=True))
        if self.p.transmission == "backlash":
            self.impacts += transmission.resolve_backlash(
                self.th_m, self.th_m_dot, self.th_T, self.th_T_dot, self.J_m, self.J_T, self.p)
        pos, _ = self.feet(self.q, self.qd)
        for i in range(self.n):
            if pos[i, 1] >= 0.0:
                self.eta_0[i] = np.nan
            elif np.isnan(self.eta_0[i, 0]):
                self.eta_0[i] = (pos[i, 0], 0.0)
        self.t += self.dt

    def advance(self, tau_C: np.ndarray, count: int) -> None:
        """``count`` steps of :meth:`step` with tau_C held."""
        for _ in range(count):
            self.step(tau_C)

    # ---- the planned start ----
    def reference(self, t: float) -> tuple[np.ndarray, np.ndarray]:
        """Theta_d, Theta_dot_d of every joint at t (eq. 4)."""
        Th, Thd = np.zeros(2 * self.n), np.zeros(2 * self.n)
        for i in range(self.n):
            Th[2 * i: 2 * i + 2], Thd[2 * i: 2 * i + 2] = planning.joint_reference(
                t, i, self.p, self.plan_form)
        return Th, Thd

    def reference_angles(self, t: float) -> np.ndarray:
        """Theta_d of every joint at t (eq. 4a-b), without the rates of (4c): what the
        controller reads."""
        return np.concatenate([planning.joint_angles(t, i, self.p, self.plan_form)
                               for i in range(self.n)])

    def reset_to_plan(self, t: float = 0.0) -> None:
        """Segments on the planned hips (3), joints on the planned references, drives
        unloaded at the joint angles, supporting feet touching down where they stand."""
        p = self.p
        xs = np.asarray(station_x(p))
        self.t = t
        self.q = np.zeros(self.nq)
        self.qd = np.zeros(self.nq)
        self.q[0:2 * self.k:2] = xs + p.V_F * t
        self.q[1:2 * self.k:2] = p.H_B
        self.qd[0:2 * self.k:2] = p.V_F
        Th, Thd = self.reference(t)
        self.q[2 * self.k:], self.qd[2 * self.k:] = Th, Thd
        self.th_m, self.th_T = Th.copy(), Th.copy()
        self.th_m_dot, self.th_T_dot = Thd.copy(), Thd.copy()
        pos, _ = self.feet(self.q, self.qd)
        self.eta_0 = np.full((self.n, 2), np.nan)
        for i in range(self.n):
            if pos[i, 1] <= 1e-12:
                self.eta_0[i] = (pos[i, 0], 0.0)

    def energy(self) -> float:
        """Kinetic + gravitational energy of the rigid bodies + inter-segment springs [J]."""
        U = 0.0
        for i in range(self.n):
            Th = self.q[self.idx[i]]
            U += self.p.g * (self.lm.m * Th[1] - self.lm.A * np.cos(Th[2])
                             - self.lm.B * np.cos(Th[2] + Th[3]))
        k = self.k
        return float(0.5 * self.qd @ self.H(self.q) @ self.qd + U
                     + body.spring_energy(self.q[0:2 * k:2], self.q[1:2 * k:2], self.p))


def simulate(p: HexapodParams, duration: float, force_feedback: bool = False,
             body_form: str = "corrected", plan_form: str = "corrected",
             record_every: int = 20, robot_class: type[PlanarHexapod] = PlanarHexapod
             ) -> dict[str, np.ndarray]:
    """Walk with the planned gait under the FO controller for ``duration`` seconds from the
    planned state at t = 0; returns time, q, qd, tau_C, the ground forces and the feet, at
    every ``record_every``-th step (``robot_class``: the printed PlanarHexapod, or
    fast.robot.CompiledPlanarHexapod)."""
    robot = robot_class(p, body_form, plan_form)
    robot.reset_to_plan(0.0)
    ctrl = FractionalPD(p, force_feedback)
    steps = int(round(duration / robot.dt))
    out: dict[str, list] = {k: [] for k in ("t", "q", "qd", "tau_C", "F", "feet")}
    tau_C = np.zeros(2 * p.n)
    s = 0
    while s < steps:
        if s % robot.ratio == 0:  # controller sample, zero-order hold
            Th_d = robot.reference_angles(robot.t)
            JtF = None
            if force_feedback:
                JtF = robot.ground_joint_torques(robot.q,
                                                 robot.ground_forces(robot.q, robot.qd))
            tau_C = ctrl(Th_d, robot.q[2 * robot.k:], JtF)
        if s % record_every == 0:
            pos, _ = robot.feet(robot.q, robot.qd)
            out["t"].append(robot.t)
            out["q"].append(robot.q.copy())
            out["qd"].append(robot.qd.copy())
            out["tau_C"].append(tau_C.copy())
            out["F"].append(robot.ground_forces(robot.q, robot.qd))
            out["feet"].append(pos)
        # the steps up to the next controller sample or record, tau_C held
        nxt = min((s // robot.ratio + 1) * robot.ratio,
                  (s // record_every + 1) * record_every, steps)
        robot.advance(tau_C, nxt - s)
        s = nxt
        if not np.all(np.isfinite(robot.q)):
            raise FloatingPointError(f"hexapod simulation diverged by t = {robot.t:.4f} s")
    return {k: np.array(v) for k, v in out.items()}
