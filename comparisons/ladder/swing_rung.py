"""L3 of every robot: its models (``dynval.model``'s protocol) swung freely under gravity
against its descriptions by the generic audit a user's model gets
(``own_model.swing_rows``), judged on the system's own sensitivity and each side's own
round-off, at three steps, with the scheme's own error against RK4; a robot declares only
which models swing on which files (``RobotLadder.swung``)."""

from __future__ import annotations

from pathlib import Path

from dynval.comparisons.ladder.declared import Swung
from dynval.results import MetricRow, TrajectoryRow


def swing_rows(robot: str, swung: list[Swung], desc_dir: Path, seed: int
               ) -> tuple[list[TrajectoryRow], list[MetricRow], list[str]]:
    """Each model's free swing against every engine that loads its file: the chapter's
    rows (each comparison prefixed with the model's label), their metric rows (the
    signal names the model) and one sentence per model: what was swung against which
    engines, the row worst against its envelope, the first row outside it in words, and each
    engine that refused the file or what was not run, with the reason."""
    from dynval.comparisons.own_model.audit import audit_model
    from dynval.comparisons.own_model.run import l3_metric_rows
    from dynval.comparisons.own_model.swing import ROUNDOFF_STATES

    typed: list[TrajectoryRow] = []
    metrics: list[MetricRow] = []
    said: list[str] = []
    for s in swung:
        # each side's round-off is measured on the first ROUNDOFF_STATES states of the
        # audit's seeded draw (as in a user's audit): the same states in every tier
        audit = audit_model(s.model, desc_dir / s.description, ROUNDOFF_STATES, seed,
                            s.gravity, label=s.label, terms=False)
        typed += [TrajectoryRow(r["step"], f"{s.label}: {r['comparison']}", r["max_abs"],
                                r["tolerance"], r["reason"], "rad or m") for r in audit.l3]
        metrics += l3_metric_rows(robot, audit.l3, "handrolled",
                                  f"{s.label}: joint coordinates")
        judged = [r for r in audit.l3 if r["tolerance"]]
        worst = max(judged, key=lambda r: r["max_abs"] / r["tolerance"], default=None)
        said.append(f"{s.label} on {s.description} against "
                    f"{', '.join(audit.engines) or 'no engine'}"
                    + ("" if worst is None else f": worst against its envelope "
                       f"{worst['max_abs']:.1e} of {worst['tolerance']:.1e} rad or m")
                    + "".join(f"; first outside it: {audit.explain_l3(r)}"
                              for r in audit.l3_failures[:1])
                    + "".join(f"; {e} refuses the file: {why}"
                              for e, why in sorted(audit.refused.items()))
                    + "".join(f"; {line}" for line in audit.unchecked))
    return typed, metrics, said
