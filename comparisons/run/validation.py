"""A validation as ``dynval validate`` (and ``check``) and ``dynval.validate`` run it: the
options checked before any work, the task graph on the results cache, and the cache held
to its cap once a run is done."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pandas as pd

from dynval import _stored
from dynval.comparisons.ladder.overrides import Override
from dynval.comparisons.run import cache as results_cache
from dynval.comparisons.run.options import (
    cache_cap,
    check_options,
    check_overrides,
    check_scenarios,
)
from dynval.comparisons.run.pipeline import validate_all
from dynval.comparisons.run.tasks import Report, default_cache_dir
from dynval.results import Chapter
from dynval.robots import ROBOT_NAMES


def check_validation(robots: list[str] | None, scenarios: list[str] | None,
                     overrides: Sequence[Override] | None, samples: int, seed: int, tier: str,
                     workers: int | None, scheduler: str | None) -> list[str]:
    """Every option of a validation checked now, not after minutes of tasks (a
    RunOptionError or a BadOverrideError, one sentence); the robots it runs (all where
    none are named)."""
    chosen = robots or list(ROBOT_NAMES)
    check_scenarios(chosen, scenarios, named=bool(robots))
    check_options(workers, scheduler, tier, samples, seed)
    check_overrides(chosen, overrides)
    return chosen


def run_validation(out: Path, robots: list[str] | None, scenarios: list[str] | None,
                   overrides: Sequence[Override], samples: int, seed: int, *, tier: str,
                   workers: int | None, scheduler: str | None = None, cache: bool = True,
                   report: Report | None = None, force: bool = False,
                   assembled: Callable[[Chapter], None] | None = None,
                   mutants: dict | None = None) -> pd.DataFrame:
    """``validate_all`` with the command line's defaults: every core, the results cache
    (unless ``cache`` is False) and the tier's task timings kept beside it; ``mutants``
    (robot -> declared mutants) run after it (``dynval.comparisons.run.mutants``)."""
    return validate_all(out, robots, scenarios, overrides, samples, seed, tier=tier,
                        workers=workers or os.cpu_count() or 1, scheduler=scheduler,
                        cache_dir=default_cache_dir() if cache else None,
                        timings_path=default_cache_dir() / f"timings-{tier}.json",
                        report=report, force=force, assembled=assembled, mutants=mutants)


@contextlib.contextmanager
def cache_held(cache: bool, say: Callable[[str], None],
               warn: Callable[[str], None]) -> Iterator[None]:
    """Around a run: once it is done, the results cache back under its cap, least
    recently used first, keeping everything the run used; ``say`` how much went,
    ``warn`` where a file could not be removed (the run's results stand)."""
    since = time.time()
    yield
    if not cache:
        return
    if _stored.unwritable():  # a read-only cache: used as it is, nothing removed
        warn(_stored.unwritable())
        return
    cap = cache_cap()
    try:
        n, freed = results_cache.prune(default_cache_dir(), size=cap, keep_since=since)
        results_cache.remove_leftovers(default_cache_dir())
    except results_cache.CacheRemoveError as exc:
        warn(str(exc))
        return
    if n:
        say(f"results cache held to {results_cache.human(cap)}: {n} least recently used "
            f"entries removed ({results_cache.human(freed)})")
