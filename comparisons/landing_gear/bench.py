"""The landing gear's benchmark: seconds per step on the 20 deg slope, as ratios against
MuJoCo (``python -m dynval.comparisons.bench landing_gear``)."""

from __future__ import annotations

import math
from functools import partial

import numpy as np

from dynval.comparisons import bench
from dynval.comparisons.landing_gear.loop import (
    LandingGearLoop,
    forces_W,
    initial_state,
    make_plant,
)
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

    def setup(impl: str) -> bench.Setup:
        plant = make_plant(impl, p, "as_derived", "shared", aSL, aAZ, Forms(),
                           ROOT / "landing_gear")
        plant.reset(initial_state(p, aSL, aAZ))
        loop = LandingGearLoop(plant, p, aSL, aAZ, True, "shared", Forms())
        return bench.Setup(plant, loop, lambda: partial(plant.step, np.zeros(8),
                                                        forces_W(loop.F_PF, 0.0)),
                           loop.engine_points())

    return bench.fastest_rows(setup, steps // chunk * chunk, chunk)
