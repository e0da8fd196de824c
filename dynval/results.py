"""The results of a run, typed: a robot's chapter, its figures and tables, the rows of the
metric table, and the run's verdict in counts. Both ``dynval.comparisons`` (which writes
them) and ``dynval.reports`` (which reads them) import this module; it imports neither.

``comparisons`` fills these in; ``dynval.reports.pdf`` reads them back from
``summary.json`` and ``metrics.parquet``.  One vocabulary of verdicts for rungs and metric
rows (the design's Verdicts):

- ``reproduced``: a published number matched within a stated tolerance;
- ``agrees``: implementations agree within a justified tolerance;
- ``differs``: outside tolerance; the note gives the reason, and a known, explained
  difference is declared as such;
- ``recomputed``: no published number to compare against; what was recomputed;
- ``erratum``: a printed equation or table shown wrong, with evidence;
- ``not applicable``: the rung has nothing to compare for this robot;
- ``not reproduced``: a scenario's premise failed (the gait did not walk, the run did not
  settle, the event did not occur): its figures are drawn, its requirements not judged.

A figure outside its tolerance is a known difference only with measured evidence
(:class:`Known`, one of EVIDENCE), else it ``differs``.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

VERDICTS: dict[str, str] = {
    "reproduced": "a published number matched within a stated tolerance",
    "agrees": "the implementations agree within a justified tolerance",
    "differs": "outside tolerance; the note says why (a declared, explained difference "
               "is marked known)",
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


@dataclass(frozen=True)
class Rung:
    """A rung's verdict (one word of VERDICTS) and what was compared."""

    verdict: str
    note: str

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict {self.verdict!r} is not one of {list(VERDICTS)}")


@dataclass(frozen=True)
class Figure:
    """Traces of ``signals`` over time, every implementation overlaid, with error panels
    against the reference; ``units``/``scales`` are for display (radians shown in
    degrees)."""

    title: str
    scenario: str
    variant: str
    signals: list[str]
    units: list[str]
    scales: list[float]
    caption: str


@dataclass(frozen=True)
class XYFigure:
    """One signal against another (a path), every implementation overlaid."""

    title: str
    scenario: str
    variant: str
    x: str
    y: str
    unit: str
    scale: float
    relative: bool
    caption: str


@dataclass(frozen=True)
class Series:
    label: str
    x: list[float]
    y: list[float]
    style: str = "-"


@dataclass(frozen=True)
class Panel:
    title: str
    xlabel: str
    ylabel: str
    series: list[Series]


@dataclass(frozen=True)
class DataTable:
    """A table the paper prints (or one of ours), recomputed; ``scenario`` None puts it
    under the chapter's recomputed tables; ``plot`` redraws it as the paper's figure."""

    title: str
    columns: list[str]
    rows: list[list]
    caption: str
    scenario: str | None = None
    plot: list[Panel] = field(default_factory=list)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> DataTable:
        """A table from its stored form; ``plot`` may be a list of panels or
        ``{"panels": [...]}``."""
        plot = d.get("plot") or []
        if isinstance(plot, dict):
            plot = plot["panels"]
        panels = [p if isinstance(p, Panel) else Panel(
            p["title"], p["xlabel"], p["ylabel"],
            [s if isinstance(s, Series) else Series(**s) for s in p["series"]]) for p in plot]
        return cls(d["title"], list(d["columns"]), [list(r) for r in d["rows"]], d["caption"],
                   d.get("scenario"), panels)


@dataclass(frozen=True)
class NotReproduced:
    """A scenario whose premise failed on the paper's set-up (``premise``: what the
    scenario presupposes, ``evidence``: what was measured): its figures are drawn, its
    requirement rows stay failing but are counted here, not judged."""

    scenario: str
    premise: str
    evidence: str


@dataclass(frozen=True)
class ScenarioInfo:
    name: str
    title: str
    variants: list[str]
    description: str


@dataclass(frozen=True)
class DescriptionRow:
    """L0: the largest mismatch of one quantity of one file in one engine."""

    file: str
    engine: str
    quantity: str
    max_error: float
    tolerance: float
    passed: bool


@dataclass
class AuditRow:
    """L1/L2: the worst agreement of one term, in one form, against one reference over
    all sampled states (``dynval.comparisons.ladder.audit.compare_term`` computes it)."""

    term: str
    equation: str
    form: str
    reference: str
    max_rel_error: float
    max_abs_error: float
    worst_component: int  # flat index of the largest difference at the worst state
    samples: int
    seed: int
    tolerance: float
    worst_name: str = ""  # the generalized coordinate(s) of worst_component, where named
    unit: str = ""  # of the term's entries and max_abs_error, where the row says it

    @property
    def passed(self) -> bool:
        return bool(self.max_rel_error <= self.tolerance)


