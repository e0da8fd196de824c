"""A user model's audit written as a run folder like ``dynval validate``'s: metric rows
(Parquet and JSON), a chapter in summary.json and the manifest, so that ``dynval report``
draws its chapter and ``dynval check --model`` gates it against baselines."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from dynval.comparisons.ladder.rungs import rows_verdict
from dynval.comparisons.own_model import loading
from dynval.comparisons.own_model.audit import OwnAudit, l3_passed, rung_of
from dynval.comparisons.own_model.swing import l3_within
from dynval.comparisons.run import manifest
from dynval.comparisons.run.defaults import MODEL_SAMPLES, SEED
from dynval.model import ModelError
from dynval.results import (
    Chapter,
    DescriptionRow,
    MetricRow,
    Rung,
    TrajectoryRow,
    metrics_frame,
)

GRAVITY = loading.STANDARD_GRAVITY  # [m/s^2]: z up, unless the file sets its own
REASON = "the model and the engine describe the same tree: round-off"


def _engine(row: dict) -> str:
    """The other side of an L3 row (its comparison reads "MODEL vs ENGINE ...")."""
    return row["comparison"].split(" vs ")[1].split(" (difference")[0]


def audit_of(model: Any | None, description: Path | str, samples: int = MODEL_SAMPLES,
             seed: int = SEED, package_paths: Sequence[Path] = (), base: str | None = None,
             gravity: Sequence[float] = GRAVITY, label: str | None = None) -> OwnAudit:
    """The audit of a model object against its description, or, with no model, of the
    description alone (the engines against each other, on a ``base`` "fixed" or "free";
    a model says its own base).  ``dynval audit`` and ``dynval.audit`` both run this."""
    if model is None:
        from dynval.comparisons.own_model.parity import parity_audit

        return parity_audit(description, samples, seed, gravity, base=base,
                            package_paths=package_paths)
    if base is not None:
        raise ModelError("--base (base=) is for a description alone; a model says its own "
                         "base (base = 'free')")
    from dynval.comparisons.own_model.audit import audit_model

    return audit_model(model, description, samples, seed, gravity, label=label,
                       package_paths=package_paths)


def audit_files(spec: str | None, description: Path, samples: int, seed: int,
                package_paths: list[Path] | None = None, base: str | None = None
                ) -> OwnAudit:
    """:func:`audit_of` a model named by ``spec`` (PATH.py:OBJECT or
    package.module:OBJECT), or of the description alone where ``spec`` is None."""
    from dynval.model import load_object

    model = None if spec is None else load_object(spec)
    return audit_of(model, description, samples, seed, package_paths or [], base,
                    label=None if spec is None else spec.rsplit(":", 1)[1])


def rows_and_chapter(audit: OwnAudit) -> tuple[list[MetricRow], Chapter]:
    """The metric rows and the report chapter of one audit."""
    label = audit.label
    rows = [MetricRow(label, "audit", rung_of(r.term), "model", r.term, r.reference, "model",
                      "max_rel_error", r.max_rel_error, r.tolerance, r.passed, REASON,
                      "agreement") for r in audit.results]
    rows += [MetricRow(label, "description", "L0", "-", r["quantity"], r["engine"], "-",
                       "max_rel_error", r["max_error"], r["tolerance"], r["passed"],
                       r["reason"], "agreement") for r in audit.l0]
    rows += l3_metric_rows(label, audit.l3, "model")
    ch = Chapter(label, f"{label} (your model)", f"{label} against {audit.description.name}")
    ch.description_check = [DescriptionRow(**r) for r in audit.l0]
    ch.audit = list(audit.results)
    ch.trajectories = [TrajectoryRow(r["step"], r["comparison"], r["max_abs"], r["tolerance"],
                                     r["reason"], "rad or m") for r in audit.l3]
    ch.notes = ([f"Not checked: {line}" for line in audit.unchecked]
                + [f"Finding: {line}" for line in audit.findings]
                + [f"Reader finding: {line}" for line in audit.readers] + list(audit.notes))
    for rung, what in (("L0", "the description in each engine"),
                       ("L1", "frames named by the model"), ("L2", "dynamics terms"),
                       ("L3", "free swing (a free root: from a seeded state)")):
        judged = [r for r in rows if r.rung == rung]
        detail = f"{what}: {len(judged)} figures" + (
            f"; not checked: {', '.join(sorted(audit.refused))}" if audit.refused else ""
        ) + _first_failing(audit, rung)
        ch.rungs[rung] = (Rung(rows_verdict(judged), detail) if judged
                          else Rung("not applicable", f"{what}: nothing to compare"))
    for rung in ("L4", "L5", "budget"):
        ch.rungs[rung] = Rung("not applicable", "a model audit has no scenarios, published "
                                                "numbers or error budget")
    return rows, ch


def l3_metric_rows(robot: str, l3: list[dict], candidate: str,
                   signal: str = "joint coordinates") -> list[MetricRow]:
    """The metric rows of a free swing's L3 rows (swing_rows): each difference against its
    envelope, and each halving ratio against its lower bound, with a failing figure's
    measured cause; a row without a tolerance (the scheme's own error against RK4) is
    reported, not judged."""
    rows = [MetricRow(robot, "L3 free swing", "L3", f"dt={r['step']:g}", signal, _engine(r),
                      candidate, "max_abs", r["max_abs"], r["tolerance"],
                      None if r["tolerance"] is None else l3_within(r), r["reason"],
                      "agreement", **_evidence(r, not l3_within(r)))
            for r in l3]
    rows += [MetricRow(robot, "L3 free swing", "L3", f"dt={r['step']:g}", signal, _engine(r),
                       candidate, "halving_ratio", r["ratio_to_half_step"], r["min_ratio"],
                       l3_passed(r), "lower bound: " + r["reason"], "requirement",
                       **_evidence(r, not l3_passed(r)))
             for r in l3 if "ratio_to_half_step" in r]
    return rows


def _first_failing(audit: OwnAudit, rung: str) -> str:
    """What a rung's note adds where the rung fails, so that the report's first page names
    it: what the failing terms point at, and the first failing figure in brief."""
    found: list[str] = []
    if rung == "L0":
        first = [audit.explain_l0(r) for r in audit.l0_failures[:1]]
    elif rung == "L3":
        first = [audit.explain_l3(r) for r in audit.l3_failures[:1]]
    else:
        failed = [r for r in audit.failures if rung_of(r.term) == rung]
        terms = {r.term for r in failed}
        found = [d.sentence for d in audit.diagnoses if terms & set(d.terms)]
        first = [audit.brief(r) for r in failed[:1]]
    return "".join([*(f"; finding: {x}" for x in found), *(f"; first failing: {x}"
                                                            for x in first)])


def _evidence(row: dict, failed: bool) -> dict:
    """A failing L3 figure's known difference and its evidence, as MetricRow fields (none
    where the figure passed or its row has no measured cause)."""
    if not failed or not row.get("evidence"):
        return {}
    return {"known": row["known"], "evidence": row["evidence"],
            "evidence_value": row["evidence_value"]}


def write_run(audit: OwnAudit, out: Path, spec: str, samples: int, seed: int,
              force: bool = False) -> pd.DataFrame:
    """Write metrics.parquet/json, summary.json and the manifest under ``out``."""
    from dynval.comparisons.run.pipeline import run_summary, write_results

    manifest.begin(out, force)
    started = manifest.now()
    rows, chapter = rows_and_chapter(audit)
    metrics = metrics_frame(rows)
    summary = run_summary("audit", seed, samples, [], 1, 0)
    summary["robots"][audit.label] = chapter.to_dict()
    write_results(out, metrics, summary)
    manifest.finish(out, "audit", started, {"model": spec,
                                            "description": str(audit.description),
                                            "samples": samples, "seed": seed})
    return metrics
