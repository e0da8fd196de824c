"""Results that cannot be wrong without saying so (issue 12): a blow-up stops with exit 3,
a description that does not match its parameters is refused, a baseline that could pass
empty or is malformed is refused before any work, and new figures are reported."""

import json
import shutil

import numpy as np
import pytest
from typer.testing import CliRunner

import dynval.robots
from dynval.comparisons.cli import app
from dynval.comparisons.run.check import BaselineError, compare_to_baseline, load_baselines
from dynval.results import MetricRow, metrics_frame

runner = CliRunner()


def test_a_stiff_ground_that_blows_up_stops_with_exit_3(tmp_path):
    # k = 1e9 N/m at dt = 1 ms: the hand-rolled body was flung 68 m up and MuJoCo reset
    # itself after "unstable" warnings, and the run used to exit 0
    res = runner.invoke(app, ["run", "landing_gear", "--scenario", "flat", "--engine",
                              "mujoco", "--set", "landing_gear.k=1e9", "--out", str(tmp_path)])
    assert res.exit_code == 3, res.output
    assert "diverged" in res.output or "left the scenario's workspace" in res.output
    assert "no result was written as complete" in res.output
    assert not (tmp_path / "manifest.json").exists()


@pytest.mark.parametrize("implementation", ["handrolled", "mujoco", "pybullet"])
def test_each_implementation_of_the_stiff_landing_is_stopped(tmp_path, implementation):
    """Item 1, engine by engine: PyBullet neither warns nor resets; its blow-up is caught as
    the hand model's is, by the body leaving the landing's workspace."""
    from dynval.comparisons.ladder import harness
    from dynval.comparisons.ladder.registry import comparison
    from dynval.comparisons.landing_gear.scenarios import SCENARIOS, run_one
    from dynval.comparisons.run.descriptions import description_dir

    p0 = comparison("landing_gear").default_params
    p = p0.with_(k=1e9)
    with pytest.raises(harness.DivergenceError, match=implementation):
        run_one(p, SCENARIOS["flat"], implementation, "shared",
                description_dir("landing_gear", p, p0, tmp_path))


def test_a_description_edited_by_hand_is_refused(tmp_path, monkeypatch):
    root = tmp_path / "robots"
    shutil.copytree(dynval.robots.ROOT / "landing_gear", root / "landing_gear")
    xml = root / "landing_gear" / "landing_gear_as_built.xml"
    text = xml.read_text()
    i = text.index('mass="')
    j = text.index('"', i + 6)
    xml.write_text(text[:i] + 'mass="9.99"' + text[j + 1:])
    shipped = dynval.robots.robot_dir
    monkeypatch.setattr(dynval.robots, "robot_dir",
                        lambda name: root / name if name == "landing_gear" else shipped(name))
    res = runner.invoke(app, ["run", "landing_gear", "--scenario", "flat", "--engine",
                              "mujoco", "--out", str(tmp_path / "out")])
    assert res.exit_code == 2
    assert "landing_gear_as_built.xml does not match the parameters at line" in res.output
    assert "9.99" in res.output


def _write(tmp_path, figures) -> None:
    (tmp_path / "landing_gear.json").write_text(json.dumps({"robot": "landing_gear",
                                                            "figures": figures}))


ROW = {"robot": "landing_gear", "scenario": "flat", "rung": "L4", "variant": "shared",
       "signal": "body.roll", "reference": "mujoco", "candidate": "handrolled",
       "metric": "rmse", "value": 1.0, "passed": True}


@pytest.mark.parametrize("figures,message", [
    ([], "holds no figures"),
    ([{**ROW, "value": "abc"}], "is not a finite number"),
    ([{**ROW, "passed": "yes"}], "is not true, false or null"),
    ([{k: v for k, v in ROW.items() if k != "metric"}], "lacks the field 'metric'"),
    ([ROW, {**ROW, "value": 2.0}], "repeats the key of an earlier figure"),
])
def test_a_baseline_that_cannot_gate_is_refused_before_any_work(tmp_path, figures, message):
    _write(tmp_path, figures)
    with pytest.raises(BaselineError, match=message):
        load_baselines(tmp_path, ["landing_gear"])
    res = runner.invoke(app, ["check", "--robot", "landing_gear", "--baseline", str(tmp_path),
                              "--out", str(tmp_path / "out")])
    assert res.exit_code == 2 and message in res.output
    assert not (tmp_path / "out").exists()  # refused before anything ran


