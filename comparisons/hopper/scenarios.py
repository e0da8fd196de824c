"""The hopper's scenarios (the paper's Figs. 6 and 7, and a passive bounce) and how one is
run for each implementation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from dynval.comparisons.hopper.loop import HopperLoop, Piecewise, make_plant
from dynval.comparisons.ladder import harness
from dynval.comparisons.ladder.scenario_run import Runner, ScenarioRun
from dynval.handrolled.hopper.model import PlanarHopper
from dynval.robots.hopper.params import HopperParams

# How far the body may move from its start before a run is called diverged: the speed
# run covers about 8 m, and the body never rises a metre above its start [m].
WORKSPACE = {"com.x": 15.0, "com.z": 1.0, "body.pitch": 1.0}

Steps = tuple[tuple[float, float], ...]  # (from time [s], value) pairs, times ascending


def piecewise(steps: Steps) -> Piecewise:
    """The step reference that holds each value from its time on."""
    return Piecewise(steps)


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

# Steady state needs longer than the paper's 4 s steps: eq. (20) is integral action on a
# lightly damped hop-to-hop plant (its apex error decays by about a tenth per hop around a
# five-hop oscillation), so the 0.1 m steps of Fig. 6 take some 50 hops to settle to the
# 1 mm of comparisons/hopper/claims.py. The settling runs hold each reference of Figs. 6
# and 7 for HOLD seconds, in the paper's order, from the same drop.
HOLD = 60.0  # [s]


def _held(steps: Steps) -> Steps:
    """A reference's values in order, each held HOLD seconds (the first from t = 0)."""
    return tuple((i * HOLD, v) for i, (_, v) in enumerate(steps))


SETTLING: dict[str, Scenario] = {
    name: Scenario(
        f"{name} settling", f"{sc.title}, each reference held {HOLD:g} s",
        _held(sc.h_d), _held(sc.x_dot_d),
        HOLD * max(len(sc.h_d), len(sc.x_dot_d)), True,
        f"The references of the {name} run in its order, each held {HOLD:g} s so that "
        "steady state can be reached (the paper's run holds each for 2-4 s).")
    for name, sc in SCENARIOS.items()}

BOUNCE = Scenario(
    "bounce", "Passive bounce, lossless ground",
    ((0.0, 0.0),), ((0.0, 0.0),), 3.0, False,
    "No control, c_max = 0 and b_stop = 0: a drop from 1.6 m on the springs alone (L3).")


def scenario_params(p: HopperParams, sc: Scenario) -> HopperParams:
    """The parameters a scenario runs with: the passive bounce is lossless."""
    return p.with_(c_max=0.0, b_stop=0.0) if not sc.controlled else p


COORDS = ("com.x", "com.z", "body.pitch", "joint.hip.angle", "joint.leg.extension")
RATES = ("com.vx", "com.vz", "body.pitch_rate", "joint.hip.rate", "joint.leg.extension_rate")

# The energy guard of a run with no input (the passive bounce: no control, lossless ground
# and stop). Semi-implicit Euler on this bounce gains at most DRIFT_GAIN x E_0 above its
# start (measured over the 3 s bounce at DRIFT_DT: 0.38 J of 165 J, at the first hops'
# impacts; the error is first order and halves with the step, as the L3 rows show). The
# guard allows GUARD_FACTOR times that, scaled with the step: a ground 1000 times stiffer
# (k_c = 1e9) is still stable at 0.2 ms and gains 3.7 % (under the 4.6 % allowed), while
# one 10^4 times stiffer (1e10) is past the explicit step's limit and flings the body.
DRIFT_GAIN = 2.3e-3  # [-] largest (E - E_0) / E_0 of the bounce at DRIFT_DT
DRIFT_DT = 2.0e-4  # [s]
GUARD_FACTOR = 20.0


def mechanical_energy(p: HopperParams, model: PlanarHopper, sig: Mapping[str, float]) -> float:
    """Total mechanical energy of one sample of a passive run [J]: kinetic and
    gravitational (the chain's eq. 19 mass matrix), the leg spring and stop, and the
    elastic energy of eq. (24)'s ground, k delta^(e+1)/(e+1)."""
    q = np.array([sig[n] for n in COORDS])
    qd = np.array([sig[n] for n in RATES])
    r = q[4]
    leg = 0.5 * p.k_L * (p.r_0 - r) ** 2 + (0.5 * p.k_stop * (r - p.r_0) ** 2 if r > p.r_0
                                             else 0.0)
    delta = max(p.x_1 - sig["foot.z"], 0.0)
    ground = p.k_c * delta ** (p.e + 1.0) / (p.e + 1.0)
    return model.energy(q, qd) + leg + ground


