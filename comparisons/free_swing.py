"""L3 shared by the robots: a fixed-base mechanism swinging freely under gravity,
integrated by the hand model's semi-implicit Euler, by MuJoCo's and PyBullet's own, and
with MuJoCo's accelerations through the hand integrator (dynamics and integration errors
separate); the rows, their metric table and the rung."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from comparisons.integrate import integrate_euler, integrate_rk4
from comparisons.metrics import METRIC_COLUMNS


def compare_swings(hand_qdd: Callable, mj, pb, q0: np.ndarray, dt: float, n: int,
                   tolerance: float, reason: str) -> tuple[np.ndarray, list[dict]]:
    """The hand model's trajectory and one row per engine pairing (max |diff| [rad])."""
    hand = integrate_euler(hand_qdd, q0, dt, n)
    zero = np.zeros_like(q0)
    pairs = {
        "mujoco (own integrator)": mj.simulate(q0, zero, dt, n),
        "pybullet (own integrator)": pb.simulate(q0, zero, dt, n),
        "mujoco accelerations, hand integrator": integrate_euler(mj.acceleration, q0, dt, n),
    }
    rows = [{"step": dt, "comparison": f"handrolled vs {name}",
             "max_abs_rad": float(np.max(np.abs(traj - hand))), "tolerance": tolerance,
             "reason": reason} for name, traj in pairs.items()]
    return hand, rows


def integration_error_row(hand_qdd: Callable, hand: np.ndarray, q0: np.ndarray, dt: float,
                          n: int, refine: int) -> dict:
    """The hand trajectory against RK4 at dt/refine: the shared scheme's own error."""
    exact = integrate_rk4(hand_qdd, q0, dt / refine, n * refine)[::refine]
    return {"step": dt, "comparison": f"semi-implicit Euler vs RK4 at dt/{refine}",
            "max_abs_rad": float(np.max(np.abs(hand - exact))), "tolerance": None,
            "reason": "integration error of the shared scheme, first order in dt"}


def metric_rows(robot: str, rows: list[dict]) -> pd.DataFrame:
    """The L3 rows as metric-table rows (informational where the row has no tolerance)."""
    return pd.DataFrame([[
        robot, "L3 free swing", f"dt={r['step']:g}", "joint angles",
        r["comparison"].split(" vs ")[1], "handrolled", "max_abs_rad", r["max_abs_rad"],
        np.nan if r["tolerance"] is None else r["tolerance"],
        True if r["tolerance"] is None else r["max_abs_rad"] <= r["tolerance"], r["reason"]]
        for r in rows], columns=METRIC_COLUMNS)


def rung(rows: list[dict], what: str) -> dict:
    """The L3 verdict: every toleranced row within its tolerance."""
    checked = [r for r in rows if r["tolerance"] is not None]
    return {"verdict": "pass" if all(r["max_abs_rad"] <= r["tolerance"] for r in checked)
            else "fail",
            "note": f"{what}: hand vs engines worst "
                    f"{max(r['max_abs_rad'] for r in checked):.1e} rad"}
