"""Robots as plugins: every robot dynval validates, its five paper robots included, is a
:class:`RobotSpec` registered under the entry point group ``dynval.robots``.

A package of one's own adds a robot without a line in dynval's tree:

    [project.entry-points."dynval.robots"]
    cartpole = "dynval_cartpole.spec:SPEC"

The spec names the robot's three packages (its parameters and descriptions, its
hand-rolled model, its declaration for the ladder); the framework reaches each by that
name, never by an import statement, and keys the robot's cached results by the files of
those packages. The order of the robots is fixed: the five paper robots as the papers are
listed, then every other robot by name. Nothing here imports a robot or an engine until a
robot is asked for (``dynval list`` loads only the specs)."""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass, replace
from functools import cache
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Any

GROUP = "dynval.robots"
PAPER_ROBOTS: tuple[str, ...] = ("landing_gear", "quadruped", "hopper", "rover", "hexapod")
# the three packages of a robot, by the layer of dynval each one stands in for
ROBOT_LAYERS: tuple[str, ...] = ("robots", "handrolled", "comparisons")


class UnknownRobotError(KeyError):
    """A robot name that no installed distribution registers."""

    def __str__(self) -> str:
        return self.args[0]


class PluginError(RuntimeError):
    """A registered robot whose spec cannot be loaded or is not a RobotSpec."""


@dataclass(frozen=True)
class RobotSpec:
    """A robot's declaration for dynval: what it is and where its three packages are.

    - ``robots``: the package of its parameters and descriptions: ``PARAMS`` and
      ``descriptions(p)`` in the package, ``params.table(p)``, and beside them its
      generated MJCF/URDF files and ``FRAMES.md``;
    - ``handrolled``: its hand-rolled model (no engine imported there);
    - ``comparisons``: its declaration for the ladder, ``LADDER`` (a
      ``dynval.comparisons.ladder.rungs.RobotLadder``: the scenarios, the audit, L3, L5's
      tables, the budget), with the modules ``scenarios`` and ``audit``, and where it has
      them ``signals``, ``mutants``, ``bench`` and ``baselines/<tier>.json``.

    ``distribution`` and ``version`` are filled in from the installed distribution that
    registers the spec."""

    name: str
    paper: str
    robots: str
    handrolled: str
    comparisons: str
    distribution: str = ""
    version: str = ""

    def package(self, layer: str) -> str:
        """The import name of the robot's package standing in for a layer of dynval."""
        if layer not in ROBOT_LAYERS:
            raise ValueError(f"a robot has no {layer!r} package (it has {', '.join(ROBOT_LAYERS)})")
        return getattr(self, layer)

    def module(self, layer: str, name: str = "") -> ModuleType:
        """A module of the robot (``module("comparisons", "scenarios")``), or the package."""
        return importlib.import_module(f"{self.package(layer)}.{name}" if name
                                       else self.package(layer))

    def declared(self, layer: str, module: str, name: str, what: str) -> Any:
        """``name`` of one of the robot's modules (``module`` "": the package), or one
        sentence naming the module and what it lacks: a plugin that misses a part the
        ladder needs stops there, not in a traceback mid-run."""
        where = f"{self.package(layer)}.{module}" if module else self.package(layer)
        try:
            found = self.module(layer, module)
        except ModuleNotFoundError as exc:
            if exc.name != where:
                raise
            raise PluginError(f"robot {self.name!r} ({self._from()}) has no module {where} "
                              f"(it declares {name}: {what})") from None
        if not hasattr(found, name):
            raise PluginError(f"robot {self.name!r} ({self._from()}): {where} has no {name} "
                              f"({what})")
        return getattr(found, name)

    def has_module(self, layer: str, name: str) -> bool:
        """Whether the robot has a module (an optional one: signals, mutants, bench)."""
        return importlib.util.find_spec(f"{self.package(layer)}.{name}") is not None

    def folder(self, layer: str) -> Path:
        """The folder of one of the robot's packages, found without importing it."""
        name = self.package(layer)
        try:
            found = importlib.util.find_spec(name)
        except ModuleNotFoundError:
            found = None
        if found is None or not found.submodule_search_locations:
            raise PluginError(f"robot {self.name!r} ({self._from()}) names the package "
                              f"{name!r}, which is not installed")
        return Path(next(iter(found.submodule_search_locations))).resolve()

    def folders(self) -> dict[str, Path]:
        """The robot's own folders by layer: what its cached results are keyed by."""
        return {layer: self.folder(layer) for layer in ROBOT_LAYERS}

    @property
    def ladder(self) -> Any:
        """The robot's ``LADDER`` (imports its comparison, hence the engines)."""
        return self.declared("comparisons", "", "LADDER",
                             "its declaration for the ladder, a ladder.RobotLadder")

    def _from(self) -> str:
        return f"distribution {self.distribution}" if self.distribution else "no distribution"


