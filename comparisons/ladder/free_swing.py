"""L3 shared by the robots: a fixed-base mechanism swinging freely under gravity,
integrated by the hand model's semi-implicit Euler, by MuJoCo's and PyBullet's own, and
with MuJoCo's accelerations through the hand integrator (dynamics and integration errors
separate); the rows, their metric table and the rung."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from dynval.comparisons.ladder.integrate import integrate_euler, integrate_rk4
from dynval.comparisons.ladder.rungs import rows_verdict
from dynval.results import MetricRow, Rung, TrajectoryRow


def compare_swings(hand_qdd: Callable, mj, pb, q0: np.ndarray, dt: float, n: int,
                   tolerance: float, reason: str) -> tuple[np.ndarray, list[dict]]:
    """The hand model's trajectory and one row per engine pairing (max |diff| [rad]);
    ``mj`` None where MuJoCo cannot load the description."""
    hand = integrate_euler(hand_qdd, q0, dt, n)
    zero = np.zeros_like(q0)
    pairs = {"pybullet (own integrator)": pb.simulate(q0, zero, dt, n)}
    if mj is not None:
        pairs = {
            "mujoco (own integrator)": mj.simulate(q0, zero, dt, n), **pairs,
            "mujoco accelerations, hand integrator": integrate_euler(mj.acceleration, q0,
                                                                     dt, n),
        }
    rows = [{"step": dt, "comparison": f"handrolled vs {name}",
             "max_abs": float(np.max(np.abs(traj - hand))), "tolerance": tolerance,
             "reason": reason} for name, traj in pairs.items()]
    return hand, rows


def integration_error_row(hand_qdd: Callable, hand: np.ndarray, q0: np.ndarray, dt: float,
                          n: int, refine: int) -> dict:
    """The hand trajectory against RK4 at dt/refine: the shared scheme's own error."""
    exact = integrate_rk4(hand_qdd, q0, dt / refine, n * refine)[::refine]
    return {"step": dt, "comparison": f"semi-implicit Euler vs RK4 at dt/{refine}",
            "max_abs": float(np.max(np.abs(hand - exact))), "tolerance": None,
            "reason": "integration error of the shared scheme, first order in dt"}


def l3_result(robot: str, rows: list[dict], what: str, scenario: str = "L3 free swing",
              signal: str = "joint angles"
              ) -> tuple[list[TrajectoryRow], list[MetricRow], Rung]:
    """The L3 rung of free-swing rows: the chapter's rows, their metric rows (reported
    where a row has no tolerance) and the verdict (every toleranced row within it)."""
    typed = [TrajectoryRow(**r) for r in rows]
    metrics = [MetricRow(
        robot, scenario, "L3", f"dt={r.step:g}", signal,
        r.comparison.split(" vs ")[1], "handrolled", f"max_abs_{r.unit}", r.max_abs,
        r.tolerance, None if r.tolerance is None else bool(r.max_abs <= r.tolerance),
        r.reason, "agreement") for r in typed]
    checked = [r for r in typed if r.tolerance is not None]
    return typed, metrics, Rung(rows_verdict(metrics), f"{what}: hand vs engines worst "
                                f"{max(r.max_abs for r in checked):.1e} {typed[0].unit}")
