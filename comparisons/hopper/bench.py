"""The hopper's benchmark: seconds per step of the speed run, as ratios against MuJoCo,
and eq. (19)'s terms by operator products and by recursions (``python -m
dynval.comparisons.bench hopper``)."""

from __future__ import annotations

from functools import partial

import numpy as np

from dynval.comparisons import bench
from dynval.robots import ROOT


def run(steps: int) -> dict[str, dict[str, float]]:
    """Seconds per step on the speed run (shared contact): the plant step alone ("model")
    and the closed loop (phase machine, eqs. 20-23, leg spring, contact law 24-25) as the
    harness runs it: five steps at a time (``advance_many``, compiled chunks for every
    plant), then the signals recorded; the fastest of three runs of each."""
    from dynval.comparisons.hopper.loop import HopperLoop, planar_to_world
    from dynval.comparisons.hopper.loop import make_plant as hopper_plant
    from dynval.comparisons.hopper.scenarios import SCENARIOS as HOPPER_SCENARIOS
    from dynval.comparisons.hopper.scenarios import initial_state as hopper_initial
    from dynval.comparisons.hopper.scenarios import piecewise
    from dynval.robots.hopper.params import PARAMS as HOP

    sc = HOPPER_SCENARIOS["speed"]
    chunk = max(1, int(round(1e-3 / HOP.dt)))  # the harness records at 1 kHz

    def setup(impl: str) -> bench.Setup:
        plant = hopper_plant(impl, HOP, "shared", ROOT / "hopper")
        plant.reset(*hopper_initial(HOP))
        loop = HopperLoop(plant, HOP, "shared", piecewise(sc.h_d), piecewise(sc.x_dot_d))
        return bench.Setup(plant, loop, lambda: partial(plant.step, np.zeros(2),
                                                        planar_to_world(loop.F_foot)),
                           loop.engine_points())

    return bench.fastest_rows(setup, steps // chunk * chunk, chunk)


def terms(calls: int) -> dict[str, float]:
    """Seconds per evaluation of eq. (19)'s M and bias on the 5-DoF planar chain: the
    literal operator products against the compiled recursions."""
    from dynval.handrolled.hopper import chain, soa
    from dynval.handrolled.hopper.fast.recursive import Recursive
    from dynval.robots.hopper.params import PARAMS as HOP

    c = chain.planar(HOP)
    rec = Recursive(c)
    q, qd = np.array([0.1, 1.4, 0.05, 0.2, 0.9]), np.array([0.3, -1.0, 0.2, 1.0, -0.5])
    g, zero = soa.gravity_acceleration(HOP.g), np.zeros(5)

    def recursive() -> None:
        rec.mass_and_jacobian(q)
        rec.inverse_dynamics(q, qd, zero, g)

    recursive()  # compile
    return {"operator products": bench.per_call(lambda: soa.terms(c, q, qd), calls),
            "recursions": bench.per_call(recursive, calls)}


def preface(steps: int) -> None:
    """Eq. (19)'s terms, before the table."""
    t = terms(min(steps, 2000))
    ratio = t["operator products"] / t["recursions"]
    print(f"eq. (19) M and bias: operator products {t['operator products'] * 1e6:.1f} "
          f"us, recursions {t['recursions'] * 1e6:.1f} us: {ratio:.1f} x faster")
