"""The paper's quadruped with its supporting feet pinned, stepped with Pinocchio's terms:
the reference the hand-rolled gait runs are judged against.

MuJoCo and PyBullet run the gaits with their own foot contact only (a soft ground), which
differs from the paper's pinned feet by design far beyond round-off. This plant is the
paper's model written apart from the hand-rolled code: the floating base's mass matrix
and bias (C + G) in nu = (v_B, omega_B, theta_dot) coordinates, each supporting foot's
Jacobian and its acceleration at no joint acceleration are Pinocchio's, read from the
robot's URDF (the terms L1 and L2 audit); eq. (5) is solved with the feet's world
acceleration held at zero, a foot that joins the support stops with the plastic impact
(the M-metric projection onto J_c nu = 0), and the step is the declared scheme
(semi-implicit Euler) at the declared step with the declared parameters. The gait's plan
and the feedforward plus PD controller are the shared ones every implementation runs.
So a wrong gain, step or frame of the hand-rolled model shows as a difference while the
two implementations of the correct model differ by round-off only."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from scipy.spatial.transform import Rotation

from dynval.comparisons.ladder import harness
from dynval.comparisons.ladder.metrics import ReferenceRun, reference_rows
from dynval.comparisons.quadruped import frames
from dynval.comparisons.quadruped.loop import QuadrupedLoop
from dynval.comparisons.quadruped.scenarios import WORKSPACE, Scenario
from dynval.comparisons.run.check import SPREAD_DELTA, SPREAD_FACTOR
from dynval.engines.base import FloatingState
from dynval.handrolled.quadruped.gait import GAITS
from dynval.results import MetricRow
from dynval.robots.quadruped.model_description import joint_names, link_name
from dynval.robots.quadruped.params import LEGS, QuadrupedParams


class PinocchioPinnedFeet:
    """The floating quadruped with its stance feet pinned, stepped with Pinocchio's terms
    (module docstring); the plant interface of the quadruped's loop."""

    name = implementation = "pinned feet, pinocchio terms"

    def __init__(self, p: QuadrupedParams, desc_dir: Path, perturb: float = 0.0) -> None:
        from dynval.engines.pinocchio_engine import PinocchioTerms

        self.pn = PinocchioTerms(desc_dir / "quadruped.urdf", (0.0, 0.0, -p.g),
                                 floating=True, joint_names=joint_names())
        self.dt, self.perturb = p.dt, perturb
        self.foot = np.array([build_foot_offset(p), 0.0, 0.0])  # the foot point in link 3
        self.stance: tuple[str, ...] = ()
        self._next: tuple[str, ...] = ()
        self.F_B = np.zeros((4, 3))

    def reset(self, p_WB, R_WB, theta, nu, stance) -> None:
        k = 1.0 + self.perturb  # a perturbed run: the start moved by that fraction
        self.p_WB, self.R_WB = np.array(p_WB, float) * k, np.array(R_WB, float)
        self.theta, self.nu = np.ravel(theta).astype(float) * k, np.array(nu, float) * k
        self.stance = self._next = tuple(stance)

    def state(self) -> FloatingState:
        R, nu = self.R_WB, self.nu
        return FloatingState(self.p_WB.copy(), R.copy(), R @ nu[:3], R @ nu[3:6],
                             self.theta.copy(), nu[6:].copy())

    def foot_forces_W(self) -> np.ndarray:
        return (self.R_WB @ self.F_B.T).T

    def _jacobians(self, q: np.ndarray) -> np.ndarray:
        """The stance feet's Jacobians, body axes (3 n_c x 18)."""
        R_T = self.R_WB.T
        J = [R_T @ self.pn.frame_jacobian(link_name(leg, 3), q, self.foot)
             for leg in self.stance]
        return np.vstack(J) if J else np.zeros((0, 18))

    def _accelerations(self, q: np.ndarray) -> np.ndarray:
        """The stance feet's accelerations at the velocity nu and no joint acceleration,
        body axes (3 n_c)."""
        R_T = self.R_WB.T
        a = [R_T @ self.pn.frame_bias_acceleration(link_name(leg, 3), q, self.nu, self.foot)
             for leg in self.stance]
        return np.concatenate(a) if a else np.zeros(0)

    def support(self, stance: tuple[str, ...]) -> None:
        """The feet the plan puts on the ground for the next step: pinned (feet that join
        the support stop by a plastic impact)."""
        self._next = tuple(stance)

    def step(self, tau: np.ndarray, F: np.ndarray | None) -> None:
        """One step under the joint torques tau, the supporting feet pinned (no point
        forces: the feet's forces are the constraint's)."""
        if F is not None and np.any(F):
            raise ValueError("the pinned-feet reference takes no point forces")
        q = frames.pinocchio_q(self.p_WB, self.R_WB, self.theta)
        M = self.pn.mass_matrix(q)
        stance = self._next
        new = bool(set(stance) - set(self.stance))
        self.stance = stance
        Jc = self._jacobians(q)
        if new:  # plastic impact: the least change of kinetic energy that stops the feet
            MiJt = np.linalg.solve(M, Jc.T)
            self.nu = self.nu - MiJt @ np.linalg.solve(Jc @ MiJt, Jc @ self.nu)
        a = self._accelerations(q)  # at the velocity after the impact
        h = self.pn.bias(q, self.nu)
        n, nc = 18, Jc.shape[0]
        K = np.zeros((n + nc, n + nc))
        K[:n, :n], K[:n, n:], K[n:, :n] = M, -Jc.T, Jc
        rhs = np.concatenate([np.concatenate([np.zeros(6), np.ravel(tau)]) - h, -a])
        x = np.linalg.solve(K, rhs)
        self.F_B = np.zeros((4, 3))
        for c, leg in enumerate(self.stance):
            self.F_B[LEGS.index(leg)] = x[n + 3 * c:n + 3 * c + 3]
        dt = self.dt
        self.nu = self.nu + dt * x[:n]
        self.theta = self.theta + dt * self.nu[6:]
        self.p_WB = self.p_WB + dt * (self.R_WB @ self.nu[:3])
        self.R_WB = self.R_WB @ Rotation.from_rotvec(dt * self.nu[3:6]).as_matrix()