# --- the five paper robots (registered in dynval's own pyproject.toml) -------------------
def _paper(name: str, paper: str) -> RobotSpec:
    return RobotSpec(name, paper, f"dynval.robots.{name}", f"dynval.handrolled.{name}",
                     f"dynval.comparisons.{name}", "dynval")


LANDING_GEAR = _paper("landing_gear", "Melia Boix, Goh, McWhinnie: Helicopter lands on "
                      "uneven terrain by means of articulated robotic legs")
QUADRUPED = _paper("quadruped", "Sureshkumar, Harib, Oseni: Kinematic and dynamic analysis "
                   "of quadruped legged robots: a new formulation approach (ICINCO 2025); "
                   "masses and lengths of the Unitree A1")
HOPPER = _paper("hopper", "Bamyaci, Yazar, Yesiloglu: Modelling and Control of Single "
                "Legged Hopping Robot")
ROVER = _paper("rover", "Wasserman: Simulation and control of a passively articulated, "
               "segmented-body rover (MSc thesis, University of Maryland, 2007)")
HEXAPOD = _paper("hexapod", "Silva, Tenreiro Machado, Lopes: Modelling and simulation of "
                 "artificial locomotion systems (Robotica 23, 2005)")
_BUILT_IN = {s.name: s for s in (LANDING_GEAR, QUADRUPED, HOPPER, ROVER, HEXAPOD)}


# --- discovery ----------------------------------------------------------------------------
@cache
def _registered() -> dict[str, tuple[metadata.EntryPoint, ...]]:
    """Every entry point of the group by robot name (several where two distributions
    register one name)."""
    out: dict[str, list[metadata.EntryPoint]] = {}
    for ep in metadata.entry_points(group=GROUP):
        out.setdefault(ep.name, []).append(ep)
    return {k: tuple(v) for k, v in out.items()}


def robot_names() -> tuple[str, ...]:
    """The registered robots: the five paper robots in the papers' order, then the
    others by name. A source tree run without install metadata still has the five."""
    found = set(_registered())
    return (*PAPER_ROBOTS, *sorted(found - set(PAPER_ROBOTS)))


def _distribution(ep: metadata.EntryPoint) -> tuple[str, str]:
    dist = getattr(ep, "dist", None)
    if dist is None:
        return "", ""
    return dist.metadata["Name"] or "", dist.version or ""


@cache
def spec(name: str) -> RobotSpec:
    """The spec of a registered robot, or one clear sentence: an unknown robot (naming
    the known ones), or a plugin that does not load (naming its distribution)."""
    eps = _registered().get(name, ())
    if not eps:
        if name in _BUILT_IN:
            return _BUILT_IN[name]
        raise UnknownRobotError(f"unknown robot {name!r}; known robots: "
                                f"{', '.join(robot_names())}")
    dists = [_distribution(ep) for ep in eps]
    if len({d for d, _ in dists}) > 1:
        raise PluginError(f"robot {name!r} is registered by more than one distribution "
                          f"({', '.join(sorted({d or '?' for d, _ in dists}))}); uninstall "
                          "all but one")
    ep, (dist, version) = eps[0], dists[0]
    where = f"distribution {dist} {version}".rstrip() if dist else "no distribution"
    try:
        found = ep.load()
    except Exception as exc:  # a plugin's own fault, whatever it is: said in one sentence
        raise PluginError(f"robot plugin {name!r} ({where}) failed to load "
                          f"{ep.value!r}: {type(exc).__name__}: {exc}") from exc
    if not isinstance(found, RobotSpec):
        raise PluginError(f"robot plugin {name!r} ({where}) registers {ep.value!r}, which "
                          f"is a {type(found).__name__}, not a dynval.plugins.RobotSpec")
    if found.name != name:
        raise PluginError(f"robot plugin {name!r} ({where}) registers a spec named "
                          f"{found.name!r}; the entry point's name and the spec's must agree")
    return replace(found, distribution=dist or found.distribution,
                   version=version or found.version)


def robot_folders(robots: tuple[str, ...]) -> dict[str, dict[str, Path]]:
    """Each robot's own folders by layer; a robot whose spec or packages cannot be found
    has none here (it fails with its own sentence when it is run)."""
    out = {}
    for r in robots:
        try:
            out[r] = spec(r).folders()
        except (PluginError, UnknownRobotError):
            continue
    return out
