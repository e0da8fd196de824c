"""The paper's own check (section 6): the planned gait's joint trajectories by inverse
kinematics, joint torques by inverse dynamics (with section 4's assumed ground forces),
then forward dynamics (5) with those torques integrated twice, open loop, and compared
with the plan.

Forward dynamics keeps the supporting feet on the ground (section 5, see reduced.py);
integration is semi-implicit Euler (nu first, then theta and the body pose with the new
nu), the "integrated twice" of sections 5-6.  Differences between the plan and the
integrated motion then come from the step (they fall with it) and from any part of the
planned motion the torques cannot produce (they do not).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache

import numpy as np

from dynval.handrolled.quadruped.gait import Gait, PlannedState, plan
from dynval.handrolled.quadruped.inverse import Feedforward, feedforward
from dynval.handrolled.quadruped.robot import QuadrupedModel
from dynval.handrolled.quadruped.simulation import PinnedFeetSimulation

LEFT_LIMIT = 1e-9  # [s] before a support change, where RK4's last stage reads the plan


@dataclass
class RoundTrip:
    """Planned and integrated joint trajectories on the integrator's time grid."""

    t: np.ndarray
    theta_plan: np.ndarray  # (n, 12)
    thetad_plan: np.ndarray
    thetadd_plan: np.ndarray
    theta: np.ndarray
    thetad: np.ndarray
    thetadd: np.ndarray
    residual: np.ndarray  # (n, 6) unbalanced body wrench of the assumed forces
    roll: np.ndarray  # (n,) integrated body roll [rad]


def round_trip(model: QuadrupedModel, gait: Gait, height: float, g_W: np.ndarray,
               dt: float, duration: float,
               planner: Callable[[float], PlannedState] | None = None,
               split: str = "paper", integrator: str = "euler", restart: bool = False,
               start: float = 0.0) -> RoundTrip:
    """Integrate eq. (5) with the supporting feet pinned (section 5), open loop from the
    planned initial state with the planned torques, recording the plan and the integrated
    motion at every step.  ``planner`` (t -> planned state) replaces the gait's own plan,
    e.g. the balanced trot of balance.py; ``split`` chooses section 4.1's four-leg force
    split (grf.SPLITS); ``integrator`` "euler" (semi-implicit, sections 5-6) or "rk4"
    (the torques of the plan at each stage's time, under the step's support); ``restart``
    puts the integrated state back on the plan wherever the planned support changes, so
    that each support phase is its own open-loop round trip from its planned start (the
    robot on its feet is unstable open loop, and over a whole cycle an error from one
    phase would grow through all the next ones); ``start`` (a multiple of dt) begins the
    run on the plan there, on the same time grid k dt as a run from 0."""
    if integrator not in ("euler", "rk4"):
        raise ValueError(f"unknown integrator {integrator!r}; choose 'euler' or 'rk4'")
    n, k0 = int(round(duration / dt)), int(round(start / dt))
    if planner is None:
        def planner(t: float) -> PlannedState:
            return plan(model, gait, t, height)
    ts = (k0 + np.arange(n)) * dt
    s0 = planner(float(ts[0]))
    sim = PinnedFeetSimulation(model, g_W, dt)

    def put_on_plan(s: PlannedState) -> None:
        sim.reset(s.p_WB, np.eye(3), s.theta, np.concatenate([s.v_WB, np.zeros(3),
                                                              s.thetad.ravel()]), s.stance)
        sim.t = s.t

    put_on_plan(s0)
    rec = {k: np.zeros((n, 12)) for k in ("tp", "tdp", "tddp", "t", "td", "tdd")}
    res, roll = np.zeros((n, 6)), np.zeros(n)
    stance = s0.stance
    for k in range(n):
        s = planner(float(ts[k]))
        if restart and k > 0 and s.stance != stance:
            put_on_plan(s)
        stance = s.stance
        ff = feedforward(model, s, g_W, split)
        R = sim.R_WB
        rec["tp"][k], rec["tdp"][k], rec["tddp"][k] = (s.theta.ravel(), s.thetad.ravel(),
                                                       s.thetadd.ravel())
        rec["t"][k], rec["td"][k] = sim.theta, sim.nu[6:]
        res[k], roll[k] = ff.residual, np.arctan2(R[2, 1], R[2, 2])
        if integrator == "euler":
            sim.step(ff.tau, s.stance)
        else:
            @cache  # the second and third stages both read t + dt/2: planned once
            def tau_at(tt: float, s: PlannedState = s, ff: Feedforward = ff) -> np.ndarray:
                if tt == s.t:
                    return ff.tau
                there = planner(tt)
                if there.stance != s.stance:  # the support changes at the step's end: the
                    there = planner(tt - LEFT_LIMIT)  # plan's left limit is this step's
                return feedforward(model, replace(there, stance=s.stance), g_W, split).tau
            sim.step_rk4(tau_at, s.stance)
        rec["tdd"][k] = sim.nudot[6:]
    return RoundTrip(ts, rec["tp"], rec["tdp"], rec["tddp"], rec["t"], rec["td"], rec["tdd"],
                     res, roll)


def max_percentage_error(planned: np.ndarray, integrated: np.ndarray) -> float:
    """100 max|integrated - planned| / max|planned| over the run (the paper's measure
    is not defined; this one is finite where the signal crosses zero)."""
    return float(100.0 * np.max(np.abs(integrated - planned)) / np.max(np.abs(planned)))
