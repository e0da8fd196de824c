"""Baselines: the committed agreement figures, and the comparison that gates CI.

A figure *moves* when it differs from its baseline by more than
``MOVE_REL`` x |baseline| + ``MOVE_ABS``.  A run is deterministic on one machine, but the
gate also runs on others, whose CPU makes BLAS and LAPACK pick other kernels: other
round-off, grown through a closed-loop run.  A real change (a parameter moved by 1e-6)
moves figures by far more than ``MOVE_REL``.

Some figures measure round-off: two implementations of the same model that agree to the
last bits, an audited term equal to an engine's.  Their values are a fresh draw of
round-off whenever anything in the arithmetic changes (another CPU or BLAS, a parameter
moved by 1e-12), so their noise floor is what they measure, not their value: a pair of
traces whose normalised RMS difference is below ``FLOOR_REL``, or whose RMS difference is
below ``FLOOR_ABS`` in SI units (a signal at rest, whose range is itself round-off), in the
baseline and in the current run agrees to round-off in both, and every figure of that
pair (rmse, nrmse, max_abs, final_diff, lag, correlation) is at its floor; so is an audit
term whose relative error is below ``FLOOR_REL`` in both.  A step-halving ratio (the
error at dt over the error at dt/2) is a quotient of two trajectory differences, each a
small fraction of its signal, so it carries their round-off magnified: it moves when it
changes by more than ``FLOOR_REL`` of itself, or ``PYBULLET_RATIO_REL`` where PyBullet is
one side of the pair, or, where the error at dt is a figure beside it, by more than the
two errors' own margins carried into the quotient (``_margin``).  Any move above the
floor, a verdict that turns from passed to failed, a figure missing from the current run
or a figure the baseline lacks ('new': the baselines are out of date) is a regression."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

import pandas as pd

from dynval._layout import layer_dir

KEY = ["robot", "scenario", "rung", "variant", "signal", "reference", "candidate", "metric"]
# Agreement to eight significant figures is agreement to round-off: double precision's
# 1e-16 grown through a closed-loop run (the hopper's three implementations drift apart by
# 1e-11 of the signal's range over 12 s of hopping; chaotic runs grow it further).
FLOOR_REL = 1e-8
# A figure of a closed-loop run carries that grown round-off too: on one machine the five
# robots' ci figures move by up to 6.4e-9 of themselves when OpenBLAS is made to use
# another CPU's kernels (the hexapod's WG_50 native-contact final differences and its
# EPFC/WG peak ratios; OPENBLAS_CORETYPE Haswell, Zen, Sandybridge, Prescott against the
# SkylakeX kernels the baselines were written with), while a parameter moved by 1e-6 moves
# them by far more (tests/test_check.py).  So a figure may move by round-off's share.
MOVE_REL = FLOOR_REL
# A nanometre, a nanoradian, a nanonewton: far below anything a figure here resolves, and
# above the round-off of any signal at rest (1e-16 of metre- to kilonewton-sized values).
FLOOR_ABS = 1e-9
MOVE_ABS = FLOOR_ABS
# A step-halving ratio e1 / e2 may move as far as the errors it divides may: where the
# error at this step, e1, is a figure beside the ratio (one of these metrics), the margins
# of e1 and of e2 = e1 / ratio carried into the quotient.  The quadruped's section-6 RK4
# round trips end with errors of 1e-9 to 1e-6 per cent, near the absolute margin, and
# their ratios move by up to 1.6e-2 of themselves across OpenBLAS's kernels (measured as
# above), less than this margin.
RATIO_OF = ("max_pct_error",)
# PyBullet's trajectories carry more than round-off: the rover's segment mass moved by
# 1e-12 of itself moves the MuJoCo-vs-PyBullet halving ratios of disturbed_3_50's L3 by
# 1.1e-4 to 8.8e-4 of themselves (hand-rolled vs MuJoCo: 2e-9), and another PyBullet build
# by 4e-4.  Ten times the largest: such a ratio still tells first order (2) from second (4).
PYBULLET_RATIO_REL = 1e-2
PAIR = slice(0, 7)  # a key without its metric: one pair of traces (or one audited term)
FLOOR = {"nrmse": FLOOR_REL, "max_rel_error": FLOOR_REL, "rmse": FLOOR_ABS}


class BaselineError(ValueError):
    """A baseline file that is missing or cannot be read."""


@dataclass
class Finding:
    key: tuple
    baseline: float | None
    current: float | None
    status: str  # "moved", "failed", "missing", "new", "not run", "ok"


def baseline_file(directory: Path | None, robot: str, tier: str) -> Path:
    """A robot's baseline file: ``ROBOT.json`` in a folder the user named, else the one
    shipped in the robot's own folder, ``comparisons/<robot>/baselines/<tier>.json``."""
    if directory is not None:
        return directory / f"{robot}.json"
    return layer_dir("comparisons") / robot / "baselines" / f"{tier}.json"


