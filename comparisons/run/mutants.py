"""Mutation testing of the validation: each declared mutant of a robot's hand-rolled model
(``dynval.comparisons.ladder.mutation``) run through the ladder, and the rows that catch it.

A row *catches* a mutant when it is judged (it has a tolerance), passes on the original
model and fails on the mutant. In the ci tier a scenario figure of the shortened run is
reported, not judged (``chapter._reported_only``); here it is held to the tolerance that
judges the full run, which its reason states, and that is said where the table is shown.
A mutant whose hand-rolled run diverges is caught by the divergence (its time is kept),
never an error of the run. A judged row that no mutant fails, on a signal that is constant
in every implementation of the original run, is listed as ``cannot fail``."""

from __future__ import annotations

import re
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from dynval.comparisons.ladder.harness import DivergenceError
from dynval.comparisons.ladder.l4 import CONSTANT
from dynval.comparisons.ladder.mutation import Mutant
from dynval.comparisons.ladder.rungs import Inputs, RobotLadder
from dynval.comparisons.run import assembly
from dynval.comparisons.run.check import KEY
from dynval.comparisons.run.tasks import Outcome, Report, execute
from dynval.results import MUTANTS_FILE, RUNGS, MetricRow, metrics_frame, traces_path

COLUMNS = ["robot", "mutant", "description", "caught", "rungs", "first_row", "rows_failing",
           "diverged_at", "first_effect", "seconds"]
# the full run's tolerance of a ci-tier scenario figure, as chapter._reported_only states it
FULL_RUN_TOLERANCE = re.compile(r"\(tolerance ([-+0-9.eE]+|inf) applies to the full run")
_AT = re.compile(r"t = ([-+0-9.eE]+) s")
RULE = ("a row catches a mutant when it is judged, passes on the original model and fails "
        "on the mutant; in the ci tier a scenario figure of the shortened run is held to the "
        "tolerance of the full run; a mutant whose hand-rolled run diverges is caught by the "
        "divergence")


@dataclass
class Caught:
    """What one mutant run gave: the rows that caught it and the divergence, if any."""

    robot: str
    mutant: Mutant
    failing: pd.DataFrame  # rows judged and passing on the original, failing here
    diverged: str  # the divergence's message, or ""
    seconds: float
    first_effect: float = np.nan  # [s] where a hand-rolled scenario run first changed

    @property
    def diverged_at(self) -> float:
        found = _AT.search(self.diverged)
        return float(found.group(1)) if found else (np.nan if not self.diverged else np.inf)

    def record(self) -> dict[str, Any]:
        rows = self.failing
        first = "" if rows.empty else describe(rows.iloc[0])
        if self.diverged and not first:
            first = "divergence: " + self.diverged
        return {"robot": self.robot, "mutant": self.mutant.name,
                "description": self.mutant.description,
                "caught": bool(len(rows) or self.diverged),
                "rungs": ",".join(sorted(set(rows["rung"]), key=RUNGS.index)),
                "first_row": first, "rows_failing": len(rows),
                "diverged_at": self.diverged_at if self.diverged else np.nan,
                "first_effect": self.first_effect, "seconds": self.seconds}


def describe(row: pd.Series) -> str:
    """One line naming a metric row and its value against its limit."""
    return (f"{row['rung']} {row['scenario']} {row['variant']} {row['candidate']} "
            f"{row['signal']} {row['metric']} = {row['value']:.3g} (tol {row['limit']:.3g})")


def judged(metrics: pd.DataFrame) -> pd.DataFrame:
    """The rows with a limit (their tolerance, or in the ci tier the full run's), with
    ``limit`` and ``ok`` columns, in ladder order."""
    df = metrics.copy()
    full = df["reason"].astype(str).str.extract(FULL_RUN_TOLERANCE)[0].astype(float)
    tol = pd.to_numeric(df["tolerance"], errors="coerce")
    df["limit"] = tol.fillna(full)
    df = df[df["limit"].notna()].copy()
    own = pd.to_numeric(df["tolerance"], errors="coerce").notna()
    by_limit = np.abs(df["value"].astype(float)) <= df["limit"]  # NaN fails
    df["ok"] = np.where(own, df["passed"].astype(object) == True, by_limit)  # noqa: E712
    df["_order"] = df["rung"].map(RUNGS.index)
    return df.sort_values("_order", kind="stable").drop(columns="_order")


def caught_rows(base: pd.DataFrame, mutated: pd.DataFrame) -> pd.DataFrame:
    """The judged rows that pass on the original model and fail on the mutant."""
    b, m = judged(base), judged(mutated)
    passing = b[b["ok"]][KEY]
    failing = m[~m["ok"].astype(bool)]
    return failing.merge(passing, on=KEY, how="inner")


def run_robot(ladder: RobotLadder, inp: Inputs, base_rows: list[MetricRow],
              base_outcomes: dict[str, Outcome], mutants: list[Mutant], *, workers: int,
              scheduler: str | None,
              cache_dir: Path | None, report: Report | None = None,
              timings: dict[str, float] | None = None) -> list[Caught]:
    """Each mutant through the robot's ladder, on the task graph and the cache."""
    base = metrics_frame(base_rows)
    out = []
    for m in mutants:
        t0 = time.perf_counter()
        mi = replace(inp, mutant=m)
        tasks = ladder.tasks(mi)
        outcomes = execute(tasks, workers, scheduler, cache_dir, report, timings)
        diverged = _divergence(base_outcomes, outcomes)
        rows: list[MetricRow] = []
        with tempfile.TemporaryDirectory(prefix="dynval-mutant-") as tmp:
            try:
                rows, _, _ = assembly.assemble(ladder, mi, tasks, outcomes, Path(tmp),
                                               cache_dir)
            except DivergenceError:
                if not diverged:
                    raise
        failing = caught_rows(base, metrics_frame(rows)) if rows else base.iloc[:0]
        out.append(Caught(ladder.robot, m, failing, diverged, time.perf_counter() - t0,
                          first_effect(base_outcomes, outcomes)))
    return out


