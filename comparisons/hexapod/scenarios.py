"""The hexapod's scenarios (the paper's Sec. V.2: Figs. 4-8 for WG beta = 50 % and EPFC
beta = 35 %; Figs. 9-17, the wave gait again with one model changed at a time: the sine
profile (1b), the linear ground (11), the flexible transmission with friction (8) and the
backlash with impacts (9)) and how one is run for each implementation.

Length: one cycle T = L_S / V_F = 1 s, the span of the paper's time plots (the impact
spikes it points out near t = 0.9 s and the rebound at about 0.95 s are within it). The
robot starts on its plan at t = 0; the simulation steps at f_sr = 20 kHz, the controller
samples at f_sc = 2 kHz; traces are recorded at 1 kHz."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from dynval.comparisons.hexapod.loop import HexapodLoop, make_plant, planned_start
from dynval.comparisons.ladder import harness
from dynval.robots.hexapod.params import HexapodParams

IMPLEMENTATIONS = ("handrolled", "mujoco", "pybullet")
CONTACT_MODES = ("shared", "native")  # native: the engines only (loop.native_ground)

# How far the body may move from its start before a run is called diverged: it walks V_F T
# = 1 m in a cycle and its hips stay within centimetres of H_B [m].
WORKSPACE = {"com.x": 3.0, "com.y": 0.3}


@dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    gait: str
    beta: float
    profile: str  # eq. (1a) "cycloid" or (1b) "sine"
    ground: str  # eq. (11) "linear" or (12) "nonlinear"
    duration: float  # [s]
    description: str
    transmission: str = "ideal"  # eq. (7) "ideal", (8) "flexible" or (9) "backlash"


SCENARIOS: dict[str, Scenario] = {
    "WG_50": Scenario(
        "WG_50", "Wave gait, beta = 50 % (Figs. 4, 6, 7, 9-11)", "WG", 0.5, "cycloid",
        "nonlinear", 1.0,
        "One cycle (T = 1 s) of the wave gait at duty factor 0.5 (the tripod gait), V_F = 1 "
        "m/s, cycloidal foot transfers (1a), ideal drives saturating at 400 N m (7), the "
        "non-linear ground of eq. (12) on compact clay, the FO PD^0.5 of Table IV at 2 kHz."),
    "EPFC_35": Scenario(
        "EPFC_35", "Equal phase full cycle gait, beta = 35 % (Figs. 5, 8)", "EPFC", 0.35,
        "cycloid", "nonlinear", 1.0,
        "One cycle of the equal phase full cycle gait at duty factor 0.35: longer transfers "
        "(t_T = 0.65 s) than the wave gait's; otherwise as WG_50."),
    "WG_50_sine": Scenario(
        "WG_50_sine", "Wave gait, beta = 50 %, sinusoidal foot transfers (Fig. 9)", "WG", 0.5,
        "sine", "nonlinear", 1.0,
        "WG_50 with the sinusoidal foot transfer profile of eq. (1b) instead of the cycloid "
        "(1a): the right-hand chart of Fig. 9."),
    "WG_50_linear": Scenario(
        "WG_50_linear", "Wave gait, beta = 50 %, linear ground (Fig. 10)", "WG", 0.5,
        "cycloid", "linear", 1.0,
        "WG_50 on the linear spring-dashpot ground of eq. (11) (Table I's K and B of compact "
        "clay) instead of the non-linear one of eq. (12): Fig. 10 against Fig. 11."),
    "WG_50_flexible": Scenario(
        "WG_50_flexible", "Wave gait, beta = 50 %, flexible drives with friction "
        "(Figs. 12-14)", "WG", 0.5, "cycloid", "nonlinear", 1.0,
        "WG_50 with every joint driven through the flexible transmission of eq. (8): motor "
        "inertia J_ijm, viscous friction B_ijm and stiffness K_ijT of Table I, the motor "
        "torque still saturating at 400 N m (7).", "flexible"),
    "WG_50_backlash": Scenario(
        "WG_50_backlash", "Wave gait, beta = 50 %, drives with backlash (Figs. 15-17)", "WG",
        0.5, "cycloid", "nonlinear", 1.0,
        "WG_50 with the drives of eq. (9): motor (9a) and gear output side (inertia J_ijT, "
        "friction B_ijT) within the play h_ij = 1 mrad, colliding with restitution eps_ij = "
        "0.8 by (9b)-(9c), the output driving the link through K_ijT (9d).", "backlash"),
}


def scenario_params(p: HexapodParams, sc: Scenario) -> HexapodParams:
    """The parameters a scenario runs with: its gait, duty factor, profile, ground and
    transmission."""
    return p.with_(gait=sc.gait, beta=sc.beta, profile=sc.profile, ground=sc.ground,
                   transmission=sc.transmission)


def run_one(p: HexapodParams, sc: Scenario, implementation: str, contact: str,
            desc_dir: Path, body_form: str = "corrected",
            progress: Callable[[float], None] | None = None, duration: float | None = None,
            until: float | None = None, **changes) -> pd.DataFrame:
    """Wide trace (time x signal) of one implementation in one scenario (``duration``
    replaces its length, ``until`` stops it early; ``changes`` replace parameters after the
    scenario's own, e.g. profile="sine"; ``body_form`` "printed" runs eq. (10) as printed)."""
    p = scenario_params(p, sc).with_(**changes) if changes else scenario_params(p, sc)
    plant = make_plant(implementation, p, contact, desc_dir)
    plant.reset(*planned_start(p))
    loop = HexapodLoop(plant, p, body_form)
    record_every = max(1, int(round(p.f_sr / 1000.0)))  # 1 kHz traces
    length = harness.run_length(duration or sc.duration, until)
    return harness.run(loop, length, 1.0 / p.f_sr, record_every, progress=progress,
                       workspace=WORKSPACE)