@dataclass(frozen=True)
class TrajectoryRow:
    """L3: the largest difference of one pairing of contact-free trajectories."""

    step: float
    comparison: str
    max_abs: float  # in ``unit``
    tolerance: float | None
    reason: str
    unit: str = "rad"


@dataclass(frozen=True)
class Erratum:
    equation: str
    term: str
    printed: str
    corrected: str
    evidence: str
    effect: str


@dataclass(frozen=True)
class BudgetRow:
    """One modelling difference toggled on its own, and the discrepancy it makes."""

    scenario: str
    signal: str
    component: str
    value: float
    unit: str
    note: str = ""


@dataclass(frozen=True)
class ParameterRow:
    symbol: str
    value: float
    unit: str
    source: str


@dataclass(frozen=True)
class AssumptionRow:
    """A value the paper does not give that the suite chose (or the form of a printed
    equation it selected), for the report's first page: ``holds_over`` says what the
    chapter measured of its verdicts at other values, or that nothing was swept."""

    symbol: str
    value: str
    unit: str
    why: str
    holds_over: str


@dataclass
class Chapter:
    """One robot's chapter of the report."""

    robot: str
    title: str
    paper: str
    rungs: dict[str, Rung] = field(default_factory=dict)
    scenarios: list[ScenarioInfo] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    xy_figures: list[XYFigure] = field(default_factory=list)
    tables: list[DataTable] = field(default_factory=list)
    description_check: list[DescriptionRow] = field(default_factory=list)
    audit: list[AuditRow] = field(default_factory=list)
    trajectories: list[TrajectoryRow] = field(default_factory=list)
    errata: list[Erratum] = field(default_factory=list)
    budget: list[BudgetRow] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    conventions: list[str] = field(default_factory=list)
    parameters: list[ParameterRow] = field(default_factory=list)
    assumptions: list[AssumptionRow] = field(default_factory=list)
    not_reproduced: list[NotReproduced] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return _plain(asdict(self))

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Chapter:
        """The chapter stored by :meth:`to_dict` (``summary.json``)."""
        def each(key: str, kind: type) -> list:
            return [kind(**x) for x in d.get(key, [])]

        return cls(
            robot=d["robot"], title=d["title"], paper=d["paper"],
            rungs={k: Rung(**v) for k, v in d["rungs"].items()},
            scenarios=each("scenarios", ScenarioInfo), figures=each("figures", Figure),
            xy_figures=each("xy_figures", XYFigure),
            tables=[DataTable.from_dict(t) for t in d.get("tables", [])],
            description_check=each("description_check", DescriptionRow),
            audit=each("audit", AuditRow), trajectories=each("trajectories", TrajectoryRow),
            errata=each("errata", Erratum), budget=each("budget", BudgetRow),
            notes=list(d.get("notes", [])), conventions=list(d.get("conventions", [])),
            parameters=each("parameters", ParameterRow),
            assumptions=each("assumptions", AssumptionRow),
            not_reproduced=each("not_reproduced", NotReproduced))


@dataclass(frozen=True)
class RunVerdict:
    """A run's verdict in counts: each rung verdict's count, the figures outside tolerance,
    how many of those are known differences (``known``, by kind of evidence in
    ``known_by``), the scenarios not reproduced (``robot scenario``) with the failing
    requirement figures they hold, and the papers' statements measured, how many of them
    the runs cannot test (their premise not met) and how many of the tested ones do not
    hold (a finding about a paper, not a disagreement between implementations)."""

    rungs: dict[str, int]
    outside: int
    known: int
    statements: int = 0
    not_holding: int = 0
    not_testable: int = 0
    known_by: dict[str, int] = field(default_factory=dict)
    not_reproduced: tuple[str, ...] = ()
    not_reproduced_rows: int = 0

    @property
    def unexplained(self) -> int:
        """Figures outside tolerance that neither measured evidence explains nor a
        scenario's failed premise accounts for: they differ."""
        return self.outside - self.known - self.not_reproduced_rows

    def rung_counts(self) -> str:
        """"2 agrees, 1 erratum": each verdict's count, in the verdicts' alphabetical order
        (a verdict of several words in quotes: 1 'drawn, not judged')."""
        return ", ".join(f"{n} {v!r}" if "," in v else f"{n} {v}"
                         for v, n in sorted(self.rungs.items()))

    def outside_clause(self) -> str:
        """"68 figures outside tolerance: 0 differ (unexplained), 28 known (chaos), ..."
        then the scenarios not reproduced with the requirement figures they hold."""
        parts = [f"{self.unexplained} differ (unexplained)"]
        parts += [f"{n} known ({kind})" for kind, n in sorted(self.known_by.items())]
        if self.not_reproduced_rows:
            parts.append(f"{self.not_reproduced_rows} in scenarios not reproduced")
        line = f"{self.outside} figures outside tolerance: " + ", ".join(parts)
        if self.not_reproduced:
            n = len(self.not_reproduced)
            line += (f"; {n} scenario{'s' * (n != 1)} not reproduced "
                     f"({', '.join(self.not_reproduced)})")
        return line

    def statements_clause(self) -> str:
        """"; 12 of 30 of the papers' statements do not hold", or with some not testable
        "; 19 of 30 of the papers' statements cannot be tested here; of 11, 1 does not
        hold" (empty without statements)."""
        if not self.statements:
            return ""
        fails = f"do{'es' if self.not_holding == 1 else ''} not hold"
        if not self.not_testable:
            return f"; {self.not_holding} of {self.statements} of the papers' statements {fails}"
        tested = self.statements - self.not_testable
        return (f"; {self.not_testable} of {self.statements} of the papers' statements "
                f"cannot be tested here; of {tested}, {self.not_holding} {fails}")


