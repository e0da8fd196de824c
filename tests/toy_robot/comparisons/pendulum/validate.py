"""The pendulum's declaration for the validation ladder: the audit of eq. (1), the
undamped free swing (L3) and the damped release (L4) in every implementation; no paper,
so no published numbers (L5), errata or budget."""

from __future__ import annotations

import math

import numpy as np

from dynval.comparisons import ladder
from dynval.comparisons.ladder import free_swing
from dynval.comparisons.pendulum import audit
from dynval.comparisons.pendulum.scenarios import Scenario
from dynval.handrolled.pendulum import model
from dynval.results import Rung

ROBOT = "pendulum"

# Every implementation steps semi-implicit Euler on the same eq. (1) (the engines with
# the damping torque of the same state), and a damped pendulum is not chaotic: what is
# left is round-off, a few 1e-15 rad per step, grown at most linearly over the 3000 steps.
ROUND_OFF_RAD = 1e-9
TOLERANCES = {
    ("joint.pivot.angle", "max_abs"): ladder.Tolerance(
        "max_abs", ROUND_OFF_RAD, "round-off: the same eq. (1) and the same semi-implicit "
        "Euler step"),
    ("joint.pivot.rate", "max_abs"): ladder.Tolerance(
        "max_abs", 10 * ROUND_OFF_RAD, "round-off: the same eq. (1) and the same "
        "semi-implicit Euler step (rates divided by dt)"),
}

L3_THETA_0 = np.array([1.0])  # released 57 deg from hanging [rad]
L3_DURATION = 2.0  # [s]


class PendulumLadder(ladder.RobotLadder):
    robot = ROBOT
    title = "Damped planar pendulum (toy robot)"
    paper = "none: the framework's test robot"
    l1_what = "bob position vs engines"
    l2_what = "inertia, gravity and inverse dynamics of eq. (1) vs engines"
    audit_reason = "round-off: eq. (1) and the engines describe the same hinged body"

    def audit_terms(self, inp: ladder.Inputs) -> ladder.AuditResults:
        p, d, n, seed = inp.params, inp.desc_dir, inp.samples, inp.seed
        return ladder.AuditResults(audit.kinematics_audit(p, d, n, seed),
                                   audit.dynamics_audit(p, d, n, seed))

    def l3(self, inp: ladder.Inputs):
        p = inp.params

        def hand_qdd(q: np.ndarray, qd: np.ndarray) -> np.ndarray:
            # undamped: the engines' term models switch joint damping off
            return np.array([model.forward_dynamics(q[0], qd[0], 0.0, p.m, p.l, p.I, 0.0,
                                                    p.g)])  # eq. (1), b = 0

        mj, pb, _ = audit.engines(p, inp.desc_dir)
        n = int(round(L3_DURATION / p.dt))
        hand, rows = free_swing.compare_swings(
            hand_qdd, mj, pb, L3_THETA_0, p.dt, n, ROUND_OFF_RAD,
            "same semi-implicit Euler scheme and the same dynamics: only round-off remains")
        rows.append(free_swing.integration_error_row(hand_qdd, hand, L3_THETA_0, p.dt, n, 10))
        return free_swing.l3_result(
            ROBOT, rows, f"undamped free swing from {math.degrees(L3_THETA_0[0]):.0f} deg, "
            f"{L3_DURATION:g} s")

    def variants(self, sc: Scenario) -> list[ladder.Variant]:
        return [ladder.Variant.shared(TOLERANCES)]

    def figures(self, ctx: ladder.Context, sc: Scenario, variant: ladder.Variant) -> list:
        return [ladder.TimePlot("Swing", ["joint.pivot.angle"], "Pivot angle theta of eq. (1)."),
                ladder.TimePlot("Energy", ["pendulum.energy"],
                                "Kinetic plus potential energy, lost to the damping b.")]

    def l5(self, ctx: ladder.Context) -> Rung:
        return Rung("not applicable", "a toy robot: no paper, no published numbers")


LADDER = PendulumLadder()
