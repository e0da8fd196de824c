"""``dynval validate``, ``run``, ``sweep``, ``report`` and ``list``: the runs of the
built-in robots through ``run/``, with progress on stderr, the report written and the
verdict line said."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.table import Table

from dynval import _stored
from dynval.comparisons.commands.exits import UserError
from dynval.comparisons.commands.terminal import console, say, stdout, warn
from dynval.comparisons.ladder.overrides import Override
from dynval.comparisons.run.progress import StepProgress, TaskProgress


def cache_held(no_cache: bool) -> contextlib.AbstractContextManager[None]:
    """Around a run: once it is done, the results cache back under its cap, least
    recently used first, keeping everything the run used."""
    from dynval.comparisons.run.validation import cache_held as held

    return held(not no_cache, say, warn)


def cores(workers: int | None) -> int:
    """The processes a run uses on this machine: ``--workers``, else every core."""
    return workers or os.cpu_count() or 1


def validate(out: Path, overrides: Sequence[Override], robot: list[str] | None,
             scenario: list[str] | None, samples: int, seed: int, tier: str,
             workers: int | None, scheduler: str | None, no_cache: bool, force: bool,
             mutants: str | None = None) -> int:
    """Every chosen robot through the ladder (with the ``mutants`` named, all or a comma
    list), then the report; 1 where a figure failed that is not a known difference."""
    from dynval.comparisons.run.tasks import default_cache_dir
    from dynval.reports import build_report
    from dynval.reports.figures import Prerender

    with cache_held(no_cache):
        n, cache_dir = cores(workers), None if no_cache else default_cache_dir()
        with Prerender(out, n, cache_dir) as ahead:  # each chapter's figures, once written
            metrics = run_ladder(out, overrides, robot, scenario, samples, seed, tier,
                                 workers, scheduler, no_cache, force, assembled=ahead.chapter,
                                 mutants=mutants)
        pdf = checked_report(lambda: build_report(out, workers=n, cache_dir=cache_dir))
        say(f"wrote {pdf}")
    if mutants:
        from dynval.comparisons.run.mutants import printed_summary

        for line in printed_summary(out):
            say(line)
    line, failed = verdict_line(out, metrics)
    say(line)
    return 1 if failed else 0


def run_ladder(out: Path, overrides: Sequence[Override], robot: list[str] | None,
               scenario: list[str] | None, samples: int, seed: int, tier: str = "full",
               workers: int | None = None, scheduler: str | None = None,
               no_cache: bool = False, force: bool = False,
               assembled: Callable | None = None, perturb: tuple[str, ...] | list[str] = (),
               mutants: str | None = None) -> Any:
    """The validation run (run.validation) with its options checked, unused overrides
    warned about and its progress shown; the metric table."""
    from dynval.comparisons.run.validation import check_validation, run_validation

    robots = check_validation(robot, scenario, overrides, samples, seed, tier, workers,
                              scheduler)
    chosen = _mutants_chosen(robots, mutants) if mutants is not None else None
    warn_unused(robots, overrides, scenario)
    with TaskProgress(console) as prog:
        return run_validation(out, robot, scenario, [*overrides, *perturb], samples, seed,
                              tier=tier, workers=workers, scheduler=scheduler,
                              cache=not no_cache, report=prog.report, force=force,
                              assembled=assembled, mutants=chosen)


def _mutants_chosen(robots: list[str], spec: str) -> dict:
    """The mutants ``--mutants`` names, by robot (a mistake for one no robot declares)."""
    from dynval.comparisons.ladder.mutation import UnknownMutantError, chosen

    try:
        return chosen(robots, spec)
    except UnknownMutantError as exc:
        raise UserError(str(exc)) from None


def checked_report(build: Callable[[], Path]) -> Path:
    """Build a report, then say how many of the drawn figures it read from the cache
    failed their content check and were drawn again, where any did (the cover says so
    too; the tasks' and chapters' count is the progress line's)."""
    before = _stored.failures()
    pdf = build()
    if _stored.failures() > before:
        say(f"the report's figures: {_stored.failed_sentence(_stored.failures() - before)}")
    return pdf


def verdict_line(out: Path, metrics) -> tuple[str, int]:
    """One line of counts per rung verdict and of figures outside tolerance: how many
    differ unexplained, how many are known by each kind of evidence, the scenarios not
    reproduced; and the number that fails the run (the unexplained ones)."""
    import json

    from dynval.results import summary_verdict

    v = summary_verdict(json.loads((out / "summary.json").read_text()), metrics)
    line = (f"verdict: {v.rung_counts()} (rungs); {v.outside_clause()}"
            + v.statements_clause()
            + (f"; {v.unexplained} unexplained: exit 1" if v.unexplained else ""))
    return line, v.unexplained


def warn_unused(robots: list[str], overrides: Sequence[Override],
                scenarios: list[str] | None) -> None:
    """Say which overrides what runs will not use (ladder.registry.unused_overrides)."""
    from dynval.comparisons.ladder.registry import unused_overrides

    for line in unused_overrides(robots, overrides, scenarios):
        warn(line)


def run_one(robot: str, scenario: str | None, engine: list[str] | None, contact: str,
            out: Path, overrides: Sequence[Override], force: bool) -> int:
    """One scenario of a robot with the hand-rolled model and the chosen engines."""
    from dynval.comparisons.run.single import prepare, run_scenario

    plan = prepare(robot, scenario, engine, contact, overrides)
    for e in plan.refused:
        say(f"{robot}: {e} runs with other contact than {contact!r}; not run")
    warn_unused([robot], overrides, [plan.scenario])
    with StepProgress(console) as prog:
        path = run_scenario(plan, out, force, prog.step)
    say(f"wrote {path}")
    return 0


def sweep(robot: str, scenario: str, vary: list[str], out: Path, overrides: Sequence[Override],
          tier: str, workers: int | None, scheduler: str | None, no_cache: bool,
          force: bool) -> int:
    """One scenario over a grid of values; sweep.parquet and sweep.pdf."""
    from dynval.comparisons.run.manifest import verify
    from dynval.comparisons.run.options import check_options
    from dynval.comparisons.run.sweep import sweep as run_sweep
    from dynval.comparisons.run.tasks import default_cache_dir
    from dynval.reports.sweep import build_sweep_report

    check_options(workers, scheduler, tier)
    with cache_held(no_cache):
        with TaskProgress(console) as prog:
            table = run_sweep(out, robot, scenario, vary, overrides, tier,
                              workers=cores(workers), scheduler=scheduler,
                              cache_dir=None if no_cache else default_cache_dir(),
                              report=prog.report, force=force)
        pdf = build_sweep_report(out, table, verify(out, kind="sweep"))
        say(f"wrote {out / 'sweep.parquet'} ({len(table)} rows) and {pdf}")
    return 0


def report(out: Path) -> int:
    """The PDF of the runs stored under ``out`` (a validation's or a sweep's)."""
    from dynval.comparisons.run.manifest import verify
    from dynval.comparisons.run.tasks import default_cache_dir
    from dynval.reports import build_report
    from dynval.reports.pdf import ReportInputError

    try:
        if (out / "sweep.parquet").is_file():  # a sweep folder: its own section
            from dynval.comparisons.run.sweep import load
            from dynval.reports.sweep import build_sweep_report

            table, m = load(out)
            say(f"wrote {build_sweep_report(out, table, m)}")
            return 0
        verify(out)
        pdf = checked_report(lambda: build_report(out, workers=cores(None),
                                                  cache_dir=default_cache_dir()))
    except ReportInputError as exc:
        raise UserError(str(exc)) from None
    say(f"wrote {pdf}")
    return 0


def listing() -> int:
    """Robots (each with the distribution that registers it, its version and its paper),
    their scenarios, the engines, and every parameter with unit and range. A robot plugin
    that does not load is listed with the sentence saying why, and the exit code is 1."""
    from dynval.comparisons.ladder.registry import comparison
    from dynval.engines import ENGINE_NAMES, TERM_ENGINES
    from dynval.plugins import PluginError, spec
    from dynval.robots import ROBOT_NAMES
    from dynval.robots.parameters import describe

    robots = Table("robot", "distribution", "version", "paper", title="robots")
    failed: list[str] = []
    loaded = []
    for robot in ROBOT_NAMES:
        try:
            s = spec(robot)
            comparison(robot)
        except PluginError as exc:
            failed.append(str(exc))
            robots.add_row(robot, "-", "-", f"failed to load: {exc}")
            continue
        loaded.append(robot)
        robots.add_row(robot, s.distribution or "-", s.version or "-", s.paper)
    stdout().print(robots)
    table = Table("robot", "scenario", "title")
    for robot in loaded:
        for name, sc in comparison(robot).scenarios.items():
            table.add_row(robot, name, sc.title)
    stdout().print(table)
    stdout().print(f"simulation engines: {', '.join(ENGINE_NAMES)}; "
                   f"dynamics-term engines: {', '.join(TERM_ENGINES)}")
    rows = [row for robot in loaded for row in describe(comparison(robot).default_params)]
    params = Table(title="parameters (--set ROBOT.PARAMETER=VALUE)")
    # the names --set needs, whole on any terminal; the descriptions wrap
    params.add_column("parameter", no_wrap=True,
                      min_width=max(len(r["parameter"]) for r in rows))
    for name in ("value", "unit", "valid range"):
        params.add_column(name, overflow="fold")
    params.add_column("description")
    for row in rows:
        params.add_row(row["parameter"], row["value"], row["unit"], row["range"],
                       row["description"])
    stdout().print(params)
    for sentence in failed:
        say(sentence)
    return 1 if failed else 0
