"""Every compiled path against the readable path it copies, one case per robot, scenario,
variant and implementation that has both (``make_loop(..., fast=...)``: ``fast`` False
steps the readable model and laws by advance(), one step at a time): the first
WINDOW[robot] seconds of the run, long enough for the events its loop must get right
(the feet meet the ground in every case that records a foot force), every signal.

Bit for bit where the copy does the same operations in the same order: the landing
gear's chunks, hand-rolled and engine, and the hopper's engine chunks. Within round-off
where it reorders them: the hopper's readable model steps eq. (19) by the operator
products, its compiled copy by the recursions (12)-(18) (2e-11 of a signal apart over
the speed run's 4.5 s); the quadruped's compiled RNEA, plan and feedforward; the
hexapod's compiled matrix products, whose fused multiply-adds differ from numpy's
(comparisons/hexapod/loop.py). The bound is the one the ci tier's readable rung holds
each robot to (ladder.readable: 1e-9 of the signal's size, or 1e-9 SI at rest). The
rover compiles its model's modules in place; its two paths are the loop's compiled
chunks and samples against its steps from Python (the same compiled step, wheel-soil law
and torque law): bit for bit for the hand-rolled model and PyBullet, within round-off
for MuJoCo, whose chunks sum the hubs and frame changes in another order.

In the same cases, the compiled run's chunks (``advance_many`` and ``advance_samples``,
as the harness takes them) against the same loop stepped by ``advance()`` alone: one
compiled plant, so bit for bit, but where a chunk sums in another order (the quadruped's
hand-rolled chunk, the rover's engine chunks: at most 8.5e-15 of a signal's size
measured over the window), CHUNK_REL.

The robots' own fast-path tests keep what this one does not cover: the kernels against
their printed forms, the printed forms and a sampled controller in chunks, chunks and
single steps mixed, the hexapod's traces bit for bit but one signal, failures handed
back mid-chunk, and that the compiled path is taken where the engines' compiled calls
are at hand."""


from __future__ import annotations

import inspect
from dataclasses import replace

import numpy as np
import pytest

from dynval.comparisons.ladder import readable
from dynval.comparisons.ladder.registry import comparison
from dynval.comparisons.ladder.scenario_run import run_scenario
from dynval.plugins import PAPER_ROBOTS, spec
from dynval.robots import robot_dir

# [s]: long enough for the events each loop's compiled copy must get right: the landing
# gear's touchdown, stick and slip and thrust ramp (first second); the hopper's drop,
# hops and the steps of its references at 2 and 4 s; the quadruped's trot cycle and the
# walk's first legs; the hexapod's first steps and gear impacts; the rover's knocks, turn
# commands, drawbar torques and PD steering updates (10 Hz), and the maneuver's command
# at 2 s
WINDOW = {"landing_gear": 1.0, "hopper": 4.5, "quadruped": 1.2, "hexapod": 0.5,
          "rover": 2.1}
# Drake has no compiled calls: these loops step it from Python whether fast or not, so
# the two runs would be one path compared with itself (the hexapod's compiles its laws)
ONE_PATH = {("landing_gear", "drake"), ("hopper", "drake"), ("rover", "drake")}
REORDERED = {("quadruped", "handrolled"), ("quadruped", "mujoco"), ("quadruped", "pybullet"),
             ("hexapod", "handrolled"), ("hexapod", "mujoco"), ("hexapod", "pybullet"),
             ("hexapod", "drake"), ("hopper", "handrolled"), ("rover", "mujoco")}
# where a chunk sums in another order than a single step (module docstring); a chunk that
# skips, repeats or reorders a step moves a signal by far more than round-off
CHUNK_REORDERED = {("quadruped", "handrolled"), ("rover", "mujoco"), ("rover", "pybullet")}
CHUNK_REL = 1e-12


