"""What ``dynval.audit`` and ``dynval.validate`` return: a result to look at from Python
(a notebook, a script, a test) instead of a folder to read.

Each says whether it ``passed`` (something was compared and nothing differs without an
explanation), its ``findings`` (one sentence each) and its figures as the metric table of
``metrics.parquet`` (``to_dataframe()``; its ``passed`` column is a nullable boolean,
empty where nothing was judged: a figure reported without a tolerance, a paper's
statement its run cannot test).  The tables themselves are ``dynval.results``'s;
this module only wraps them, importing nothing heavy until a result is made."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

    from dynval.comparisons.own_model.audit import OwnAudit
    from dynval.results import RunVerdict


def _summary_line(passed: bool, figures: int, findings: int) -> str:
    """"passed, 42 figures, 0 findings": a result's repr after its name."""
    return (f"{'passed' if passed else 'FAILED'}, {figures} figure{'s' * (figures != 1)}, "
            f"{findings} finding{'s' * (findings != 1)}")


@dataclass(frozen=True, repr=False)
class AuditResult:
    """One description's audit: a model's terms against MuJoCo, PyBullet and Pinocchio
    (``model_given``), or the engines against each other.  ``audit`` is the full account
    (its rows, worst states, notes and what was not checked)."""

    audit: OwnAudit
    model_given: bool

    @property
    def passed(self) -> bool:
        """Something compared, every figure within its tolerance, and no engine kept out
        by a fault of the file (the exit code of ``dynval audit``)."""
        return self.audit.passed

    @property
    def findings(self) -> list[str]:
        """The facts found about the file or the model (and how an engine's own MJCF
        reader reads the file otherwise than MuJoCo), then each figure outside its
        tolerance in words (term, coordinate, state and both values), one sentence each;
        where nothing could be compared, why."""
        said = [*self.audit.findings, *self.audit.readers, *self.audit.failure_sentences()]
        if not self.audit.results:
            why = "; ".join(self.audit.unchecked) or "no engine had a term to compare"
            said.append(f"{self.audit.label}: nothing was compared ({why})")
        return said

    def to_dataframe(self) -> pd.DataFrame:
        """The audit's figures, the same rows as ``dynval audit --out``'s
        metrics.parquet (columns ``dynval.results.METRIC_COLUMNS``)."""
        from dynval.comparisons.own_model.run import rows_and_chapter
        from dynval.results import metrics_frame

        return metrics_frame(rows_and_chapter(self.audit)[0])

    def __repr__(self) -> str:
        name = self.audit.description.name
        what = f"{self.audit.label} vs {name}" if self.model_given else name
        return (f"<AuditResult {what}: "
                f"{_summary_line(self.passed, len(self.to_dataframe()), len(self.findings))}>")


@dataclass(frozen=True, repr=False)
class ValidationResult:
    """A validation of the built-in robots: its output folder ``out`` (metrics, traces,
    summary.json; ``dynval report --out`` draws its PDF), the metric table and the
    chapters' summary as written there."""

    out: Path
    metrics: pd.DataFrame
    summary: dict[str, Any]

    @property
    def verdict(self) -> RunVerdict:
        """The run's verdict in counts, as ``dynval validate`` prints it."""
        from dynval.results import summary_verdict

        return summary_verdict(self.summary, self.metrics)

    @property
    def passed(self) -> bool:
        """Something compared and no figure outside its tolerance without a declared,
        explained difference (``dynval validate`` exits 1 otherwise)."""
        return len(self.metrics) > 0 and self.verdict.unexplained == 0

    @property
    def findings(self) -> list[str]:
        """Each figure outside its tolerance that no declared difference explains, then
        each rung whose verdict is "differs", one sentence each."""
        from dynval.results import summary_not_reproduced, unexplained

        missed = summary_not_reproduced(self.summary)
        return ([_figure_sentence(row)
                 for row in unexplained(self.metrics, missed).itertuples()]
                + [f"{robot} {rung}: differs ({r['note']})"
                   for robot, chapter in self.summary["robots"].items()
                   for rung, r in chapter["rungs"].items() if r["verdict"] == "differs"])

    def to_dataframe(self) -> pd.DataFrame:
        """The run's figures: metrics.parquet's rows (a copy, to filter and change)."""
        return self.metrics.copy()

    def __repr__(self) -> str:
        robots = ", ".join(self.summary["robots"])
        return (f"<ValidationResult {self.out} ({robots}; {self.summary['tier']} tier): "
                f"{_summary_line(self.passed, len(self.metrics), len(self.findings))}>")


def _figure_sentence(row: Any) -> str:
    """One metric row outside its tolerance in words."""
    limit = ("" if row.tolerance is None or math.isnan(row.tolerance)
             else f" {row.tolerance:.3g}")
    return (f"{row.robot} {row.rung}, {row.scenario} [{row.variant}]: {row.signal}, "
            f"{row.candidate} against {row.reference}: {row.metric} {row.value:.3g} is "
            f"outside its tolerance{limit}; {row.reason}")
