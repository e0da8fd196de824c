"""A known difference is a measurement, never a text: a Known without evidence is refused,
chaos is measured by the ladder itself and refused where the difference exceeds its
factor, a scenario whose premise fails is 'not reproduced' (not a set of known rows),
and the run's verdict counts each apart."""

import json

import numpy as np
import pandas as pd
import pytest

from dynval.comparisons.ladder import evidence
from dynval.comparisons.ladder.l4 import l4_rung
from dynval.comparisons.ladder.rungs import Context, Inputs, RobotLadder, Variant
from dynval.comparisons.run.tasks import Outcome
from dynval.results import (
    VERDICTS,
    Chapter,
    Known,
    MetricRow,
    NotReproduced,
    metrics_frame,
    run_verdict,
)


def _row(**kw) -> MetricRow:
    base = dict(robot="r", scenario="s", rung="L4", variant="shared", signal="x",
                reference="mujoco", candidate="pybullet", metric="max_abs", value=0.1,
                tolerance=1e-6, passed=False, reason="round-off", kind="agreement")
    return MetricRow(**{**base, **kw})


def _ctx(ladder: RobotLadder, params=None, scenarios=("s",)) -> Context:
    return Context(Inputs(params, None, scenarios, 1, 0), None, Chapter("r", "t", "p"), {},
                   ladder.robot)


class _Toy(RobotLadder):
    robot = "r"
    chaos = evidence.Chaos(1e-12, 10.0, "the start height [m]")
    answer = None  # what known_difference returns

    @property
    def scenarios(self):
        return {"s": None}

    def variants(self, sc):
        return [Variant("shared", (("handrolled", "shared"), ("mujoco", "shared"),
                                   ("pybullet", "shared")))]

    def known_difference(self, row, ctx):
        return self.answer


def test_a_known_without_measured_evidence_is_refused():
    with pytest.raises(ValueError, match="measured evidence"):
        Known("the contact differs", "", 1.0)
    with pytest.raises(ValueError, match="measured evidence"):
        Known("the contact differs", "see the notes", 1.0)
    with pytest.raises(ValueError, match="finite"):
        Known("the contact differs", "ablation", float("nan"))
    with pytest.raises(ValueError, match="without measured evidence"):
        _row(known="explained by text")
    ladder = _Toy()
    ladder.answer = "explained by text"  # the old API: a reason and nothing measured
    ctx = _ctx(ladder)
    ctx.rows = [_row()]
    with pytest.raises(TypeError, match="must return a Known"):
        l4_rung(ladder, ctx)


def _chaos_ctx(spread: float, values: list[float]) -> tuple[_Toy, Context]:
    """Rows of the given differences, and a hand-rolled run whose perturbed copy moves x
    by ``spread``."""
    ladder = _Toy()
    ctx = _ctx(ladder)
    t = np.linspace(0.0, 1.0, 101)
    base = pd.DataFrame({"time": t, "x": np.sin(t)})
    moved = base.assign(x=base["x"] + spread * t)  # max_abs spread at the end
    ctx.wide[("s", "shared")] = {"handrolled": base, "mujoco": base, "pybullet": base}
    ctx.outcomes[f"r {evidence.task_name('s')}"] = Outcome("r sensitivity s", moved)
    ctx.rows = [_row(value=v, candidate=c) for v, c in zip(values, ("mujoco", "pybullet"),
                                                           strict=False)]
    return ladder, ctx


def test_chaos_is_measured_and_a_difference_beyond_its_factor_differs():
    spread = 1e-3  # far above the 1e-6 tolerance: the run amplifies a 1e-12 shift
    ladder, ctx = _chaos_ctx(spread, [5e-3, 2e-2])  # 5x and 20x the spread (factor 10)
    l4_rung(ladder, ctx)
    within, beyond = ctx.rows
    assert within.evidence == "chaos" and within.known
    assert within.evidence_value == pytest.approx(spread, rel=1e-9)
    assert beyond.known == "" and beyond.evidence == ""
    assert "not verified by its chaos evidence" in beyond.reason
    rung = ctx.chapter.rungs["L4"]
    assert rung.verdict == "differs" and "(1 differ, 1 known (chaos))" in rung.note


