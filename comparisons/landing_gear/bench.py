"""The landing gear's benchmark: seconds per step on the 20 deg slope, as ratios against
MuJoCo (``python -m dynval.comparisons.bench landing_gear``)."""

from __future__ import annotations

import math
import time
from functools import partial

import numpy as np

from dynval.comparisons import bench
from dynval.comparisons.landing_gear.loop import LandingGearLoop, initial_state, make_plant
from dynval.comparisons.landing_gear.scenarios import SCENARIOS
from dynval.handrolled.landing_gear.model import Forms
from dynval.robots import ROOT
from dynval.robots.landing_gear.params import PARAMS


def run(steps: int) -> dict[str, dict[str, float]]:
    """Seconds per step: the plant step alone ("model") and the whole closed loop
    (observation, controller, contact law, step) as the harness runs it: ten steps at a
    time (``advance_many``, compiled chunks for every plant with the shared contact law),
    then the signals recorded; the fastest of three runs of each."""
    p, sc = PARAMS, SCENARIOS["slope_lc"]
    aSL, aAZ = math.radians(sc.alpha_SL_deg), math.radians(sc.alpha_AZ_deg)
    chunk = 10  # the harness records every tenth step (1 kHz at dt = 0.1 ms)
    out = {}
    for impl in ("handrolled", "mujoco", "pybullet"):
        closed = model = math.inf
        for _ in range(3):
            plant = make_plant(
                impl, p, "as_derived", "shared", aSL, aAZ, Forms(), ROOT / "landing_gear"
            )
            plant.reset(initial_state(p, aSL, aAZ))
            loop = LandingGearLoop(plant, p, aSL, aAZ, True, "shared", Forms())
            loop.advance_many(200)  # warm-up (numba compilation, caches)
            t0 = time.perf_counter()
            for _ in range(steps // chunk):
                loop.advance_many(chunk)
                loop.signals()
            closed = min(closed, (time.perf_counter() - t0) / (steps // chunk * chunk))
            points = loop.engine_points()
            tau, F = np.zeros((4, 2)), loop.F_PF.copy()
            model = min(model, bench.per_call(partial(plant.step, tau, F, 0.0), steps))
        out[impl] = bench.row(impl, model, closed, plant, steps, points)
    return out
