"""The hopper's own L3 check beside the free swing of its leg (ladder.swing_rung): the
passive bounce (no control, lossless ground and leg stop), in every implementation at dt
and dt/2, with shared contact. Two questions: does the hand-rolled model conserve energy
to the order of its integrator (semi-implicit Euler: the energy error falls as dt), and
do the three implementations trace the same bounce."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from dynval.comparisons.hopper.scenarios import (
    BOUNCE,
    mechanical_energy,
    run_one,
    scenario_params,
)
from dynval.comparisons.ladder.implementations import IMPLEMENTATIONS
from dynval.comparisons.ladder.rungs import rows_verdict
from dynval.handrolled.hopper.model import PlanarHopper
from dynval.results import MetricRow, Rung, TrajectoryRow
from dynval.robots.hopper.params import HopperParams

# Same chain, same integrator, same contact law evaluated from each engine's state: what is
# left is round-off. A micrometre is a thousandth of the ground's static penetration (2.3
# mm), far below anything the bounce could show, and still orders above round-off.
AGREE_M = 1e-6
AGREE_REASON = ("same chain, integrator and contact law: round-off only; 1 um is 1/1000 of "
                "the static penetration")
# Semi-implicit Euler's energy error is first order: halving dt halves it. 0.2 allows for
# the error's oscillation within a bounce.
ORDER_TOL = 0.2


def energy(p: HopperParams, df: pd.DataFrame) -> np.ndarray:
    """Total mechanical energy of a passive run at each sample [J]
    (:func:`~dynval.comparisons.hopper.scenarios.mechanical_energy`)."""
    p = scenario_params(p, BOUNCE)
    model = PlanarHopper(p)
    return np.array([mechanical_energy(p, model, row) for row in df.to_dict("records")])


def bounce(p: HopperParams, desc_dir: Path, until: float | None = None
           ) -> tuple[list[TrajectoryRow], list[MetricRow], Rung]:
    """The L3 rows, metric rows and rung of the passive bounce."""
    rows: list[dict] = []
    drift = {}
    for dt in (p.dt, p.dt / 2):
        q = p.with_(dt=dt)
        wide = {impl: run_one(q, BOUNCE, impl, "shared", desc_dir, until=until)
                for impl in IMPLEMENTATIONS}
        hand = wide["handrolled"]
        for impl in IMPLEMENTATIONS[1:]:
            rows.append({"step": dt, "comparison": f"handrolled vs {impl}",
                         "max_abs": float(np.max(np.abs(wide[impl]["com.z"] - hand["com.z"]))),
                         "tolerance": AGREE_M, "reason": AGREE_REASON, "unit": "m"})
        E = energy(p, hand)
        drift[dt] = float(np.max(np.abs(E - E[0])) / E[0])
        rows.append({"step": dt, "comparison": "handrolled energy vs its initial value",
                     "max_abs": drift[dt], "tolerance": None, "unit": "relative",
                     "reason": "energy error of semi-implicit Euler on a conservative bounce"})
    order = math.log2(drift[p.dt] / drift[p.dt / 2])
    rows.append({"step": p.dt, "comparison": "energy error order (dt vs dt/2) vs 1",
                 "max_abs": abs(order - 1.0), "tolerance": ORDER_TOL, "unit": "order",
                 "reason": f"measured order {order:.2f}: semi-implicit Euler is first order"})
    typed = [TrajectoryRow(**r) for r in rows]
    metrics = [MetricRow(
        "hopper", "L3 passive bounce", "L3", f"dt={r.step:g}",
        "com.z" if r.unit == "m" else "energy", r.comparison.split(" vs ")[1], "handrolled",
        f"max_abs_{r.unit}", r.max_abs, r.tolerance,
        None if r.tolerance is None else bool(r.max_abs <= r.tolerance), r.reason,
        "agreement") for r in typed]
    worst = max(r.max_abs for r in typed if r.unit == "m")
    return typed, metrics, Rung(rows_verdict(metrics), (
        f"passive bounce {until or BOUNCE.duration:g} s at dt and dt/2, shared contact: hand "
        f"vs engines worst {worst:.1e} m; energy error {drift[p.dt]:.1e} -> {drift[p.dt / 2]:.1e} "
        f"(order {order:.2f})"))
