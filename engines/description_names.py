"""A description named instead of given as a file: ``dynval audit --description ur5`` and
``dynval.audit(description="panda")`` find it in the installed example-robot-data.

The rule, first match wins (names compared without regard to case):

1. a file that exists is itself;
2. a URDF whose stem is the name (``panda`` -> ``panda_description/urdf/panda.urdf``,
   ``ur5_robot``);
3. a URDF whose stem is the name followed by ``_robot``, the ROS convention (``ur5`` ->
   ``ur_description/urdf/ur5_robot.urdf``);
4. the URDFs of the package folder ``<name>_description`` or ``<name>_data``: those whose
   stem starts with the name, else all of them (``hyq`` -> ``hyq_no_sensors.urdf``).

Where a step matches several files, the first in sorted order of their paths is taken and
a note says which and what else matched. A text that reads as a path (a folder in it, or a
``.urdf``/``.xml`` suffix) is never looked up: a missing file stays a missing file. A
name that matches nothing is a DescriptionError naming a few close names."""

from __future__ import annotations

import difflib
from pathlib import Path

from dynval.engines import DescriptionError

SUFFIXES = (".urdf", ".xml")
PACKAGE_ENDINGS = ("_description", "_data")
CLOSE = 5  # close names a failed lookup suggests


def find_description(text: Path | str) -> tuple[Path, str | None]:
    """The description file ``text`` names, and a note for the report where it was found
    by name (None for a file given as a path)."""
    path = Path(text)
    if path.is_file() or _reads_as_path(path):
        return path, None
    from dynval.engines.packages import example_robot_data_robots

    robots = example_robot_data_robots()
    if robots is None:
        raise DescriptionError(f"{text}: no such description file, and example-robot-data, "
                               "where a description is looked up by name, is not installed "
                               "(pip install example-robot-data)")
    files = sorted(p.relative_to(robots) for p in robots.rglob("*.urdf"))
    matches = _matches(str(text), files)
    if not matches:
        raise DescriptionError(_unknown(str(text), files))
    return robots / matches[0], _note(str(text), matches)


def _reads_as_path(path: Path) -> bool:
    """Whether the text names a file rather than a robot: a folder in it, or a
    description's suffix."""
    return len(path.parts) > 1 or path.suffix.lower() in SUFFIXES


def _matches(name: str, files: list[Path]) -> list[Path]:
    """The files of the first step of the module's rule that matches any (sorted)."""
    key = name.lower()
    packages = {f"{key}{ending}" for ending in PACKAGE_ENDINGS}
    in_package = [f for f in files if f.parts[0].lower() in packages]
    steps = ([f for f in files if f.stem.lower() == key],
             [f for f in files if f.stem.lower() == f"{key}_robot"],
             [f for f in in_package if f.stem.lower().startswith(key)] or in_package)
    return next((step for step in steps if step), [])


def _note(name: str, matches: list[Path]) -> str:
    """Where a name was found, and what else it matched."""
    found = f"{name}: example-robot-data's {matches[0].as_posix()}"
    if len(matches) == 1:
        return found
    others = ", ".join(m.as_posix() for m in matches[1:])
    return (f"{found}, the first in sorted order of the {len(matches)} that match (also "
            f"{others}; give a path to choose another)")


def _unknown(name: str, files: list[Path]) -> str:
    """One sentence for a name that matches nothing, with the closest names."""
    names = sorted({f.stem for f in files} | {_package(f) for f in files})
    close = difflib.get_close_matches(name, names, n=CLOSE, cutoff=0.5)
    said = (f"close names: {', '.join(close)}" if close
            else f"its names include {', '.join(names[:CLOSE])}")
    return (f"{name}: no such description file, nor a robot of example-robot-data by that "
            f"name ({said})")


def _package(file: Path) -> str:
    """A file's package folder less its ending (``ur_description`` -> ``ur``)."""
    folder = file.parts[0]
    for ending in PACKAGE_ENDINGS:
        folder = folder.removesuffix(ending)
    return folder
