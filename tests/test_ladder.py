"""The shared ladder's typed pieces: the chapter survives summary.json, metric rows and
rungs speak one vocabulary, printed forms with a correction are errata, and a failing
figure is 'differs' unless the robot declared it as a known difference."""

import json
from types import SimpleNamespace

import pytest

from dynval.comparisons.ladder.audit import ROUND_OFF, TermResult
from dynval.comparisons.ladder.l4 import l4_rung
from dynval.comparisons.ladder.rungs import AuditResults, Context, Inputs, RobotLadder, Variant
from dynval.results import (
    Chapter,
    DataTable,
    Erratum,
    Known,
    MetricRow,
    Panel,
    Rung,
    Series,
    metrics_frame,
)


def _row(**kw) -> MetricRow:
    base = dict(robot="r", scenario="s", rung="L4", variant="shared", signal="body.roll",
                reference="mujoco", candidate="handrolled", metric="final_diff", value=0.1,
                tolerance=0.05, passed=False, reason="why", kind="agreement")
    return MetricRow(**{**base, **kw})


def test_chapter_round_trips_through_json():
    ch = Chapter("r", "A robot", "A paper", rungs={"L0": Rung("agrees", "n")},
                 tables=[DataTable("t", ["a"], [[1.0]], "c", None,
                                   [Panel("p", "x", "y", [Series("s", [0.0], [1.0], "--")])])],
                 errata=[Erratum("(1)", "term", "a", "b", "ev", "eff")])
    back = Chapter.from_dict(json.loads(json.dumps(ch.to_dict())))
    assert back == ch


def test_verdicts_rungs_and_kinds_are_checked():
    with pytest.raises(ValueError, match="verdict 'pass'"):
        Rung("pass", "nothing was compared")
    with pytest.raises(ValueError, match="rung"):
        _row(rung="L3 dt=0.001")
    with pytest.raises(ValueError, match="kind"):
        _row(kind="informational")


def test_metric_frame_keeps_missing_tolerances_as_nan():
    df = metrics_frame([_row(), _row(tolerance=None, passed=True, kind="recomputed")])
    assert df["tolerance"].isna().tolist() == [False, True]
    assert str(df["passed"].dtype) == "boolean" and list(df["kind"]) == ["agreement",
                                                                          "recomputed"]


def _term(term, form, ref="mujoco", rel=1e-15):
    return TermResult(term, "(1)", form, ref, rel, rel, 0, 10, 0, ROUND_OFF)


def test_a_printed_form_is_an_erratum_only_next_to_its_correction():
    res = AuditResults([_term("foot", "printed")],
                       [_term("G", "printed", rel=2.0), _term("G", "corrected")])
    assert not res.is_erratum(res.kinematics[0])  # printed and right: held to round-off
    assert res.is_erratum(res.dynamics[0])
    assert not res.is_erratum(res.dynamics[1])


class _Known(RobotLadder):
    robot = "r"

    def variants(self, sc):
        return [Variant("shared", (("handrolled", "shared"),))]

    @property
    def scenarios(self):
        return {"s": None}

    def known_difference(self, row, ctx):  # a counterfactual figure within the 0.05 tol
        return Known("explained", "ablation", 0.01) if row.signal == "body.pitch" else None


@pytest.mark.parametrize("signals,verdict", [((), "agrees"), (("body.pitch",), "known"),
                                             (("body.roll",), "differs")])
def test_l4_verdict_names_failures_and_known_differences(signals, verdict):
    ctx = Context(Inputs(None, None, ("s",), 1, 0), None, Chapter("r", "t", "p"), {}, "r")
    ctx.rows = [_row(signal=s) for s in signals] + [_row(signal="x", passed=True)]
    l4_rung(_Known(), ctx)
    rung = ctx.chapter.rungs["L4"]
    assert rung.verdict == verdict
    if signals == ("body.pitch",):
        assert "known (ablation): explained" in rung.note
        assert "(0 differ, 1 known (ablation))" in rung.note


def test_the_ci_tier_reports_whole_run_tolerances_without_judging_them():
    from dynval.comparisons.ladder.chapter import _reported_only
    from dynval.comparisons.ladder.rungs import CI_SAMPLES, CI_SECONDS

    row = _reported_only(_row(metric="settled_abs_deg"), CI_SECONDS)
    assert row.tolerance is None and row.passed is None  # reported, not judged
    assert row.reason.startswith("ci tier, first 1 s only") and "0.05" in row.reason
    inp = _Known().inputs(None, None, None, samples=1000, tier="ci")
    assert inp.samples == CI_SAMPLES and inp.until == CI_SECONDS
    with pytest.raises(ValueError, match="unknown tier"):
        _Known().inputs(None, None, tier="fast")


def test_every_robot_is_run_by_its_make_loop(monkeypatch):
    """The one hook: a robot's make_loop is run for the duration its ScenarioRun gives, as
    every run is recorded; ``until`` shortens it, the robot's own keywords reach its hook,
    and one the hook does not take is one sentence."""
    import numpy as np

    from dynval.comparisons.ladder import plant
    from dynval.comparisons.ladder.scenario_run import ScenarioRun
    from dynval.plugins import PluginError

    pushes = []

    def make_loop(implementation, contact, sc, p, desc_dir, push=1.0):
        pushes.append(push)
        hp = plant.HandPlant(lambda q, v, tau: tau, 0.01, np.zeros(1))
        loop = plant.ControlledLoop(hp, lambda t, q, v: np.array([push]),
                                    lambda lp: {"joint.rail.extension": float(lp.plant.q[0])})
        return ScenarioRun(loop, 0.01, sc.duration)

    ladder = _Known()
    monkeypatch.setattr(ladder, "_declared", lambda *where: make_loop)
    sc = SimpleNamespace(duration=0.1)
    trace = ladder.run_one(None, sc, "handrolled", "shared", None, progress=lambda f: None)
    assert len(trace) == 11 and trace["joint.rail.extension"].iloc[-1] > 0.0
    assert len(ladder.run_one(None, sc, "handrolled", "shared", None, until=0.05)) == 6
    pulled = ladder.run_one(None, sc, "handrolled", "shared", None, push=-1.0)
    assert pushes[-1] == -1.0 and pulled["joint.rail.extension"].iloc[-1] < 0.0
    with pytest.raises(PluginError, match="the make_loop of robot 'r' takes no fast, "
                                          "which its ladder asks for"):
        ladder.run_one(None, sc, "handrolled", "shared", None, fast=False)



def test_a_make_loop_that_returns_a_bare_loop_is_one_sentence():
    """The hook returns the loop and how it runs (a ScenarioRun); a loop alone, as a
    plugin written for an older contract might return, is named in one sentence."""
    from dynval.comparisons.ladder.scenario_run import Runner
    from dynval.plugins import PluginError

    def make_loop(implementation, contact, sc, p, desc_dir):
        return object()

    with pytest.raises(PluginError, match=r"test_ladder\.make_loop must return a "
                                          r"ScenarioRun \(the loop and how it runs\), not "
                                          r"object"):
        Runner(make_loop)(None, None, "handrolled", "shared", None)
