"""One scenario run, whichever robot: what a robot's one hook, ``make_loop``, gives (its
closed loop and how that loop is to be run) and the framework's runner of it.

Every robot reaches its scenarios the same way, the paper robots as a plugin does: the
robot builds the loop (its plant, controller and contact law wired together) in
``make_loop(implementation, contact, scenario, params, desc_dir, **options)``, where
``options`` are its own (a printed form of an equation, the readable path instead of the
compiled one, a perturbed start), and says in a :class:`ScenarioRun` how long the run is,
how often it is sampled, where its body must stay and what its energy may not exceed;
:func:`run_scenario` steps and records it (``harness.run``), stopping it early where the
tier asks (``until``)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from dynval.comparisons.ladder import harness
from dynval.plugins import PluginError

# the run_one keywords the framework takes itself; every other one is the robot's option
FRAMEWORK_KEYWORDS = ("duration", "until", "progress")


@dataclass(frozen=True)
class Warmup:
    """What a run steps before the part it records (a walking robot's settling cycles):
    ``length`` [s], stepped by ``run()``, which checks its steps as the recorded part is
    checked but keeps none of them."""

    length: float
    run: Callable[[], None]


@dataclass(frozen=True)
class ScenarioRun:
    """One implementation's run of one scenario, as a robot's ``make_loop`` gives it: the
    loop, its step ``dt`` [s], the ``duration`` [s] it records, a sample every
    ``record_every`` steps, the ``workspace`` its body stays in (how far a signal may move
    from its start, or that for a run of a given length), the ``energy_guard`` of a run
    that nothing does work on, and a ``warmup`` stepped before the recorded part."""

    loop: harness.ClosedLoop
    dt: float
    duration: float
    record_every: int = 1
    workspace: dict[str, float] | Callable[[float], dict[str, float]] | None = None
    energy_guard: harness.EnergyGuard | None = None
    warmup: Warmup | None = None

    def record(self, length: float, progress: Callable[[float], None] | None = None
               ) -> pd.DataFrame:
        """The loop stepped for ``length`` [s] from where it is, recorded and checked."""
        reach = self.workspace(length) if callable(self.workspace) else self.workspace
        return harness.run(self.loop, length, self.dt, self.record_every, progress=progress,
                           workspace=reach, energy_guard=self.energy_guard)


def run_scenario(run: ScenarioRun, duration: float | None = None, until: float | None = None,
                 progress: Callable[[float], None] | None = None) -> pd.DataFrame:
    """The wide trace (time x signal) of one run: ``duration`` [s] replaces its recorded
    length, ``until`` [s] ends it early. A run with a warm-up steps that first and records
    the rest from t = 0; where ``until`` ends the run before its end, the whole shortened
    run is recorded from its start instead."""
    length = duration or run.duration
    w = run.warmup
    if w is None or (until is not None and until < w.length + length):
        return run.record(harness.run_length((w.length if w else 0.0) + length, until),
                          progress)
    w.run()
    df = run.record(length, progress)
    df["time"] = df["time"] - df["time"].iloc[0]
    return df


@dataclass(frozen=True)
class Runner:
    """``run_one(params, scenario, implementation, contact, desc_dir, duration=None,
    until=None, progress=None, **options)``, one implementation's wide trace of one
    scenario, from a robot's ``make_loop``: the run it builds with ``options``, run by
    :func:`run_scenario`. A dataclass, not a closure, so that a task that runs it pickles
    (by its hook's qualified name) to its content address and to its worker."""

    make_loop: Callable[..., ScenarioRun]

    def __call__(self, params: Any, scenario: Any, implementation: str, contact: str,
                 desc_dir: Path, *, duration: float | None = None,
                 until: float | None = None, progress: Callable[[float], None] | None = None,
                 **options: Any) -> pd.DataFrame:
        built = self.make_loop(implementation, contact, scenario, params, desc_dir, **options)
        if not isinstance(built, ScenarioRun):
            raise PluginError(f"{self.make_loop.__module__}.make_loop must return a "
                              f"ScenarioRun (the loop and how it runs), not "
                              f"{type(built).__name__}")
        return run_scenario(built, duration, until, progress)


def refused(make_loop: Callable[..., Any], options: dict[str, Any]) -> list[str]:
    """The robot options among ``options`` that ``make_loop`` does not take."""
    params = inspect.signature(make_loop).parameters
    takes_any = any(p.kind is p.VAR_KEYWORD for p in params.values())
    return sorted(k for k in options
                  if k not in FRAMEWORK_KEYWORDS and not takes_any and k not in params)
