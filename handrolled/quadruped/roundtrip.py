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

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

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


class Plans:
    """The plan and its feedforward torques at each instant a round trip asks for, each
    made once: neither depends on the integrated motion, so the round trips of one plan
    at several steps and four-leg splits share them (an RK4 step's stages at t + dt/2
    and t + dt are its next step's time or another step's grid times, bit for bit)."""

    def __init__(self, model: QuadrupedModel, g_W: np.ndarray,
                 planner: Callable[[float], PlannedState]) -> None:
        self.model, self.g_W, self.planner = model, g_W, planner
        self._states: dict[float, PlannedState] = {}
        self._torques: dict[tuple[float, tuple[str, ...], str], Feedforward] = {}

    def state(self, t: float) -> PlannedState:
        """The planner's state at t."""
        s = self._states.get(t)
        if s is None:
            s = self._states[t] = self.planner(t)
        return s

    def feedforward(self, t: float, stance: tuple[str, ...], split: str) -> Feedforward:
        """inverse.feedforward of the state at t (:meth:`state`) under the support
        ``stance`` (its own, or the step's where the plan's changes at the step's end)
        with ``split``."""
        key = (t, stance, split)
        ff = self._torques.get(key)
        if ff is None:
            s = self.state(t)
            if s.stance != stance:
                s = replace(s, stance=stance)
            ff = self._torques[key] = feedforward(self.model, s, self.g_W, split)
        return ff


class _Run:
    """One round trip under way: the simulation and the records of the steps so far."""

    def __init__(self, sim: PinnedFeetSimulation, n: int) -> None:
        self.sim = sim
        self.rec = {k: np.zeros((n, 12)) for k in ("tp", "tdp", "tddp", "t", "td", "tdd")}
        self.res, self.roll = np.zeros((n, 6)), np.zeros(n)
        self.stance: tuple[str, ...] = ()

    def copy(self) -> _Run:
        """An independent copy to go on from (the simulation replaces its arrays at each
        step, never writes into them, so a shallow copy of it is one)."""
        out = copy.copy(self)
        out.sim = copy.copy(self.sim)
        out.rec = {k: v.copy() for k, v in self.rec.items()}
        out.res, out.roll = self.res.copy(), self.roll.copy()
        return out

    def put_on_plan(self, s: PlannedState) -> None:
        self.sim.reset(s.p_WB, np.eye(3), s.theta,
                       np.concatenate([s.v_WB, np.zeros(3), s.thetad.ravel()]), s.stance)
        self.sim.t = s.t

    def advance(self, plans: Plans, ts: np.ndarray, ks: range, split: str, integrator: str,
                restart: bool) -> None:
        """Steps ks (k: from t_k = ts[k] to the next) with the plan's torques."""
        sim, rec = self.sim, self.rec
        for k in ks:
            s = plans.state(float(ts[k]))
            if restart and k > 0 and s.stance != self.stance:
                self.put_on_plan(s)
            self.stance = s.stance
            ff = plans.feedforward(float(ts[k]), s.stance, split)
            R = sim.R_WB
            rec["tp"][k], rec["tdp"][k], rec["tddp"][k] = (s.theta.ravel(), s.thetad.ravel(),
                                                           s.thetadd.ravel())
            rec["t"][k], rec["td"][k] = sim.theta, sim.nu[6:]
            self.res[k], self.roll[k] = ff.residual, np.arctan2(R[2, 1], R[2, 2])
            if integrator == "euler":
                sim.step(ff.tau, s.stance)
            else:
                def tau_at(tt: float, s: PlannedState = s, ff: Feedforward = ff
                           ) -> np.ndarray:
                    if tt == s.t:
                        return ff.tau
                    if plans.state(tt).stance != s.stance:  # the support changes at the
                        tt = tt - LEFT_LIMIT  # step's end: the plan's left limit is this step's
                    return plans.feedforward(tt, s.stance, split).tau
                sim.step_rk4(tau_at, s.stance)
            rec["tdd"][k] = sim.nudot[6:]

    def result(self, ts: np.ndarray) -> RoundTrip:
        rec = self.rec
        return RoundTrip(ts, rec["tp"], rec["tdp"], rec["tddp"], rec["t"], rec["td"],
                         rec["tdd"], self.res, self.roll)


def round_trip(model: QuadrupedModel, gait: Gait, height: float, g_W: np.ndarray,
               dt: float, duration: float,
               planner: Callable[[float], PlannedState] | None = None,
               split: str = "paper", integrator: str = "euler", restart: bool = False,
               start: float = 0.0, plans: Plans | None = None) -> RoundTrip:
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
    run on the plan there, on the same time grid k dt as a run from 0; ``plans`` (made
    with the planner) shares the plan with other round trips."""
    return round_trips(model, gait, height, g_W, dt, duration, (split,), planner, integrator,
                       restart, start, plans)[split]


def round_trips(model: QuadrupedModel, gait: Gait, height: float, g_W: np.ndarray,
                dt: float, duration: float, splits: Sequence[str],
                planner: Callable[[float], PlannedState] | None = None,
                integrator: str = "euler", restart: bool = False, start: float = 0.0,
                plans: Plans | None = None) -> dict[str, RoundTrip]:
    """:func:`round_trip` with each four-leg split of ``splits``.  Up to the first step
    under four feet the splits' torques are the same (section 4's forces for fewer feet
    do not depend on the split), and so are their round trips: that part is integrated
    once, and each split goes on from it."""
    if integrator not in ("euler", "rk4"):
        raise ValueError(f"unknown integrator {integrator!r}; choose 'euler' or 'rk4'")
    n, k0 = int(round(duration / dt)), int(round(start / dt))
    if plans is None:
        if planner is None:
            def planner(t: float) -> PlannedState:
                return plan(model, gait, t, height)
        plans = Plans(model, g_W, planner)
    ts = (k0 + np.arange(n)) * dt
    first = _Run(PinnedFeetSimulation(model, g_W, dt), n)
    first.put_on_plan(plans.state(float(ts[0])))
    shared = next((k for k in range(n) if len(plans.state(float(ts[k])).stance) == 4), n) \
        if len(splits) > 1 else n
    first.advance(plans, ts, range(shared), splits[0], integrator, restart)
    out = {}
    for i, split in enumerate(splits):
        run = first if i == len(splits) - 1 else first.copy()
        run.advance(plans, ts, range(shared, n), split, integrator, restart)
        out[split] = run.result(ts)
    return out


def max_percentage_error(planned: np.ndarray, integrated: np.ndarray) -> float:
    """100 max|integrated - planned| / max|planned| over the run (the paper's measure
    is not defined; this one is finite where the signal crosses zero)."""
    return float(100.0 * np.max(np.abs(integrated - planned)) / np.max(np.abs(planned)))
