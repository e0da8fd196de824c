"""The landing gear's scenarios (Sec. VII) and how one is run for each implementation."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from dynval.comparisons.ladder.scenario_run import Runner, ScenarioRun
from dynval.comparisons.landing_gear.loop import LandingGearLoop, initial_state, make_plant
from dynval.handrolled.landing_gear.model import Forms
from dynval.robots.landing_gear.params import LandingGearParams

# How far the body centre may move from where a landing starts before the run is called
# diverged: the gear lands from under a metre and settles on its feet [m].
WORKSPACE = {"com.x": 2.0, "com.y": 2.0, "com.z": 2.0}


@dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    alpha_SL_deg: float  # slope of the ground, Table 1's alpha_SL [deg]
    alpha_AZ_deg: float  # azimuth of the slope, Table 1's alpha_AZ [deg]
    level_controller: bool  # the PI level controller (20)-(24) on
    description: str


SCENARIOS: dict[str, Scenario] = {
    "slope_lc": Scenario(
        "slope_lc", "Slope 20 deg / azimuth 30 deg, level controller on", 20.0, 30.0, True,
        "Descent at 0.25 m/s onto the Table 1 slope; the PI level controller (20)-(24) "
        "adjusts the leg heights (Figs. 5-9, solid lines)."),
    "slope_nolc": Scenario(
        "slope_nolc", "Slope 20 deg / azimuth 30 deg, level controller off", 20.0, 30.0, False,
        "The same landing with the leg heights held at y_0 (Figs. 5-6, dotted lines)."),
    "flat": Scenario(
        "flat", "Flat ground, level controller on", 0.0, 0.0, True,
        "Descent at 0.25 m/s onto level ground: the symmetric reference case."),
}


def make_loop(implementation: str, contact: str, sc: Scenario, p: LandingGearParams,
              desc_dir: Path, mass_model: str = "as_derived", forms: Forms = Forms(),
              fast: bool = True) -> ScenarioRun:
    """One implementation's closed loop in one scenario, from the descent to the landing,
    for the parameters' duration, sampled at 1 kHz (``fast`` False steps the loop's
    readable laws in Python instead of their compiled copy)."""
    aSL, aAZ = math.radians(sc.alpha_SL_deg), math.radians(sc.alpha_AZ_deg)
    if implementation == "handrolled" and contact == "native":
        raise ValueError("the hand-rolled model has no native contact; use contact 'shared'")
    plant = make_plant(implementation, p, mass_model, contact, aSL, aAZ, forms, desc_dir)
    plant.reset(initial_state(p, aSL, aAZ))
    loop = LandingGearLoop(plant, p, aSL, aAZ, sc.level_controller, contact, forms, fast)
    return ScenarioRun(loop, p.dt, p.duration, record_every=max(1, int(round(1e-3 / p.dt))),
                       workspace=WORKSPACE)


# one implementation's wide trace of one scenario (make_loop, run by the framework)
run_one = Runner(make_loop)
