"""A run's options checked before any work starts: the numbers, the tier, the cache's cap,
the scheduler, the scenarios and the overrides.  A run that would fail on one of them
fails now, in one sentence, not after minutes of tasks."""

from __future__ import annotations

from collections.abc import Sequence

from dynval.comparisons.ladder.overrides import Override
from dynval.comparisons.ladder.registry import apply_overrides, comparison
from dynval.comparisons.ladder.rungs import TIERS
from dynval.comparisons.run.cache import CacheOptionError, max_size
from dynval.comparisons.run.tasks import check_scheduler


class RunOptionError(ValueError):
    """An option of a run that cannot be used, in one sentence."""


def check_options(workers: int | None, scheduler: str | None, tier: str | None = None,
                  samples: int = 1, seed: int = 0) -> None:
    """The options that need no robot; a scheduler must answer now, not after the tasks
    are planned."""
    if workers is not None and workers < 1:
        raise RunOptionError("--workers must be at least 1")
    if tier is not None and tier not in TIERS:
        raise RunOptionError(f"unknown tier {tier!r}; use one of {', '.join(TIERS)}")
    if samples < 1:
        raise RunOptionError(f"--samples must be at least 1 (got {samples})")
    cache_cap()
    if seed < 0:
        raise RunOptionError(f"--seed must be zero or positive (got {seed})")
    if scheduler is not None:
        try:
            check_scheduler(scheduler)
        except ValueError as exc:
            raise RunOptionError(str(exc)) from None


def cache_cap() -> int:
    """The results cache's size cap (DYNVAL_CACHE_MAX_SIZE)."""
    try:
        return max_size()
    except CacheOptionError as exc:
        raise RunOptionError(f"DYNVAL_CACHE_MAX_SIZE: {exc}") from None


def check_scenarios(robots: list[str], scenarios: list[str] | None, named: bool) -> None:
    """Every scenario asked for exists: with robots ``named`` (--robot), in each of them;
    otherwise in at least one robot."""
    known = {r: comparison(r).scenarios for r in robots}
    for s in scenarios or []:
        owners = [r for r in robots if s in known[r]]
        missing = [r for r in robots if s not in known[r]]
        if named and missing:
            r = missing[0]
            raise RunOptionError(f"unknown scenario {s!r} for {r}; known: "
                                 f"{', '.join(known[r])}")
        if not owners:
            raise RunOptionError(f"no robot has a scenario {s!r}; 'dynval list' shows "
                                 "them all")


def check_overrides(robots: list[str], overrides: Sequence[Override] | None) -> None:
    """Every --set valid for the robots it names (ladder.registry.BadOverrideError)."""
    for r in robots:
        apply_overrides(r, comparison(r).default_params, overrides or [])
