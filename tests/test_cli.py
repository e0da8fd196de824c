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
