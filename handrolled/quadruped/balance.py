"""A dynamically consistent trot: the paper's trot plan with the body's
lateral position solved from the moment balance about the support diagonal.

With two feet on the ground no ground force makes a moment about the line through them
(section 4.3 gives six unknowns, but the body equations (3)-(4) have rank 5 there), so
the planned motion itself must satisfy that moment balance: the whole robot's rate of
angular momentum about the support line equals the moment of gravity about it.  The
paper's plan keeps the body on the centre line (y = 0) and leaves that moment unbalanced
(the erratum of section 4.3).  Here the body stays level and moves forward at the paper's
speed, the feet follow the paper's profiles, and the one free function, the body's
lateral position y(t), is chosen so that the balance holds at every instant:

    u . (n_b - c x f_b)(t, y, y', y'') = 0,

with (f_b, n_b) the body wrench of the first RNEA stage (legs in the air), c the
centroid of the two supporting feet and u the unit vector along the support line (body
axes).  The moment is affine in y'' (the RNEA is linear in the accelerations and the
joint accelerations by inverse kinematics are affine in the body's), so y'' follows from
two evaluations; y and y' come from integrating that second-order equation (DOP853,
tight tolerances), which is an inverted pendulum about the support line: its periodic
solution is found by shooting over one gait cycle.

Why the lateral path and not a roll: the body stays level, so the plan, the inverse
dynamics (section 3 with R_WB = I) and section 6's round trip are the paper's own; a
trotting robot keeps its centre of mass over the support diagonal by swaying, not by
rolling.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from dynval.handrolled.quadruped.gait import Gait, PlannedState, plans_at, stance_legs
from dynval.handrolled.quadruped.rnea import inverse_dynamics
from dynval.handrolled.quadruped.robot import QuadrupedModel
from dynval.handrolled.so3 import cross
from dynval.robots.quadruped.params import LEGS

RTOL, ATOL = 1e-11, 1e-13  # the plan's own integration: far below any round-trip error


def support_line(s: PlannedState, stance: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Centroid c of the two supporting feet and the unit vector u from the first to the
    second (body axes)."""
    a, b = (s.p_B4[LEGS.index(leg)] for leg in stance)
    d = b - a
    return (a + b) / 2.0, d / np.linalg.norm(d)


def diagonal_moment(model: QuadrupedModel, s: PlannedState, g_W: np.ndarray,
                    stance: tuple[str, ...] | None = None) -> float:
    """The moment about the support line that no pair of foot forces can supply [N m]:
    u . (n_b - c x f_b) of the first RNEA stage (section 3, legs in the air), the part
    of section 4.3's residual that is not zero."""
    stance = s.stance if stance is None else stance
    if len(stance) != 2:
        raise ValueError(f"the support line needs two feet on the ground, not {stance}")
    nu = np.concatenate([s.v_WB, np.zeros(3)])
    nudot = np.concatenate([s.a_WB, np.zeros(3)])
    f_b, n_b, *_ = inverse_dynamics(model, np.eye(3), nu, nudot, s.theta, s.thetad,
                                    s.thetadd, g_W)
    c, u = support_line(s, stance)
    return float(u @ (n_b - cross(c, f_b)))


def balanced_state(model: QuadrupedModel, gait: Gait, t: float, height: float, y: float,
                   yd: float, g_W: np.ndarray, stance: tuple[str, ...] | None = None
                   ) -> PlannedState:
    """The planned state at t with the body at lateral position y, rate y' and the
    lateral acceleration y'' that zeroes the moment about the support line.  The moment
    is affine in y'': from its values at y'' = 0 and 1, y'' = -m0 / (m1 - m0); the
    state's joint accelerations are affine in y'' too."""
    stance = stance_legs(gait, t) if stance is None else stance
    s0, s1 = plans_at(model, gait, t, height, [(y, yd, 0.0), (y, yd, 1.0)])
    m0 = diagonal_moment(model, s0, g_W, stance)
    m1 = diagonal_moment(model, s1, g_W, stance)
    ydd = -m0 / (m1 - m0)
    return replace(s0, a_WB=np.array([0.0, ydd, 0.0]),
                   thetadd=s0.thetadd + ydd * (s1.thetadd - s0.thetadd))


