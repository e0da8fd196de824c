"""The rover's scenarios (thesis sections 4.2.3 and 5.1) and how one is run for each
implementation. Every run starts from the thesis' steady state (constvel.m): the sinkage,
slip and torque at which each wheel carries its share of the weight at zero drawbar pull.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

from comparisons import harness
from comparisons.rover.loop import RoverLoop, make_plant
from handrolled.rover.control import PowerSteering
from handrolled.rover.steady_state import constvel
from robots.rover.params import GAIN_SETS, RoverParams
from robots.rover.soil import load_soil

IMPLEMENTATIONS = ("handrolled", "mujoco", "pybullet")
CONTACT_MODES = ("shared",)  # wheel-soil forces exist only as the thesis' law


@dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    section: str
    rover: str  # Table 4.5 rover whose segment and wheel are used
    speed: float  # initial forward speed [m/s]
    duration: float  # [s]
    rigid: bool  # turning joint held fixed (section 4.2 validation runs)
    q7_rate0: float = 0.0  # initial turning joint rate, the disturbance of 5.1.2 [rad/s]
    gains: str | None = None  # PD gain set of section 5.3, None: no steering
    description: str = ""


SCENARIOS: dict[str, Scenario] = {
    **{f"steady_{r}": Scenario(
        f"steady_{r}", f"Rover {r}: constant velocity {v:g} m/s, 5 s", "4.2.3", r, v, 5.0, True,
        description=f"Rover {r} of Table 4.5 starts from its steady state at {v:g} m/s with "
                    "the turning joint fixed; its state should not drift (Table 4.6).")
       for r, v in (("A", 3.0), ("B", 1.0), ("C", 0.5))},
    **{f"straight_{v:g}": Scenario(
        f"straight_{v:g}", f"Straight driving at {v:g} m/s, 60 s", "5.1.1", "A", v, 60.0, False,
        description=f"The articulated rover drives straight at {v:g} m/s with equal wheel "
                    "powers and a free turning joint; the thesis reports turning joint "
                    "angles of order 1e-9 deg and heading changes of 1e-8 deg after 60 s.")
       for v in (0.5, 3.0, 6.0)},
}


def scenario_params(p: RoverParams, sc: Scenario) -> RoverParams:
    """The parameters of the scenario's rover (Table 4.5) and gain set (section 5.3)."""
    p = p.with_rover(sc.rover)
    if sc.gains is not None:
        K_p, K_d = GAIN_SETS[sc.gains]
        p = replace(p, K_p=K_p, K_d=K_d)
    return p


def initial_state(p: RoverParams, sc: Scenario, soil) -> tuple[np.ndarray, np.ndarray, float,
                                                               float, object]:
    """(q, qd, T0, P0, steady state): upright rover at the steady-state sinkage moving
    forward (simcore.m: dx = r - sinkage - h_w, qdot(1) = -v)."""
    ss = constvel(p.m_seg, p.g, p.r, p.b, soil, 0.0)
    q = np.zeros(p.n_joints)
    q[1] = p.r - ss.z - p.h_w
    qd = np.zeros(p.n_joints)
    qd[0] = -sc.speed
    if not sc.rigid:
        qd[6] = sc.q7_rate0
    P0 = ss.T * sc.speed / ((1.0 - ss.s) * p.r)  # simcore.m: Pmax0 = T v / ((1 - s) r)
    return q, qd, ss.T, P0, ss


def run_one(p: RoverParams, sc: Scenario, implementation: str, contact: str, desc_dir: Path,
            progress: Callable[[float], None] | None = None, duration: float | None = None,
            wheel_form: str = "corrected", integrator: str = "euler") -> pd.DataFrame:
    """Wide trace (time x signal) of one implementation in one scenario."""
    if contact != "shared":
        raise ValueError("the rover's wheel-soil law exists in no engine; use contact 'shared'")
    p = scenario_params(p, sc)
    soil = load_soil(p.soil)
    q, qd, T0, P0, _ = initial_state(p, sc, soil)
    plant = make_plant(implementation, p, soil.as_tuple(), sc.rigid, desc_dir, wheel_form,
                       integrator)
    plant.reset(q, qd)
    n = p.n_segments
    steering = None
    if sc.gains is not None:
        steering = PowerSteering(np.full((n, 2), P0), p.K_p, p.K_d, lambda t: 0.0,
                                 int(round(p.control_period / p.dt)))
    loop = RoverLoop(plant, p, np.full((n, 2), T0), np.full((n, 2), P0), steering)
    record_every = max(1, int(round(0.01 / p.dt)))  # 100 Hz traces
    return harness.run(loop, duration or sc.duration, p.dt, record_every, progress=progress)
