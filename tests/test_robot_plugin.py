"""A robot is a plugin: a package of one's own registers a ``dynval.plugins.RobotSpec``
under the entry point group ``dynval.robots``, and dynval's five paper robots register
the same way.

The worked example, docs/examples/dynval-cartpole, is installed from a copy outside the
tree into a folder of its own (``pip install --target``), and ``dynval validate`` runs it
end to end in a subprocess with that folder on the path: its hand model, MuJoCo and
PyBullet must agree to round-off, and a 1 % wrong mass in its eq. (1) must fail the run
and the results cached for the right model must not be reused."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pandas as pd
import pytest

from dynval import plugins

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "dynval-cartpole"
WRONG_MASS = ("return np.array([[m_c + m_p, c],  # eq. (1)",
              "return np.array([[1.01 * (m_c + m_p), c],  # eq. (1)")


def _dynval(site: Path, tmp: Path, *args: str, cache: Path | None = None
            ) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(site), "DYNVAL_CACHE": str(cache or tmp / "cache")}
    return subprocess.run([sys.executable, "-m", "dynval.comparisons.cli", *args], env=env,
                          cwd=tmp, capture_output=True, text=True, timeout=600)


def _validate(site: Path, tmp: Path, out: Path, tier: str = "ci",
              cache: Path | None = None) -> subprocess.CompletedProcess:
    return _dynval(site, tmp, "validate", "--robot", "cartpole", "--tier", tier,
                   "--workers", "1", "--out", str(out), cache=cache)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The example installed from a copy outside the tree into a folder of its own."""
    tmp = tmp_path_factory.mktemp("plugin")
    src = shutil.copytree(EXAMPLE, tmp / "src", ignore=shutil.ignore_patterns(
        "__pycache__", "build", "*.egg-info"))
    r = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                        "--target", str(tmp / "site"), str(src)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    return tmp / "site"


def test_the_paper_robots_are_registered_through_the_entry_point_group():
    found = {ep.name: ep for ep in metadata.entry_points(group=plugins.GROUP)}
    assert set(plugins.PAPER_ROBOTS) <= set(found)
    from dynval.comparisons.ladder.registry import comparison
    from dynval.robots import ROBOT_NAMES

    assert ROBOT_NAMES[:5] == plugins.PAPER_ROBOTS
    for name in plugins.PAPER_ROBOTS:
        spec = found[name].load()
        assert isinstance(spec, plugins.RobotSpec) and spec.name == name
        assert found[name].dist.metadata["Name"] == "dynval"
        assert plugins.spec(name).distribution == "dynval"
        assert spec.paper == comparison(name).paper  # the spec and the ladder say one paper


def test_an_unknown_robot_is_one_sentence(tmp_path):
    r = _dynval(tmp_path, tmp_path, "validate", "--robot", "unicycle", "--tier", "ci")
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert "unknown robot 'unicycle'; known robots: landing_gear, quadruped, hopper" in (
        r.stdout + r.stderr)


def test_list_shows_the_plugin(site, tmp_path):
    r = _dynval(site, tmp_path, "list")
    assert r.returncode == 0, r.stdout + r.stderr
    row = next(line for line in r.stdout.splitlines() if "cartpole" in line and "0.1.0" in line)
    assert "dynval-cartpole" in row and "Florian" in row
    # the paper robots first, in their order, then the plugin
    order = [n for n in (*plugins.PAPER_ROBOTS, "cartpole")
             if any(line.startswith(f"│ {n} ") for line in r.stdout.splitlines())]
    assert order == [*plugins.PAPER_ROBOTS, "cartpole"]


