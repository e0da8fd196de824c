"""Validate robots end to end and store the figures the report and ``check`` read."""

from __future__ import annotations

import json
import platform
import subprocess
from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

import dynval
from dynval import _stored
from dynval.comparisons.ladder.overrides import Override
from dynval.comparisons.ladder.registry import apply_overrides, comparison
from dynval.comparisons.ladder.rungs import Inputs, RobotLadder
from dynval.comparisons.run import assembly, manifest
from dynval.comparisons.run.defaults import ROBOT_SAMPLES, SEED
from dynval.comparisons.run.descriptions import description_dir
from dynval.comparisons.run.tasks import Outcome, Report, execute
from dynval.results import MUTANTS_FILE, Chapter, metrics_frame
from dynval.robots import ROBOT_NAMES


def git_commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, cwd=Path(__file__).parent, check=True)
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def plan(robots: list[str] | None = None, scenarios: list[str] | None = None,
         overrides: Sequence[Override] | None = None, samples: int = ROBOT_SAMPLES,
         seed: int = SEED, out: Path = Path("dynval-out"), tier: str = "full"
         ) -> list[tuple[RobotLadder, Inputs]]:
    """Each robot's declaration and inputs (overrides applied; descriptions regenerated
    under ``out`` when the parameters differ from the shipped ones)."""
    plans = []
    for robot in robots or list(ROBOT_NAMES):
        ladder = comparison(robot)
        params = apply_overrides(robot, ladder.default_params, overrides or [])
        desc = description_dir(robot, params, ladder.default_params, out)
        plans.append((ladder, ladder.inputs(params, desc, scenarios, samples, seed, tier)))
    return plans


def validate_all(out: Path, robots: list[str] | None = None,
                 scenarios: list[str] | None = None, overrides: Sequence[Override] | None = None,
                 samples: int = ROBOT_SAMPLES, seed: int = SEED, *, tier: str = "full",
                 workers: int = 1,
                 scheduler: str | None = None, cache_dir: Path | None = None,
                 timings_path: Path | None = None, report: Report | None = None,
                 force: bool = False,
                 assembled: Callable[[Chapter], None] | None = None,
                 mutants: dict[str, list[Any]] | None = None) -> pd.DataFrame:
    """Run every rung of every robot as one graph of tasks; write the traces,
    metrics.parquet/json and summary.json.  With a ``cache_dir`` the tasks' results and
    each robot's assembled chapter are read from it where nothing they depend on changed
    (``dynval.comparisons.run.tasks``, ``dynval.comparisons.run.assembly``).
    ``assembled`` is given each chapter assembled afresh as soon as it is written (the
    report's figures can be drawn from it while the next robot is assembled); a chapter
    read from the assembly cache has its figures in the figure cache, as a rule.
    ``mutants`` (robot -> ``ladder.mutation.Mutant``s) are then run through the same graph
    and mutants.parquet written (``dynval.comparisons.run.mutants``)."""
    manifest.begin(out, force)  # an unwritable or foreign folder is found now
    started, checks_failed = manifest.now(), _stored.failures()
    plans = plan(robots, scenarios, overrides, samples, seed, out, tier)
    by_robot = [ladder.tasks(inp) for ladder, inp in plans]
    tasks = [t for robot_tasks in by_robot for t in robot_tasks]
    timings = load_timings(timings_path)
    outcomes = execute(tasks, workers, scheduler, cache_dir, report, timings)
    _store_timings(timings_path, timings, outcomes)
    summary = run_summary(tier, seed, plans[0][1].samples if plans else samples,
                          overrides or [], len(outcomes),
                          sum(o.cached for o in outcomes.values()))
    rows, rows_by_robot = [], []
    for (ladder, inp), robot_tasks in zip(plans, by_robot, strict=True):
        robot_rows, chapter, was_cached = assembly.assemble(ladder, inp, robot_tasks,
                                                            outcomes, out, cache_dir)
        rows += robot_rows
        rows_by_robot.append(robot_rows)
        summary["robots"][ladder.robot] = chapter.to_dict()
        if assembled is not None and not was_cached:  # as the report reads it back
            assembled(Chapter.from_dict(json.loads(json.dumps(
                summary["robots"][ladder.robot], default=_json_default))))
    if mutants:
        summary["mutants"] = _mutants(out, plans, rows_by_robot, outcomes, mutants,
                                      workers=workers,
                                      scheduler=scheduler, cache_dir=cache_dir, report=report,
                                      timings=timings)
    metrics = metrics_frame(rows)
    # the report's cover claims a recomputation's bits only when no entry failed its check
    summary["cache"] = {"checks_failed": _stored.failures() - checks_failed}
    write_results(out, metrics, summary)
    manifest.finish(out, "validate", started, {
        "robots": [ladder.robot for ladder, _ in plans], "scenarios": scenarios,
        "tier": tier, "samples": summary["samples"], "seed": seed,
        "overrides": [str(o) for o in overrides or []], "git_commit": summary["git_commit"],
        "source_digest": summary["source_digest"],
        "versions": summary["versions"]})
    return metrics