def test_l4_is_known_only_where_every_figure_outside_tolerance_is_explained():
    """The design's verdicts: ``known`` is a figure outside tolerance with measured
    evidence of its cause, ``differs`` one without; a rung whose every failure is
    explained says ``known``, one unexplained figure makes it ``differs``."""
    ladder, ctx = _chaos_ctx(1e-3, [5e-3, 2e-3])  # both within 10x the spread
    l4_rung(ladder, ctx)
    assert all(r.evidence == "chaos" for r in ctx.rows)
    rung = ctx.chapter.rungs["L4"]
    assert rung.verdict == "known" and "(0 differ, 2 known (chaos))" in rung.note
    ladder, ctx = _chaos_ctx(1e-3, [5e-3, 2e-2])
    l4_rung(ladder, ctx)
    assert ctx.chapter.rungs["L4"].verdict == "differs"


def test_chaos_within_the_tolerance_explains_nothing():
    ladder, ctx = _chaos_ctx(1e-9, [5e-9])  # the run is not sensitive at the tolerance
    l4_rung(ladder, ctx)
    assert ctx.rows[0].known == "" and ctx.chapter.rungs["L4"].verdict == "differs"


def test_l4_agrees_only_where_a_toleranced_figure_was_judged():
    """Reported-only figures compare nothing: L4 says "drawn, not judged", never agrees;
    one judged figure within tolerance makes it agree."""
    ladder = _Toy()
    ctx = _ctx(ladder)
    ctx.rows = [_row(tolerance=None, passed=None, kind="recomputed", value=0.3)]
    l4_rung(ladder, ctx)
    rung = ctx.chapter.rungs["L4"]
    assert rung.verdict == "drawn, not judged"
    assert "1 of 1 scenarios drawn, not judged" in rung.note
    ctx.rows.append(_row(value=1e-9, passed=True))
    l4_rung(ladder, ctx)
    assert ctx.chapter.rungs["L4"].verdict == "agrees"


def test_a_figure_on_a_constant_signal_is_not_counted_as_judged():
    """A run at rest agrees by construction: its figures are said apart, and a scenario
    of nothing else is drawn, not judged; the same constants apart still fail."""
    ladder = _Toy()
    ctx = _ctx(ladder)
    t = np.linspace(0.0, 1.0, 11)
    rest = pd.DataFrame({"time": t, "x": np.full_like(t, 0.25)})
    ctx.wide[("s", "shared")] = {"mujoco": rest, "pybullet": rest}
    ctx.rows = [_row(value=0.0, passed=True)]
    l4_rung(ladder, ctx)
    rung = ctx.chapter.rungs["L4"]
    assert rung.verdict == "drawn, not judged"
    assert "1 toleranced figures within tolerance on signals constant" in rung.note
    ctx.wide[("s", "shared")]["pybullet"] = rest.assign(x=0.5)  # two constants apart
    ctx.rows = [_row(value=0.25, passed=False)]
    l4_rung(ladder, ctx)
    assert ctx.chapter.rungs["L4"].verdict == "differs"
    ctx.wide[("s", "shared")]["pybullet"] = rest.assign(x=0.25 + 1e-3 * t)  # it moves
    ctx.rows = [_row(value=1e-9, passed=True)]
    l4_rung(ladder, ctx)
    assert ctx.chapter.rungs["L4"].verdict == "agrees"


def test_an_ablation_is_verified_on_its_counterfactual_row():
    native = _row(variant="native", kind="requirement", reference="-", value=0.2,
                  tolerance=0.05, metric="settled_spread_rel")
    good = _row(kind="requirement", reference="-", value=0.01, tolerance=0.05,
                passed=True, metric="settled_spread_rel")
    k = evidence.ablation(native, [native, good], "the contact law", variant="shared")
    assert k.evidence == "ablation" and k.evidence_value == 0.01
    assert evidence.verified(k, native)
    bad = evidence.ablation(native, [native, _row(**{**good.__dict__, "value": 0.3})],
                            "the contact law", variant="shared")
    assert not evidence.verified(bad, native)  # the counterfactual still fails: differs
    assert evidence.ablation(native, [native], "the contact law", variant="shared") is None


def test_convergence_holds_at_the_integrators_order_only():
    row = _row()
    first = Known("the step", "convergence", evidence.observed_order(4e-6, 2e-6))
    assert first.evidence_value == pytest.approx(1.0) and evidence.verified(first, row)
    assert not evidence.verified(Known("the step", "convergence", 0.1), row)
    assert not evidence.verified(Known("the step", "convergence", 1.0, order=2.0), row)