def test_the_plugins_descriptions_are_generated_from_its_parameters(site, tmp_path):
    env = {**os.environ, "PYTHONPATH": str(site)}
    r = subprocess.run([sys.executable, "-m", "dynval.robots.generate", "--check", "--robot",
                        "cartpole"], env=env, cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def _chapter(out: Path) -> dict:
    return json.loads((out / "summary.json").read_text())["robots"]["cartpole"]


def test_validate_runs_the_plugin(site, tmp_path):
    out = tmp_path / "out"
    r = _validate(site, tmp_path, out)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    chapter = _chapter(out)
    for rung in ("L0", "L1", "L2", "L3"):
        assert chapter["rungs"][rung]["verdict"] == "agrees", (rung, chapter["rungs"][rung])
    assert chapter["rungs"]["budget"]["verdict"] == "recomputed"
    rows = pd.read_parquet(out / "metrics.parquet")
    rows = rows[rows.robot == "cartpole"]
    l3 = rows[(rows.rung == "L3") & rows.tolerance.notna()]
    assert set(l3.reference) >= {"mujoco (own integrator)", "pybullet (own integrator)"}
    assert (l3.value <= 1e-9).all(), l3[["reference", "value"]]
    # L4, the ci tier's first second of the balancing run: the hand model, PyBullet and
    # Drake against MuJoCo, each with its own step and the same force law
    l4 = rows[(rows.rung == "L4") & (rows.metric == "max_abs")
              & rows.signal.isin(["joint.hinge.angle", "joint.slider.extension"])]
    assert set(l4.candidate) == {"handrolled", "pybullet", "drake"}
    assert set(l4.reference) == {"mujoco"}
    assert (l4.value <= 1e-9).all(), l4[["candidate", "signal", "value"]]
    budget = rows[rows.rung == "budget"]
    step = budget[budget.reference.str.startswith("integrator step")]
    engine = budget[budget.reference.str.startswith("engine")]
    assert len(step) == 2 and len(engine) == 6  # MuJoCo, PyBullet and Drake, two signals
    # the step's own error is what the budget shows; the engines differ by round-off
    assert (step.value > 1e3 * engine.value.max()).all(), budget[["reference", "value"]]
    assert (out / "report.pdf").is_file()


def test_check_holds_the_plugin_to_its_baselines(site, tmp_path):
    """The ci tier's figures against the baselines the plugin ships
    (dynval_cartpole/comparison/baselines/ci.json)."""
    r = _dynval(site, tmp_path, "check", "--robot", "cartpole", "--workers", "1", "--out",
                str(tmp_path / "out"))
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "0 of 309 figures moved, failed, went missing or are new" in r.stdout + r.stderr


def test_the_full_tier_judges_the_scenarios(site, tmp_path):
    """Both scenarios judged at full length; in the drop the plugin's own contact law
    acts on the pole's tip in every implementation (through the hand model's Jacobian of
    the tip, and as a force on the engines' point 2 l up the pole), and they agree to
    round-off through the impacts."""
    out = tmp_path / "out"
    r = _validate(site, tmp_path, out, tier="full")
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    chapter = _chapter(out)
    assert chapter["rungs"]["L4"]["verdict"] == "agrees"
    assert chapter["not_reproduced"] == []
    rows = pd.read_parquet(out / "metrics.parquet")
    drop = rows[(rows.scenario == "drop") & rows.tolerance.notna()]
    assert set(drop.candidate) == {"handrolled", "pybullet", "drake"}
    assert drop.passed.all() and (drop.value <= 1e-9).all(), drop[["candidate", "value"]]
    traces = pd.read_parquet(out / "runs" / "cartpole" / "drop" / "shared" / "traces.parquet")
    peak = traces[traces.signal == "cartpole.tip.force.z"].groupby("implementation").value.max()
    assert len(peak) == 4 and (peak > 10.0).all(), peak  # [N] the impacts, in each


def test_a_drop_whose_tip_cannot_reach_the_floor_is_not_reproduced(site, tmp_path):
    """The drop's premise: with the floor beyond the pole's reach (h_f 1.5 m, the pole
    2 l = 1 m) no contact is compared, and the run says so instead of agreeing."""
    out = tmp_path / "out"
    r = _dynval(site, tmp_path, "validate", "--robot", "cartpole", "--tier", "full",
                "--workers", "1", "--set", "cartpole.h_f=1.5", "--out", str(out))
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    l4 = _chapter(out)["rungs"]["L4"]
    assert l4["verdict"] == "not reproduced", l4
    assert "no floor force in handrolled, mujoco, pybullet, drake" in l4["note"]


def test_the_plugins_mutants_are_each_caught(site, tmp_path):
    """The mutation table of a plugin: the mutants it declares
    (dynval_cartpole/comparison/mutants.py) each caught by a judged row of L2-L4."""
    out = tmp_path / "out"
    r = _dynval(site, tmp_path, "validate", "--robot", "cartpole", "--tier", "ci",
                "--workers", "1", "--mutants", "all", "--out", str(out))
    said = r.stdout + r.stderr
    assert r.returncode == 0, said[-3000:]
    table = pd.read_parquet(out / "mutants.parquet")
    assert set(table.mutant) == {"m_p+1%", "l+1%", "dt*2"}, table
    assert table.caught.all(), table[["mutant", "caught", "rungs"]]
    assert "mutants of cartpole: 3 of 3 caught" in said


def test_a_wrong_mass_fails_and_its_results_are_not_reused(site, tmp_path):
    """1 % more (m_c + m_p) in the hand model's eq. (1), edited in the installed plugin
    after a run with the right one: the plugin's files key its results, so the second
    run computes again, and the audit and the swing see the wrong mass."""
    cache = tmp_path / "cache"
    assert _validate(site, tmp_path, tmp_path / "right", cache=cache).returncode == 0
    law = site / "dynval_cartpole" / "model" / "dynamics.py"
    text = law.read_text()
    assert WRONG_MASS[0] in text
    law.write_text(text.replace(*WRONG_MASS))
    try:
        out = tmp_path / "wrong"
        r = _validate(site, tmp_path, out, cache=cache)
        assert r.returncode == 1, r.stdout[-3000:] + r.stderr[-3000:]
        assert "0 from the cache" in r.stdout + r.stderr
        chapter = _chapter(out)
        assert chapter["rungs"]["L2"]["verdict"] == "differs"
        assert chapter["rungs"]["L3"]["verdict"] == "differs"
    finally:
        law.write_text(text)


def _broken_distribution(root: Path) -> Path:
    """A distribution registering a robot whose spec module does not exist."""
    info = root / "dynval_broken-0.3.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: dynval-broken\nVersion: 0.3\n")
    (info / "entry_points.txt").write_text("[dynval.robots]\nbroken = dynval_broken:SPEC\n")
    return root


