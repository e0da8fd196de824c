"""A robot's chapter as independent pieces of work (``Task``s: pure function calls) that
the run layer executes on any back end or reads from its cache; the names here are the
keys the chapter's assembly (ladder.chapter) reads the outcomes by."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from dynval.comparisons.ladder import evidence
from dynval.comparisons.ladder.declared import Inputs, Variant
from dynval.comparisons.ladder.work import Task

if TYPE_CHECKING:
    from dynval.comparisons.ladder.rungs import RobotLadder


def tasks(ladder: RobotLadder, inp: Inputs) -> list[Task]:
    """Every independent piece of work of a robot's chapter: L0, the audit, L3, each
    implementation's run of each variant of each scenario, the robot's extra tasks, the
    perturbed runs of its chaos evidence and the readable runs of its compiled copy."""
    def task(name: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Task:
        return Task(f"{ladder.robot} {name}", ladder.robot, fn, args, kwargs,
                    inputs=(inp.desc_dir,))

    # a mutant reaches the hand-rolled runs only (its model tasks where it says so);
    # every other task takes the original inputs, and its cached result
    base, m = replace(inp, mutant=None), inp.mutant
    hand_p = inp.params if m is None else m.params(inp.params)
    hand_kw = {} if m is None else m.kwargs
    model = replace(base, params=hand_p) if m is not None and m.model_terms else base

    def run(key: str, sc: str, impl: str, contact: str, **kwargs: Any) -> Task:
        hand = impl == "handrolled"
        return task(key, ladder.run_one, hand_p if hand else inp.params, ladder.scenarios[sc],
                    impl, contact, inp.desc_dir, **kwargs, **(hand_kw if hand else {}))

    out = [task("L0 descriptions", ladder.l0_rows, base),
           task("L1/L2 audit", ladder.audit_terms, model), task("L3", ladder.l3, model)]
    for name in inp.scenarios:
        for variant in ladder.variants(ladder.scenarios[name]):
            out += [run(run_name(name, variant.name, impl), name, impl, contact,
                        until=inp.until) for impl, contact in variant.runs]
    out += [task(name, fn, *args, **kwargs)
            for name, (fn, args, kwargs) in ladder.extra_tasks(base).items()]
    out += [task(evidence.task_name(name), ladder.run_one, inp.params, ladder.scenarios[name],
                 ladder.chaos.implementation, ladder.chaos.contact, inp.desc_dir,
                 until=inp.until, **{ladder.chaos.keyword: ladder.chaos.shift})
            for name in _chaos_scenarios(ladder, inp)]
    out += [run(readable_name(name), name, "handrolled", "shared",
                until=ladder.readable_seconds, fast=False)
            for name in _readable_scenarios(ladder, inp)]
    return out


def _chaos_scenarios(ladder: RobotLadder, inp: Inputs) -> list[str]:
    """The scenarios that have a perturbed run: where the robot declares ``chaos``,
    every one with a run of the declared implementation and contact."""
    if ladder.chaos is None:
        return []
    run = (ladder.chaos.implementation, ladder.chaos.contact)
    return [name for name in inp.scenarios
            if any(run in v.runs for v in ladder.variants(ladder.scenarios[name]))]


def _readable_scenarios(ladder: RobotLadder, inp: Inputs) -> list[str]:
    """The scenarios whose hand-rolled run is held to its readable path: in the ci
    tier, every one with a shared-contact hand-rolled run, where the robot has a
    compiled copy."""
    if inp.tier != "ci" or ladder.readable_seconds is None:
        return []
    return [name for name in inp.scenarios
            if shared_variant(ladder.variants(ladder.scenarios[name])) is not None]


def run_name(scenario: str, variant: str, implementation: str) -> str:
    """The task name of one implementation's run of one variant of a scenario."""
    return f"{scenario} {variant} {implementation}"


def readable_name(scenario: str) -> str:
    """The task name of a scenario's hand-rolled run by its readable path."""
    return f"{scenario} handrolled readable"


def shared_variant(variants: list[Variant]) -> Variant | None:
    """The first variant in which the hand-rolled model runs with shared contact."""
    return next((v for v in variants if ("handrolled", "shared") in v.runs), None)
