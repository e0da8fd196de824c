"""Adding a robot means writing its three folders and one registry line, nothing else.

A toy robot (tests/toy_robot: a damped planar pendulum) is installed into a copy of
dynval laid out as the wheel installs it, and ``dynval validate`` runs it end to end in a
subprocess: the ladder, the task graph, the cache and the report come with the registry
line. The pendulum's hand model, MuJoCo and PyBullet must agree to round-off, and a
wrong mass in the hand model must make the run fail."""

from __future__ import annotations

import filecmp
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import tomllib

_spec = importlib.util.spec_from_file_location(
    "toy_robot_install", Path(__file__).parent / "toy_robot" / "install.py")
toy = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(toy)

WRONG_MASS = ("return m * l**2 + I  # eq. (1), left-hand side",
              "return 1.01 * m * l**2 + I  # eq. (1), left-hand side")


def _validate(root: Path, tmp: Path, out: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(root), "DYNVAL_CACHE": str(tmp / "cache"),
           "NUMBA_CACHE_DIR": str(tmp / "numba")}
    return subprocess.run(
        [sys.executable, "-m", "dynval.comparisons.cli", "validate", "--robot", "pendulum",
         "--tier", "ci", "--workers", "1", "--out", str(out)],
        env=env, cwd=root, capture_output=True, text=True, timeout=600)


def _changed(a: Path, b: Path) -> list[str]:
    """Files that differ between two trees, or are in one only (relative to them)."""
    cmp = filecmp.dircmp(a, b, ignore=["__pycache__"])
    out = [str(Path(a.name) / f) for f in cmp.left_only + cmp.right_only + cmp.diff_files]

    def walk(c: filecmp.dircmp, rel: Path) -> None:
        out.extend(str(rel / f) for f in c.left_only + c.right_only + c.diff_files)
        for name, sub in c.subdirs.items():
            walk(sub, rel / name)

    walk(cmp, Path())
    return sorted(set(out))


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, Path]:
    """A wheel-layout copy of dynval with the pendulum installed, and a pristine copy."""
    tmp = tmp_path_factory.mktemp("adding")
    pristine = toy.copy_dynval(tmp / "pristine")
    pkg = toy.copy_dynval(tmp / "src")
    toy.install(pkg)
    return pristine, pkg


def test_only_the_three_folders_and_the_registry_line(installed):
    pristine, pkg = installed
    assert _changed(pristine, pkg) == sorted([*toy.FOLDERS, toy.REGISTRY])
    diff = [(a, b) for a, b in zip((pristine / toy.REGISTRY).read_text().splitlines(),
                                   (pkg / toy.REGISTRY).read_text().splitlines(), strict=True)
            if a != b]
    assert len(diff) == 1 and diff[0][0].startswith("ROBOT_NAMES")
    assert diff[0][1] == toy.registered(diff[0][0])
    assert diff[0][1].endswith(', "pendulum")')


def test_shipped_robots_stay_five():
    from dynval.robots import ROBOT_NAMES
    assert "pendulum" not in ROBOT_NAMES and len(ROBOT_NAMES) == 5


def test_the_descriptions_are_generated(installed):
    """The toy's MJCF and URDF are what dynval's generator writes from its parameters."""
    _, pkg = installed
    env = {**os.environ, "PYTHONPATH": str(pkg.parent)}
    r = subprocess.run([sys.executable, "-m", "dynval.robots.generate", "--check"], env=env,
                       cwd=pkg.parent, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_validate_runs_the_new_robot(installed, tmp_path):
    pristine, pkg = installed
    out = tmp_path / "out"
    r = _validate(pkg.parent, tmp_path, out)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert _changed(pristine, pkg) == sorted([*toy.FOLDERS, toy.REGISTRY])  # wrote nothing
    summary = json.loads((out / "summary.json").read_text())
    chapter = summary["robots"]["pendulum"]
    for rung in ("L0", "L1", "L2", "L3"):
        assert chapter["rungs"][rung]["verdict"] == "agrees", (rung, chapter["rungs"][rung])
    rows = pd.read_parquet(out / "metrics.parquet")
    rows = rows[rows.robot == "pendulum"]
    # L3: the undamped swing, each engine's own integrator against the hand model's
    l3 = rows[(rows.rung == "L3") & rows.tolerance.notna()]
    assert set(l3.reference) >= {"mujoco (own integrator)", "pybullet (own integrator)"}
    assert (l3.value <= 1e-9).all(), l3[["reference", "value"]]
    # L4: the damped release, the first second (ci tier), hand model vs each engine
    angle = rows[(rows.rung == "L4") & (rows.signal == "joint.pivot.angle")
                 & (rows.metric == "max_abs")]
    assert set(angle.candidate) == {"handrolled", "pybullet"}
    assert (angle.value <= 1e-9).all(), angle[["candidate", "value"]]
    assert (out / "report.pdf").is_file()


def test_a_wrong_mass_fails(installed, tmp_path):
    """1 % more m l^2 in the hand model's eq. (1): the audit and the swings see it."""
    _, pkg = installed
    law = pkg / "handrolled" / "pendulum" / "model.py"
    text = law.read_text()
    assert WRONG_MASS[0] in text
    law.write_text(text.replace(*WRONG_MASS))
    try:
        out = tmp_path / "out"
        r = _validate(pkg.parent, tmp_path, out)
        assert r.returncode == 1, r.stdout[-3000:] + r.stderr[-3000:]
        chapter = json.loads((out / "summary.json").read_text())["robots"]["pendulum"]
        assert chapter["rungs"]["L2"]["verdict"] == "differs"
        assert chapter["rungs"]["L3"]["verdict"] == "differs"
    finally:
        law.write_text(text)


def test_the_new_robot_keeps_the_layer_contracts(installed):
    """Its hand model imports no engine, its parameters no model (pyproject.toml's
    import-linter contracts, run on the copy with the pendulum installed)."""
    _, pkg = installed
    env = {**os.environ, "PYTHONPATH": str(pkg.parent)}
    code = "from importlinter.cli import lint_imports_command; lint_imports_command()"
    pyproject = toy._layout.layer_dir("robots").parent / "pyproject.toml"
    r = subprocess.run([sys.executable, "-c", code, str(pyproject), "--no-cache"], env=env,
                       cwd=pkg.parent, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    declared = tomllib.loads(pyproject.read_text())["tool"]["importlinter"]["contracts"]
    assert f"{len(declared)} kept, 0 broken" in r.stdout
