"""Which robots dynval can validate, and the hooks each one gives the harness.

Adding a robot: a ``robots/<name>/`` folder, a ``handrolled/<name>`` module, a
``comparisons/<name>`` package whose ``LADDER`` is a
``dynval.comparisons.ladder.rungs.RobotLadder``, and its name in ``dynval.robots.ROBOT_NAMES``.
A robot is reached by that name (``importlib``), never by an import statement: the
framework's import contracts forbid every robot's packages, whatever their names."""

from __future__ import annotations

import importlib
import re
from dataclasses import fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dynval.robots import ROBOT_NAMES, UnknownRobotError, robot_module
from dynval.robots.parameters import ParameterError, spec, validate_params

if TYPE_CHECKING:
    from dynval.comparisons.ladder.rungs import RobotLadder


def comparison(robot: str) -> RobotLadder:
    """The declaration of a registered robot (``comparisons.<robot>.LADDER``)."""
    robot_module(robot)  # raises UnknownRobotError with the list of robots
    return importlib.import_module(f"dynval.comparisons.{robot}").LADDER


class BadOverrideError(ValueError):
    """A ``--set`` override that is malformed, names no parameter or gives a value outside
    the parameter's declared range (one sentence)."""


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


def _override_value(params: Any, name: str, value: str, item: str) -> Any:
    """The override's text as the parameter's type: a name for a text or choice parameter,
    an int for a count (when the number is whole), a float otherwise. Ranges are checked
    afterwards by ``validate_params``, which also refuses NaN, infinities and fractions."""
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


def apply_overrides(robot: str, params: Any, overrides: list[str]) -> Any:
    """Parameters with the ``ROBOT.FIELD=VALUE`` overrides for this robot applied, checked
    against every parameter's declared unit and range before anything runs."""
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
        changes[field] = _override_value(params, field, value, item)
    new = replace(params, **changes) if changes else params
    try:
        validate_params(new)
    except ParameterError as exc:
        raise BadOverrideError(str(exc)) from None
    return new


def unused_overrides(robots: list[str], overrides: list[str],
                     scenarios: list[str] | None = None) -> list[str]:
    """A sentence for each override that what runs will not use: one for a robot not in
    the run, or a parameter that a scenario replaces with its own value (the rover's B and
    C scenarios run their own segment masses). Overrides are checked first
    (``apply_overrides``); this only says where a valid one has no effect."""
    out = []
    for item in overrides:
        key, _, _ = item.partition("=")
        robot, _, name = key.partition(".")
        if robot not in robots:
            out.append(f"override {item} is not used: {robot} is not in this run "
                       f"({', '.join(robots)})")
            continue
        ladder = comparison(robot)
        params = apply_overrides(robot, ladder.default_params, [item])
        for sc_name, sc in ladder.scenarios.items():
            if scenarios is not None and sc_name not in scenarios:
                continue
            ran = getattr(ladder.scenario_params(params, sc), name)
            if ran != getattr(params, name):
                out.append(f"override {item} is not used by {robot} {sc_name}: the scenario "
                           f"runs with its own {name} = {ran:g}")
    return out


def description_files(robot: str, params: Any, default: Any, out: Path
                      ) -> tuple[Path, dict[str, str]]:
    """The folder a run reads the robot's descriptions from, and the files (name -> text)
    to be written there first: the shipped folder and none where the parameters are the
    shipped ones, else ``out/descriptions/<robot>`` and the descriptions the parameters
    generate (``dynval.comparisons.run.descriptions`` writes them). A shipped file is
    checked against the parameters now: one edited by hand, or left stale after a
    parameter change, is refused with the file and its first differing line."""
    from dynval.robots import ROOT
    from dynval.robots.description import to_mjcf, to_urdf

    expected = {}
    for stem, desc in robot_module(robot).descriptions(params).items():
        if "mjcf" in desc.formats:
            expected[f"{stem}.xml"] = to_mjcf(desc)
        expected[f"{stem}.urdf"] = to_urdf(desc)
    if params == default:
        d = ROOT / robot
        for name, text in expected.items():
            _same_description(d / name, text)
        return d, {}
    return out / "descriptions" / robot, expected


def _same_description(path: Path, expected: str) -> None:
    """Refuse a description file that is not what the parameters generate."""
    from dynval.engines import DescriptionError

    if not path.is_file():
        raise DescriptionError(f"{path} is missing; run 'python -m dynval.robots.generate'")
    found = path.read_text()
    if found == expected:
        return
    for n, (a, b) in enumerate(zip(found.splitlines(), expected.splitlines(), strict=False), 1):
        if a != b:
            raise DescriptionError(
                f"{path} does not match the parameters at line {n}: the file has "
                f"{a.strip()!r}, the parameters give {b.strip()!r} (edited by hand or stale; "
                "run 'python -m dynval.robots.generate')")
    raise DescriptionError(f"{path} does not match the parameters (its length differs; run "
                           "'python -m dynval.robots.generate')")
