"""Write (or check) every robot's MJCF and URDF from its parameter module.

    python -m dynval.robots.generate          # rewrite the files
    python -m dynval.robots.generate --check  # exit 1 if a shipped file is out of date
    python -m dynval.robots.generate --robot cartpole  # one robot's only (a plugin's)

A plugin's files are written into its robot package's folder: install the plugin
editable (``pip install -e``) to regenerate the files of its source.
"""

from __future__ import annotations

import sys

from dynval.robots import ROBOT_NAMES, description_path, robot_module
from dynval.robots.description import to_mjcf, to_urdf


def generated_files(robots: tuple[str, ...] = ROBOT_NAMES) -> dict:
    """Map of path -> text for every description of every robot named."""
    out = {}
    for robot in robots:
        for stem, desc in robot_module(robot).descriptions().items():
            writers = {"mjcf": to_mjcf, "urdf": to_urdf}
            for kind in desc.formats:
                out[description_path(robot, stem, kind)] = writers[kind](desc)
    return out


def main(argv: list[str]) -> int:
    check = "--check" in argv
    robots = tuple(argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--robot")
    stale = []
    for path, text in generated_files(robots or ROBOT_NAMES).items():
        if check:
            if not path.exists() or path.read_text() != text:
                stale.append(path)
        else:
            path.write_text(text)
    for path in stale:
        print(f"{path} is out of date with its parameters; run python -m dynval.robots.generate")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
