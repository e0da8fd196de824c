"""Verdicts that mean what they say: a paper's statement that does not hold is a row with
passed = False (kind "statement"), counted apart from the figures outside tolerance; a
fitted table is recomputed, never reproduced; "reproduced" only where a published number
was matched.  The checks are fed runs on which they must fail, and a real run's
metrics.parquet and summary.json are walked for the rules."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from dynval.comparisons.cli import app
from dynval.comparisons.hexapod import statements
from dynval.results import run_verdict

runner = CliRunner()


def _walk(t: np.ndarray, hip_rate: float, hip_acc: float) -> pd.DataFrame:
    """A synthetic 1 kHz trace with the signals the gait statements read."""
    w = 2 * np.pi * t
    return pd.DataFrame({
        "time": t, "foot.LF.vy_ref": np.sin(w), "foot.LF.ay_ref": 2 * np.cos(w),
        "joint.LF.hip.rate": hip_rate * np.sin(w), "joint.LF.hip.acceleration":
            hip_acc * np.cos(w), "joint.LF.hip.torque_inertial": hip_acc * np.sin(w),
        "joint.LF.hip.torque_coriolis": 0.1 * np.sin(w)})


def test_a_statement_that_does_not_hold_is_a_failed_statement_row():
    """EPFC's peaks must be lower than WG's: a run where the hip's are higher fails those
    rows, and passes the others."""
    t = np.arange(0.0, 1.0, 1e-3)
    wg, ep = _walk(t, 4.0, 100.0), _walk(t, 5.0, 50.0)
    ep["foot.LF.vy_ref"] *= 0.5
    ep["foot.LF.ay_ref"] *= 0.5
    rows = {s.row.signal: s for s in statements.gaits("hexapod", wg, ep)}
    for s in rows.values():
        assert s.row.kind == "statement" and s.row.tolerance is None
        assert s.row.passed == s.holds and s.verdict == ("holds" if s.holds else
                                                         "does not hold")
    assert not rows["joint.LF.hip.rate"].holds  # 5 > 4: EPFC is not lower
    assert rows["joint.LF.hip.acceleration"].holds and rows["foot.LF.vy_ref"].holds


def test_the_non_linear_ground_statement_fails_on_a_pulling_force():
    """Fig. 11's "never pulls" fails on a trace where f_1yF goes negative."""
    t = np.arange(0.0, 1.0, 1e-3)
    y = np.where(t > 0.5, -1e-3, 0.01)
    pull = pd.DataFrame({"time": t, "foot.LF.y": y, "foot.LF.force.x": 0.0,
                         "foot.LF.force.y": np.where(t > 0.5, -5.0, 0.0)})
    out = statements.grounds("hexapod", pull, pull, {"linear": 100.0, "nonlinear": 1.0})
    never = next(s for s in out if "never pulls" in s.text)
    assert not never.holds and never.row.passed is False


def test_statements_are_counted_apart_from_figures_outside_tolerance():
    """A paper's statement that does not hold is a finding about the paper: it is counted
    and said, and it does not make the run's implementations disagree (no exit 1)."""
    metrics = pd.DataFrame({"passed": [True, False, False, True],
                            "known": ["", "", "", ""],
                            "kind": ["agreement", "statement", "statement", "statement"]})
    v = run_verdict(["agrees"], metrics)
    assert (v.outside, v.unexplained, v.statements, v.not_holding) == (0, 0, 3, 2)
    assert v.statements_clause() == "; 2 of 3 of the papers' statements do not hold"
    metrics.loc[0, "passed"] = False
    assert run_verdict(["agrees"], metrics).unexplained == 1


@pytest.fixture(scope="module")
def hexapod_run(tmp_path_factory):
    """A ci-tier validate of the hexapod: its statements, Tables II and III."""
    out = tmp_path_factory.mktemp("hexapod")
    res = runner.invoke(app, ["validate", "--robot", "hexapod", "--tier", "ci", "--samples",
                              "20", "--workers", "1", "--out", str(out)],
                        env={"DYNVAL_CACHE": str(out.parent / "cache")})
    assert res.exit_code == 0, res.output
    return out, res.output


def test_a_run_says_which_statements_hold_and_reproduces_only_published_numbers(hexapod_run):
    """Walk the run's metrics.parquet and summary.json: every statement in the chapter's
    table has its row, passed exactly when it holds; "reproduced" is a rung verdict only
    where a published number was matched (a judged L5 row against the printed value); a
    fitted table is a recomputed row; the verdict line says how many statements fail."""
    out, said = hexapod_run
    m = pd.read_parquet(out / "metrics.parquet")
    summary = json.loads((out / "summary.json").read_text())
    chapter = summary["robots"]["hexapod"]
    table = next(t for t in chapter["tables"] if t["title"].startswith("The paper's stat"))
    rows = m[m["kind"] == "statement"]
    assert len(rows) == len(table["rows"]) > 0
    assert sorted(rows["passed"]) == sorted(r[3] == "holds" for r in table["rows"])
    failing = int((~rows["passed"]).sum())
    assert f"{failing} of {len(rows)} of the papers' statements do" in said
    for robot, ch in summary["robots"].items():
        for rung, r in ch["rungs"].items():
            if r["verdict"] != "reproduced":
                continue
            matched = m[(m["robot"] == robot) & (m["rung"] == rung) & m["tolerance"].notna()
                        & (m["reference"] == "printed") & m["passed"]
                        & (m["kind"] == "agreement")]
            assert len(matched), f"{robot} {rung} reproduced without a published number"
    t2 = m[m["scenario"] == "Table II"]
    assert list(t2["kind"]) == ["recomputed"] and "fitted" in t2["metric"].iloc[0]
    sec4 = next(e for e in chapter["errata"] if e["equation"].startswith("Sec. IV, M"))
    assert "M_b n^-1" in sec4["printed"] and "(M_i1 + M_i2) = 100 kg" in sec4["corrected"]
