"""L4's verdict: each failing figure judged by its measured evidence (ladder.evidence),
the scenarios not reproduced counted apart, and the note that lists them."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from dynval.comparisons.ladder import evidence
from dynval.comparisons.ladder.metrics import CONSTANT_RANGE as CONSTANT
from dynval.results import Known, MetricRow, Rung

if TYPE_CHECKING:
    from dynval.comparisons.ladder.rungs import Context, RobotLadder

KNOWN_LISTED = 3  # L4's note names each known difference up to this many, else per scenario


def l4_rung(ladder: RobotLadder, ctx: Context) -> None:
    """L4's verdict: ``differs`` where a judged figure is outside tolerance unexplained,
    else ``known`` where each one outside it has verified evidence of its cause (counted
    by kind), else ``not reproduced`` where a scenario's premise failed, else ``agrees``
    where a toleranced figure was judged and ``drawn, not judged`` where none was (no rung
    agrees on figures that compare nothing); the note lists the scenarios not reproduced
    with their evidence."""
    missed = not_reproduced(ctx)
    ctx.rows = [judge(ladder, r, ctx) if r.rung == "L4" and r.tolerance is not None
                and r.passed is False and not _premised(r, missed) else r for r in ctx.rows]
    toleranced = [r for r in ctx.rows if r.rung == "L4" and r.tolerance is not None]
    constant = [r for r in toleranced if r.passed and _constant(r, ctx)]
    held_to = [r for r in toleranced if not _premised(r, missed) and r not in constant]
    failed = [r for r in held_to if not r.passed]
    unexplained = [r for r in failed if not r.known]
    kinds: dict[str, int] = {}
    for r in failed:
        if r.known:
            kinds[r.evidence] = kinds.get(r.evidence, 0) + 1
    n_var = sum(len(ladder.variants(ladder.scenarios[s])) for s in ctx.scenarios)
    verdict = ("differs" if unexplained else "known" if failed
               else "not reproduced" if missed else "agrees" if held_to
               else "drawn, not judged")
    note = (f"{len(ctx.scenarios)} scenarios, {n_var} scenario runs; {len(failed)} of "
            f"{len(held_to)} judged toleranced figures outside tolerance"
            + (" (" + ", ".join([f"{len(unexplained)} differ"] + [
                f"{n} known ({k})" for k, n in sorted(kinds.items())]) + ")"
               if failed else ""))
    note += _listed(failed, unexplained)
    if constant:
        note += (f"; {len(constant)} toleranced figures within tolerance on signals constant "
                 f"in every implementation not counted (they cannot fail), e.g. "
                 f"{constant[0].scenario} {constant[0].variant} {constant[0].signal}")
    unjudged = [sc for sc in ctx.scenarios if sc not in missed
                and not any(r.scenario == sc for r in held_to)]
    if unjudged:
        note += (f"; {len(unjudged)} of {len(ctx.scenarios)} scenarios drawn, not judged "
                 f"(no toleranced figure that can fail): {', '.join(unjudged)}")
    for nr in ctx.chapter.not_reproduced:
        held = sum(1 for r in toleranced if r.scenario == nr.scenario
                   and _premised(r, missed) and not r.passed)
        note += (f"; {nr.scenario} not reproduced ({nr.premise}: {nr.evidence}; "
                 f"{held} requirement figures outside tolerance, not judged)")
    ctx.chapter.rungs["L4"] = Rung(verdict, note)


def judge(ladder: RobotLadder, row: MetricRow, ctx: Context) -> MetricRow:
    """A failing L4 row with its known difference where measured evidence verifies
    one, else as it is (its reason noting a declared cause the evidence refutes)."""
    known = ladder.known_difference(row, ctx)
    if known is not None and not isinstance(known, Known):
        raise TypeError(f"{type(ladder).__name__}.known_difference must return a Known "
                        f"(reason, evidence, evidence_value) or None, not {known!r}")
    factor = ladder.chaos.factor if ladder.chaos else evidence.CHAOS_FACTOR
    if known is None:
        known = chaos_known(ladder, row, ctx)
    if known is None:
        return row
    if not evidence.verified(known, row, factor):
        return replace(row, reason=f"{row.reason}; declared cause not verified by its "
                                   f"{known.evidence} evidence "
                                   f"({known.evidence_value:.3g}): {known.reason}")
    return replace(row, known=known.reason, evidence=known.evidence,
                   evidence_value=float(known.evidence_value))


def chaos_known(ladder: RobotLadder, row: MetricRow, ctx: Context) -> Known | None:
    """The chaos evidence the ladder measures itself where the robot declares
    ``chaos``: the perturbed run against the declared implementation's run in the
    row's variant."""
    if ladder.chaos is None:
        return None
    key = f"{ladder.robot} {evidence.task_name(row.scenario)}"
    base = ctx.wide.get((row.scenario, row.variant), {}).get(ladder.chaos.implementation)
    v = next((v for v in ladder.variants(ladder.scenarios[row.scenario])
              if v.name == row.variant), None)
    if (key not in ctx.outcomes or base is None or v is None
            or (ladder.chaos.implementation, ladder.chaos.contact) not in v.runs):
        return None
    return evidence.chaos(row, base, ctx.outcomes[key].get(), ladder.chaos)


def _constant(row: MetricRow, ctx: Context) -> bool:
    """Whether the row's signal stays within CONSTANT over the run in each implementation
    it compares (at rest, or round-off): a figure no model can move, which agrees by
    construction unless the constants themselves differ (then it fails and is judged)."""
    wide = ctx.wide.get((row.scenario, row.variant), {})
    spans = []
    for impl in {row.reference, row.candidate} - {"-", ""}:
        trace = wide.get(impl)
        if trace is None or row.signal not in trace:
            return False  # a figure not read from a trace (an event, a count) is judged
        values = trace[row.signal].to_numpy(dtype=float)
        spans.append(float(values.max() - values.min()) if len(values) else float("nan"))
    return bool(spans) and all(s <= CONSTANT for s in spans)


def not_reproduced(ctx: Context) -> set[str]:
    """The scenarios of the chapter whose premise failed."""
    return {nr.scenario for nr in ctx.chapter.not_reproduced}


def _premised(row: MetricRow, missed: set[str]) -> bool:
    """A requirement of a scenario not reproduced: counted there, not judged."""
    return row.kind == "requirement" and row.scenario in missed


def _listed(failed: list[MetricRow], unexplained: list[MetricRow]) -> str:
    """The failing figures for L4's note: each while few are known, else the unexplained
    ones and one known example per scenario."""
    many = len(failed) - len(unexplained) > KNOWN_LISTED
    note = "".join(f"; {r.candidate} {r.variant} {r.scenario} {r.signal} {r.metric} = "
                   f"{r.value:.3g} (tol {r.tolerance:.3g})"
                   + (f", known ({r.evidence}): {r.known}" if r.known else "")
                   for r in (unexplained if many else failed))
    if many:
        by_scenario: dict[str, list[MetricRow]] = {}
        for r in failed:
            if r.known:
                by_scenario.setdefault(r.scenario, []).append(r)
        note += "".join(f"; {len(rs)} known in {sc}, e.g. {rs[0].candidate} "
                        f"{rs[0].signal} {rs[0].metric} ({rs[0].evidence}): {rs[0].known}"
                        for sc, rs in by_scenario.items())
    return note
