"""The layers' import contracts (pyproject.toml, [tool.importlinter]): the hand-rolled models
import no engine, the engines no model, results and reports nothing above them, and the
run layer and the ladder framework no robot, a readable model no compiled copy of itself.
Checked with import-linter on dynval's source laid out as the wheel installs it (the
layers inside ``dynval/``), since the development tree maps them there from the repository
root."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import tomllib

from dynval import _layout

PYPROJECT = _layout.layer_dir("robots").parent / "pyproject.toml"


def contracts() -> int:
    """How many import contracts pyproject.toml declares."""
    return len(tomllib.loads(PYPROJECT.read_text())["tool"]["importlinter"]["contracts"])


def _lint(src: Path, config: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(src)}
    code = "from importlinter.cli import lint_imports_command; lint_imports_command()"
    return subprocess.run([sys.executable, "-c", code, str(config), "--no-cache"], env=env,
                          cwd=src, capture_output=True, text=True)


def test_the_layers_keep_their_import_contracts(tmp_path):
    _layout.copy_as_installed(tmp_path)
    done = _lint(tmp_path, PYPROJECT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{contracts()} kept, 0 broken" in done.stdout


def test_a_model_that_imports_an_engine_breaks_its_contract(tmp_path):
    _layout.copy_as_installed(tmp_path)
    law = tmp_path / "dynval" / "handrolled" / "so3.py"
    law.write_text(law.read_text() + "\nimport dynval.engines.mujoco_engine  # noqa\n")
    done = _lint(tmp_path, PYPROJECT)
    assert done.returncode != 0
    assert "dynval.handrolled.so3 -> dynval.engines.mujoco_engine" in done.stdout


def test_a_readable_model_that_imports_its_compiled_copy_breaks_its_contract(tmp_path):
    _layout.copy_as_installed(tmp_path)
    robot = tmp_path / "dynval" / "handrolled" / "hexapod" / "robot.py"
    robot.write_text(robot.read_text()
                     + "\nimport dynval.handrolled.hexapod.fast.model  # noqa\n")
    done = _lint(tmp_path, PYPROJECT)
    assert done.returncode != 0
    assert "dynval.handrolled.hexapod.robot -> dynval.handrolled.hexapod.fast" in done.stdout
