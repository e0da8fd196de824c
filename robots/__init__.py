"""Robot registry: one folder per robot with its parameters (single source of truth),
generated MJCF and URDF files, and its frame conventions."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

ROBOT_NAMES: tuple[str, ...] = ("landing_gear", "quadruped", "hopper", "rover", "hexapod")
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


class UnknownRobotError(KeyError):
    """A robot name that is not in the registry."""

    def __str__(self) -> str:
        return self.args[0]


def robot_module(name: str) -> ModuleType:
    """The ``robots.<name>`` package, or a clear error naming the known robots."""
    if name not in ROBOT_NAMES:
        raise UnknownRobotError(
            f"unknown robot {name!r}; known robots: {', '.join(ROBOT_NAMES)}"
        )
    return importlib.import_module(f"dynval.robots.{name}")


def description_path(robot: str, stem: str, kind: str) -> Path:
    """Path of a shipped description file; ``kind`` is "mjcf" or "urdf"."""
    ext = {"mjcf": ".xml", "urdf": ".urdf"}[kind]
    return ROOT / robot / f"{stem}{ext}"
