"""Robot registry: one folder per robot with its parameters (single source of truth),
generated MJCF and URDF files, and its frame conventions. The robots are those registered
under the entry point group ``dynval.robots`` (``dynval.plugins``): the five paper robots,
whose folders are here, and any a package of one's own adds."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from dynval.plugins import UnknownRobotError, robot_names, spec

__all__ = ["ROBOT_NAMES", "ROOT", "Param", "UnknownRobotError", "description_path",
           "robot_dir", "robot_module"]

ROBOT_NAMES: tuple[str, ...] = robot_names()
ROOT = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Param:
    """One parameter for a robot's table: symbol, value, unit and where it comes from."""

    symbol: str
    value: float
    unit: str
    source: str


def side_sign(leg: str) -> float:
    """+1 for a left leg, -1 for a right one.

    One leg-naming convention for every robot: side first, then front, middle or back
    (``LF``, ``RF``, ``LM``, ``RM``, ``LB``, ``RB``; the middle legs are the hexapod's);
    each robot's frames say which body axis "left" and "front" point along."""
    if len(leg) != 2 or leg[0] not in "LR" or leg[1] not in "FMB":
        raise ValueError(f"leg name {leg!r} is not side (L/R) then front/middle/back (F/M/B)")
    return 1.0 if leg[0] == "L" else -1.0


def front_sign(leg: str) -> float:
    """+1 for a front leg, -1 for a back one, 0 for a middle one (the convention of
    :func:`side_sign`)."""
    side_sign(leg)  # validates the name
    return {"F": 1.0, "M": 0.0, "B": -1.0}[leg[1]]


def robot_module(name: str) -> ModuleType:
    """The robot's parameters-and-descriptions package (``dynval.robots.<name>`` for a
    paper robot), or a clear error naming the known robots or the failing plugin."""
    return spec(name).module("robots")


def robot_dir(name: str) -> Path:
    """The folder of that package: its description files and FRAMES.md."""
    return spec(name).folder("robots")


def description_path(robot: str, stem: str, kind: str) -> Path:
    """Path of a shipped description file; ``kind`` is "mjcf" or "urdf"."""
    ext = {"mjcf": ".xml", "urdf": ".urdf"}[kind]
    return robot_dir(robot) / f"{stem}{ext}"