def test_a_figure_missing_from_the_baseline_is_reported():
    row = MetricRow("landing_gear", "flat", "L4", "shared", "body.pitch", "mujoco",
                    "handrolled", "rmse", 1.0, None, True, "", "agreement")
    findings = compare_to_baseline(metrics_frame([row]), {})
    assert [f.status for f in findings] == ["new"]


def test_two_figures_under_one_key_are_refused_not_checked_against_each_other(tmp_path):
    """A chapter that gives two figures one key (a step's figure without the step in its
    key, say) is refused by the gate and the baseline writer: one of them would go
    unchecked."""
    from dynval.comparisons.run.check import keyed, write_baselines

    row = MetricRow("landing_gear", "flat", "L4", "shared", "body.pitch", "mujoco",
                    "handrolled", "rmse", 1.0, None, True, "", "agreement")
    twice = metrics_frame([row, row])
    with pytest.raises(ValueError, match="two figures share the key"):
        keyed(twice)
    with pytest.raises(ValueError, match="two figures share the key"):
        compare_to_baseline(twice, {})
    with pytest.raises(ValueError, match="two figures share the key"):
        write_baselines(twice, tmp_path, "ci")
    assert not list(tmp_path.iterdir())  # nothing written


def test_tables_are_not_cut_in_a_pipe():
    import subprocess
    import sys

    from dynval.comparisons.ladder.registry import comparison

    out = subprocess.run([sys.executable, "-m", "dynval.comparisons.cli", "list"],
                         capture_output=True, text=True, check=True).stdout
    longest = max((sc.title for r in dynval.robots.ROBOT_NAMES
                   for sc in comparison(r).scenarios.values()), key=len)
    assert longest in out  # whole, on one line
    assert "quadruped.m_thigh" in out and "kg" in out  # parameters with units and ranges


def test_an_override_nothing_uses_is_named():
    """An override for a robot not in the run, or one a scenario replaces with its own
    value, was dropped without a word (issue 12, item 3)."""
    from dynval.comparisons.ladder.registry import unused_overrides

    assert unused_overrides(["hopper"], ["landing_gear.k=2000"]) == [
        "override landing_gear.k=2000 is not used: landing_gear is not in this run (hopper)"]
    lines = unused_overrides(["rover"], ["rover.m_seg=250"], ["steady_B"])
    assert len(lines) == 1 and "steady_B" in lines[0] and "its own m_seg" in lines[0]
    assert unused_overrides(["rover"], ["rover.m_seg=250"], ["steady_A"]) == []
    assert unused_overrides(["hopper"], ["hopper.k_L=1200"]) == []


