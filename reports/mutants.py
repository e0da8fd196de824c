"""The report's mutation table: each robot's mutants of its hand-rolled model and the
rungs and rows that catch them (``mutants.parquet`` and summary.json's "mutants")."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from dynval.results import MUTANTS_FILE


def section(out_dir: Path, summary: dict, para: Callable[..., Any],
            table: Callable[..., Any], cm: float) -> list:
    """The flowables of the section, or none where the run had no mutants."""
    path = Path(out_dir) / MUTANTS_FILE
    record = summary.get("mutants")
    if record is None or not path.is_file():
        return []
    df = pd.read_parquet(path)
    story = [para("Mutation testing", "Heading1"),
             para(f"Each robot declares mutants of its hand-rolled model (a parameter "
                  f"changed, a printed form or a flipped sign selected); the engines keep "
                  f"the original description. {int(df['caught'].sum())} of {len(df)} "
                  f"mutants caught. Rule: {record.get('rule', '')}.")]
    rows = [["robot", "mutant", "what is wrong", "caught by", "rows", "first catching row"]]
    for r in df.itertuples():
        rows.append([r.robot, r.mutant, r.description, _caught_by(r), str(r.rows_failing),
                     r.first_row or "-"])
    story.append(table(rows, [1.8 * cm, 2.2 * cm, 4.2 * cm, 3 * cm, 1 * cm, 4.8 * cm]))
    missed = df[~df["caught"]]
    if len(missed):
        story.append(para("Not caught by any rung (a finding about the checks): "
                          + "; ".join(f"{r.robot} {r.mutant}" for r in missed.itertuples())))
    cannot = record.get("cannot_fail", [])
    story.append(para(f"Judged rows that cannot fail (no mutant fails them and their signal "
                      f"is constant in every implementation): {len(cannot)}"
                      + (": " + "; ".join(cannot) if cannot else "") + "."))
    return story


def _caught_by(r: Any) -> str:
    parts = [r.rungs] if r.rungs else []
    if not math.isnan(r.diverged_at):
        parts.append(f"divergence at t = {r.diverged_at:.4g} s")
    if parts:
        return ", ".join(parts)
    if math.isnan(r.first_effect):
        return "not caught (no effect on the runs)"
    return f"not caught (first effect at t = {r.first_effect:.3g} s)"