def _cases() -> list:
    out = []
    for robot in PAPER_ROBOTS:
        scenarios = spec(robot).module("comparisons", "scenarios")
        if "fast" not in inspect.signature(scenarios.make_loop).parameters:
            continue
        ladder = comparison(robot)
        for name, sc in scenarios.SCENARIOS.items():
            for variant in ladder.variants(sc):
                out += [pytest.param(robot, name, impl, contact,
                                     id=f"{robot}-{name}-{variant.name}-{impl}")
                        for impl, contact in variant.runs if (robot, impl) not in ONE_PATH]
    return out


@pytest.mark.parametrize("robot, scenario, implementation, contact", _cases())
def test_the_compiled_path_is_the_readable_one(robot, scenario, implementation, contact):
    run_one = spec(robot).module("comparisons", "scenarios").run_one
    sc = comparison(robot).scenarios[scenario]
    p, d = comparison(robot).default_params, robot_dir(robot)
    fast = run_one(p, sc, implementation, contact, d, until=WINDOW[robot], fast=True)
    slow = run_one(p, sc, implementation, contact, d, until=WINDOW[robot], fast=False)
    _assert_chunks_are_steps(robot, sc, implementation, contact, fast)
    pushed = slow.filter(like="force.normal")
    assert pushed.empty or float(pushed.to_numpy().max()) > 0.0  # the feet met the ground
    assert list(fast.columns) == list(slow.columns)
    assert np.array_equal(fast["time"].to_numpy(), slow["time"].to_numpy())
    if (robot, implementation) not in REORDERED:
        assert fast.equals(slow)
        return
    for signal in slow.columns.drop("time"):
        a, b = fast[signal].to_numpy(), slow[signal].to_numpy()
        bound = readable.PARITY_REL * float(np.max(np.abs(b))) + readable.FLOOR_ABS
        assert float(np.max(np.abs(a - b))) <= bound, signal


class _OneStepAtATime:
    """A loop seen without its chunks: the harness steps it by ``advance()`` alone."""

    def __init__(self, loop) -> None:
        self._loop, self.implementation = loop, loop.implementation

    @property
    def t(self) -> float:
        return self._loop.t

    def advance(self) -> None:
        self._loop.advance()

    def signals(self) -> dict[str, float]:
        return self._loop.signals()


def _assert_chunks_are_steps(robot, sc, implementation, contact, chunked) -> None:
    """The compiled run ``chunked`` against its loop stepped one step at a time."""
    run = spec(robot).module("comparisons", "scenarios").make_loop(
        implementation, contact, sc, comparison(robot).default_params, robot_dir(robot))
    assert callable(getattr(run.loop, "advance_many", None))  # the harness takes chunks
    steps = run_scenario(replace(run, loop=_OneStepAtATime(run.loop)), until=WINDOW[robot])
    if (robot, implementation) not in CHUNK_REORDERED:
        assert chunked.equals(steps)
        return
    assert list(chunked.columns) == list(steps.columns)
    for signal in steps.columns:
        a, b = chunked[signal].to_numpy(), steps[signal].to_numpy()
        assert float(np.max(np.abs(a - b))) <= CHUNK_REL * float(np.max(np.abs(b))), signal


def test_a_chunk_unlike_the_single_step_is_caught(monkeypatch):
    """The check above fails a chunk that is not the single step: the hopper's compiled
    chunks given a ground 1 % stiffer (eq. (24)'s k_c) than its steps use."""
    from dynval.handrolled.hopper.fast import loop as fastloop

    laws = fastloop.laws
    monkeypatch.setattr(fastloop, "laws", lambda p: laws(p)._replace(k_c=1.01 * p.k_c))
    robot, sc = "hopper", comparison("hopper").scenarios["height"]
    run_one = spec(robot).module("comparisons", "scenarios").run_one
    chunked = run_one(comparison(robot).default_params, sc, "handrolled", "shared",
                      robot_dir(robot), until=WINDOW[robot])
    with pytest.raises(AssertionError):
        _assert_chunks_are_steps(robot, sc, "handrolled", "shared", chunked)