def _hopping(p, samples: int = 1001, airborne: slice = slice(300, 700)) -> pd.DataFrame:
    """A judged cycle whose every foot leaves the ground over ``airborne``, at H_B."""
    from dynval.robots.hexapod.params import leg_names

    t = np.linspace(0.0, p.T, samples)
    cols = {"time": t, "com.y": np.full(samples, p.H_B)}
    for leg in leg_names(p):
        fy = np.full(samples, 300.0)
        fy[airborne] = 0.0
        cols |= {f"foot.{leg}.force.y": fy, f"foot.{leg}.force.x": np.zeros(samples),
                 f"foot.{leg}.x": np.zeros(samples)}
    return pd.DataFrame(cols)


def test_a_gait_that_hops_is_not_reproduced_and_its_requirements_are_not_known():
    from dynval.comparisons.hexapod.scenarios import SCENARIOS, scenario_params
    from dynval.comparisons.hexapod.validate import LADDER
    from dynval.robots.hexapod.params import PARAMS

    sc = SCENARIOS["EPFC_35"]
    ctx = _ctx(LADDER, PARAMS, ("EPFC_35",))
    variant = LADDER.variants(sc)[0]
    df = _hopping(scenario_params(PARAMS, sc))
    rows = LADDER.requirements(ctx, sc, variant, "handrolled", df)
    failing = {r.metric for r in rows if not r.passed}
    assert {"airborne_samples", "planned_support_off_ground_fraction"} <= failing
    missed = LADDER.premise(ctx, sc, variant, {"handrolled": df})
    assert isinstance(missed, NotReproduced) and missed.scenario == "EPFC_35"
    assert missed.evidence.startswith("400 of 1001 samples with no foot down")
    assert LADDER.premise(ctx, sc, variant, {"handrolled": _hopping(
        scenario_params(PARAMS, sc), airborne=slice(0, 0))}) is None  # it walks
    ctx.chapter.not_reproduced.append(missed)
    ctx.rows = rows
    l4_rung(LADDER, ctx)
    assert all(r.known == "" for r in ctx.rows)  # failing, never known
    rung = ctx.chapter.rungs["L4"]
    assert rung.verdict == "not reproduced" and "not reproduced" in VERDICTS
    assert "EPFC_35 not reproduced (the gait walks" in rung.note
    assert "400 of 1001 samples with no foot down" in rung.note


def _metrics() -> pd.DataFrame:
    chaos = Known("chaotic", "chaos", 1e-3)
    abl = Known("contact law", "ablation", 0.01)
    return metrics_frame([
        _row(known=chaos.reason, evidence="chaos", evidence_value=1e-3),
        _row(known=chaos.reason, evidence="chaos", evidence_value=1e-3, signal="y"),
        _row(known=abl.reason, evidence="ablation", evidence_value=0.01, variant="native"),
        _row(),  # unexplained
        _row(scenario="hops", kind="requirement", reference="-"),
        _row(scenario="hops", kind="requirement", reference="-", signal="y"),
        _row(value=0.0, passed=True)])


def test_the_verdict_counts_known_by_kind_and_scenarios_not_reproduced(tmp_path):
    v = run_verdict(["agrees", "differs"], _metrics(), [("r", "hops")])
    assert (v.outside, v.known, v.not_reproduced_rows, v.unexplained) == (6, 3, 2, 1)
    assert v.known_by == {"chaos": 2, "ablation": 1}
    assert v.outside_clause() == (
        "6 figures outside tolerance: 1 differ (unexplained), 1 known (ablation), 2 known "
        "(chaos), 2 in scenarios not reproduced; 1 scenario not reproduced (r hops)")
    # without the scenario listed, its failing requirements are unexplained
    assert run_verdict(["agrees"], _metrics()).unexplained == 3

    from dynval.comparisons.commands.validation import verdict_line

    ch = Chapter("r", "t", "p", not_reproduced=[NotReproduced("hops", "it walks", "hops")])
    (tmp_path / "summary.json").write_text(json.dumps({"robots": {"r": ch.to_dict()}}))
    line, failing = verdict_line(tmp_path, _metrics())
    assert failing == 1 and "2 known (chaos)" in line and "(r hops)" in line
    assert line.endswith("1 unexplained: exit 1")
