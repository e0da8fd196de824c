"""The results of a run, typed: a robot's chapter, its figures and tables, the rows of the
metric table, and the run's verdict in counts. Both ``dynval.comparisons`` (which writes
them) and ``dynval.reports`` (which reads them) import this module; it imports neither.
The metric rows and their vocabulary live in ``dynval.rows``, the run's verdict in counts
in ``dynval.verdicts``; both are re-exported here.

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
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from dynval.rows import (
    EVIDENCE,
    KINDS,
    METRIC_COLUMNS,
    RUNGS,
    VERDICTS,
    Known,
    MetricRow,
    failed,
    metrics_frame,
    not_judged,
    verdict_of,
)
from dynval.verdicts import (
    RunVerdict,
    outside_tolerance,
    run_verdict,
    summary_not_reproduced,
    summary_verdict,
    unexplained,
)

__all__ = [  # the metric rows (dynval.rows) and the run's verdict (dynval.verdicts) too
    "EVIDENCE", "KINDS", "METRIC_COLUMNS", "RUNGS", "VERDICTS", "AssumptionRow", "AuditRow",
    "BudgetRow", "Chapter", "DataTable", "DescriptionRow", "Erratum", "Figure", "Known",
    "MUTANTS_FILE", "MetricRow", "NotReproduced", "Panel", "ParameterRow", "Rung",
    "RunVerdict", "ScenarioInfo", "Series", "TrajectoryRow", "XYFigure", "failed",
    "metrics_frame", "not_judged", "outside_tolerance", "run_verdict",
    "summary_not_reproduced", "summary_verdict", "traces_path", "unexplained", "verdict_of",
]


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
    """L0: one quantity of one file as one reading has it against the reference reading
    (``engine``: "pybullet vs parameters"), its mismatch, tolerance and why that tolerance."""

    file: str
    engine: str
    quantity: str
    max_error: float
    tolerance: float
    passed: bool
    reason: str = ""


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
