"""Where a hexapod run starts: the plan at t = 0 (``planned_start``) or the loaded static
stance on it (``loaded_start``: feet sunk to carry the weight, body springs and drives at
their static deflection), with the controller's static gain it needs.  ``loop``
re-exports every name."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dynval.handrolled.hexapod import body, lagrange
from dynval.handrolled.hexapod.fast import loop as fastloop
from dynval.handrolled.hexapod.robot import PlanarHexapod
from dynval.robots.hexapod.params import HexapodParams

# The plan puts every foot exactly on the ground at t = 0 (y = 0), where the contact test
# y < 0 of eqs. (11)-(12) would be decided by round-off: an engine's foot at -6e-17 m
# touches down a step before the hand model's at 0, its touchdown point eta_F0 a step's
# travel apart, and the runs differ by 1e-8 rad from the first millisecond. Starting the
# body this much lower puts every foot definitely in contact (1.7 N each on K_yF, 0.5 % of
# the robot's weight per foot), and no later crossing sits within round-off of y = 0 [m].
# (The unloaded planned start only; the scenarios start from :func:`loaded_start`, whose
# feet are a static sinkage of ~0.1 mm in the ground.)
START_SINK = 1e-6


def planned_start(p: HexapodParams) -> tuple[np.ndarray, np.ndarray]:
    """The plan at t = 0 (PlanarHexapod.reset_to_plan): segments on their planned hips at
    V_F, joints on the planned references, the body START_SINK below H_B."""
    r = PlanarHexapod(p)
    r.reset_to_plan(0.0)
    q = r.q.copy()
    q[1:2 * p.n_seg:2] -= START_SINK
    return q, r.qd.copy()


@dataclass(frozen=True)
class Stance:
    """A loaded static stance at t = 0 (:func:`loaded_start`): the state, the link torques
    that hold it, the controller's constant errors and the drives' states twisted to their
    loads."""

    q: np.ndarray
    qd: np.ndarray
    tau: np.ndarray  # link torques [N m]
    e: np.ndarray  # Theta_d(0) - Theta [rad]
    th_m: np.ndarray  # motor angles (8), (9a)
    th_T: np.ndarray  # gear output angles (9)
    support: np.ndarray  # the feet planned on the ground at t = 0, loaded
    sinkage: np.ndarray  # each foot's depth below y = 0 [m] (0 for feet in the air)

    def start(self) -> tuple[np.ndarray, np.ndarray]:
        """(q, qd) for a plant's reset."""
        return self.q.copy(), self.qd.copy()


def static_gain(p: HexapodParams) -> np.ndarray:
    """G_c1's gain to a constant error per joint, eqs. (14), (16): K_p + K_j A(1) / B(1)
    (the Pade filter's DC gain, 1/9 for Table III's [4/4]), or K_p with the
    Grunwald-Letnikov sum, whose D^alpha of a constant tends to zero."""
    K_p, a, b, K, _, _ = fastloop.controller_constants(p)
    if p.fo_form == "gl":
        return K_p
    return K_p + K * a.sum(axis=1) / b.sum(axis=1)


def loaded_start(p: HexapodParams, body_form: str = "corrected") -> Stance:
    """The robot at rest on its plan at t = 0 with its weight on the ground: the static
    equilibrium of eq. (6) with the feet planned on the ground at t = 0 (y_Fd = 0: for the
    wave gait at beta = 50 % all six, the instant the tripods exchange) sunk in the ground
    to carry it (eqs. (11)-(12) at rest: f_yF = -K_yF y_F, f_xF = 0 at the touchdown point),
    the segments' heights at the body springs' static deflection (10), and the joints where
    the controller's static torque K_c2 (G_c1(1) e - f J_F^T F_RF) (Fig. 3, eqs. 14-16)
    balances gravity and the ground. Segments keep their planned x and every rate is the
    plan's (V_F forward). The drives are twisted to the link torques: the motor K_T
    theta_m = K_T theta + tau ahead (8b); with backlash the gear output tau / K_T ahead
    (9d) and the motor at the edge of the play, pushing (9). Solved by scipy's hybrid
    Powell method (residual forces below a micronewton)."""
    from scipy.optimize import root

    r = PlanarHexapod(p, body_form)
    r.reset_to_plan(0.0)
    k, n = r.k, r.n
    q_plan, qd_plan = r.q.copy(), r.qd.copy()
    Th_d = q_plan[2 * k:]
    feet_plan, _ = r.feet(q_plan, np.zeros_like(qd_plan))
    support = np.abs(feet_plan[:, 1]) <= 1e-12
    G = static_gain(p)
    f = 1.0 if p.control == "force" else 0.0

    def forces(z: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        q = q_plan.copy()
        q[1:2 * k:2], q[2 * k:] = z[:k], z[k:]
        feet, _ = r.feet(q, np.zeros_like(q))
        F = np.zeros((n, 2))
        F[:, 1] = np.where(support, -p.K_yF * feet[:, 1], 0.0)  # (11)-(12) at rest
        JtF = np.zeros(r.nq)
        for i in range(n):
            JtF[r.idx[i]] += lagrange.J_F(q[r.idx[i]], r.lm).T @ F[i]
        tau = p.K_c2 * (G * (Th_d - q[2 * k:]) - f * JtF[2 * k:])  # Fig. 3, (14), (16)
        return q, F, JtF, tau

    def residual(z: np.ndarray) -> np.ndarray:
        q, _, JtF, tau = forces(z)
        _, fy = body.F_RH(q[0:2 * k:2], q[1:2 * k:2], np.zeros(k), np.zeros(k), p, body_form)
        Q = JtF.copy()
        Q[1:2 * k:2] += fy
        Q[2 * k:] += tau
        res = Q - r.bias(q, np.zeros_like(q))  # H qdd = 0: eq. (6) at rest
        return np.concatenate([res[1:2 * k:2], res[2 * k:]])

    # a first guess: every supporting foot sunk by its share of the weight
    share = p.m_total * p.g / max(int(support.sum()), 1) / p.K_yF
    z0 = np.concatenate([q_plan[1:2 * k:2] - share, Th_d])
    sol = root(residual, z0, method="hybr", options={"xtol": 1e-12})
    if np.max(np.abs(residual(sol.x))) > 1e-6:  # [N, N m]
        raise RuntimeError(f"hexapod: no static stance found at t = 0 ({sol.message})")
    q, F, _, tau = forces(sol.x)
    feet, _ = r.feet(q, np.zeros_like(q))
    th = q[2 * k:]
    th_m, th_T = th.copy(), th.copy()
    if p.transmission == "flexible":
        th_m = th + tau / p.K_ijT  # (8b)
    elif p.transmission == "backlash":
        th_T = th + tau / p.K_ijT  # (9d)
        th_m = th_T + np.sign(tau) * 0.5 * p.h_ij  # the motor pushing at the play's edge
    return Stance(q, qd_plan, tau, Th_d - th, th_m, th_T, support,
                  np.maximum(-feet[:, 1], 0.0))

