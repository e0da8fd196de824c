"""``dynval check``: the figures recomputed (or read from a finished run) and held to
their baselines, or the baselines rewritten; for the built-in robots or a user's model."""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

from rich.table import Table

from dynval.comparisons.commands.exits import UserError
from dynval.comparisons.commands.terminal import say, stdout
from dynval.comparisons.commands.validation import cache_held, run_ladder
from dynval.comparisons.ladder.overrides import Override
from dynval.comparisons.run.defaults import MODEL_SAMPLES, ROBOT_SAMPLES


def check(baseline: Path | None, junit: Path | None, out: Path, overrides: Sequence[Override],
          robot: list[str] | None, scenario: list[str] | None, update: bool, tier: str,
          run_dir: Path | None, workers: int | None, scheduler: str | None, no_cache: bool,
          model: str | None, description: Path | None, samples: int | None, seed: int,
          force: bool) -> int:
    """1 when a figure moved past its baseline; 0 when none did or the baselines were
    written.  The audit draws ``samples`` states (default: those the shipped baselines
    were computed with, run.defaults) from ``seed``."""
    from dynval.comparisons.run.options import check_options

    prepare_junit(junit)
    own = model is not None or description is not None
    if samples is None:
        samples = MODEL_SAMPLES if own else ROBOT_SAMPLES
    if run_dir is None:
        check_options(workers, scheduler, tier, samples, seed)
    if own:
        if model is None or description is None or robot or run_dir is not None:
            raise UserError("check --model takes --description, and no --robot or --run")
        return _check_model(model, description, baseline or Path("dynval-baselines"),
                            update, tier, junit, samples, seed)
    return _check_robots(baseline, junit, out, overrides, robot, scenario, update, tier,
                         run_dir, workers, scheduler, no_cache, force, samples, seed)


def _check_model(model: str, description: Path, directory: Path, update: bool, tier: str,
                 junit: Path | None, samples: int, seed: int) -> int:
    from dynval.comparisons.own_model.run import audit_files, rows_and_chapter
    from dynval.comparisons.run.check import load_baselines, write_baselines
    from dynval.results import metrics_frame

    audit = audit_files(model, description, samples, seed)
    metrics = metrics_frame(rows_and_chapter(audit)[0])
    if update:
        for path in write_baselines(metrics, directory, tier):
            say(f"wrote {path}")
        return 0
    return gate(metrics, load_baselines(directory, [audit.label]), (), directory, tier, junit)


def _check_robots(directory: Path | None, junit: Path | None, out: Path,
                  overrides: Sequence[Override], robot: list[str] | None,
                  scenario: list[str] | None,
                  update: bool, tier: str, run_dir: Path | None, workers: int | None,
                  scheduler: str | None, no_cache: bool, force: bool, samples: int,
                  seed: int) -> int:
    from dynval.comparisons.run.check import (
        SPREAD_STEPS,
        baseline_file,
        finished_run,
        load_baselines,
        perturbed_overrides,
        spreads,
        subset_scope,
        write_baselines,
    )
    from dynval.plugins import PAPER_ROBOTS
    from dynval.robots import ROBOT_NAMES, robot_module

    for r in robot or []:
        robot_module(r)  # an unknown robot is named as such, not as a missing baseline
    # by default the paper robots, and a plugin where it ships a baseline for the tier
    robots = robot or [r for r in ROBOT_NAMES
                       if r in PAPER_ROBOTS or baseline_file(directory, r, tier).is_file()]
    if run_dir is not None:
        if update:
            raise UserError("--update recomputes the figures; it does not take --run")
        metrics, tier = finished_run(run_dir)
        robots = robot or sorted(set(metrics["robot"]))
    if not update:
        base = load_baselines(directory, robots, tier)  # fail fast on a corrupt baseline
    if run_dir is None:
        with cache_held(no_cache):
            metrics = run_ladder(out, overrides, robots, scenario, samples, seed, tier,
                                 workers, scheduler, no_cache, force)
            if update:  # each figure's spread, from runs with every parameter moved
                moved = [run_ladder(out / f"spread{step:g}", overrides, robots, scenario,
                                    samples, seed, tier, workers, scheduler, no_cache,
                                    force, perturb=perturbed_overrides(robots, overrides, step))
                         for step in SPREAD_STEPS]
    if update:
        for path in write_baselines(metrics, directory, tier, spreads(metrics, moved)):
            say(f"wrote {path}")
        return 0
    skipped, partial = subset_scope(robots, scenario, metrics, base)
    return gate(metrics, base, skipped, directory, tier, junit, partial)


def gate(metrics, base: dict, skipped: tuple[str, ...], directory: Path | None, tier: str,
         junit: Path | None, partial: tuple[str, ...] = ()) -> int:
    """Every figure against its baseline: the table of those that moved; 1 if any."""
    from dynval.comparisons.run.check import (
        KEY,
        REGRESSIONS,
        SPREAD_DELTA,
        baselines_named,
        compare_to_baseline,
        write_junit,
    )

    findings = compare_to_baseline(metrics, base, skipped, partial)
    not_run = sum(f.status == "not run" for f in findings)
    if not_run:
        say(f"{not_run} figures of studies this subset ran in part were not run "
            "(a check without --scenario runs them all)")
    findings = [f for f in findings if f.status != "not run"]
    bad = [f for f in findings if f.status in REGRESSIONS]
    loose = sum(f.status == "ill-posed" for f in findings)
    if loose:
        say(f"{loose} figures are reported, not gated: a change of {SPREAD_DELTA:g} of the "
            "parameters moved each by its own size when the baselines were written "
            "(ill-posed: amplified round-off)")
    table = Table("status", *KEY, "baseline", "current",
                  title=f"{len(bad)} of {len(findings)} figures moved")
    for f in bad:
        table.add_row(f.status, *[str(k) for k in f.key], _fmt(f.baseline), _fmt(f.current))
    if bad:
        stdout().print(table)
    say(f"{len(bad)} of {len(findings)} figures moved, failed, went missing or "
        f"are new against {baselines_named(directory, tier)}")
    if junit:
        write_junit(findings, junit)
    return 1 if bad else 0


def _fmt(v) -> str:
    return "-" if v is None else f"{v:.6g}"


def prepare_junit(path: Path | None) -> None:
    """Before a check runs: the JUnit file's folder must take a file, and a report left by
    an earlier check is removed, so a check that fails to run never leaves a passing one."""
    if path is None:
        return
    folder = path.parent
    if not folder.is_dir():
        raise UserError(f"cannot write the JUnit report {path}: the folder {folder} does not "
                        "exist")
    if path.is_dir():
        raise UserError(f"cannot write the JUnit report {path}: it is a folder")
    try:
        tempfile.TemporaryFile(dir=folder).close()
        path.unlink(missing_ok=True)
    except OSError as exc:
        raise UserError(f"cannot write the JUnit report {path}: {exc.strerror or exc}") from None