def baselines_named(directory: Path | None, tier: str) -> str:
    """Where the baselines are, in words."""
    if directory is not None:
        return f"the baselines in {directory}"
    return f"the shipped {tier} baselines (comparisons/<robot>/baselines/{tier}.json)"


def write_baselines(metrics: pd.DataFrame, directory: Path | None, tier: str) -> list[Path]:
    """One JSON file per robot with every figure of the current run."""
    paths = []
    for robot, sub in metrics.groupby("robot"):
        rows = [{**{k: r[k] for k in KEY}, "value": _num(r["value"]), "passed": bool(r["passed"])}
                for _, r in sub.iterrows()]
        path = baseline_file(directory, robot, tier)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"robot": robot, "figures": rows}, indent=1) + "\n")
        paths.append(path)
    return paths


def _num(v) -> float | None:
    v = float(v)
    return v if math.isfinite(v) else None


def load_baselines(directory: Path | None, robots: list[str], tier: str = "ci"
                   ) -> dict[tuple, dict]:
    """Every figure of the robots' baseline files (:func:`baseline_file`), checked before
    anything is computed: a file that is missing, unreadable, empty or holds a malformed
    row is an error."""
    out = {}
    for robot in robots:
        path = baseline_file(directory, robot, tier)
        if not path.is_file():
            raise BaselineError(f"no baseline file {path}; run 'dynval check --update' first")
        try:
            data = json.loads(path.read_text())
            figures = data["figures"]
            if not isinstance(figures, list):
                raise TypeError("'figures' is not a list")
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise BaselineError(f"baseline file {path} is corrupt ({type(exc).__name__}: "
                                f"{exc})") from None
        if not figures:
            raise BaselineError(f"baseline file {path} holds no figures: a gate that compares "
                                "nothing cannot pass; run 'dynval check --update'")
        for i, row in enumerate(figures):
            _check_row(path, i, row)
            out[tuple(row[k] for k in KEY)] = row
    return out


def _check_row(path: Path, i: int, row) -> None:
    where = f"baseline file {path}, figure {i}"
    if not isinstance(row, dict):
        raise BaselineError(f"{where} is not an object")
    missing = [k for k in (*KEY, "value", "passed") if k not in row]
    if missing:
        raise BaselineError(f"{where} lacks the field {missing[0]!r}")
    v = row["value"]
    if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))
                          or not math.isfinite(v)):
        raise BaselineError(f"{where}: value {v!r} is not a finite number or null")
    if not isinstance(row["passed"], bool):
        raise BaselineError(f"{where}: passed {row['passed']!r} is not true or false")


def compare_to_baseline(metrics: pd.DataFrame, baseline: dict[tuple, dict],
                        skip_scenarios: tuple[str, ...] = (),
                        partial: tuple[str, ...] = ()) -> list[Finding]:
    """Every baseline figure of the checked robots against the current run, less the
    scenarios the check was told not to run.  ``partial`` names studies that a subset run
    ran in part (the rover's knock sweep runs its engines only on the selected scenarios'
    knocks): a figure of theirs absent from the run is 'not run', not missing."""
    current = {tuple(r[k] for k in KEY): r for r in metrics.to_dict("records")}
    robots = set(metrics["robot"])
    at_floor = _round_off_pairs(baseline, current)
    findings = []
    for key, b in baseline.items():
        robot, scenario = key[0], key[1]
        if robot not in robots or scenario in skip_scenarios:
            continue
        c = current.get(key)
        if c is None:
            gone = "not run" if scenario in partial else "missing"
            findings.append(Finding(key, b["value"], None, gone))
            continue
        cv, bv = _num(c["value"]), b["value"]
        if key[PAIR] in at_floor:
            findings.append(Finding(key, bv, cv, "ok"))
        elif (cv is None) != (bv is None) or (
                cv is not None and abs(cv - bv) > _margin(key, bv, baseline)):
            findings.append(Finding(key, bv, cv, "moved"))
        elif b["passed"] and not bool(c["passed"]):
            findings.append(Finding(key, bv, cv, "failed"))
        else:
            findings.append(Finding(key, bv, cv, "ok"))
    for key, c in current.items():  # figures the baseline has never seen
        if key not in baseline and key[1] not in skip_scenarios:
            findings.append(Finding(key, None, _num(c["value"]), "new"))
    return findings


