"""Mutants of a hand-rolled model: what a robot declares to show that its checks can fail.

A :class:`Mutant` changes the hand-rolled model only (a parameter scaled, a printed form of
an equation selected, a sign flipped by a declared switch of the model); the engines keep
the original description and parameters.  A robot declares its mutants in
``comparisons/<robot>/mutants.py`` (``MUTANTS``); :meth:`RobotLadder.tasks` gives the
hand-rolled tasks the mutated inputs (``Inputs.mutant``), so their cache keys name the
mutant, and ``dynval.comparisons.run.mutants`` runs the ladder once per mutant and
reports which rows catch each."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from dynval.plugins import spec as plugin_spec
from dynval.robots import robot_module


@dataclass(frozen=True)
class Mutant:
    """One wrong hand-rolled model.

    ``scale``: (parameter, factor) pairs applied to the hand-rolled model's parameters;
    ``run_kwargs``: keywords of the robot's ``make_loop`` given to the hand-rolled scenario
    runs only (a printed form, a flipped sign); ``model_terms``: whether the audit (L1/L2)
    and the contact-free trajectories (L3) see the scaled parameters too. That is right for
    what the engines read from the description files (a mass: the file keeps the original),
    not for what both sides of those tasks take from the parameters (a step, a contact
    law), which then reaches the scenario runs only."""

    name: str
    description: str
    scale: tuple[tuple[str, float], ...] = ()
    run_kwargs: tuple[tuple[str, Any], ...] = ()
    model_terms: bool = False

    def params(self, p: Any) -> Any:
        """The hand-rolled model's parameters under this mutant."""
        if not self.scale:
            return p
        return replace(p, **{name: getattr(p, name) * k for name, k in self.scale})

    @property
    def kwargs(self) -> dict[str, Any]:
        return dict(self.run_kwargs)


class UnknownMutantError(ValueError):
    """A ``--mutants`` name that no robot of the run declares (one sentence)."""


def declared(robot: str) -> dict[str, Mutant]:
    """The mutants a robot declares (its comparison package's ``mutants``), by name;
    none where it has no such module."""
    robot_module(robot)  # an unknown robot: UnknownRobotError naming the known ones
    if not plugin_spec(robot).has_module("comparisons", "mutants"):
        return {}
    module = plugin_spec(robot).module("comparisons", "mutants")
    return {m.name: m for m in module.MUTANTS}


def chosen(robots: list[str], spec: str) -> dict[str, list[Mutant]]:
    """The mutants ``spec`` names (``all``, or names separated by commas, each run on
    every robot of the run that declares it), by robot; UnknownMutantError for a name no
    robot of the run declares."""
    known = {r: declared(r) for r in robots}
    names = [n.strip() for n in spec.split(",") if n.strip()]
    if not names:
        raise UnknownMutantError("--mutants needs 'all' or mutant names separated by commas")
    if names == ["all"]:
        return {r: list(ms.values()) for r, ms in known.items()}
    everyone = sorted({n for ms in known.values() for n in ms})
    for n in names:
        if not any(n in ms for ms in known.values()):
            raise UnknownMutantError(
                f"unknown mutant {n!r} for {', '.join(robots)}; known: all, "
                + ", ".join(everyone))
    return {r: [ms[n] for n in names if n in ms] for r, ms in known.items()}
