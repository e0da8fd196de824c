"""One scenario of one robot with the hand-rolled model and the chosen engines, written as
a run folder: its traces and manifest (``dynval run``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dynval.comparisons.ladder.overrides import Override
from dynval.comparisons.run.options import RunOptionError


@dataclass(frozen=True)
class SingleRun:
    """What a single run will do, checked before it starts."""

    robot: str
    scenario: str
    contact: str
    engines: tuple[str, ...]  # as asked for
    impls: tuple[str, ...]  # what runs: the hand-rolled model and the engines that can
    refused: tuple[str, ...]  # engines asked for by default that cannot run this contact
    params: Any
    overrides: tuple[str, ...]


def prepare(robot: str, scenario: str | None, engines: list[str] | None, contact: str,
            overrides: Sequence[Override] | None) -> SingleRun:
    """The run of ``scenario`` (default: the robot's first) with ``engines`` (default:
    the engines the robot declares that run this contact mode); an engine named that cannot
    run the contact mode, an unknown scenario or contact mode, or a bad override is a
    RunOptionError (or the registry's own error)."""
    from dynval.comparisons.ladder.registry import apply_overrides, comparison
    from dynval.engines import check_engine

    comp = comparison(robot)
    if contact not in comp.contact_modes:
        raise RunOptionError(f"unknown contact mode {contact!r}; use one of "
                             f"{', '.join(comp.contact_modes)}")
    name = scenario or next(iter(comp.scenarios))
    if name not in comp.scenarios:
        raise RunOptionError(f"unknown scenario {name!r} for {robot}; known: "
                             f"{', '.join(comp.scenarios)}")
    declared = [i for i in comp.implementations if i != "handrolled"]
    chosen = [check_engine(e) for e in (engines or declared)]
    impls = [i for i in ["handrolled", *chosen] if comp.supports(i, contact)]
    refused = [e for e in chosen if e not in impls]
    if engines and refused:
        if refused[0] not in comp.implementations:
            raise RunOptionError(f"{robot}: {refused[0]} does not run its scenarios (the "
                                 f"engines that do: {', '.join(declared)})")
        raise RunOptionError(f"{robot}: {refused[0]} does not run with {contact} contact; "
                             f"use --contact {'native' if contact == 'shared' else 'shared'}")
    params = apply_overrides(robot, comp.default_params, overrides or [])
    return SingleRun(robot, name, contact, tuple(chosen), tuple(impls), tuple(refused),
                     params, tuple(str(o) for o in overrides or ()))


def run_scenario(run: SingleRun, out: Path, force: bool,
                 step: Callable[[str], Any]) -> Path:
    """Run every implementation of ``run`` (``step(label)`` gives each one's progress
    callback) and write the traces and the manifest into ``out``; the traces' path."""
    from dynval.comparisons.ladder import harness
    from dynval.comparisons.ladder.registry import comparison
    from dynval.comparisons.run import manifest
    from dynval.comparisons.run.descriptions import description_dir
    from dynval.results import traces_path

    comp = comparison(run.robot)
    manifest.begin(out, force)
    started = manifest.now()
    desc = description_dir(run.robot, run.params, comp.default_params, out)
    sc = comp.scenarios[run.scenario]
    wide = {impl: comp.run_one(run.params, sc, impl, run.contact, desc,
                               progress=step(f"{run.robot} {run.scenario} {impl}"))
            for impl in run.impls}
    path = traces_path(out, run.robot, run.scenario, run.contact)
    traces = harness.tidy(wide).assign(robot=run.robot, scenario=run.scenario,
                                       variant=run.contact)
    manifest.write_atomic(path, lambda tmp: traces.to_parquet(tmp, index=False))
    manifest.finish(out, "run", started, {"robot": run.robot, "scenario": run.scenario,
                                          "contact": run.contact,
                                          "engines": list(run.engines),
                                          "overrides": list(run.overrides)})
    return path
