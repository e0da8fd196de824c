"""The command-line contract: bad input gives one clear sentence and a non-zero exit."""

import json

import pytest
from typer.testing import CliRunner

from dynval.comparisons.cli import app
from dynval.comparisons.run.check import BaselineError, compare_to_baseline, load_baselines
from dynval.engines import DescriptionError

runner = CliRunner()


def test_list_names_robots_and_engines():
    res = runner.invoke(app, ["list"])
    assert res.exit_code == 0
    assert "landing_gear" in res.output and "slope_lc" in res.output


def test_unknown_robot():
    res = runner.invoke(app, ["audit", "submarine"])
    assert res.exit_code == 2
    assert "unknown robot 'submarine'" in res.output


def test_unknown_scenario_engine_and_contact(tmp_path):
    res = runner.invoke(app, ["run", "landing_gear", "--scenario", "moon", "--out", str(tmp_path)])
    assert res.exit_code == 2 and "unknown scenario 'moon'" in res.output
    res = runner.invoke(app, ["run", "landing_gear", "--engine", "gazebo", "--out", str(tmp_path)])
    assert res.exit_code == 2 and "unknown engine 'gazebo'" in res.output
    res = runner.invoke(app, ["run", "landing_gear", "--contact", "glue", "--out", str(tmp_path)])
    assert res.exit_code == 2 and "unknown contact mode 'glue'" in res.output


def test_bad_override(tmp_path):
    res = runner.invoke(app, ["run", "landing_gear", "--set", "landing_gear.wings=2",
                              "--out", str(tmp_path)])
    assert res.exit_code == 2 and "no parameter 'wings'" in res.output


def test_corrupt_baseline(tmp_path):
    (tmp_path / "landing_gear.json").write_text("{not json")
    res = runner.invoke(app, ["check", "--baseline", str(tmp_path), "--out", str(tmp_path)])
    assert res.exit_code == 2 and "is corrupt" in res.output
    try:
        load_baselines(tmp_path, ["landing_gear"])
    except BaselineError as exc:
        assert "landing_gear.json" in str(exc)


def test_malformed_mjcf_is_reported(tmp_path):
    from dynval.engines.mujoco_engine import load_model

    bad = tmp_path / "bad.xml"
    bad.write_text("<mujoco><worldbody><body><joint type='hinge'/></body></wor")
    with pytest.raises(DescriptionError, match="bad.xml"):
        load_model(bad)


def test_malformed_urdf_is_reported(tmp_path):
    from dynval.engines.pinocchio_engine import PinocchioTerms

    bad = tmp_path / "bad.urdf"
    bad.write_text("<robot name='x'><link name='a'/><joint name='j' type='revolute'>")
    with pytest.raises(DescriptionError, match="bad.urdf"):
        PinocchioTerms(bad)


def test_pinocchio_cannot_run_a_scenario(tmp_path):
    res = runner.invoke(app, ["run", "landing_gear", "--engine", "pinocchio", "--out",
                              str(tmp_path)])
    assert res.exit_code == 2 and "dynamics terms only" in res.output


def test_diverging_run_is_stopped():
    import math

    from dynval.comparisons.ladder.harness import DivergenceError, run

    class Blowup:
        implementation, t = "toy", 0.0

        def advance(self):
            self.t += 0.1

        def signals(self):
            return {"body.x": math.exp(self.t * 100)}

    with pytest.raises(DivergenceError, match="signal body.x"):
        run(Blowup(), 10.0, 0.1, record_every=1)


def test_an_engine_that_resets_itself_or_a_body_that_leaves_is_stopped():
    from dynval.comparisons.ladder.harness import DivergenceError, run

    class Resets:  # MuJoCo's answer to an instability: the state and time start again
        implementation, t = "toy", 0.0

        def advance(self):
            self.t = 0.0 if self.t > 0.25 else self.t + 0.1

        def signals(self):
            return {"body.x": 0.0}

    with pytest.raises(DivergenceError, match="time went from 0.3000 s to 0.0000 s"):
        run(Resets(), 1.0, 0.1, record_every=1)

    class Flies(Resets):  # finite, but far outside the scenario's workspace
        def advance(self):
            self.t += 0.1

        def signals(self):
            return {"body.x": 100.0 * self.t}

    with pytest.raises(DivergenceError, match="left the scenario's workspace: signal body.x"):
        run(Flies(), 1.0, 0.1, record_every=1, workspace={"body.x": 2.0})