def run_verdict(rung_verdicts: list[str], metrics: pd.DataFrame,
                not_reproduced: list[tuple[str, str]] | None = None) -> RunVerdict:
    """The counts of :class:`RunVerdict` from the rungs' verdicts, the metric table and
    the scenarios not reproduced ((robot, scenario) pairs)."""
    counts: dict[str, int] = {}
    for v in rung_verdicts:
        counts[v] = counts.get(v, 0) + 1
    said = _statements(metrics)
    bad = outside_tolerance(metrics)
    known = bad[_known(bad)]
    by = known["evidence"].value_counts() if len(known) else pd.Series(dtype=int)
    pairs = list(not_reproduced or [])
    return RunVerdict(counts, len(bad), len(known), int(said.sum()),
                      int((said & failed(metrics["passed"])).sum()),
                      int((said & not_judged(metrics["passed"])).sum()),
                      {str(k): int(n) for k, n in by.items()},
                      tuple(f"{r} {s}" for r, s in pairs),
                      int(_in_not_reproduced(bad, pairs).sum()))


def summary_verdict(summary: dict[str, Any], metrics: pd.DataFrame) -> RunVerdict:
    """:func:`run_verdict` of a run as written: every rung of every chapter in its
    summary.json (``summary``), its scenarios not reproduced and its metric table."""
    return run_verdict([r["verdict"] for ch in summary["robots"].values()
                        for r in ch["rungs"].values()], metrics,
                       summary_not_reproduced(summary))


def summary_not_reproduced(summary: dict[str, Any]) -> list[tuple[str, str]]:
    """(robot, scenario) of every scenario not reproduced in a run's summary.json."""
    return [(robot, nr["scenario"]) for robot, ch in summary["robots"].items()
            for nr in ch.get("not_reproduced", [])]


def _statements(metrics: pd.DataFrame) -> pd.Series:
    """Which rows are the papers' statements (they hold or not: a finding about a paper,
    not a disagreement between implementations)."""
    return (metrics["kind"] == "statement" if "kind" in metrics
            else pd.Series(False, index=metrics.index))


def _known(rows: pd.DataFrame) -> pd.Series:
    """Which rows are known differences with measured evidence."""
    if "known" not in rows or "evidence" not in rows:
        return pd.Series(False, index=rows.index)
    return (rows["known"] != "") & rows["evidence"].isin(list(EVIDENCE))


def _in_not_reproduced(rows: pd.DataFrame, pairs: list[tuple[str, str]]) -> pd.Series:
    """Which rows are requirements of a scenario not reproduced (and not known)."""
    if not pairs or not len(rows):
        return pd.Series(False, index=rows.index)
    keys = pd.Series(list(zip(rows["robot"], rows["scenario"], strict=True)),
                     index=rows.index)
    return keys.isin(pairs) & (rows["kind"] == "requirement") & ~_known(rows)


def outside_tolerance(metrics: pd.DataFrame) -> pd.DataFrame:
    """The figures outside their tolerance, the papers' statements aside (a row with
    ``passed`` None was not judged)."""
    return metrics[failed(metrics["passed"]) & ~_statements(metrics)]


def unexplained(metrics: pd.DataFrame,
                not_reproduced: list[tuple[str, str]] | None = None) -> pd.DataFrame:
    """The figures outside their tolerance that no measured evidence explains (``known``
    with its ``evidence``) and no scenario not reproduced holds: what fails a run."""
    bad = outside_tolerance(metrics)
    return bad[~_known(bad) & ~_in_not_reproduced(bad, list(not_reproduced or []))]


def _plain(x: Any) -> Any:
    """JSON-ready copy: numpy scalars to Python numbers, non-finite floats to None."""
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


MUTANTS_FILE = "mutants.parquet"  # a run's mutation table (dynval validate --mutants)


def traces_path(out: Path, robot: str, scenario: str, variant: str) -> Path:
    """Where the traces of one scenario and variant are stored under an output folder."""
    return Path(out) / "runs" / robot / scenario / variant / "traces.parquet"
