"""Benchmarks (not timed tests), as ratios against MuJoCo on the same run. Each robot
declares its own in ``comparisons/<robot>/bench.py``: ``run(steps)``, seconds per step of
each implementation's plant ("model") and closed loop as rows of :func:`row`, and
optionally ``preface(steps)`` and ``report(steps, rows)`` for its own figures.

    python -m dynval.comparisons.bench ROBOT [--steps N]
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from dynval.comparisons.ladder.implementations import IMPLEMENTATIONS
from dynval.engines import chunk_args


def row(impl: str, model: float, closed: float, plant, n: int,
        points: tuple[list[str], np.ndarray] | None = None) -> dict[str, float]:
    """One row of the table: seconds per step of the plant ("model") and of the closed loop,
    and for an engine its bare step (mj_step / stepSimulation with the robot loaded, no
    force applied, nothing read; over n steps, from compiled code as the loops step), the
    yardstick of what a plant adds; with ``points`` (the links and offsets the loop's
    compiled chunks read and push on), the engine side of a compiled plant step too
    ("plant": efforts, forces at the points, the step, the state and points read; the
    robot's laws left out, chunk_args.plant_step_seconds); each the fastest of three."""
    out = {"model": model, "closed_loop": closed}
    if impl != "handrolled":
        out["bare"] = min(plant.sim.bare_step_seconds(n) for _ in range(3))
        if points is not None:
            out["plant"] = min(chunk_args.plant_step_seconds(plant.sim, *points, n)
                               for _ in range(3))
    return out


@dataclass
class Setup:
    """One implementation's loop, made afresh for one timing: its plant, the loop that
    drives it, and, once the loop has run, one plant step with the loop's last inputs
    (``model_step()``); ``points``: the links and offsets a compiled chunk reads and
    pushes on (:func:`row`)."""

    plant: Any
    loop: Any
    model_step: Callable[[], Callable[[], object]]
    points: tuple[list[str], np.ndarray] | None = None


def fastest_rows(setup: Callable[[str], Setup], n: int, chunk: int, repeats: int = 3
                 ) -> dict[str, dict[str, float]]:
    """For each implementation, the fastest of ``repeats`` timings, each on a fresh
    ``setup(impl)``: the closed loop as the harness runs it (:func:`harness_seconds`) and
    then the plant step alone, over n steps; as rows of :func:`row`."""
    out = {}
    for impl in IMPLEMENTATIONS:
        closed = model = math.inf
        for _ in range(repeats):
            s = setup(impl)
            closed = min(closed, harness_seconds(s.loop, n, chunk))
            model = min(model, per_call(s.model_step(), n))
        out[impl] = row(impl, model, closed, s.plant, n, s.points)
    return out


def harness_seconds(loop, n: int, chunk: int) -> float:
    """Seconds per step of ``loop`` run as the harness runs it, ``chunk`` steps at a time
    (``advance_many``) and then the signals recorded, over n steps (a multiple of chunk),
    after one chunk of warm-up (numba compilation)."""
    loop.advance_many(chunk)
    loop.signals()
    t0 = time.perf_counter()
    for _ in range(n // chunk):
        loop.advance_many(chunk)
        loop.signals()
    return (time.perf_counter() - t0) / n


def per_call(fn: Callable[[], object], n: int) -> float:
    """Seconds per call of ``fn`` over n calls, after one (compilation, caches)."""
    fn()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t0) / n


def benched_robots() -> list[str]:
    """The robots that declare a benchmark."""
    from dynval.plugins import spec
    from dynval.robots import ROBOT_NAMES

    return [r for r in ROBOT_NAMES if spec(r).has_module("comparisons", "bench")]


def print_table(res: dict[str, dict[str, float]]) -> None:
    """The rows as us per step and ratios against MuJoCo's."""
    ref = res["mujoco"]
    print(
        f"{'implementation':<12} {'model us/step':>14} {'x MuJoCo':>9} "
        f"{'loop us/step':>13} {'x MuJoCo':>9} {'loop/model':>11} {'bare us/step':>13} "
        f"{'model/bare':>11} {'loop/bare':>10} {'plant us/step':>14} {'plant/bare':>11}"
    )
    for impl, r in res.items():
        bare = (f"{r['bare'] * 1e6:13.1f} {r['model'] / r['bare']:11.2f} "
                f"{r['closed_loop'] / r['bare']:10.2f}") if "bare" in r else ""
        plant = (f" {r['plant'] * 1e6:14.1f} {r['plant'] / r['bare']:11.2f}"
                 if "plant" in r else "")
        print(
            f"{impl:<12} {r['model'] * 1e6:14.1f} {r['model'] / ref['model']:9.2f} "
            f"{r['closed_loop'] * 1e6:13.1f} {r['closed_loop'] / ref['closed_loop']:9.2f} "
            f"{r['closed_loop'] / r['model']:11.2f} {bare}{plant}"
        )
    print("bare: the engine's step alone, timed from compiled code; plant: the engine side "
          "of a compiled loop's step (efforts, forces at its points, the step, the state "
          "and points read), the robot's laws left out")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("robot", choices=benched_robots())
    ap.add_argument("--steps", type=int, default=5000)
    args = ap.parse_args()
    from dynval.plugins import spec

    module = spec(args.robot).module("comparisons", "bench")
    if hasattr(module, "preface"):
        module.preface(args.steps)
    res = module.run(args.steps)
    print_table(res)
    if hasattr(module, "report"):
        module.report(args.steps, res)


if __name__ == "__main__":
    main()