def test_check_flags_a_moved_figure():

    from dynval.comparisons.run.check import KEY
    from dynval.results import MetricRow, metrics_frame

    row = MetricRow("landing_gear", "flat", "L4", "shared", "body.roll", "mujoco", "handrolled",
                    "rmse", 1.0, None, True, "", "agreement")
    metrics = metrics_frame([row])
    key = tuple(getattr(row, k) for k in KEY)
    same = compare_to_baseline(metrics, {key: {"value": 1.0, "passed": True}})
    moved = compare_to_baseline(metrics, {key: {"value": 1.05, "passed": True}})
    assert [f.status for f in same] == ["ok"]
    assert [f.status for f in moved] == ["moved"]
    assert json.dumps([f.status for f in moved])


def test_validate_writes_metrics_summary_and_report(tmp_path):
    res = runner.invoke(app, ["validate", "--robot", "landing_gear", "--scenario", "flat",
                              "--samples", "50", "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    pdf = tmp_path / "report.pdf"
    assert pdf.read_bytes()[:4] == b"%PDF"
    summary = json.loads((tmp_path / "summary.json").read_text())
    rungs = summary["robots"]["landing_gear"]["rungs"]
    assert rungs["L2"]["verdict"] == "agrees" and rungs["L1"]["verdict"] == "agrees"
    assert rungs["L5"]["verdict"] == "recomputed"  # nothing published to compare with
    assert (tmp_path / "runs" / "landing_gear" / "flat" / "native" / "traces.parquet").is_file()
    # the report is rebuilt bit for bit from the same runs
    first = pdf.read_bytes()
    assert runner.invoke(app, ["report", "--out", str(tmp_path)]).exit_code == 0
    assert pdf.read_bytes() == first


def test_report_without_runs_is_a_clear_error(tmp_path):
    res = runner.invoke(app, ["report", "--out", str(tmp_path)])
    assert res.exit_code == 2 and "no completed manifest" in res.output


def test_a_diverging_landing_stops_with_time_and_signal(tmp_path):
    # negative joint damping with no torque limit pumps energy into the legs
    res = runner.invoke(app, ["run", "landing_gear", "--scenario", "flat", "--engine", "mujoco",
                              "--set", "landing_gear.T_max=1e9",
                              "--set", "landing_gear.K_D_joint=-50", "--out", str(tmp_path)])
    assert res.exit_code == 3
    assert "diverged: signal joint." in res.output and "at t =" in res.output
    assert not (tmp_path / "runs").exists()



def test_validate_with_a_scenario_no_robot_has(tmp_path):
    # without --robot the scenario filter applies to every robot; one that none of them
    # has must not turn into a report of nothing
    res = runner.invoke(app, ["validate", "--scenario", "moon", "--out", str(tmp_path)])
    assert res.exit_code == 2 and "no robot has a scenario 'moon'" in res.output
    assert not (tmp_path / "report.pdf").exists()


def test_quadruped_validate_climbs_the_ladder(tmp_path):
    res = runner.invoke(app, ["validate", "--robot", "quadruped", "--scenario", "trot",
                              "--samples", "30", "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    ch = json.loads((tmp_path / "summary.json").read_text())["robots"]["quadruped"]
    assert all(ch["rungs"][r]["verdict"] == "agrees" for r in ("L0", "L1", "L2", "L3"))
    assert ch["rungs"]["L5"]["verdict"] == "recomputed"  # the paper's figure is held back
    assert {e["equation"] for e in ch["errata"]} == {"section 2", "(3)-(4), section 4.1",
                                                     "(3)-(4), section 4.3"}
    titles = [t["title"] for t in ch["tables"]]
    assert any(t.startswith("Section 6 round trip, walk") for t in titles)
    assert any("assumptions against the engines (trot)" in t for t in titles)
    assert (tmp_path / "runs" / "quadruped" / "trot" / "native" / "traces.parquet").is_file()


# --- failures before any work: one sentence, the exit code of what failed ----------------
def test_a_junit_file_that_cannot_be_written_stops_the_check_before_it_runs(tmp_path):
    """A missing folder used to fail after the whole check, with a traceback and exit 1
    (the code for "a figure moved")."""
    res = runner.invoke(app, ["check", "--junit", str(tmp_path / "nowhere" / "j.xml"),
                              "--robot", "landing_gear", "--out", str(tmp_path / "o")])
    assert res.exit_code == 2
    assert "cannot write the JUnit report" in res.output and "does not exist" in res.output
    assert not (tmp_path / "o").exists()  # nothing ran
    res = runner.invoke(app, ["check", "--junit", str(tmp_path), "--robot", "landing_gear",
                              "--out", str(tmp_path / "o")])
    assert res.exit_code == 2 and "it is a folder" in res.output


def test_a_stale_passing_junit_file_is_gone_when_a_later_check_fails_to_run(tmp_path):
    junit = tmp_path / "j.xml"
    junit.write_text('<testsuite name="dynval-check" tests="5" failures="0"/>\n')
    res = runner.invoke(app, ["check", "--junit", str(junit), "--robot", "landing_gear",
                              "--scheduler", "notanaddress", "--out", str(tmp_path / "o")])
    assert res.exit_code == 2
    assert not junit.exists()


def test_a_scheduler_address_is_checked_before_any_work(tmp_path):
    """'notanaddress' and a port nobody listens on used to end, 33 s later, in a 222-line
    traceback with exit 1."""
    import socket

    res = runner.invoke(app, ["validate", "--scheduler", "notanaddress",
                              "--out", str(tmp_path / "a")])
    assert res.exit_code == 2
    assert "'notanaddress' is not a Dask scheduler address" in res.output
    with socket.socket() as s:  # a port that was free a moment ago and has no listener
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    res = runner.invoke(app, ["validate", "--scheduler", f"tcp://127.0.0.1:{port}",
                              "--robot", "hopper", "--out", str(tmp_path / "b")])
    assert res.exit_code == 4  # the infrastructure, not the input and not a figure
    assert f"no Dask scheduler answers at tcp://127.0.0.1:{port}" in res.output
    assert "Traceback" not in res.output
    assert not (tmp_path / "b").exists()


@pytest.mark.parametrize("args, says", [
    (["validate", "--samples", "0"], "--samples must be at least 1 (got 0)"),
    (["validate", "--seed", "-1"], "--seed must be zero or positive (got -1)"),
    (["audit", "hopper", "--seed", "-1"], "--seed must be zero or positive"),
    (["sweep", "landing_gear", "--scenario", "slope_lc", "--vary",
      "landing_gear.m_L=0.1:0.3:3", "--tier", "bogus"], "unknown tier 'bogus'"),
])
def test_bad_run_options_are_one_sentence(tmp_path, args, says):
    res = runner.invoke(app, [*args, "--out", str(tmp_path / "o")] if args[0] != "audit"
                        else args)
    assert res.exit_code == 2, res.output
    assert says in res.output and "Traceback" not in res.output
    assert not (tmp_path / "o").exists()


def test_user_text_is_printed_as_written_not_as_markup(tmp_path):
    """'[/red]' raised rich's MarkupError; '[draft]' vanished and ':a:' became an emoji."""
    for name in ("[/red]", "[draft]", "x:a:y"):
        res = runner.invoke(app, ["validate", "--robot", "hopper", "--scenario", name,
                                  "--out", str(tmp_path)])
        assert res.exit_code == 2, res.output
        assert f"unknown scenario {name!r} for hopper" in res.output


def test_version_help_and_engine_versions():
    """--version was missing; flags showed '<bool>' as if they took a value; the cover named
    PyBullet by its protocol date (202010061) instead of its release."""
    from importlib.metadata import version

    from dynval import __version__
    from dynval.engines import versions

    res = runner.invoke(app, ["--version"])
    assert res.exit_code == 0 and res.output.strip() == f"dynval {__version__}"
    res = runner.invoke(app, ["validate", "--help"], terminal_width=100)
    assert res.exit_code == 0
    assert "<bool>" not in res.output and "--no-cache  " in res.output
    assert versions()["pybullet"].startswith(version("pybullet") + " (API ")


def test_a_soil_that_does_not_exist_is_refused_before_the_run(tmp_path):
    res = runner.invoke(app, ["run", "rover", "--set", "rover.soil=mud", "--out", str(tmp_path)])
    assert res.exit_code == 2
    assert "rover.soil = 'mud': soil 'mud' is neither a known soil" in res.output


def test_check_names_an_unknown_robot_as_such(tmp_path):
    """'check --robot nosuchbot' said "run 'dynval check --update' first"."""
    res = runner.invoke(app, ["check", "--robot", "nosuchbot", "--out", str(tmp_path)])
    assert res.exit_code == 2 and "unknown robot 'nosuchbot'" in res.output
    assert "--update" not in res.output


@pytest.mark.parametrize("override, says", [
    ("landing_gear.dt=1e-300", "landing_gear.dt"),  # was a numba TypingError
    ("hexapod.n=1000000000", "hexapod.n"),  # was memory filling up to a MemoryError
    ("hexapod.f_sr=1e300", "hexapod.f_sr"),
])
def test_values_no_run_could_finish_with_are_refused_before_it(tmp_path, override, says):
    robot = override.split(".")[0]
    res = runner.invoke(app, ["run", robot, "--set", override, "--out", str(tmp_path)])
    assert res.exit_code == 2, res.output
    assert says in res.output and "valid range" in res.output
    assert "Traceback" not in res.output


def test_a_singular_mass_matrix_is_a_divergence_not_a_traceback():
    """hexapod.K_xH=1e12 blew the state up until a solve failed: a LinAlgError traceback
    instead of the divergence's exit 3."""
    import numpy as np

    from dynval.comparisons.ladder import harness
    from dynval.comparisons.ladder.harness import DivergenceError

    class Singular:
        implementation, t = "handrolled", 0.0

        def signals(self) -> dict[str, float]:
            return {"body.x": 0.0}

        def advance(self) -> None:
            raise np.linalg.LinAlgError("Singular matrix")

    with pytest.raises(DivergenceError, match="could not be solved after t = 0.0000 s"):
        harness.run(Singular(), 1.0, 0.01)


def test_list_shows_every_parameter_name_whole_at_80_columns(monkeypatch):
    """At 80 columns 125 of 227 names were cut ("hexapod.transmi…"): the names --set
    needs."""
    import io

    from rich.console import Console

    from dynval.comparisons.commands import validation
    from dynval.comparisons.ladder.registry import comparison
    from dynval.robots import ROBOT_NAMES
    from dynval.robots.parameters import describe

    buf = io.StringIO()
    monkeypatch.setattr(validation, "stdout", lambda: Console(file=buf, width=80,
                                                               force_terminal=True))
    assert runner.invoke(app, ["list"]).exit_code == 0
    names = [r["parameter"] for robot in ROBOT_NAMES
             for r in describe(comparison(robot).default_params)]
    assert len(names) > 200
    assert [n for n in names if n not in buf.getvalue()] == []


def test_the_closing_line_names_the_tasks_that_ended_in_an_error():
    """'3 ended in an error' said nothing of which (the errata runs meant to diverge)."""
    import io

    from rich.console import Console

    from dynval.comparisons.ladder.harness import DivergenceError
    from dynval.comparisons.run.progress import TaskProgress
    from dynval.comparisons.run.tasks import Outcome

    buf = io.StringIO()
    with TaskProgress(Console(file=buf, width=200)) as prog:
        prog.report(Outcome("rover erratum (3.30) 1 s", error=DivergenceError("x")), 1, 2)
        prog.report(Outcome("rover steady_A", value=1.0), 2, 2)
    assert ("2 tasks done: 2 ran, 0 from the cache; 1 ended in an error, each reported in "
            "its chapter or as the run's error: rover erratum (3.30) 1 s (DivergenceError)"
            in buf.getvalue())


def test_the_closing_line_says_how_long_the_tasks_spent_compiling():
    """A first run spends a minute compiling: each task measures its own numba compile
    time (CPU time of a function compiled inside the task), and the closing line sums the
    tasks that ran (a cached outcome compiled nothing now)."""
    import io

    from numba import njit
    from rich.console import Console

    from dynval.comparisons.run.progress import TaskProgress
    from dynval.comparisons.run.tasks import Outcome, Task, run_task

    def fresh() -> float:
        @njit
        def square(x: float) -> float:  # compiled at its first call, inside the task
            return x * x
        return square(3.0)

    ran = run_task(Task("compiles", "r", fresh))
    assert ran.value == 9.0 and 0.0 < ran.compile_seconds <= ran.seconds
    cached = Outcome("cached", value=1.0, cached=True, compile_seconds=50.0)
    buf = io.StringIO()
    with TaskProgress(Console(file=buf, width=200)) as prog:
        prog.report(ran, 1, 2)
        prog.report(cached, 2, 2)
    assert (f"none ended in an error; {ran.compile_seconds:.1f} s of the tasks' CPU time "
            "spent compiling (numba)") in buf.getvalue()


def test_load_failures_say_what_and_where(tmp_path):
    """MuJoCo's "XML parse error 14:" was cut at its first line; PyBullet's refusal named
    nothing (it prints its reason to a C stream)."""
    from dynval.engines.mujoco_engine import load_model
    from dynval.engines.pybullet_engine import PybulletTerms

    bad = tmp_path / "bad.xml"
    bad.write_text("<mujoco><worldbody><body></worldbody></mujoco>")
    with pytest.raises(DescriptionError, match=r"XML parse error 14: Error=XML_ERROR_"
                                               r"MISMATCHED_ELEMENT .*Line number=1"):
        load_model(bad)
    urdf = tmp_path / "arm.urdf"
    urdf.write_text(
        '<robot name="r"><link name="base"><inertial><mass value="1"/><inertia ixx="1" '
        'iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial><collision><geometry>'
        '<mesh filename="meshes/base.stl"/></geometry></collision></link></robot>')
    with pytest.raises(DescriptionError,
                       match="PyBullet cannot load this URDF \\(link 'base': mesh "
                             "'meshes/base.stl' not found\\)"):
        PybulletTerms(urdf, (0.0, 0.0, -9.81))
