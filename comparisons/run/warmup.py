"""``dynval warmup``: compile dynval's code once, after installing, so that the first
validation on a machine (or every run of a CI image built with it) does not.

dynval's loops are compiled (numba) on first use and kept in the compiled-code cache
(``dynval._numba_cache``). Which functions, and for which argument types, only running
them tells; so the warm-up runs every robot's ci-tier tasks (those ``dynval check``
runs), on every core, and keeps nothing but the compiled code: no results are cached."""

from __future__ import annotations

import tempfile
from pathlib import Path

from dynval.comparisons.run import pipeline
from dynval.comparisons.run.tasks import (
    ENVIRONMENT_ERRORS,
    Outcome,
    Report,
    default_cache_dir,
    execute,
)


class WarmupError(Exception):
    """A task of the warm-up failed for a reason of the machine (a missing library, a full
    disk): its code may not be compiled."""


def warmup(workers: int, robots: list[str] | None = None,
           report: Report | None = None) -> dict[str, Outcome]:
    """Run the ci-tier tasks of ``robots`` (all by default) for the code they compile; the
    outcomes are returned for their compile seconds and dropped."""
    with tempfile.TemporaryDirectory(prefix="dynval-warmup-") as out:
        plans = pipeline.plan(robots, out=Path(out), tier="ci")
        tasks = [t for ladder, inp in plans for t in ladder.tasks(inp)]
        timings = pipeline.load_timings(default_cache_dir() / "timings-ci.json")
        outcomes = execute(tasks, workers, report=report, timings=timings)
    broken = [o for o in outcomes.values() if isinstance(o.error, ENVIRONMENT_ERRORS)]
    if broken:
        o = broken[0]
        raise WarmupError(f"task {o.key} failed ({type(o.error).__name__}: {o.error}); "
                          "its code may not be compiled")
    return outcomes