def test_run_warns_about_an_unused_override(tmp_path):
    res = runner.invoke(app, ["run", "hopper", "--scenario", "height", "--engine", "mujoco",
                              "--set", "landing_gear.k=2000", "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert "landing_gear.k=2000 is not used" in res.output


def _bounce_run(tmp_path, **overrides):
    from dynval.comparisons.hopper.scenarios import BOUNCE, run_one
    from dynval.comparisons.ladder.registry import comparison
    from dynval.comparisons.run.descriptions import description_dir

    p0 = comparison("hopper").default_params
    p = p0.with_(**overrides)
    return p, run_one(p, BOUNCE, "handrolled", "shared",
                      description_dir("hopper", p, p0, tmp_path))


def test_a_passive_run_that_gains_energy_stops_with_exit_3(tmp_path, monkeypatch):
    """A ground 10^4 times stiffer is past semi-implicit Euler's step limit: the passive
    bounce (no control, lossless ground) gains energy at its first impact. The workspace
    check alone let it run until the body had been flung a metre up (t = 0.374 s); the
    energy check stops it at the impact (issue 12, item 1)."""
    from dynval.comparisons.hopper import scenarios
    from dynval.comparisons.ladder import harness

    with pytest.raises(harness.EnergyGainError, match="with no energy input") as err:
        _bounce_run(tmp_path, k_c=1e10)
    assert "t = 0.2" in str(err.value)  # the first touchdown, not the flung body
    # through the command line, with the bounce the L3 rung runs made a `run` scenario
    monkeypatch.setitem(scenarios.SCENARIOS, "bounce", scenarios.BOUNCE)
    res = runner.invoke(app, ["run", "hopper", "--scenario", "bounce", "--engine", "mujoco",
                              "--set", "hopper.k_c=1e10", "--out", str(tmp_path / "out")])
    assert res.exit_code == 3, res.output
    assert "gained" in res.output and "no result was written as complete" in res.output
    assert not (tmp_path / "out" / "manifest.json").exists()


@pytest.mark.parametrize("dt", [2e-4, 1e-4])
def test_the_energy_bound_is_the_measured_drift_and_stops_no_normal_run(tmp_path, dt):
    """The guard's bound rests on the drift measured here: the default bounce runs to its
    end at the step and half of it, and its largest gain is the stated DRIFT_GAIN (scaled
    with the step: first order, within the L3 rung's order tolerance, 2^0.2 = 1.15); a
    ground 1000 times stiffer, still stable, is not stopped either."""
    from dynval.comparisons.hopper.bounce import ORDER_TOL, energy
    from dynval.comparisons.hopper.scenarios import (
        BOUNCE,
        DRIFT_DT,
        DRIFT_GAIN,
        energy_guard,
        scenario_params,
    )

    p, df = _bounce_run(tmp_path, dt=dt)
    assert df["time"].iloc[-1] == pytest.approx(3.0)
    E = energy(p, df)
    gain = float(np.max(E - E[0]) / E[0])
    expected = DRIFT_GAIN * dt / DRIFT_DT
    assert expected / 2 ** ORDER_TOL <= gain <= expected * 2 ** ORDER_TOL
    if dt == DRIFT_DT:
        assert gain == pytest.approx(DRIFT_GAIN, rel=0.01)  # the constant is what is measured
    guard = energy_guard(scenario_params(p, BOUNCE), BOUNCE)
    assert guard.bound > 10 * gain * E[0]
    _bounce_run(tmp_path, k_c=1e9, dt=dt)  # stiff but stable: runs to its end


PENDULUM = ('<mujoco><worldbody><body name="link" pos="0 0 1"><joint name="j" type="hinge" '
            'axis="0 1 0"/><geom type="capsule" fromto="0 0 0 0 0 -0.5" size="0.02" '
            'mass="1"/></body></worldbody></mujoco>')


def test_mujoco_s_reset_is_an_error_and_its_log_stays_out_of_the_folder(tmp_path, monkeypatch):
    """Item 1: MuJoCo meets accelerations it cannot integrate (mjWARN_BADQACC) by resetting
    the simulation and going on; the adapter raises instead. Item 13: its warning went to a
    MUJOCO_LOG.TXT in whatever folder the user was in."""
    from dynval.engines import EngineInstabilityError
    from dynval.engines.mujoco_engine import MujocoSimulation

    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.xml").write_text(PENDULUM)
    sim = MujocoSimulation(tmp_path / "p.xml", ["j"], 1e-3, (0.0, 0.0, -9.81))
    sim.step(np.array([1.0]), [])
    with pytest.raises(EngineInstabilityError, match="mjWARN_BADQACC"):
        sim.step(np.array([1e12]), [])  # 1e12 N m on 0.08 kg m^2: qacc past MuJoCo's 1e10
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.xml"]


def test_every_data_file_of_the_package_goes_into_the_wheel():
    """Item 12: the rover's soil files were not package data, so an installed wheel could
    not run the rover. Every file of dynval's folders (the package and the layers that
    pyproject.toml's package-dir maps into it) that is not Python must match a
    package-data pattern of its package (.ci/wheel-smoke then runs every robot from the
    wheel)."""
    import re
    import subprocess
    from pathlib import Path

    import tomllib

    root = Path(__file__).resolve().parent.parent
    config = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = config["package-dir"]  # package name -> its folder
    patterns = config["package-data"]
    files = subprocess.run(["git", "ls-files", *folders.values()], cwd=root,
                           capture_output=True, text=True, check=True).stdout.split()
    data = [f for f in files if not f.endswith(".py")]
    assert any(f.endswith(".soil") for f in data)

    def folder(pkg: str) -> str:  # a subpackage lies below its mapped parent
        parent = max((p for p in folders if pkg == p or pkg.startswith(p + ".")), key=len)
        return "/".join([folders[parent], *pkg[len(parent):].split(".")[1:]])

    for f in data:
        covered = any(f.startswith(folder(pkg) + "/") and any(  # setuptools' glob:
            re.fullmatch(re.escape(pat).replace(r"\*", "[^/]*"),  # * stops at /
                         f[len(folder(pkg)) + 1:])
            for pat in pats) for pkg, pats in patterns.items())
        assert covered, f"{f} is not package data: an installed wheel would lack it"


def test_the_layers_sit_at_the_root_and_install_under_dynval():
    """The card's layout: robots/, handrolled/, engines/, comparisons/ and reports/ at the
    repository root, each mapped to dynval.<layer> (and setup.py packages the same
    layers)."""
    import ast
    from pathlib import Path

    import tomllib

    from dynval import _layout

    root = Path(__file__).resolve().parent.parent
    folders = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-dir"]
    assert folders == {"dynval": "dynval", **{f"dynval.{x}": x for x in _layout.LAYERS}}
    for layer in _layout.LAYERS:
        assert _layout.layer_dir(layer) == root / layer
    setup = ast.parse((root / "setup.py").read_text())
    layers = next(n.value for n in ast.walk(setup) if isinstance(n, ast.Assign)
                  and getattr(n.targets[0], "id", "") == "LAYERS")
    assert ast.literal_eval(layers) == _layout.LAYERS


def test_the_readme_links_only_what_a_clone_has():
    """Item 13: the README linked ../shared/SPEC.md, outside the repository."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    for doc in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)#\s]+)", doc.read_text()):
            if re.match(r"[a-z]+:", target):
                continue  # a web address
            path = (doc.parent / target).resolve()
            assert path.is_relative_to(root) and path.exists(), f"{doc.name} links {target}"
    assert "SPEC.md" not in (root / "README.md").read_text()


def test_audit_numbers_are_whole_in_a_pipe():
    """Item 9: piped at 80 columns, the audit table was cut to "1.73e-..." and "errat..."."""
    import os
    import re
    import subprocess
    import sys

    res = subprocess.run([sys.executable, "-m", "dynval.comparisons.cli", "audit", "hopper",
                          "--samples", "5"], capture_output=True, text=True, check=False,
                         env={**os.environ, "COLUMNS": "80"})
    assert res.returncode in (0, 1), res.stderr
    assert "…" not in res.stdout and "..." not in res.stdout
    rows = [line for line in res.stdout.splitlines() if "(1)-(2) tip velocity" in line]
    assert rows and "erratum" in rows[0]
    assert re.search(r"\d\.\d\de[+-]\d\d", rows[0])  # a whole number in the error columns


def test_what_the_product_prints_speaks_of_the_product_only():
    """The report printed "issue requirement: ..." and "(issue 15 item 6)": no string in
    dynval's source (what it prints and writes) names the tracker."""
    import ast
    import re

    from dynval import _layout

    for name, path in _layout.source_files().items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                assert not re.search(r"\bissues?\b", node.value, re.IGNORECASE), (
                    name, node.value[:80])
