"""A run's verdict in counts (:class:`RunVerdict`), from its rungs' verdicts and its
metric table: the figures outside tolerance, those measured evidence explains, those of
scenarios not reproduced, and the papers' statements that hold or not.  Re-exported by
``dynval.results``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from dynval.rows import EVIDENCE, failed, not_judged


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
