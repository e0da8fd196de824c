"""Benchmark: per-step cost of each implementation on the landing-gear slope scenario,
as ratios against MuJoCo on the same run (not a timed test).

    python -m comparisons.bench landing_gear [--steps N]
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("robot", choices=["landing_gear"])
    ap.add_argument("--steps", type=int, default=5000)
    args = ap.parse_args()
    res = bench_landing_gear(args.steps)
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


if __name__ == "__main__":
    main()
