"""A robot's compiled code and results are keyed by its source set: the framework's files
and the robot's own folders (robots/<r>, handrolled/<r>, comparisons/<r>), as the layout
declares them (``dynval._layout.source_sets``), not as import statements list them. An
edit to one robot moves that robot's set only, so the next run recompiles and recomputes
that robot alone; an edit to the framework moves every set; the command line and the
report are in none. Checked on a copy of dynval laid out as the wheel installs it, in a
fresh process per reading (nothing is compiled: the folders are numba's cache paths)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dynval import _layout

_READ = """
import json
from dynval import _layout, _numba_cache
from dynval.handrolled import so3
from dynval.handrolled.hopper.fast import loop as fastloop
from dynval.handrolled.landing_gear import contact
print(json.dumps({"sets": _layout.source_sets(), "folders": {
    "so3": so3.skew._cache._cache_path, "hopper": fastloop.named._cache._cache_path,
    "landing_gear": contact._forces._cache._cache_path}}))
"""


def _read(src: Path, tmp: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(src), "NUMBA_CACHE_DIR": str(tmp / "numba")}
    done = subprocess.run([sys.executable, "-c", _READ], env=env, cwd=src,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def _comment(path: Path) -> None:
    path.write_text(path.read_text() + "\n# an edit that changes no code\n")


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("sets")
    _layout.copy_as_installed(tmp / "src")
    return tmp / "src", tmp


def test_an_edit_to_one_robot_moves_its_set_and_its_compiled_code_only(copy):
    src, tmp = copy
    before = _read(src, tmp)
    robots = set(_layout.robot_names())
    assert set(before["sets"]) == {"null", *robots}  # null: the framework's
    _comment(src / "dynval" / "handrolled" / "hopper" / "contact.py")
    after = _read(src, tmp)
    moved = {k for k in before["sets"] if before["sets"][k] != after["sets"][k]}
    assert moved == {"hopper"}
    folders = before["folders"], after["folders"]
    assert folders[0]["so3"] == folders[1]["so3"]  # the framework's compiled code stays
    assert folders[0]["landing_gear"] == folders[1]["landing_gear"]  # another robot's too
    assert folders[0]["hopper"] != folders[1]["hopper"]  # the robot edited compiles anew
    root = Path(folders[1]["so3"]).parent
    assert Path(folders[1]["hopper"]).parent == root / f"hopper-{after['sets']['hopper']}"
    assert root.name == after["sets"]["null"]


@pytest.mark.parametrize("edited, moves", [
    ("comparisons/hexapod/validate.py", {"hexapod"}),
    ("robots/rover/params.py", {"rover"}),
    ("engines/base.py", "all"),  # the framework: every set
    ("comparisons/ladder/rungs.py", "all"),
    ("comparisons/cli.py", set()),  # the command line and the report: none
    ("comparisons/commands/check.py", set()),
    ("reports/pdf.py", set()),
])
def test_which_sets_an_edit_moves(copy, edited, moves):
    src, tmp = copy
    before = _read(src, tmp)["sets"]
    _comment(src / "dynval" / edited)
    after = _read(src, tmp)["sets"]
    moved = {k for k in before if before[k] != after[k]}
    assert moved == (set(before) if moves == "all" else moves)
