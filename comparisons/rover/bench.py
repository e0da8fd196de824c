"""The rover's benchmark: seconds per 1 ms step of straight driving at 3 m/s, as ratios
against MuJoCo, and the wheel-soil law alone (``python -m dynval.comparisons.bench
rover``)."""

from __future__ import annotations

import math
import time

import numpy as np

from dynval._numba_cache import njit
from dynval.comparisons import bench
from dynval.handrolled.rover.terramechanics import SLIP_METHOD, SLIP_METHODS
from dynval.handrolled.rover.wheel_contact import wheel_contacts
from dynval.robots import ROOT


def run(steps: int) -> dict[str, dict[str, float]]:
    """Seconds per 1 ms step of the plant alone ("model": wheel-soil forces from the
    implementation's state plus the dynamics step; compiled in MuJoCo's case), of the
    closed loop as the harness runs it (plus the torque-from-power drive, the state read
    back every tenth step for the 100 Hz trace), and of the engine's bare step, on
    straight driving at 3 m/s; the fastest of three runs of each."""
    from dynval.comparisons.rover.loop import RoverLoop
    from dynval.comparisons.rover.loop import make_plant as rover_plant
    from dynval.comparisons.rover.scenarios import SCENARIOS as ROVER_SCENARIOS
    from dynval.comparisons.rover.scenarios import initial_state as rover_initial
    from dynval.comparisons.rover.scenarios import scenario_params
    from dynval.robots.rover.params import PARAMS as ROVER
    from dynval.robots.rover.soil import load_soil

    sc = ROVER_SCENARIOS["straight_3"]
    p = scenario_params(ROVER, sc)
    soil = load_soil(p.soil)
    q, qd, T0, P0, _ = rover_initial(p, sc, soil)
    out = {}
    for impl in ("handrolled", "mujoco", "pybullet"):
        closed = model = math.inf
        for _ in range(3):  # the fastest of three runs, each from the scenario's start
            plant = rover_plant(impl, p, soil.as_tuple(), sc.rigid, ROOT / "rover")
            plant.reset(q, qd)
            loop = RoverLoop(plant, p, np.full((2, 2), T0), np.full((2, 2), P0), None)
            loop.advance_many(200)  # warm-up (numba compilation, caches)
            chunk = 10  # the harness steps from one 100 Hz sample to the next
            t0 = time.perf_counter()
            for _ in range(steps // chunk):
                loop.advance_many(chunk)
            closed = min(closed, (time.perf_counter() - t0) / (steps // chunk * chunk))
            T = loop.T.copy()
            t0 = time.perf_counter()
            if getattr(plant, "compiled", False):
                plant.advance_many(T, None, steps)
            else:
                for _ in range(steps):
                    plant.advance(T)
            model = min(model, (time.perf_counter() - t0) / steps)
        hubs = None if impl == "handrolled" else (plant.point_links, plant.point_offsets)
        out[impl] = bench.row(impl, model, closed, plant, steps, hubs)
        if impl != "handrolled":  # the wheel-soil law alone, on this engine's hubs
            law = (*plant.law_inputs(), T.ravel().copy(), p.r, p.b, p.D, soil.as_tuple())
            out[impl]["law"] = min(bench.per_call(lambda law=law: _law_loop(*law, steps), 1)
                                   for _ in range(3)) / steps
    return out


@njit(cache=True)
def _law_loop(p_0: np.ndarray, R_0: np.ndarray, v_0: np.ndarray, T: np.ndarray, r: float,
              b: float, D: float, soil: tuple, n: int) -> float:
    """n evaluations of the rover's wheel-soil law for all wheels, from compiled code as
    the compiled loops call it (timed from Python, numba's dispatch would add ~1 us a call:
    8 % of the law); returns a sum of the forces so that none is left out."""
    total = 0.0
    for _ in range(n):
        total += wheel_contacts(p_0, R_0, v_0, T, r, b, D, soil)[0][0, 0]
    return total


def report(steps: int, res: dict[str, dict[str, float]]) -> None:
    """The law's share of the plant step and the real-time factors."""
    for impl, r in res.items():
        if "law" in r:
            print(f"{impl:<12} of the plant's {r['model'] * 1e6:.1f} us/step the "
                  f"wheel-soil law (4 wheels, the slip by {SLIP_METHODS[SLIP_METHOD]}; "
                  f"compiled) is "
                  f"{r['law'] * 1e6:.1f} us = {r['law'] / r['bare']:.2f} x the bare step; "
                  f"the engine side (plant column) is {r['plant'] * 1e6:.1f} us")
    for impl, r in res.items():
        print(f"{impl:<12} closed loop runs {1e-3 / r['closed_loop']:.1f} x real time "
              f"at dt = 1 ms (the thesis' MATLAB code: 0.03-0.04 x)")
