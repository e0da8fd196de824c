"""The rover's L3 check (its chain floats, so it has no free swing: validate.py): the
step convergence of the differences between implementations on a moving scenario (the
disturbed drive of section 5.1.2).

The hand-rolled model integrates eqs. (4.1)-(4.2), MuJoCo and PyBullet their own
semi-implicit Euler, all first order. If the three share the same dynamics and the same
wheel-soil law, their differences are integration errors and halve with the step; a
modelling difference would not shrink. The halving ratio is the check."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np

from dynval.comparisons.rover.scenarios import SCENARIOS, run_one
from dynval.robots.rover.params import RoverParams

SCENARIO = "disturbed_3_50"
DURATION = 5.0  # [s]
STEPS = (1e-3, 5e-4, 2.5e-4)  # [s]
SIGNALS = ("joint.q7.angle", "rover.heading")
MIN_RATIO = 1.5
REASON = ("first-order integrators on the same dynamics: the difference must fall as dt "
          "(ratio 2 per halving; 1.5 allows for the O(dt^2) terms); a modelling difference "
          "would not fall")


def convergence(p: RoverParams, desc_dir: Path,
                progress: Callable[[str, float], None] | None = None) -> list[dict]:
    """Max |difference| from MuJoCo of each implementation at each step, and its ratio
    to the difference at half the step."""
    sc = SCENARIOS[SCENARIO]
    diffs: dict[tuple[str, str], list[float]] = {}
    for dt in STEPS:
        pd_ = replace(p, dt=dt)
        runs = {}
        for impl in ("handrolled", "mujoco", "pybullet"):
            label = f"rover L3 {impl} dt={dt:g}"
            runs[impl] = run_one(pd_, sc, impl, "shared", desc_dir, duration=DURATION,
                                 progress=None if progress is None else
                                 (lambda f, lb=label: progress(lb, f)))
        for impl in ("handrolled", "pybullet"):
            for sig in SIGNALS:
                d = np.max(np.abs(runs[impl][sig].to_numpy() - runs["mujoco"][sig].to_numpy()))
                diffs.setdefault((impl, sig), []).append(float(d))
    rows = []
    for (impl, sig), ds in diffs.items():
        for k, dt in enumerate(STEPS):
            ratio = ds[k] / ds[k + 1] if k + 1 < len(ds) and ds[k + 1] > 0 else None
            rows.append({"step": dt, "comparison": f"{impl} vs mujoco", "signal": sig,
                         "max_abs": ds[k], "ratio_to_half_step": ratio,
                         "tolerance": MIN_RATIO if ratio is not None else None,
                         "reason": REASON})
    return rows
