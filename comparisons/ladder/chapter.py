"""A robot's chapter assembled from its tasks' outcomes (ladder.plan names them): each
rung judged with one verdict, every implementation compared with the reference, the
metric rows, and the traces' bytes the run layer writes."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dynval.comparisons.ladder import harness, l4, readable
from dynval.comparisons.ladder.audit import TermResult
from dynval.comparisons.ladder.declared import (
    Assembled,
    Context,
    Inputs,
    PathPlot,
    Variant,
    Wide,
    scaled,
)
from dynval.comparisons.ladder.metrics import compare
from dynval.comparisons.ladder.plan import readable_name, run_name, shared_variant
from dynval.comparisons.ladder.work import Outcome
from dynval.results import (
    Chapter,
    Figure,
    MetricRow,
    ParameterRow,
    Rung,
    ScenarioInfo,
    XYFigure,
    traces_path,
)

if TYPE_CHECKING:
    from dynval.comparisons.ladder.rungs import RobotLadder


def assembled(ladder: RobotLadder, inp: Inputs, outcomes: dict[str, Outcome], out: Path
              ) -> Assembled:
    """A robot's chapter and metric rows from its tasks' outcomes, with the bytes of each
    part of the output folder (the traces under ``out/runs``), which the run layer
    writes."""
    p = inp.params
    chapter = Chapter(ladder.robot, ladder.title, ladder.paper,
                      conventions=ladder.conventions(p),
                      parameters=[ParameterRow(**pr.__dict__) for pr in ladder.parameters(p)])
    ctx = Context(inp, out, chapter, outcomes, ladder.robot)
    _l0(ladder, ctx)
    _audit(ladder, ctx)
    l3 = ctx.result("L3")
    if l3 is not None:
        chapter.trajectories, rows, chapter.rungs["L3"] = l3
        ctx.rows += rows
    else:
        chapter.rungs["L3"] = Rung("not applicable", "no contact-free trajectory rung")
    for name in ctx.scenarios:
        _scenario(ladder, ctx, ladder.scenarios[name])
    if inp.until is not None:  # the readable parity is judged on its own short run
        ctx.rows = [_reported_only(r, inp.until)
                    if r.rung == "L4" and r.variant != readable.VARIANT else r
                    for r in ctx.rows]
    l4.l4_rung(ladder, ctx)
    ladder.recomputed(ctx)
    chapter.rungs["L5"] = ladder.l5(ctx)
    chapter.budget = ladder.budget(ctx)
    if chapter.budget:
        ctx.rows += [MetricRow(ladder.robot, b.scenario, "budget", "-", b.signal, b.component,
                               "-", "rms_diff", b.value, None, None,
                               f"error budget component, {b.unit}", "budget")
                     for b in chapter.budget]
        chapter.rungs["budget"] = Rung("recomputed", ladder.budget_what)
    elif type(ladder).budget is _declared_budget():
        chapter.rungs["budget"] = Rung("not applicable", "no error budget is declared "
                                       "for this robot: no model choice is toggled")
    else:
        chapter.rungs["budget"] = Rung("not applicable",
                                       "the budget's scenario was not run")
    chapter.errata = ladder.errata(ctx)
    chapter.notes = ladder.notes(ctx)
    chapter.assumptions = ladder.assumptions(ctx)
    return Assembled(ctx.rows, chapter, ctx.files)


def _l0(ladder: RobotLadder, ctx: Context) -> None:
    descs, rows = ctx.result("L0 descriptions")
    ctx.chapter.description_check = rows
    engines = sorted({r.engine.split(" vs ")[0] for r in rows})
    worst = {e: max(r.max_error for r in rows if r.engine.startswith(f"{e} vs "))
             for e in engines}
    ctx.chapter.rungs["L0"] = Rung(
        "agrees" if all(r.passed for r in rows) else "differs",
        f"{len(rows)} checks of {len(descs)} descriptions ({', '.join(descs)}): each "
        f"moving body, joint axis and limit as {', '.join(engines)} read the files, "
        "against the parameter set; worst (relative) "
        + ", ".join(f"{e} {worst[e]:.1e}" for e in engines)
        + "; failing: " + (", ".join(f"{r.file} {r.engine} {r.quantity}"
                                     for r in rows if not r.passed) or "none"))


def _audit(ladder: RobotLadder, ctx: Context) -> None:
    res = ctx.audit = ctx.result("L1/L2 audit")
    ctx.chapter.audit = res.kinematics + res.dynamics
    for rung, results, what in (("L1", res.kinematics, ladder.l1_what),
                                ("L2", res.dynamics, ladder.l2_what)):
        ctx.rows += [_audit_row(ladder, rung, r, res.is_erratum(r)) for r in results]
        ctx.chapter.rungs[rung] = _audit_rung(results, res.is_erratum, what)


def _audit_row(ladder: RobotLadder, rung: str, r: TermResult, erratum: bool) -> MetricRow:
    return MetricRow(ladder.robot, "audit", rung, r.form, r.term, r.reference, "handrolled",
                     "max_rel_error", r.max_rel_error, None if erratum else r.tolerance,
                     None if erratum else r.passed,
                     "the printed form, measured for its erratum" if erratum
                     else ladder.audit_reason, "erratum" if erratum else "agreement")


def _scenario(ladder: RobotLadder, ctx: Context, sc: Any) -> None:
    variants = ladder.variants(sc)
    ctx.chapter.scenarios.append(ScenarioInfo(sc.name, sc.title,
                                              [v.name for v in variants],
                                              ladder.scenario_description(sc)))
    _readable(ladder, ctx, sc, variants)
    for variant in variants:
        wide: Wide = {}
        for impl, _ in variant.runs:
            wide[impl] = ctx.result(run_name(sc.name, variant.name, impl))
            ctx.rows += ladder.requirements(ctx, sc, variant, impl, wide[impl])
        ctx.wide[(sc.name, variant.name)] = wide
        failed = (ladder.premise(ctx, sc, variant, wide) if ctx.inputs.until is None
                  else None)  # a shortened run (ci) is not the scenario's premise
        if failed is not None and sc.name not in l4.not_reproduced(ctx):
            ctx.chapter.not_reproduced.append(failed)
        extra, rows, tables = ladder.scenario_extras(ctx, sc, variant, wide)
        traces = harness.tidy({**wide, **extra})
        stored = traces.assign(robot=ladder.robot, scenario=sc.name, variant=variant.name)
        buf = io.BytesIO()
        stored.to_parquet(buf, index=False)
        ctx.write(traces_path(ctx.out, ladder.robot, sc.name, variant.name), buf.getvalue())
        ctx.rows += compare(wide, ladder.robot, sc.name, variant.name,
                            ladder.compared_signals(sc, variant, wide), variant.reference,
                            [i for i in variant.implementations if i != variant.reference],
                            variant.tolerances)
        ctx.rows += rows
        ctx.chapter.tables += tables
        tag = ladder.figure_tag(sc, variant) + ("; not reproduced"
                                              if sc.name in l4.not_reproduced(ctx) else "")
        for fig in ladder.figures(ctx, sc, variant):
            if isinstance(fig, PathPlot):
                ctx.chapter.xy_figures.append(XYFigure(
                    f"{fig.title} ({tag})", sc.name, variant.name, fig.x, fig.y, fig.unit,
                    fig.scale, fig.relative, fig.caption))
            else:
                units, scales = scaled(fig.signals)
                ctx.chapter.figures.append(Figure(
                    f"{fig.title} ({tag})", sc.name, variant.name, fig.signals, units,
                    scales, fig.caption))


def _readable(ladder: RobotLadder, ctx: Context, sc: Any, variants: list[Variant]) -> None:
    """The compiled hand-rolled run held to the readable one (ladder.readable), where
    the readable one ran."""
    key = f"{ladder.robot} {readable_name(sc.name)}"
    if key not in ctx.outcomes:
        return
    variant = shared_variant(variants)
    compiled = ctx.result(run_name(sc.name, variant.name, "handrolled"))
    ctx.rows += readable.parity_rows(ladder.robot, sc.name, compiled,
                                     ctx.result(readable_name(sc.name)))


def _declared_budget() -> Any:
    """RobotLadder's own budget hook: a robot that leaves it alone declares no budget."""
    from dynval.comparisons.ladder.rungs import RobotLadder

    return RobotLadder.budget


