"""``dynval warmup`` compiles what a run compiles, so that the run after it compiles
nothing (the closing line of its progress says how long its tasks spent compiling)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from typer.testing import CliRunner

from dynval.comparisons.cli import app


def _dynval(args: list[str], env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-m", "dynval.comparisons.cli", *args], env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stderr


def _compiling(log: str) -> float:
    found = re.search(r"; ([0-9.]+) s of the tasks' CPU time spent compiling", log)
    assert found, log
    return float(found.group(1))


def test_after_a_warmup_the_check_compiles_nothing(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
           "DYNVAL_CACHE": str(tmp_path / "results")}
    log = _dynval(["warmup", "--robot", "hopper", "--workers", "1"], env)
    assert _compiling(log) > 1.0  # an empty cache: the warm-up compiled
    assert f"compiled code in {tmp_path / 'numba' / 'dynval-numba'}" in log
    assert not (tmp_path / "results").exists() or not any((tmp_path / "results").rglob("*.pkl"))
    log = _dynval(["check", "--robot", "hopper", "--workers", "1", "--out",
                   str(tmp_path / "out")], env)
    assert "0 from the cache" in log  # every task ran: none was a result of the warm-up
    assert _compiling(log) < 0.5  # loading the compiled code, not compiling it


def test_warmup_names_an_unknown_robot():
    res = CliRunner().invoke(app, ["warmup", "--robot", "submarine"])
    assert res.exit_code == 2 and "unknown robot 'submarine'" in res.output
