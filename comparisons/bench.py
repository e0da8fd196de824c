"""Benchmarks (not timed tests), as ratios against MuJoCo on the same run:
the landing gear's per-step cost on its slope scenario, and the rover's simulated seconds
per wall-clock second at its 1 ms step (straight driving at 3 m/s).

    python -m comparisons.bench landing_gear [--steps N]
    python -m comparisons.bench rover [--steps N]
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from comparisons.landing_gear.loop import LandingGearLoop, initial_state, make_plant
from comparisons.landing_gear.scenarios import SCENARIOS
from handrolled.landing_gear.model import Forms
from robots import ROOT
from robots.landing_gear.params import PARAMS


def bench_landing_gear(steps: int) -> dict[str, dict[str, float]]:
    """Seconds per step: the plant step alone ("model") and the whole closed loop
    (observation, controller, contact law, step)."""
    p, sc = PARAMS, SCENARIOS["slope_lc"]
    aSL, aAZ = math.radians(sc.alpha_SL_deg), math.radians(sc.alpha_AZ_deg)
    out = {}
    for impl in ("handrolled", "mujoco", "pybullet"):
        plant = make_plant(
            impl, p, "as_derived", "shared", aSL, aAZ, Forms(), ROOT / "landing_gear"
        )
        plant.reset(initial_state(p, aSL, aAZ))
        loop = LandingGearLoop(plant, p, aSL, aAZ, True, "shared", Forms())
        for _ in range(200):  # warm-up (numba compilation, caches)
            loop.advance()
        t0 = time.perf_counter()
        for _ in range(steps):
            loop.advance()
        closed = (time.perf_counter() - t0) / steps
        tau, F = np.zeros((4, 2)), loop.F_PF.copy()
        t0 = time.perf_counter()
        for _ in range(steps):
            plant.step(tau, F, 0.0)
        model = (time.perf_counter() - t0) / steps
        out[impl] = {"model": model, "closed_loop": closed}
    return out


def bench_rover(steps: int) -> dict[str, dict[str, float]]:
    """Seconds per 1 ms step of the plant alone ("model": wheel-soil forces from the
    implementation's state plus the dynamics step) and of the closed loop (plus the
    torque-from-power drive), on straight driving at 3 m/s."""
    from comparisons.rover.loop import RoverLoop
    from comparisons.rover.loop import make_plant as rover_plant
    from comparisons.rover.scenarios import SCENARIOS as ROVER_SCENARIOS
    from comparisons.rover.scenarios import initial_state as rover_initial
    from comparisons.rover.scenarios import scenario_params
    from robots.rover.params import PARAMS as ROVER
    from robots.rover.soil import load_soil

    sc = ROVER_SCENARIOS["straight_3"]
    p = scenario_params(ROVER, sc)
    soil = load_soil(p.soil)
    q, qd, T0, P0, _ = rover_initial(p, sc, soil)
    out = {}
    for impl in ("handrolled", "mujoco", "pybullet"):
        plant = rover_plant(impl, p, soil.as_tuple(), sc.rigid, ROOT / "rover")
        plant.reset(q, qd)
        loop = RoverLoop(plant, p, np.full((2, 2), T0), np.full((2, 2), P0), None)
        for _ in range(200):
            loop.advance()
        t0 = time.perf_counter()
        for _ in range(steps):
            loop.advance()
        closed = (time.perf_counter() - t0) / steps
        t0 = time.perf_counter()
        for _ in range(steps):
            plant.advance(loop.T)
        model = (time.perf_counter() - t0) / steps
        out[impl] = {"model": model, "closed_loop": closed}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("robot", choices=["landing_gear", "rover"])
    ap.add_argument("--steps", type=int, default=5000)
    args = ap.parse_args()
    res = bench_landing_gear(args.steps) if args.robot == "landing_gear" else bench_rover(
        args.steps)
    ref = res["mujoco"]
    print(
        f"{'implementation':<12} {'model us/step':>14} {'x MuJoCo':>9} "
        f"{'loop us/step':>13} {'x MuJoCo':>9}"
    )
    for impl, r in res.items():
        print(
            f"{impl:<12} {r['model'] * 1e6:14.1f} {r['model'] / ref['model']:9.2f} "
            f"{r['closed_loop'] * 1e6:13.1f} {r['closed_loop'] / ref['closed_loop']:9.2f}"
        )
    if args.robot == "rover":
        for impl, r in res.items():
            print(f"{impl:<12} closed loop runs {1e-3 / r['closed_loop']:.1f} x real time "
                  f"at dt = 1 ms (the thesis' MATLAB code: 0.03-0.04 x)")


if __name__ == "__main__":
    main()
