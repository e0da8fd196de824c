"""Which robots dynval can validate, and the hooks each one gives the harness.

Adding a robot: a ``robots/<name>/`` folder, a ``handrolled/<name>`` module, and a
``comparisons/<name>`` package whose ``COMPARISON`` is a ``RobotComparison``."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from robots import ROBOT_NAMES, UnknownRobotError, robot_module


@dataclass(frozen=True)
class RobotComparison:
    name: str
    default_params: Any
    scenarios: dict[str, Any]
    implementations: tuple[str, ...]
    contact_modes: tuple[str, ...]
    validate: Callable[..., tuple[Any, dict]]
    run_one: Callable[..., Any]
    audit: Callable[..., list]
    # whether an implementation runs in a contact mode; by default the hand-rolled model
    # has only the paper's (shared) contact and the engines have both
    supports: Callable[[str, str], bool] = (
        lambda implementation, contact: implementation != "handrolled" or contact == "shared")


def comparison(robot: str) -> RobotComparison:
    """The comparison hooks of a registered robot."""
    robot_module(robot)  # raises UnknownRobotError with the list of robots
    return importlib.import_module(f"comparisons.{robot}").COMPARISON


class BadOverrideError(ValueError):
    pass


def apply_overrides(robot: str, params: Any, overrides: list[str]) -> Any:
    """Parameters with ``ROBOT.FIELD=VALUE`` overrides for this robot applied."""
    names = {f.name for f in fields(params)}
    changes = {}
    for item in overrides:
        key, sep, value = item.partition("=")
        r, dot, field = key.partition(".")
        if not sep or not dot:
            raise BadOverrideError(f"override {item!r} must read ROBOT.PARAMETER=VALUE")
        if r not in ROBOT_NAMES:
            raise UnknownRobotError(f"unknown robot {r!r} in override {item!r}")
        if r != robot:
            continue
        if field not in names:
            raise BadOverrideError(f"robot {robot} has no parameter {field!r} (override {item!r})")
        try:
            changes[field] = float(value)
        except ValueError:
            raise BadOverrideError(f"override {item!r}: {value!r} is not a number") from None
    return replace(params, **changes) if changes else params


def description_dir(robot: str, params: Any, default: Any, out: Path) -> Path:
    """The shipped description folder, or freshly generated files under ``out`` when the
    parameters differ from the shipped ones."""
    from robots import ROOT
    from robots.description import to_mjcf, to_urdf

    if params == default:
        return ROOT / robot
    d = out / "descriptions" / robot
    d.mkdir(parents=True, exist_ok=True)
    for stem, desc in robot_module(robot).descriptions(params).items():
        if "mjcf" in desc.formats:
            (d / f"{stem}.xml").write_text(to_mjcf(desc))
        (d / f"{stem}.urdf").write_text(to_urdf(desc))
    return d
