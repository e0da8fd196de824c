"""The metric table's rows and the verdicts' vocabulary (the design's Verdicts): one
:class:`MetricRow` per figure, the words a rung or a row may say, the kinds of rows, and
:class:`Known`, the measured evidence a figure outside tolerance needs to be a known
difference.  Imported by ``dynval.results`` (which re-exports it), it imports nothing of
dynval's."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
import pandas as pd

VERDICTS: dict[str, str] = {
    "reproduced": "a published number matched within a stated tolerance",
    "agrees": "the implementations agree within a justified tolerance",
    "differs": "outside tolerance and unexplained: at least one judged figure has no "
               "measured evidence of its cause (the note names it)",
    "known": "outside tolerance, every such figure explained by measured evidence of its "
             "cause (chaos, ablation or convergence: the note counts each kind)",
    "recomputed": "no published number to compare against; the figure was recomputed",
    "erratum": "a printed equation or table shown wrong, with evidence",
    "not applicable": "nothing to compare on this rung for this robot",
    "drawn, not judged": "the scenarios ran and their figures are drawn, but none of their "
                         "figures carries a tolerance: nothing was judged (the note counts "
                         "the scenarios)",
    "not reproduced": "a scenario's premise failed (the gait did not walk, the run did not "
                      "settle, the event did not occur): its figures are drawn and its "
                      "requirements are not judged; the note gives the measured evidence",
}
# What may make a figure outside tolerance a known difference, each a measurement:
EVIDENCE: dict[str, str] = {
    "chaos": "within a stated factor of the same implementation's spread under a perturbed "
             "start (evidence_value: that spread)",
    "ablation": "the declared cause switched off or aligned in a counterfactual run brings "
                "the figure within its tolerance (evidence_value: the counterfactual's "
                "figure)",
    "convergence": "the difference falls at the integrator's order under step halving "
                   "(evidence_value: the observed order)",
}
RUNGS: tuple[str, ...] = ("L0", "L1", "L2", "L3", "L4", "L5", "budget")

# What a metric row measures (SPEC, Verdicts): a query for failures filters on kind.
KINDS: tuple[str, ...] = ("agreement", "requirement", "erratum", "recomputed", "statement",
                          "budget")


@dataclass(frozen=True)
class MetricRow:
    """One figure of the tidy metric table.

    ``rung`` says which rung of the ladder it belongs to; ``variant`` is what varies within
    a scenario (a contact mode, a step size, a leg count); ``kind`` what the row measures.
    ``passed`` is True or False where something was judged, None (empty, a nullable
    boolean in ``metrics.parquet``) where nothing was: a row without a tolerance is
    reported, not judged, and its kind says why (an erratum's size, a recomputed number, a
    budget component, a figure zero by symmetry). A paper's statement measured on a run
    ("statement") holds (True) or does not (False) by the criterion its reason states, or
    is not testable (None) where its run cannot show it (its premise, a walk, a settled
    step, an event, the paper's scenario, is not met: the reason says which). A row with a
    tolerance and a non-finite value cannot pass."""

    robot: str
    scenario: str
    rung: str
    variant: str
    signal: str
    reference: str
    candidate: str
    metric: str
    value: float
    tolerance: float | None
    passed: bool | None
    reason: str
    kind: str
    known: str = ""  # for a figure outside tolerance: the declared, explained difference
    evidence: str = ""  # what measured the known difference's cause: "ablation", ...
    evidence_value: float = float("nan")  # that measurement's figure

    def __post_init__(self) -> None:
        if self.rung not in RUNGS:
            raise ValueError(f"metric row rung {self.rung!r} is not one of {RUNGS}")
        if self.kind not in KINDS:
            raise ValueError(f"metric row kind {self.kind!r} is not one of {KINDS}")
        if self.passed is not None and not isinstance(self.passed, (bool, np.bool_)):
            raise ValueError(f"metric row passed {self.passed!r} is not True, False or None")
        if (self.passed and self.tolerance is not None
                and not math.isfinite(float(self.value))):
            raise ValueError(f"metric row {self.metric} of {self.signal}: a value of "
                             f"{self.value} cannot pass its tolerance {self.tolerance}")
        if self.known and self.evidence not in EVIDENCE:
            raise ValueError(f"metric row known ({self.known!r}) without measured evidence, "
                             f"one of {', '.join(EVIDENCE)}")


METRIC_COLUMNS: list[str] = [f.name for f in fields(MetricRow)]


@dataclass(frozen=True)
class Known:
    """A figure outside tolerance explained by a measurement: the declared cause
    (``reason``), the kind of evidence (one of EVIDENCE) and its figure.  A Known without
    measured evidence is refused; whether the evidence explains the figure is the
    ladder's check (``dynval.comparisons.ladder.evidence``)."""

    reason: str
    evidence: str
    evidence_value: float
    order: float = 1.0  # convergence only: the integrator's order the difference must show

    def __post_init__(self) -> None:
        if self.evidence not in EVIDENCE:
            raise ValueError(f"a known difference needs measured evidence, one of "
                             f"{', '.join(EVIDENCE)}; got {self.evidence!r}")
        if not self.reason or not math.isfinite(float(self.evidence_value)):
            raise ValueError("a known difference needs its reason and a finite evidence "
                             f"value; got {self.reason!r}, {self.evidence_value!r}")


def metrics_frame(rows: list[MetricRow]) -> pd.DataFrame:
    """The tidy metric table of ``rows`` (tolerance NaN where there is none)."""
    # the fields as they are (a row holds no containers: asdict's deep copy only costs)
    df = pd.DataFrame([tuple(r.__dict__[c] for c in METRIC_COLUMNS) for r in rows],
                      columns=METRIC_COLUMNS)
    df["tolerance"] = pd.to_numeric(df["tolerance"], errors="coerce").astype(float)
    df["value"] = df["value"].astype(float)
    df["evidence_value"] = df["evidence_value"].astype(float)
    df["passed"] = df["passed"].astype("boolean")  # None: nothing judged
    return df


def verdict_of(passed: Any) -> bool | None:
    """A row's ``passed`` as True, False or None, whatever held it (a MetricRow, a
    nullable boolean column's pd.NA, a stored JSON null)."""
    if passed is None or passed is pd.NA:
        return None
    if isinstance(passed, float) and math.isnan(passed):
        return None
    return bool(passed)


def failed(passed: pd.Series) -> pd.Series:
    """Where a ``passed`` column is False (judged and failed; None is not a failure)."""
    return passed.astype("boolean").eq(False).fillna(False).astype(bool)


def not_judged(passed: pd.Series) -> pd.Series:
    """Where a ``passed`` column is None (reported, or a statement not testable)."""
    return passed.astype("boolean").isna()
