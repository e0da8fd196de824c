"""``dynval sweep``: one scenario of one robot over a grid of parameter values, every
combination run by every implementation, on the same executor and cache as ``validate``.

A varied name is a parameter of the robot (``landing_gear.m_L``) or a field of the
scenario (``landing_gear.alpha_SL_deg``).  The result is a tidy table, one row per figure
per combination with the varied values as columns (``sweep.parquet``): each
implementation's requirement figures and the final value of the scenario's figure
signals, and each engine-backed implementation's agreement with the reference."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from dynval.comparisons.ladder.metrics import compare
from dynval.comparisons.ladder.overrides import Axis, BadOverrideError, Override, parse_axis
from dynval.comparisons.ladder.registry import apply_overrides, comparison
from dynval.comparisons.ladder.rungs import Context, Inputs, TimePlot
from dynval.comparisons.ladder.signals import UnknownSignalError, display
from dynval.comparisons.run import manifest
from dynval.comparisons.run.descriptions import description_dir
from dynval.comparisons.run.tasks import Report, Task, execute
from dynval.results import Chapter, MetricRow, metrics_frame

SWEEP_FILE = "sweep.parquet"


def sweep(out: Path, robot: str, scenario: str, specs: Sequence[str | Axis],
          overrides: Sequence[Override] | None = None, tier: str = "full", *, workers: int = 1,
          scheduler: str | None = None, cache_dir: Path | None = None,
          report: Report | None = None, force: bool = False) -> pd.DataFrame:
    """Run the grid of ``specs`` (``--vary`` as given, or parsed: overrides.parse_axis)
    and write ``sweep.parquet`` and the manifest under ``out``."""
    ladder = comparison(robot)
    if scenario not in ladder.scenarios:
        raise KeyError(f"unknown scenario {scenario!r} for {robot}; known: "
                       f"{', '.join(ladder.scenarios)}")
    base = apply_overrides(robot, ladder.default_params, overrides or [])
    sc0 = ladder.scenarios[scenario]
    axes = [parse_axis(s, robot, base, sc0) for s in specs]
    if not axes:
        raise BadOverrideError("a sweep needs at least one --vary ROBOT.NAME=LO:HI:N")
    manifest.begin(out, force)
    started = manifest.now()
    points = []  # (values, inputs, scenario)
    for k, values in enumerate(itertools.product(*(a.values for a in axes))):
        param_over = [Override(robot, a.name, v) for a, v in zip(axes, values, strict=True)
                      if not a.on_scenario]
        params = apply_overrides(robot, base, param_over)
        sc = dataclasses.replace(sc0, **{a.name: v for a, v in zip(axes, values, strict=True)
                                         if a.on_scenario})
        desc = description_dir(robot, params, ladder.default_params, out / f"point{k}")
        inp = Inputs(params, desc, (scenario,), 0, 0, tier)
        points.append((values, inp, sc))
    tasks = [Task(f"{robot} {scenario} [{_label(axes, values)}] {variant.name} {impl}", robot,
                  ladder.run_one, (inp.params, sc, impl, contact, inp.desc_dir),
                  {"until": inp.until}, (inp.desc_dir,))
             for values, inp, sc in points for variant in ladder.variants(sc)
             for impl, contact in variant.runs]
    outcomes = execute(tasks, workers, scheduler, cache_dir, report)
    frames = []
    for values, inp, sc in points:
        rows = _figures(ladder, inp, sc, {t.key: outcomes[t.key] for t in tasks
                                          if f"[{_label(axes, values)}]" in t.key}, axes,
                        values)
        df = metrics_frame(rows)
        for a, v in zip(axes, values, strict=True):
            df[a.name] = v
        frames.append(df)
    table = pd.concat(frames, ignore_index=True)
    manifest.write_atomic(out / SWEEP_FILE, lambda tmp: table.to_parquet(tmp, index=False))
    manifest.finish(out, "sweep", started, {
        "robot": robot, "scenario": scenario, "vary": [str(a) for a in axes],
        "overrides": [str(o) for o in overrides or []],
        "tier": tier, "axes": {a.name: list(a.values) for a in axes},
        "display": _display_units(table)})
    return table


def _display_units(table: pd.DataFrame) -> dict[str, list]:
    """Each final value's signal with the unit its figure shows and the factor from SI
    (degrees for angles: signals.display), for the report; undeclared signals in SI."""
    out = {}
    for s in sorted(set(table.loc[table["metric"] == "final_value", "signal"])):
        try:
            out[s] = list(display(s))
        except UnknownSignalError:
            out[s] = ["", 1.0]
    return out


def _label(axes: list[Axis], values: tuple[float, ...]) -> str:
    return ", ".join(f"{a.name}={v:g}" for a, v in zip(axes, values, strict=True))


def _figures(ladder, inp: Inputs, sc: Any, outcomes: dict, axes: list[Axis],
             values: tuple[float, ...]) -> list[MetricRow]:
    """The figures of one grid point: requirements and final values per implementation,
    agreement of each implementation with the reference."""
    ctx = Context(inp, Path("."), Chapter(ladder.robot, "", ""), {}, ladder.robot)
    label = _label(axes, values)
    rows: list[MetricRow] = []
    for variant in ladder.variants(sc):
        wide = {impl: outcomes[f"{ladder.robot} {sc.name} [{label}] {variant.name} {impl}"]
                .get() for impl in variant.implementations}
        plotted = [s for f in ladder.figures(ctx, sc, variant) if isinstance(f, TimePlot)
                   for s in f.signals]
        for impl, df in wide.items():
            rows += ladder.requirements(ctx, sc, variant, impl, df)
            rows += [MetricRow(ladder.robot, sc.name, "L4", variant.name, s, "-", impl,
                               "final_value", float(df[s].iloc[-1]), None, None,
                               "the signal at the end of the run", "recomputed")
                     for s in dict.fromkeys(plotted) if s in df]
        rows += compare(wide, ladder.robot, sc.name, variant.name,
                        ladder.compared_signals(sc, variant, wide), variant.reference,
                        [i for i in variant.implementations if i != variant.reference], {})
    return rows


def load(out: Path) -> tuple[pd.DataFrame, dict]:
    """A finished sweep folder's table and manifest."""
    m = manifest.verify(out, kind="sweep")
    return pd.read_parquet(out / SWEEP_FILE), m
