"""Install the toy pendulum into a copy of dynval laid out as the wheel installs it (the
layers inside ``dynval/``): the robot's three folders into their layer folders and its
name on the registry line, nothing else.

    python tests/toy_robot/install.py   # regenerate robots/pendulum's MJCF and URDF

(the descriptions are written by dynval's own ``python -m dynval.robots.generate`` in a
copy with the pendulum registered, then brought back here)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from dynval import _layout

TOY = Path(__file__).resolve().parent
NAME = "pendulum"
FOLDERS = tuple(f"{layer}/{NAME}" for layer in ("robots", "handrolled", "comparisons"))
REGISTRY = "robots/__init__.py"


def registered(line: str) -> str:
    """The registry line with the toy's name added to the tuple."""
    return line[:line.rindex(")")] + f', "{NAME}")'


copy_dynval = _layout.copy_as_installed  # dynval as the wheel lays it out


def install(pkg: Path) -> None:
    """The toy's three folders into ``pkg``'s layers, and its name on the registry line."""
    for folder in FOLDERS:
        shutil.copytree(TOY / folder, pkg / folder,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    registry = pkg / REGISTRY
    lines = registry.read_text().splitlines(keepends=True)
    (i,) = [i for i, line in enumerate(lines) if line.startswith("ROBOT_NAMES")]
    lines[i] = registered(lines[i].rstrip("\n")) + "\n"
    registry.write_text("".join(lines))


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        pkg = copy_dynval(Path(tmp))
        install(pkg)
        env = {**os.environ, "PYTHONPATH": tmp}
        subprocess.run([sys.executable, "-m", "dynval.robots.generate"], env=env, cwd=tmp,
                       check=True)
        for f in (pkg / "robots" / NAME).iterdir():
            if f.suffix in (".xml", ".urdf"):
                shutil.copy(f, TOY / "robots" / NAME / f.name)
                print(f"wrote {TOY / 'robots' / NAME / f.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
