"""Write (or check) every robot's MJCF and URDF from its parameter module, and the fields
its parameter class declares from its parameter table.

    python -m dynval.robots.generate          # rewrite the files
    python -m dynval.robots.generate --check  # exit 1 if a shipped file is out of date
    python -m dynval.robots.generate --robot cartpole  # one robot's only (a plugin's)

A plugin's files are written into its robot package's folder: install the plugin
editable (``pip install -e``) to regenerate the files of its source.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from dynval.robots import ROBOT_NAMES, description_path, robot_dir, robot_module
from dynval.robots.description import to_mjcf, to_urdf
from dynval.robots.parameters import FIELDS_BEGIN, FIELDS_END, TABLE, fields_block

_CLASS = re.compile(r'@parameter_class\nclass \w+:\n    """.*?"""\n', re.S)


def generated_files(robots: tuple[str, ...] = ROBOT_NAMES) -> dict:
    """Map of path -> text for every description of every robot named."""
    out = {}
    for robot in robots:
        for stem, desc in robot_module(robot).descriptions().items():
            writers = {"mjcf": to_mjcf, "urdf": to_urdf}
            for kind in desc.formats:
                out[description_path(robot, stem, kind)] = writers[kind](desc)
    return out


def with_fields(source: str, table: Path) -> str:
    """A parameter module's text with its class's fields written from its table: the
    block between FIELDS_BEGIN and FIELDS_END replaced, or put after the class's
    docstring where there is none yet."""
    block = fields_block(table)
    if FIELDS_BEGIN in source:
        a = source.index(FIELDS_BEGIN)
        b = source.index(FIELDS_END, a)
        return source[:a] + block + source[source.index("\n", b) + 1:]
    found = _CLASS.search(source)
    if found is None:
        raise ValueError(f"no @parameter_class class with a docstring beside {table}")
    return source[:found.end()] + "\n" + block + source[found.end():]


def parameter_modules(robots: tuple[str, ...]) -> dict:
    """Map of path -> text for every robot's parameter module with its fields written."""
    out = {}
    for robot in robots:  # found without importing it: its class checks these fields
        path = robot_dir(robot) / "params.py"
        out[path] = with_fields(path.read_text(), path.with_name(TABLE))
    return out


def main(argv: list[str]) -> int:
    check = "--check" in argv
    robots = tuple(argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--robot")
    chosen = robots or ROBOT_NAMES
    # the parameter classes first: a description is made from a class that must load
    stale = _written(parameter_modules(chosen), check)
    if not stale:
        stale = _written(generated_files(chosen), check)
    for path in stale:
        print(f"{path} is out of date with its parameters; run python -m dynval.robots.generate")
    return 1 if stale else 0


def _written(files: dict, check: bool) -> list[Path]:
    """Write each file's text, or with ``check`` list those whose text differs."""
    if check:
        return [path for path, text in files.items()
                if not path.exists() or path.read_text() != text]
    for path, text in files.items():
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
    return []


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
