"""Every compiled path against the readable path it copies, one case per robot, scenario,
variant and implementation that has both (``run_one(..., fast=...)``): the first WINDOW
seconds of the run, every recorded signal.

Bit for bit where the copy does the same operations in the same order: the landing
gear's and the hopper's chunks, hand-rolled and engine, and the quadruped's engine
chunks. Within round-off where it reorders them: the quadruped's compiled RNEA and plan
(tests/test_quadruped_fast.py) and the hexapod's compiled matrix products, whose fused
multiply-adds differ from numpy's (comparisons/hexapod/loop.py); the bound is the one
the ci tier's readable rung holds each robot to (ladder.readable: 1e-9 of the signal's
size, or 1e-9 SI at rest). The rover compiles its readable modules in place: it has no
second path to compare. The robots' own fast-path tests go further (longer runs, the
loops' inner states, failures handed back): this one covers every case at once."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

from dynval.comparisons.ladder import readable
from dynval.comparisons.ladder.registry import comparison
from dynval.plugins import PAPER_ROBOTS, spec
from dynval.robots import robot_dir

WINDOW = 0.2  # [s]
REORDERED = {("quadruped", "handrolled"), ("hexapod", "handrolled"), ("hexapod", "mujoco"),
             ("hexapod", "pybullet")}


def _cases() -> list:
    out = []
    for robot in PAPER_ROBOTS:
        scenarios = spec(robot).module("comparisons", "scenarios")
        if "fast" not in inspect.signature(scenarios.run_one).parameters:
            continue
        ladder = comparison(robot)
        for name, sc in scenarios.SCENARIOS.items():
            for variant in ladder.variants(sc):
                out += [pytest.param(robot, name, impl, contact,
                                     id=f"{robot}-{name}-{variant.name}-{impl}")
                        for impl, contact in variant.runs]
    return out


@pytest.mark.parametrize("robot, scenario, implementation, contact", _cases())
def test_the_compiled_path_is_the_readable_one(robot, scenario, implementation, contact):
    run_one = spec(robot).module("comparisons", "scenarios").run_one
    sc = comparison(robot).scenarios[scenario]
    p, d = comparison(robot).default_params, robot_dir(robot)
    fast = run_one(p, sc, implementation, contact, d, until=WINDOW, fast=True)
    slow = run_one(p, sc, implementation, contact, d, until=WINDOW, fast=False)
    assert list(fast.columns) == list(slow.columns)
    assert np.array_equal(fast["time"].to_numpy(), slow["time"].to_numpy())
    if (robot, implementation) not in REORDERED:
        assert fast.equals(slow)
        return
    for signal in slow.columns.drop("time"):
        a, b = fast[signal].to_numpy(), slow[signal].to_numpy()
        bound = readable.PARITY_REL * float(np.max(np.abs(b))) + readable.FLOOR_ABS
        assert float(np.max(np.abs(a - b))) <= bound, signal