def _mutants(out: Path, plans: list[tuple[RobotLadder, Inputs]], rows_by_robot: list,
             outcomes: dict[str, Outcome], mutants: dict[str, list[Any]], **run: Any) -> dict:
    """Each robot's mutants through the graph: mutants.parquet written, and summary.json's
    record of them (the judged rows that cannot fail, the seconds each robot took)."""
    from dynval.comparisons.run import mutants as mutation

    results, cannot, seconds = [], [], {}
    for (ladder, inp), robot_rows in zip(plans, rows_by_robot, strict=True):
        got = mutation.run_robot(ladder, inp, robot_rows, outcomes,
                                 mutants.get(ladder.robot, []), **run)
        results += got
        cannot += mutation.cannot_fail(out, robot_rows, got)
        seconds[ladder.robot] = sum(c.seconds for c in got)
    table = mutation.table(results)
    manifest.write_atomic(out / MUTANTS_FILE,
                          lambda tmp: table.to_parquet(tmp, index=False))
    return {"caught": int(table["caught"].sum()), "total": len(table),
            "cannot_fail": cannot, "seconds": seconds, "rule": mutation.RULE}


def run_summary(tier: str, seed: int, samples: int, overrides: Sequence[Override], tasks: int,
                from_cache: int) -> dict:
    """summary.json's record of a run (code, machine, engines, inputs); the chapters go
    under "robots"."""
    from dynval._numba_cache import loaded_source
    from dynval.engines import versions

    return {"dynval_version": dynval.__version__, "git_commit": git_commit(),
            # the code this process loaded (the executor refuses workers that ran other
            # code): it names the code where git cannot (a wheel)
            "source_digest": loaded_source(),
            "date": date.today().isoformat(),
            "machine": f"{platform.system()} {platform.machine()}, "
                       f"Python {platform.python_version()}",
            "versions": {**versions(), "numpy": np.__version__},
            "tier": tier, "seed": seed, "samples": samples,
            "overrides": [str(o) for o in overrides],
            "tasks": {"total": tasks, "from_cache": from_cache}, "robots": {}}


def write_results(out: Path, metrics: pd.DataFrame, summary: dict) -> None:
    """metrics.parquet, metrics.json and summary.json, each written atomically."""
    manifest.write_atomic(out / "metrics.parquet",
                          lambda tmp: metrics.to_parquet(tmp, index=False))
    manifest.write_atomic(out / "metrics.json", lambda tmp: tmp.write_text(
        json.dumps(_records(metrics), indent=1)))
    manifest.write_atomic(out / "summary.json", lambda tmp: tmp.write_text(
        json.dumps(summary, indent=1, default=_json_default)))


# Seconds each task took on the development machine (compiling aside), shipped so that a
# first run on a new machine (no timings of its own yet) still starts the longest tasks
# first: with two workers, a 40 s task started last finishes 20 s after the rest.
SHIPPED_TIMINGS = Path(__file__).resolve().parent / "timings"


def load_timings(path: Path | None) -> dict[str, float]:
    """Seconds each task took when it last ran here, compiling aside (for the order tasks
    start in: ``tasks.interleaved``), over the shipped timings of the same tier where this
    machine has none of its own."""
    out = {}
    for source in ((SHIPPED_TIMINGS / path.name) if path else None, path):
        try:
            if source is not None and source.is_file():
                out.update(json.loads(source.read_text()))
        except (OSError, ValueError):
            continue
    return out


def _store_timings(path: Path | None, timings: dict[str, float],
                   outcomes: dict[str, Outcome]) -> None:
    if path is None:
        return
    # the compiling is the first task's of many that call a function: not the task's own
    timings.update({k: max(0.0, o.seconds - o.compile_seconds)  # CPU vs wall clock
                    for k, o in outcomes.items() if not o.cached})
    tmp = path.with_suffix(".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(timings, indent=0, sort_keys=True))
        tmp.replace(path)
    except OSError as exc:  # the order tasks start in next time: not worth a run
        if exc.errno not in _stored.UNWRITABLE:
            raise
        _stored.cannot_write(path, exc)


def _json_default(o):
    if isinstance(o, np.generic):
        return o.item()
    raise TypeError(f"cannot store {type(o).__name__} in summary.json")


def _records(metrics: pd.DataFrame) -> list[dict]:
    recs = metrics.to_dict(orient="records")
    for r in recs:
        for k, v in r.items():
            if isinstance(v, float) and not np.isfinite(v):
                r[k] = None
            elif isinstance(v, np.generic):
                r[k] = v.item()
    return recs