def build_foot_offset(p: QuadrupedParams) -> float:
    """The foot point's distance along link 3's x axis (Table 1's a_3)."""
    from dynval.handrolled.quadruped.robot import build_model

    return float(build_model(p).a[3])


def run_reference(p: QuadrupedParams, sc: Scenario, desc_dir: Path, until: float | None,
                  perturb: float = 0.0) -> pd.DataFrame:
    """Wide trace of the reference in one scenario (the first ``until`` seconds, or all
    of it), recorded as the scenario runs record."""
    gait = GAITS[sc.gait]
    loop = QuadrupedLoop(PinocchioPinnedFeet(p, desc_dir, perturb), p, gait)
    length = harness.run_length(sc.cycles * gait.period, until)
    return harness.run(loop, length, p.dt, 10, workspace=WORKSPACE)


# --- the judged rows ---------------------------------------------------------------------
REFERENCE = PinocchioPinnedFeet.name
METRIC = "max_abs_pinned"
RUNS = {"reference": 0.0, "perturbed": SPREAD_DELTA}


def task_name(scenario: str, run: str) -> str:
    """The name of a reference run (RUNS) of ``scenario`` in the task graph."""
    return f"pinned {scenario} {run}"


def tasks(params: QuadrupedParams, scenarios: dict, names: tuple[str, ...], desc_dir: Path,
          until: float | None) -> dict:
    """The reference runs of each scenario of the run, on the declared parameters."""
    return {task_name(sc, run): (run_reference, (params, scenarios[sc], desc_dir, until),
                                 {"perturb": perturb})
            for sc in names for run, perturb in RUNS.items()}


JUDGE = ReferenceRun(REFERENCE, METRIC, "round-off of the same pinned-feet model, scheme "
                     "and step grown over the run", SPREAD_FACTOR)


def rows(robot: str, scenario: str, variant: str, hand: pd.DataFrame,
         ref: dict[str, pd.DataFrame]) -> list[MetricRow]:
    """One judged row per signal the reference records and moves: max |hand - reference|
    over the run against SPREAD_FACTOR (10) x the reference's spread when its start (body
    position, joint angles, velocities) moves by SPREAD_DELTA (1e-12) of itself: the
    round-off of the same pinned-feet model, scheme and step grown over this run, as
    ``dynval check`` measures each figure's spread. A wrong gain, step or frame of the
    hand-rolled model moves these signals by 1e-7 and more (the declared mutants), the
    round-off by 1e-9 and less."""
    return reference_rows(robot, scenario, variant, JUDGE, hand, ref["reference"],
                          {f"start moved by {SPREAD_DELTA:g} of itself": ref["perturbed"]})