@dataclass
class BalancedTrot:
    """The consistent trot: the periodic lateral path (one dense solution per half cycle,
    each with its own support diagonal) and the planner built on it."""

    model: QuadrupedModel
    gait: Gait
    height: float
    g_W: np.ndarray
    y0: np.ndarray  # (y, y') at t = 0 of the periodic solution
    halves: list = field(default_factory=list)  # dense outputs on [0, T/2], [T/2, T]
    stances: list = field(default_factory=list)
    evaluations: int = 0  # right-hand sides the construction used

    def lateral(self, t: float) -> tuple[float, float]:
        """(y, y') of the periodic path at time t."""
        T = self.gait.period
        tau = t % T
        k = min(int(2.0 * tau / T), 1)
        y, yd = self.halves[k](tau)
        return float(y), float(yd)

    def plan(self, t: float) -> PlannedState:
        """The balanced plan at time t (the planner of section 6's round trip)."""
        y, yd = self.lateral(t)
        return balanced_state(self.model, self.gait, t, self.height, y, yd, self.g_W)


def _integrate(model: QuadrupedModel, gait: Gait, height: float, g_W: np.ndarray,
               x0: np.ndarray, counter: list[int], rtol: float = RTOL
               ) -> tuple[np.ndarray, list, list]:
    """One gait cycle of y'' = balance(t, y, y') from x0, half cycle by half cycle (the
    support diagonal changes at T/2)."""
    from scipy.integrate import solve_ivp  # slow to import: only here

    T = gait.period
    x, dense, stances = np.asarray(x0, float), [], []
    for k in range(2):
        t0, t1 = k * T / 2.0, (k + 1) * T / 2.0
        stance = stance_legs(gait, t0)

        def rhs(t: float, z: np.ndarray, stance: tuple[str, ...] = stance) -> np.ndarray:
            counter[0] += 1
            s = balanced_state(model, gait, t, height, z[0], z[1], g_W, stance)
            return np.array([z[1], s.a_WB[1]])

        sol = solve_ivp(rhs, (t0, t1), x, method="DOP853", rtol=rtol, atol=rtol * ATOL / RTOL,
                        dense_output=True)
        if not sol.success:
            raise RuntimeError(f"balanced trot: {sol.message}")
        x = sol.y[:, -1]
        dense.append(sol.sol)
        stances.append(stance)
    return x, dense, stances


def balanced_trot(model: QuadrupedModel, gait: Gait, height: float, g_W: np.ndarray,
                  tol: float = 1e-10, max_iter: int = 8) -> BalancedTrot:
    """The periodic lateral path of a two-phase gait (the trot): Newton's method on
    (y, y')(T) = (y, y')(0) [m, m/s], its Jacobian (the monodromy less the identity) by
    finite differences once and at a looser tolerance, the equation being nearly linear
    in (y, y').  ``tol`` is well above the plan's integration error amplified over a cycle
    (the path is unstable, about 30 times over one cycle) and far below any round-trip
    error."""
    if gait.swing_fraction != 0.5:
        raise ValueError("the balanced plan is for two-leg support throughout (a trot)")
    g_W = np.asarray(g_W, float)
    counter = [0]
    x, h = np.zeros(2), 1e-4
    loose = [_integrate(model, gait, height, g_W, x + d, counter, 1e-8)[0] - (x + d)
             for d in (np.zeros(2), *(h * np.eye(2)))]
    J = np.column_stack([(f - loose[0]) / h for f in loose[1:]])
    fx = loose[0]
    # Newton's steps with Broyden's updates of J: loosely to 1e-7, then at the plan's
    # tolerance, where the first evaluation is the loose phase's end point
    for rtol, goal in ((1e-8, 1e-7), (RTOL, tol)):
        for it in range(rtol != RTOL, max_iter + 1):  # the loose phase starts from loose[0]
            if it > 0:
                dx = -np.linalg.solve(J, fx)
                x = x + dx
            end, dense, stances = _integrate(model, gait, height, g_W, x, counter, rtol)
            fx, f_old = end - x, fx
            if it > 0:
                J = J + np.outer(fx - f_old - J @ dx, dx) / (dx @ dx)
            if np.max(np.abs(fx)) < goal:
                break
        if np.max(np.abs(fx)) >= goal:
            break
    else:
        return BalancedTrot(model, gait, height, g_W, x, dense, stances, counter[0])
    raise RuntimeError(f"balanced trot: no periodic lateral path (mismatch {fx})")
