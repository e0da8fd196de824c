"""The rover's scenarios (thesis sections 4.2.3 and 5.1) and how one is run for each
implementation. Every run starts from the thesis' steady state (constvel.m): the sinkage,
slip and torque at which each wheel carries its share of the weight at zero drawbar pull.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from dynval.comparisons.ladder.scenario_run import Runner, ScenarioRun
from dynval.comparisons.rover.loop import RoverLoop, make_plant
from dynval.handrolled.rover.control import PowerSteering
from dynval.handrolled.rover.steady_state import constvel
from dynval.robots.rover.params import GAIN_SETS, PARAMS, RoverParams
from dynval.robots.rover.soil import load_soil

CONTACT_MODES = ("shared",)  # wheel-soil forces exist only as the thesis' law

# How far the rear axle's height may move from where a run starts before the run is called
# diverged: the rover drives on level soil, sinking centimetres [m].
WORKSPACE = {"rover.height": 1.0}


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
    DP: float = 0.0  # drawbar pull per wheel the initial torques are solved for (4.2.4) [N]
    drive: str = "power"  # "power": simcore.m's torque from power; "torque": held constant
    q7_command: tuple[tuple[float, float, float], ...] = ()  # (t_on, t_off, q7_des [rad])

    def __post_init__(self) -> None:
        if self.drive not in ("power", "torque"):  # a typo must not become a torque drive
            raise ValueError(f"scenario {self.name}: drive must be 'power' or 'torque', "
                             f"not {self.drive!r}")


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
    # Section 5.1.2: a rock's knock as an initial turning joint rate, from a quarter of to
    # the full rate v / l at which the front axle's lateral speed matches the forward speed.
    **{f"disturbed_{v:g}_{pct}": Scenario(
        f"disturbed_{v:g}_{pct}", f"Disturbed straight driving at {v:g} m/s, {pct} % of the "
        "largest knock, 20 s", "5.1.2", "A", v, 20.0, False, q7_rate0=pct / 100 * v / PARAMS.l,
        description=f"An initial turning joint rate of {pct} % of v / l = {v / PARAMS.l:.3g} rad/s "
                    "(the rate at which the front axle's lateral speed equals the forward "
                    "speed); the rover settles into a turn whose radius the thesis compares "
                    "with l / tan(q7/2), eq. (5.1).")
       for v in (0.5, 3.0, 6.0) for pct in (25, 50, 100)},
    # Section 4.2.4: torques solved for a drawbar pull per wheel, then held constant.
    "drawbar_10": Scenario(
        "drawbar_10", "Rover A at 10 N drawbar pull per wheel from rest, 10 s", "4.2.4", "A",
        0.0, 10.0, True, DP=10.0, drive="torque",
        description="Table 4.7 test 1: the torque that gives 10 N of drawbar pull per wheel "
                    "(0.1 m/s^2 for 100 kg per wheel), held for 10 s from rest; expected "
                    "final speed 1.0 m/s."),
    "drawbar_175": Scenario(
        "drawbar_175", "Rover A at 175 N drawbar pull per wheel from 1 m/s, 5 s", "4.2.4", "A",
        1.0, 5.0, True, DP=175.0, drive="torque",
        description="Table 4.7 test 2: the torque that would also pull an unpowered third "
                    "segment (175 N per wheel), on the two-segment rover, held for 5 s from "
                    "1 m/s; 1.75 m/s^2 for 5 s from 1 m/s ends at 9.75 m/s (the table "
                    "prints 8.75 m/s, see errata)."),
    # Section 5.3.2: PD steering against the 5.1.2 knock (half the largest), both gain sets.
    **{f"pd_disturbed_{v:g}{'' if g == 'initial' else '_alt'}": Scenario(
        f"pd_disturbed_{v:g}{'' if g == 'initial' else '_alt'}",
        f"PD steering ({g} gains) against a knock at {v:g} m/s, 15 s", "5.3.2", "A", v, 15.0,
        False, q7_rate0=0.5 * v / PARAMS.l, gains=g,
        description=f"The knock of section 5.1.2 at half the largest rate, with the PD power "
                    f"steering of eqs. (5.2)-(5.3), gains K_p = K_d = "
                    f"{GAIN_SETS[g][0]:g} ({g} set), updated at 10 Hz.")
       for v, g in ((0.5, "initial"), (3.0, "initial"), (6.0, "initial"),
                    (6.0, "alternate"))},
    # Section 5.3.3: turning commands (Tables 5.1, 5.2) and the 1.5 m/s maneuver.
    **{f"turn_{v:g}_{deg}": Scenario(
        f"turn_{v:g}_{deg}", f"Turn command q7 = {deg} deg at {v:g} m/s, 20 s", "5.3.3", "A", v,
        20.0, False, gains="initial", q7_command=((0.0, math.inf, math.radians(deg)),),
        description=f"The PD steering is told to hold the turning joint at {deg} deg from "
                    f"straight driving at {v:g} m/s (Table {'5.1' if v < 1 else '5.2'}).")
       for v in (0.5, 3.0) for deg in (5, 10, 15, 30, 45)},
    "maneuver_1.5": Scenario(
        "maneuver_1.5", "Maneuver at 1.5 m/s: q7 = 20 deg from 2 s to 8 s, 20 s", "5.3.3", "A",
        1.5, 20.0, False, gains="initial", q7_command=((2.0, 8.0, math.radians(20.0)),),
        description="Figures 5.15-5.19: the PD steering holds 20 deg for 6 s from t = 2 s, "
                    "then drives straight again."),
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
    forward (simcore.m: dx = r - sinkage - h_w, qdot(1) = -v), with the torque T0 that
    gives the scenario's drawbar pull per wheel (constvel.m; 0 for constant velocity)."""
    ss = constvel(p.m_seg, p.g, p.r, p.b, soil, sc.DP)
    q = np.zeros(p.n_joints)
    q[1] = p.r - ss.z - p.h_w
    qd = np.zeros(p.n_joints)
    qd[0] = -sc.speed
    if not sc.rigid:
        qd[6] = sc.q7_rate0
    P0 = ss.T * sc.speed / ((1.0 - ss.s) * p.r)  # simcore.m: Pmax0 = T v / ((1 - s) r)
    return q, qd, ss.T, P0, ss


def make_loop(implementation: str, contact: str, sc: Scenario, p: RoverParams,
              desc_dir: Path, wheel_form: str = "corrected", integrator: str = "euler",
              fast: bool = True) -> ScenarioRun:
    """One implementation's closed loop in one scenario, from the steady state, sampled at
    100 Hz (``fast`` False: step by step from Python, RoverLoop)."""
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
        steering = PowerSteering(np.full((n, 2), P0), p.K_p, p.K_d, np.array(sc.q7_command),
                                 int(round(p.control_period / p.dt)))
    powers = np.full((n, 2), P0) if sc.drive == "power" else None  # None: constant torque
    loop = RoverLoop(plant, p, np.full((n, 2), T0), powers, steering, fast)
    return ScenarioRun(loop, p.dt, sc.duration, record_every=max(1, int(round(0.01 / p.dt))),
                       workspace=WORKSPACE)


# one implementation's wide trace of one scenario (make_loop, run by the framework)
run_one = Runner(make_loop)
