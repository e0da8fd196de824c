"""The hopper's scenarios (the paper's Figs. 6 and 7, and a passive bounce) and how one is
run for each implementation."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from dynval.comparisons import harness
from dynval.comparisons.hopper.loop import HopperLoop, make_plant
from dynval.robots.hopper.params import HopperParams

IMPLEMENTATIONS = ("handrolled", "mujoco", "pybullet")
CONTACT_MODES = ("shared", "native")
ENGINE_IMPLEMENTATIONS = ("mujoco", "pybullet")

# How far the body may move from its start before a run is called diverged: the speed
# run covers about 8 m, and the body never rises a metre above its start [m].
WORKSPACE = {"com.x": 15.0, "com.z": 1.0, "body.pitch": 1.0}

Steps = tuple[tuple[float, float], ...]  # (from time [s], value) pairs, times ascending


def piecewise(steps: Steps) -> Callable[[float], float]:
    """The step reference that holds each value from its time on."""
    times = np.array([t for t, _ in steps])
    values = [v for _, v in steps]

    def ref(t: float) -> float:
        return values[max(0, int(np.searchsorted(times, t, side="right")) - 1)]

    return ref


@dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    h_d: Steps  # hopping-height reference (body centre apex) [m]
    x_dot_d: Steps  # forward-speed reference [m/s]
    duration: float  # [s]
    controlled: bool
    description: str


SCENARIOS: dict[str, Scenario] = {
    "height": Scenario(
        "height", "Hopping height tracking (Fig. 6)",
        ((0.0, 1.55), (4.0, 1.70), (8.0, 1.60)), ((0.0, 0.0),), 12.0, True,
        "Hopping in place from a 1.6 m drop; the apex reference steps 1.55 -> 1.70 -> 1.60 m "
        "at 4 s and 8 s; eq. (20) adjusts the thrust once per hop."),
    "speed": Scenario(
        "speed", "Forward speed tracking (Fig. 7)",
        ((0.0, 1.60),), ((0.0, 0.0), (2.0, 0.4), (6.0, 0.8), (9.0, 0.2)), 12.0, True,
        "Speed reference steps 0 -> 0.4 -> 0.8 -> 0.2 m/s at 2, 6 and 9 s at a constant "
        "apex reference of 1.6 m; foot placement (21)-(22) in flight, attitude (23) in "
        "stance."),
}

BOUNCE = Scenario(
    "bounce", "Passive bounce, lossless ground",
    ((0.0, 0.0),), ((0.0, 0.0),), 3.0, False,
    "No control, c_max = 0 and b_stop = 0: a drop from 1.6 m on the springs alone (L3).")


def scenario_params(p: HopperParams, sc: Scenario) -> HopperParams:
    """The parameters a scenario runs with: the passive bounce is lossless."""
    return p.with_(c_max=0.0, b_stop=0.0) if not sc.controlled else p


def initial_state(p: HopperParams) -> tuple[np.ndarray, np.ndarray]:
    """Level body at z_0, relaxed leg hanging straight down, at rest."""
    return np.array([0.0, p.z_0, 0.0, 0.0, p.r_0]), np.zeros(5)


def run_one(p: HopperParams, sc: Scenario, implementation: str, contact: str,
            desc_dir: Path, attitude_sign: float = 1.0, form: str = "corrected",
            progress: Callable[[float], None] | None = None,
            duration: float | None = None, until: float | None = None) -> pd.DataFrame:
    """Wide trace (time x signal) of one implementation in one scenario (``duration``
    replaces the scenario's length, ``until`` stops it early; ``attitude_sign`` -1 flips
    eq. (23); ``form`` "printed" runs the hand-rolled model with eq. (12)'s printed bias)."""
    p = scenario_params(p, sc)
    plant = make_plant(implementation, p, contact, desc_dir, form)
    plant.reset(*initial_state(p))
    loop = HopperLoop(plant, p, contact, piecewise(sc.h_d), piecewise(sc.x_dot_d),
                      sc.controlled, attitude_sign)
    record_every = max(1, int(round(1e-3 / p.dt)))  # 1 kHz traces
    length = harness.run_length(duration or sc.duration, until)
    return harness.run(loop, length, p.dt, record_every, progress=progress,
                       workspace=WORKSPACE)
