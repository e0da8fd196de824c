"""``--set ROBOT.PARAMETER=VALUE``: parsed once, where the input enters (the command line,
the Python API), into typed :class:`Override` values that the plan, the sweep, the
spread runs and the manifest all use.  Parsing checks the form, the robot, the
parameter, the value's type and its declared range; applying one only replaces a field.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, fields, replace
from typing import Any

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
    if kind == "integer" and number.is_integer():
        return int(number)
    return number


def parse_overrides(items: Iterable[str | Override]) -> tuple[Override, ...]:
    """Every ``ROBOT.PARAMETER=VALUE`` as an Override, each robot's together checked
    against its parameters' declared units and ranges; an Override given is kept as it
    is (already parsed)."""
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