def test_a_plugin_that_fails_to_load_is_one_sentence_naming_its_distribution(tmp_path):
    site = _broken_distribution(tmp_path / "site")
    r = _dynval(site, tmp_path, "validate", "--robot", "broken", "--tier", "ci")
    assert r.returncode != 0 and "Traceback" not in r.stderr
    said = (r.stdout + r.stderr).strip().splitlines()
    assert len(said) == 1 and (
        "robot plugin 'broken' (distribution dynval-broken 0.3) failed to load "
        "'dynval_broken:SPEC': ModuleNotFoundError" in said[0]), said
    listed = _dynval(site, tmp_path, "list")
    assert listed.returncode == 1
    assert "failed to load" in listed.stdout + listed.stderr
    assert "hopper" in listed.stdout  # the others are still listed


def test_dynval_run_steps_the_plugins_drop_in_every_implementation(site, tmp_path):
    """`dynval run` on a plugin robot: its scenario in every implementation it declares,
    with the progress bar its run_one takes, the traces written."""
    r = _dynval(site, tmp_path, "run", "cartpole", "--scenario", "drop", "--out",
                str(tmp_path / "run"))
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    traces = pd.read_parquet(tmp_path / "run" / "runs" / "cartpole" / "drop" / "shared"
                             / "traces.parquet")
    assert set(traces.implementation) == {"handrolled", "mujoco", "pybullet", "drake"}


def test_a_part_a_plugin_lacks_is_one_sentence_naming_it():
    """A plugin's module without a part the ladder reads (its LADDER, SCENARIOS, run_one,
    PARAMS) or a module it does not have: one sentence naming the module and the part,
    not a traceback from inside a run (exit 2, as any bad input)."""
    from dynval.comparisons.commands.exits import EXIT_INPUT, failure

    mine = plugins.RobotSpec("mine", "a paper", robots="json", handrolled="json",
                             comparisons="json")
    with pytest.raises(plugins.PluginError, match=r"robot 'mine' \(no distribution\): json "
                                                  r"has no LADDER \(its declaration"):
        _ = mine.ladder
    with pytest.raises(plugins.PluginError, match=r"has no module json.scenarios \(it "
                                                  r"declares run_one: one trace\)"):
        mine.declared("comparisons", "scenarios", "run_one", "one trace")
    with pytest.raises(plugins.PluginError, match="json.decoder has no run_one") as info:
        mine.declared("comparisons", "decoder", "run_one", "one trace")
    assert failure(info.value) == (EXIT_INPUT, str(info.value))
