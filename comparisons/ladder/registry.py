"""Which robots dynval can validate, and the hooks each one gives the harness.

Adding a robot: a package of one's own with the robot's three packages (parameters and
descriptions, hand-rolled model, a comparison whose ``LADDER`` is a
``dynval.comparisons.ladder.rungs.RobotLadder``) and a ``dynval.plugins.RobotSpec``
registered under the entry point group ``dynval.robots``. A robot is reached by its name
through its spec, never by an import statement: the framework's import contracts forbid
every robot's packages, whatever their names."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dynval.comparisons.ladder.overrides import Override, applied, parse_overrides
from dynval.plugins import spec
from dynval.robots import robot_module

if TYPE_CHECKING:
    from dynval.comparisons.ladder.rungs import RobotLadder


def comparison(robot: str) -> RobotLadder:
    """The declaration of a registered robot (its comparison package's ``LADDER``);
    UnknownRobotError with the list of robots, or PluginError naming a failing plugin."""
    return spec(robot).ladder


def apply_overrides(robot: str, params: Any, overrides: Iterable[str | Override]) -> Any:
    """Parameters with this robot's overrides applied (``overrides.parse_overrides``: a
    text is parsed and checked once, an Override is used as it is), every parameter
    checked against its declared range."""
    return applied(robot, params, parse_overrides(overrides))


def unused_overrides(robots: list[str], overrides: Sequence[Override],
                     scenarios: list[str] | None = None) -> list[str]:
    """A sentence for each override that what runs will not use: one for a robot not in
    the run, or a parameter that a scenario replaces with its own value (the rover's B and
    C scenarios run their own segment masses). Overrides are checked first
    (``apply_overrides``); this only says where a valid one has no effect."""
    out = []
    for item in parse_overrides(overrides):
        robot, name = item.robot, item.name
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
    from dynval.robots import robot_dir
    from dynval.robots.description import to_mjcf, to_urdf

    expected = {}
    for stem, desc in robot_module(robot).descriptions(params).items():
        if "mjcf" in desc.formats:
            expected[f"{stem}.xml"] = to_mjcf(desc)
        expected[f"{stem}.urdf"] = to_urdf(desc)
    if params == default:
        d = robot_dir(robot)
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