def energy_guard(p: HopperParams, sc: Scenario) -> harness.EnergyGuard | None:
    """The energy check of a scenario with no input (None for a controlled one); ``p`` are
    the parameters it runs with."""
    if sc.controlled:
        return None
    model = PlanarHopper(p)
    E_0 = model.energy(*initial_state(p))  # the drop's energy above the ground [J]
    share = GUARD_FACTOR * DRIFT_GAIN * p.dt / DRIFT_DT
    return harness.EnergyGuard(
        lambda sig: mechanical_energy(p, model, sig), share * E_0,
        f"{GUARD_FACTOR:g} x semi-implicit Euler's measured drift on the bounce, "
        f"{DRIFT_GAIN:g} E_0 at dt = {DRIFT_DT:g} s, scaled to dt = {p.dt:g} s")


def initial_state(p: HopperParams) -> tuple[np.ndarray, np.ndarray]:
    """Level body at z_0, relaxed leg hanging straight down, at rest."""
    return np.array([0.0, p.z_0, 0.0, 0.0, p.r_0]), np.zeros(5)


def make_loop(implementation: str, contact: str, sc: Scenario, p: HopperParams,
              desc_dir: Path, attitude_sign: float = 1.0, form: str = "corrected",
              fast: bool = True) -> ScenarioRun:
    """One implementation's closed loop in one scenario, from the drop (``attitude_sign``
    -1 flips eq. (23); ``form`` "printed" runs the hand-rolled model with eq. (12)'s
    printed bias; ``fast`` False steps it in Python instead of one compiled chunk),
    sampled at 1 kHz, in the workspace, with the energy guard of a passive run."""
    p = scenario_params(p, sc)
    plant = make_plant(implementation, p, contact, desc_dir, form, fast)
    plant.reset(*initial_state(p))
    loop = HopperLoop(plant, p, contact, piecewise(sc.h_d), piecewise(sc.x_dot_d),
                      sc.controlled, attitude_sign, fast)
    return ScenarioRun(loop, p.dt, sc.duration, record_every=max(1, int(round(1e-3 / p.dt))),
                       workspace=WORKSPACE, energy_guard=energy_guard(p, sc))


# one implementation's wide trace of one scenario (make_loop, run by the framework)
run_one = Runner(make_loop)


SEGMENT = 1.0  # a settling run is checked against its workspace every this long [s]


@dataclass(frozen=True)
class SettlingRun:
    """A settling run's trace, why it ended early ("" where it ran to its end) and, where
    it fell, when (the first sample out of the workspace; the trace runs on to the end of
    that segment)."""

    trace: pd.DataFrame
    ended: str
    fell_at: float | None = None


def run_settling(p: HopperParams, sc: Scenario, implementation: str, contact: str,
                 desc_dir: Path, until: float | None = None) -> SettlingRun:
    """One implementation's run of a settling scenario (SETTLING). A body that leaves the
    workspace (it falls: com.z or pitch past WORKSPACE; com.x is allowed the distance the
    speed references cover) ends the run there, and the trace up to that segment is kept:
    a run that falls is a finding about the controller, not a failure of the harness."""
    run = make_loop(implementation, contact, sc, p, desc_dir)
    loop, record_every, p = run.loop, run.record_every, scenario_params(p, sc)
    length = harness.run_length(sc.duration, until)
    spans = [b - a for a, b in zip([t for t, _ in sc.x_dot_d],
                                   [t for t, _ in sc.x_dot_d[1:]] + [sc.duration],
                                   strict=True)]
    reach = {**WORKSPACE, "com.x": WORKSPACE["com.x"] + sum(
        abs(v) * s for (_, v), s in zip(sc.x_dot_d, spans, strict=True))}
    start = loop.signals()
    parts: list[pd.DataFrame] = []
    t = 0.0
    while t < length - 0.5 * p.dt:
        seg = min(SEGMENT, length - t)
        part = harness.run(loop, seg, p.dt, record_every)
        parts.append(part if not parts else part.iloc[1:])
        t += seg
        for name, bound in reach.items():
            out = np.abs(part[name].to_numpy() - start[name]) > bound
            if out.any():
                i = int(np.argmax(out))
                return SettlingRun(pd.concat(parts, ignore_index=True), (
                    f"{implementation} fell: {name} = {part[name].iloc[i]:.3g} "
                    f"({part[name].iloc[i] - start[name]:+.3g} from its start, bound "
                    f"{bound:g}) at t = {part['time'].iloc[i]:.2f} s"),
                    float(part["time"].iloc[i]))
    return SettlingRun(pd.concat(parts, ignore_index=True), "")
