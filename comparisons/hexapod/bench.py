"""The hexapod's benchmark: seconds per 50 us step of the WG beta = 50 % walk, as ratios
against MuJoCo, and the hand-rolled model's own walk as a real-time factor (``python -m
dynval.comparisons.bench hexapod``)."""

from __future__ import annotations

import time
from functools import partial

from dynval.comparisons import bench
from dynval.robots import ROOT


def run(steps: int) -> dict[str, dict[str, float]]:
    """Seconds per 50 us step of the WG beta = 50 % walk with the shared laws (the L4
    comparison loop: controller, drive, body springs and ground from each implementation's
    state): the plant step alone ("model") and the closed loop as the harness runs it
    (``advance_many`` from one 1 kHz sample to the next, then the signals), over ``steps``
    steps after a warm-up (numba compilation, caches); the fastest of three runs."""
    from dynval.comparisons.hexapod.loop import HexapodLoop, planned_start, world
    from dynval.comparisons.hexapod.loop import make_plant as hexapod_plant
    from dynval.comparisons.hexapod.scenarios import SCENARIOS as HEX_SCENARIOS
    from dynval.comparisons.hexapod.scenarios import scenario_params as hex_params
    from dynval.robots.hexapod.params import PARAMS as HEX

    p = hex_params(HEX, HEX_SCENARIOS["WG_50"])
    chunk = int(round(p.f_sr / 1000.0))  # the harness records at 1 kHz

    def setup(impl: str) -> bench.Setup:
        plant = hexapod_plant(impl, p, "shared", ROOT / "hexapod")
        plant.reset(*planned_start(p))
        loop = HexapodLoop(plant, p)
        return bench.Setup(plant, loop, lambda: partial(
            plant.step, loop.efforts(), world(loop.F_feet)))

    return bench.fastest_rows(setup, steps // chunk * chunk, chunk)


def walk(duration: float = 1.0) -> dict[str, float]:
    """Wall seconds per simulated second of the hand-rolled model's own WG beta = 50 % walk
    (PlanarHexapod: Heun at f_sr = 20 kHz, the FO controller at 2 kHz, non-linear ground,
    recording at 1 kHz), compiled step and printed (interpreted) step."""
    from dynval.handrolled.hexapod.fast.robot import CompiledPlanarHexapod
    from dynval.handrolled.hexapod.robot import PlanarHexapod, simulate
    from dynval.robots.hexapod.params import PARAMS as HEX

    p = HEX.with_(gait="WG", beta=0.5)
    simulate(p, 0.01, robot_class=CompiledPlanarHexapod)  # compile (cached on disk)
    out = {}
    for name, robot in (("compiled", CompiledPlanarHexapod), ("printed", PlanarHexapod)):
        t0 = time.perf_counter()
        simulate(p, duration, robot_class=robot)
        out[name] = (time.perf_counter() - t0) / duration
    return out


def report(steps: int, res: dict[str, dict[str, float]]) -> None:
    """Real-time factors of the comparison loop and of the model's own walk."""
    ref = res["mujoco"]
    for impl, r in res.items():
        print(f"{impl:<12} comparison loop runs {5e-5 / r['closed_loop']:.2f} x real time "
              f"at f_sr = 20 kHz ({r['closed_loop'] / ref['closed_loop']:.2f} x MuJoCo's "
              "time)")
    for name, w in walk().items():
        print(f"handrolled model's own WG walk (Heun, {name} step): {1.0 / w:.2f} x real "
              f"time ({w:.2f} wall s per simulated s; "
              f"{w / (20000 * ref['closed_loop']):.2f} x MuJoCo's loop)")