def _reported_only(row: MetricRow, until: float) -> MetricRow:
    """A scenario figure of a shortened run: tracked by its tier's baseline, not judged."""
    if row.tolerance is None:
        return row
    return replace(row, tolerance=None, passed=None,
                   reason=f"ci tier, first {until:g} s only: reported and tracked by the ci "
                          f"baseline (tolerance {row.tolerance:.3g} applies to the full run: "
                          f"{row.reason})")


def _audit_rung(results: list[TermResult], is_erratum: Callable[[TermResult], bool],
                what: str) -> Rung:
    judged = [r for r in results if not is_erratum(r)]
    printed_bad = [r for r in results if is_erratum(r) and not r.passed]
    if not judged:
        return Rung("not applicable", f"{what}: nothing to compare")
    worst = max(judged, key=lambda r: r.max_rel_error)
    note = (f"{what}: worst relative {worst.max_rel_error:.1e} ({worst.term} vs "
            f"{worst.reference}) over {max(r.samples for r in judged)} states")
    if printed_bad:
        w = max(printed_bad, key=lambda r: r.max_rel_error)
        note += (f"; the printed {', '.join(sorted({r.term for r in printed_bad}))} off by up "
                 f"to relative {w.max_rel_error:.2g} (erratum)")
    return Rung("agrees" if all(r.passed for r in judged) else "differs", note)