def first_effect(base: dict[str, Outcome], mutated: dict[str, Outcome]) -> float:
    """The earliest time [s] at which a hand-rolled scenario trace of the mutant differs
    from the original's (by more than 1e-9 of the signal's range), NaN where none does: a
    mutant that acts only after the ci tier's first second is not seen by it."""
    found = np.inf
    for key, o in mutated.items():
        b = base.get(key)
        if (not key.endswith(" handrolled") or b is None or o.error is not None
                or b.error is not None or not isinstance(o.value, pd.DataFrame)):
            continue
        a, m = b.value, o.value
        t = a["time"].to_numpy()
        t = t[t <= m["time"].iloc[-1]]
        for c in a.columns.drop("time"):
            ref = a[c].to_numpy()[:len(t)]
            d = np.abs(np.interp(t, m["time"], m[c]) - ref)
            bad = ~(d <= 1e-9 * max(float(np.ptp(ref)), 1e-9))
            if bad.any():
                found = min(found, float(t[np.argmax(bad)]))
    return found if np.isfinite(found) else np.nan


def _divergence(base: dict[str, Outcome], mutated: dict[str, Outcome]) -> str:
    """The first divergence of a mutant's task whose original ran to its end (its task and
    message), or "": a run that diverges on the original model too (a printed form run
    for its erratum) says nothing about the mutant."""
    for key, o in mutated.items():
        b = base.get(key)
        if isinstance(o.error, DivergenceError) and (b is None or b.error is None):
            return f"{key}: {o.error}"
    return ""


def cannot_fail(out: Path, base_rows: list[MetricRow], results: list[Caught]) -> list[str]:
    """The judged rows of the original run that no mutant fails and whose signal is
    constant in every implementation's trace (a check no wrong model can fail)."""
    base = judged(metrics_frame(base_rows))
    hit = set()
    for c in results:
        hit |= set(map(tuple, c.failing[KEY].to_numpy().tolist()))
    found = []
    traces: dict[tuple[str, str, str], pd.DataFrame | None] = {}
    for _, r in base[base["ok"]].iterrows():
        if tuple(r[KEY].tolist()) in hit:
            continue
        where = (r["robot"], r["scenario"], r["variant"])
        if where not in traces:
            path = traces_path(out, *where)
            traces[where] = pd.read_parquet(path) if path.is_file() else None
        t = traces[where]
        if t is None:
            continue
        sig = t[(t["signal"] == r["signal"])
                & t["implementation"].isin([r["reference"], r["candidate"]])]
        if sig.empty:
            continue
        spans = sig.groupby("implementation")["value"].agg(lambda v: np.ptp(v.to_numpy()))
        if (spans <= CONSTANT).all():
            found.append(f"{r['robot']} {r['scenario']} {r['variant']} {r['candidate']} "
                         f"{r['signal']} {r['metric']}")
    return found


def table(results: list[Caught]) -> pd.DataFrame:
    """mutants.parquet: a row per robot and mutant."""
    return pd.DataFrame([c.record() for c in results], columns=COLUMNS)


def summary_lines(df: pd.DataFrame, cannot: list[str]) -> list[str]:
    """What the command line prints: per robot the mutants caught, and each one missed."""
    lines = []
    for robot, g in df.groupby("robot", sort=False):
        lines.append(f"mutants of {robot}: {int(g['caught'].sum())} of {len(g)} caught ("
                     + "; ".join(f"{r.mutant}: " + (_by(r) if r.caught else _missed(r))
                                 for r in g.itertuples()) + ")")
    missed = df[~df["caught"]]
    if len(missed):
        lines.append("not caught by any rung (a finding about the checks): "
                     + ", ".join(f"{r.robot} {r.mutant}" for r in missed.itertuples()))
    if cannot:
        lines.append(f"{len(cannot)} judged rows cannot fail (no mutant fails them and "
                     f"their signal is constant), e.g. {cannot[0]}")
    return lines


def _missed(r: Any) -> str:
    if np.isnan(r.first_effect):
        return "not caught, no effect on the hand-rolled scenario runs"
    return f"not caught, first effect at t = {r.first_effect:.3g} s"


def _by(r: Any) -> str:
    parts = []
    if r.rungs:
        parts.append(f"{r.rungs} ({r.rows_failing} rows)")
    if not np.isnan(r.diverged_at):
        parts.append(f"divergence at t = {r.diverged_at:.4g} s")
    return ", ".join(parts)



def printed_summary(out: Path) -> list[str]:
    """The summary lines of the mutants of the run under ``out`` (mutants.parquet)."""
    import json

    record = json.loads((out / "summary.json").read_text()).get("mutants", {})
    df = pd.read_parquet(out / MUTANTS_FILE)
    lines = summary_lines(df, record.get("cannot_fail", []))
    seconds = record.get("seconds", {})
    if seconds:
        lines.append("mutant runs took " + ", ".join(f"{r} {s:.0f} s"
                                                      for r, s in seconds.items()))
    return lines