def _margin(key: tuple, baseline: float, baselines: dict[tuple, dict] | None = None
            ) -> float:
    """How far a figure may move before it counts as moved (module docstring); a halving
    ratio's error beside it is looked up in ``baselines``."""
    metric, pair = key[-1], (key[KEY.index("reference")], key[KEY.index("candidate")])
    rel = PYBULLET_RATIO_REL if metric == "halving_ratio" and "pybullet" in pair else MOVE_REL
    margin = rel * abs(baseline) + MOVE_ABS
    if metric == "halving_ratio" and baselines is not None:
        margin = max(margin, _quotient_margin(key, baseline, baselines))
    return margin


def _quotient_margin(key: tuple, ratio: float, baselines: dict[tuple, dict]) -> float:
    """The margin of a halving ratio e1 / e2 from its errors' own margins m(e), first order:
    |ratio| (m(e1) / e1 + m(e2) / e2), e1 the error beside it (``RATIO_OF``) and
    e2 = e1 / ratio; 0 where no error is beside it."""
    for metric in RATIO_OF:
        row = baselines.get((*key[:-1], metric))
        e1 = None if row is None else row["value"]
        if e1 and ratio:
            e1, r = abs(e1), abs(ratio)
            return r * sum(_margin((*key[:-1], metric), e) / e for e in (e1, e1 / r))
    return 0.0


def _round_off_pairs(baseline: dict[tuple, dict], current: dict[tuple, dict]) -> set[tuple]:
    """Pairs of traces (and audited terms) that agree to round-off in the baseline and in
    the current run: their figures are at their noise floor (module docstring)."""
    out = set()
    for key, b in baseline.items():
        floor = FLOOR.get(key[-1])
        if floor is None or key not in current:
            continue
        bv, cv = b["value"], _num(current[key]["value"])
        if bv is not None and cv is not None and abs(bv) < floor and abs(cv) < floor:
            out.add(key[PAIR])
    return out


def write_junit(findings: list[Finding], path: Path) -> None:
    """JUnit XML: one test case per figure, a failure for each regression."""
    bad = [f for f in findings if f.status != "ok"]
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<testsuite name="dynval-check" tests="{len(findings)}" failures="{len(bad)}">']
    for f in findings:
        name = escape(" / ".join(str(k) for k in f.key), {'"': "&quot;"})
        lines.append(f'  <testcase classname="dynval.{f.key[0]}" name="{name}">')
        if f.status != "ok":
            msg = escape(f"{f.status}: baseline {f.baseline} current {f.current}", {'"': "&quot;"})
            lines.append(f'    <failure message="{msg}"/>')
        lines.append("  </testcase>")
    lines.append("</testsuite>")
    path.write_text("\n".join(lines) + "\n")


def subset_scope(robots: list[str], scenarios: list[str] | None, metrics: pd.DataFrame,
                 baseline: dict[tuple, dict]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What a check of only some ``scenarios`` leaves out of the comparison: the scenarios
    it skipped (the robots' others, and studies tied to them that did not run), and the
    studies it ran in part (named by the run but declared by no robot)."""
    from dynval.comparisons.ladder.registry import comparison

    if not scenarios:
        return (), ()
    declared = {s for r in robots for s in comparison(r).scenarios}
    ran = set(metrics["scenario"])
    skipped = tuple(s for s in declared if s not in scenarios)
    skipped += tuple({key[1] for key in baseline} - ran)
    return skipped, tuple(ran - declared)


def finished_run(run_dir: Path) -> tuple[pd.DataFrame, str]:
    """The metrics and tier of a finished validate run (its manifest verified)."""
    from dynval.comparisons.run.manifest import IncompleteRunError, verify

    verify(run_dir)
    summary, metrics = run_dir / "summary.json", run_dir / "metrics.parquet"
    try:
        return pd.read_parquet(metrics), json.loads(summary.read_text()).get("tier", "full")
    except (OSError, ValueError) as exc:
        raise IncompleteRunError(f"cannot read the run in {run_dir} ({exc})") from None
