"""The audit of a user's model as a result (:class:`OwnAudit`): its rows, its outcome in one
phrase with the exit code ``dynval audit`` gives it (OUTCOMES), and its failures told in
sentences (the term, the coordinate, the state and both values; an L3 row's envelope
and measured cause).  ``audit`` builds it and re-exports every name."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from dynval.comparisons.ladder.audit import TermResult
from dynval.comparisons.ladder.terms import Worst
from dynval.comparisons.own_model import swing
from dynval.comparisons.own_model.diagnose import Diagnosis
from dynval.comparisons.own_model.regressor import join_names

FIRST_FAILURES = 20  # failure sentences `dynval audit` prints: a screenful


# What an audit's outcome means, and the exit code `dynval audit` gives it.
OUTCOMES = {"agrees": (0, "everything compared agrees"),
            "differs": (1, "a figure differs: the model, or an engine's reading of the file"),
            "nothing compared": (5, "nothing could be compared"),
            "file at fault": (6, "the file itself is at fault (an impossible inertia or axis) "
                                 "and everything that could be compared agrees")}


@dataclass
class OwnAudit:
    """The audit of one model: report rows, worst states, L0 rows, what was not checked
    (each a sentence), findings about the file or the model, and notes."""

    label: str
    description: Path
    results: list[TermResult] = field(default_factory=list)
    worst: dict[tuple[str, str], Worst] = field(default_factory=dict)
    l0: list[dict] = field(default_factory=list)
    l3: list[dict] = field(default_factory=list)
    unchecked: list[str] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    engines: tuple[str, ...] = ()
    refused: dict[str, str] = field(default_factory=dict)
    decided: set[str] = field(default_factory=set)  # of ``refused``, those dynval chose
    readers: list[str] = field(default_factory=list)  # an engine's reader, not the file
    dof: int = 0  # entries of v (a free root's six included)
    implied: Any = None  # the regressor's account of the model's inertias, where it ran
    diagnoses: list[Diagnosis] = field(default_factory=list)  # what failing terms point at

    @property
    def failures(self) -> list[TermResult]:
        return [r for r in self.results if not r.passed]

    @property
    def l3_failures(self) -> list[dict]:
        """L3 rows outside their tolerance with no measured evidence of their cause."""
        return [r for r in self.l3 if not l3_passed(r) and not r.get("evidence")]

    @property
    def l3_known(self) -> list[dict]:
        """L3 rows outside their tolerance whose cause an ablation measured."""
        return [r for r in self.l3 if not l3_passed(r) and r.get("evidence")]

    @property
    def l0_failures(self) -> list[dict]:
        return [r for r in self.l0 if not r["passed"]]

    @property
    def file_faults(self) -> list[dict]:
        """Failing L0 rows whose cause is the file itself: an engine refusing it for an
        impossible inertia, or engines reading such an inertia (or a non-unit axis)
        differently."""
        return [r for r in self.l0_failures if r["quantity"] == "loads the file"
                or r["reason"].startswith("the file's own finding")]

    @property
    def outcome(self) -> str:
        """The audit in one phrase (OUTCOMES): a figure differs; nothing could be compared;
        the file is at fault while everything compared agrees; or everything agrees."""
        faults = self.file_faults
        if self.failures or self.l3_failures or len(self.l0_failures) > len(faults):
            return "differs"
        if not self.results:
            return "nothing compared"
        return "file at fault" if faults else "agrees"

    @property
    def passed(self) -> bool:
        """Something compared, every compared figure within its tolerance, and no engine
        kept out by a fault of the file (an L0 row of its own)."""
        return bool(self.results) and not (self.failures or self.l0_failures
                                           or self.l3_failures)

    def explain_l0(self, row: dict) -> str:
        """One L0 reading outside its tolerance in words: which engines, what, by how much
        and why the reading is judged so."""
        return (f"L0: {row['engine']} disagree on {row['quantity']} by "
                f"{row['max_error']:.3g} ({row['reason']})")

    def first_failures(self, limit: int = FIRST_FAILURES) -> tuple[list[str], int]:
        """A screenful: at most ``limit`` sentences, the most informative first (what the
        failing terms point at, then the first failing figure of each rung and term: an
        L0 quantity, a term against the first engine it fails against, L3's first row),
        and how many failing figures they leave unsaid (all are in the metric table)."""
        heads: dict[tuple[str, str], list[str]] = {}
        for r in self.l0_failures:
            heads.setdefault(("L0", r["quantity"]), []).append(self.explain_l0(r))
        for r in self.failures:
            heads.setdefault((rung_of(r.term), r.term), []).append(r.reference)
        for r in self.l3_failures:
            heads.setdefault(("L3", "joint coordinates"), []).append(self.explain_l3(r))
        lines = [f"finding: {d.sentence}" for d in self.diagnoses][:limit]
        for (rung, term), said in sorted(heads.items(), key=lambda kv: kv[0][0]):
            if len(lines) == limit:
                break
            lines.append(said[0] if rung in ("L0", "L3") else self._first_of(term, said))
        shown = len(lines) - min(len(self.diagnoses), limit)
        total = len(self.l0_failures) + len(self.failures) + len(self.l3_failures)
        return lines, total - shown

    def _first_of(self, term: str, engines: Sequence[str]) -> str:
        """A failing term against the first engine it fails against, and the others."""
        first = next(r for r in self.failures if r.term == term and r.reference == engines[0])
        also = f" (and from {join_names(engines[1:])})" if engines[1:] else ""
        return self.explain(first) + also

    def failure_sentences(self, terms: Sequence[str] | None = None) -> list[str]:
        """Each figure outside its tolerance without a measured cause, one sentence each,
        after what the failing terms point at (``diagnoses``): L0's, the terms' (only those
        named in ``terms`` where given) and, without ``terms``, L3's.  ``dynval.testing``
        raises with them; ``dynval.audit`` lists them."""
        failed = [r for r in self.failures if terms is None or r.term in terms]
        swing = self.l3_failures if terms is None else []
        found = [d.sentence for d in self.diagnoses
                 if terms is None or set(d.terms) & set(terms)]
        return (found + [self.explain_l0(r) for r in self.l0_failures]
                + [self.explain(r) for r in failed] + [self.explain_l3(r) for r in swing])

    def explain_l3(self, row: dict) -> str:
        """One L3 row outside its tolerance in words: who diverged, what differs by how
        much and when, or what fails to converge; the measured cause where an ablation
        found it."""
        what = f"{self.label}: L3 {row['comparison']} at dt = {row['step']:g} s"
        known = f"; known: {row['known']}" if row.get("evidence") else ""
        if "diverged" in row:
            return f"{what}: {row['diverged']}"
        if "exceeds_at" in row:
            diff, env = row["exceeds"]
            return (f"{what} differs by {diff:.3g} at t = {row['exceeds_at']:g} s (the "
                    f"envelope there {env:.3g}), by up to {row['max_abs']:.3g} at t = "
                    f"{row['at']:g} s{known}")
        if row["tolerance"] is not None and not row["max_abs"] <= row["tolerance"]:
            return (f"{what} differs by up to {row['max_abs']:.3g} at t = {row['at']:g} s "
                    f"(the envelope there {row['tolerance']:.3g}){known}")
        return (f"{what}: the difference ({row['max_abs']:.3g}) falls by only "
                f"{row['ratio_to_half_step']:.3g} when the step halves (at least "
                f"{row['min_ratio']:g}): a modelling difference, not integration error"
                f"{known}")

    def brief(self, r: TermResult) -> str:
        """One failing term in a line of a summary: the term, the engine, by how much, and
        both values at its worst entry with their unit."""
        w = self.worst[(r.term, r.reference)]
        return (f"{r.term} differs from {r.reference} by {r.max_rel_error:.3g} of its scale "
                f"(tolerance {r.tolerance:.3g}); worst at {w.coordinate}: model "
                f"{w.model_value:.6g}, {r.reference} {w.engine_value:.6g} ({r.unit})")

    def explain(self, r: TermResult) -> str:
        """One failing term in words: term, coordinate, state and both values."""
        w = self.worst[(r.term, r.reference)]
        return (f"{self.label}: {r.term} ({r.equation}) differs from {r.reference} by "
                f"{r.max_rel_error:.3g} of its scale (tolerance {r.tolerance:.3g}); worst at "
                f"{w.coordinate}: model {w.model_value:.9g}, {r.reference} "
                f"{w.engine_value:.9g}, at q = {np.array2string(w.q, precision=4)}, "
                f"v = {np.array2string(w.v, precision=4)}, "
                f"vdot = {np.array2string(w.vdot, precision=4)}")


def rung_of(term: str) -> str:
    """The rung of a term's row: L1 for a frame's position or Jacobian, else L2."""
    return "L1" if term.startswith(("p[", "J[")) else "L2"


def l3_passed(row: dict) -> bool:
    """An L3 row within its envelope at every step and, where it has one, its halving
    ratio at least its lower bound (a row with neither is reported, not judged)."""
    ratio = row.get("ratio_to_half_step")
    return swing.l3_within(row) and (ratio is None or ratio >= row["min_ratio"])
