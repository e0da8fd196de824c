"""``--set ROBOT.PARAMETER=VALUE`` and ``--vary ROBOT.NAME=LO:HI:N``: parsed once, where
the input enters (the command line, the Python API), into typed :class:`Override` and
:class:`Axis` values that the plan, the sweep, the spread runs and the manifest all use.
Parsing checks the form, the robot, the parameter, the value's type and its declared
range (robots/<robot>/params.toml); applying one only replaces a field.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, fields, replace
from typing import Any

import numpy as np

from dynval.robots import ROBOT_NAMES, UnknownRobotError, robot_module
from dynval.robots.parameters import ParameterError, spec, validate_params


class BadOverrideError(ValueError):
    """A ``--set`` override that is malformed, names no parameter or gives a value outside
    the parameter's declared range (one sentence)."""


@dataclass(frozen=True)
class Override:
    """One robot parameter's value for a run, typed as the parameter is (a float, a
    whole count, or a name); ``text`` is how it was given, for the manifest."""

    robot: str
    name: str
    value: float | int | str
    text: str = field(default="", compare=False)

    def __str__(self) -> str:
        return self.text or f"{self.robot}.{self.name}={self.value!r}"


_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
                      r"|[+-]?(?:inf|nan)", re.IGNORECASE)


def decimal(text: str) -> float:
    """A number written in ASCII decimal (``1500``, ``-0.25``, ``1e-3``; ``inf`` and
    ``nan`` too, which the parameter's range then refuses by name), as a float;
    ValueError for anything else, such as full-width digits or ``1_5``, which Python's own
    float() would take."""
    if not _DECIMAL.fullmatch(text.strip()):
        raise ValueError(f"{text!r} is not a decimal number")
    return float(text)


def split_key(item: str, form: str, what: str = "override") -> tuple[str, str, str]:
    """``ROBOT.NAME=REST`` as (robot, name, rest), or one sentence saying the item (an
    override, or ``what`` it is) must read ``form``; the robot must be a known one."""
    key, sep, rest = item.partition("=")
    robot, dot, name = key.partition(".")
    if not sep or not dot:
        raise BadOverrideError(f"{what} {item!r} must read {form}")
    if robot not in ROBOT_NAMES:
        raise UnknownRobotError(f"unknown robot {robot!r} in {what} {item!r}")
    return robot, name, rest


def default_params(robot: str) -> Any:
    """A robot's parameters as shipped (its one source of truth)."""
    return robot_module(robot).PARAMS


def _typed(params: Any, name: str, value: str, item: str) -> float | int | str:
    """The override's text as the parameter's type: a name for a text or choice parameter,
    an int for a count (when the number is whole), a float otherwise. Ranges are checked
    by ``validate_params``, which also refuses NaN, infinities and fractions."""
    kind = spec(params, name).range.kind
    if kind in ("text", "choice"):
        return value.strip()
    try:
        number = decimal(value)
    except ValueError:
        raise BadOverrideError(f"override {item!r}: {value!r} is not a number written in "
                               "ASCII decimal (such as 1500, -0.25 or 1e-3)") from None
    return _count_if_whole(kind, number)


def _count_if_whole(kind: str, number: float) -> float | int:
    """An integer parameter's whole value as an int (a fraction stays a float, for the
    range check to refuse by name)."""
    return int(number) if kind == "integer" and number.is_integer() else number


def parse_overrides(items: Iterable[str | Override]) -> tuple[Override, ...]:
    """Every ``ROBOT.PARAMETER=VALUE`` as an Override, each robot's together checked
    against its parameters' declared units and ranges; an Override given is kept as it
    is (already parsed)."""
    items = list(items)
    if all(isinstance(item, Override) for item in items):
        return tuple(items)  # parsed already; applying them checks their combination
    out = []
    for item in items:
        if isinstance(item, Override):
            out.append(item)
            continue
        robot, name, value = split_key(item, "ROBOT.PARAMETER=VALUE")
        params = default_params(robot)
        if name not in {f.name for f in fields(params)}:
            raise BadOverrideError(f"robot {robot} has no parameter {name!r} "
                                   f"(override {item!r})")
        out.append(Override(robot, name, _typed(params, name, value, item), item))
    for robot in dict.fromkeys(o.robot for o in out):
        applied(robot, default_params(robot), out)
    return tuple(out)


def applied(robot: str, params: Any, overrides: Iterable[Override]) -> Any:
    """``params`` with the robot's overrides in place, checked against every parameter's
    declared range (a combination, or a sweep's point, may leave one)."""
    changes = {o.name: o.value for o in overrides if o.robot == robot}
    new = replace(params, **changes) if changes else params
    try:
        validate_params(new)
    except ParameterError as exc:
        raise BadOverrideError(str(exc)) from None
    return new


@dataclass(frozen=True)
class Axis:
    """A sweep's varied name and its values (``LO:HI:N``: N evenly spaced values, both ends
    in): a robot parameter's, typed and each in its declared range, or a field of the
    scenario's (``on_scenario``); ``text`` is how it was given, for the manifest."""

    robot: str
    name: str
    values: tuple[float | int, ...]
    on_scenario: bool
    text: str = field(default="", compare=False)

    def __str__(self) -> str:
        return self.text or (f"{self.robot}.{self.name}={self.values[0]:g}:"
                             f"{self.values[-1]:g}:{len(self.values)}")


def _grid(item: str, rng: str) -> tuple[float, ...]:
    """``LO:HI:N`` as its N values, or one sentence on what is wrong with it."""
    parts = rng.split(":")
    try:
        if len(parts) != 3:
            raise ValueError
        lo, hi, count = decimal(parts[0]), decimal(parts[1]), decimal(parts[2])
        if count < 1 or not count.is_integer() or not (np.isfinite(lo) and np.isfinite(hi)):
            raise ValueError
    except ValueError:
        raise BadOverrideError(f"--vary {item!r}: the range must read LO:HI:N with finite "
                               "LO, HI and a whole N of at least 1") from None
    n = int(count)
    return tuple(float(v) for v in (np.linspace(lo, hi, n) if n > 1 else [lo]))


def parse_axis(item: str | Axis, robot: str, params: Any, scenario: Any) -> Axis:
    """``ROBOT.NAME=LO:HI:N`` of the sweep of ``robot`` (its parameters ``params``, as the
    sweep's overrides leave them, and the swept ``scenario``) as an Axis, or one sentence
    on what is wrong; an Axis given is kept as it is (already parsed)."""
    if isinstance(item, Axis):
        return item
    r, name, rng = split_key(item, "ROBOT.NAME=LO:HI:N", "--vary")
    if r != robot:
        raise BadOverrideError(f"--vary {item!r} varies {r!r}, but the sweep runs {robot!r}")
    values = _grid(item, rng)
    on_param = name in {f.name for f in fields(params)}
    on_scenario = name in {f.name for f in fields(scenario)}
    if not (on_param or on_scenario):
        raise BadOverrideError(f"--vary {item!r}: {robot} has no parameter and the scenario "
                               f"no field named {name!r}")
    if on_param:
        kind = spec(params, name).range.kind
        if kind in ("text", "choice"):
            raise BadOverrideError(f"--vary {item!r}: {robot}.{name} is a name, not a "
                                   "number; give each value with --set")
        values = tuple(_count_if_whole(kind, v) for v in values)
        for v in values:  # every point in range now, not after the runs before it
            try:
                applied(robot, params, [Override(robot, name, v)])
            except BadOverrideError as exc:
                raise BadOverrideError(f"--vary {item!r}: {exc}") from None
    return Axis(robot, name, values, on_scenario and not on_param, item)
