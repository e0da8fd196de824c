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
floor, a verdict that turns from passed to failed (or from passed to not judged, or from
not judged to failed: ``passed`` is null where nothing was judged), a figure missing from
the current run or a figure the baseline lacks ('new': the baselines are out of date) is a
regression."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

import pandas as pd

from dynval.comparisons.ladder.overrides import Override
from dynval.plugins import spec
from dynval.results import verdict_of

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
# A figure's own spread, measured when its baseline is written: the run again with every
# real parameter of its robot moved by SPREAD_DELTA of itself, and again by twice that
# (SPREAD_STEPS; upwards: the as-derived landing gear's 1e-14 kg m^2 point inertias,
# moved down, are refused by MuJoCo's eigenvalue check), and the largest change of the
# figure.  A well-posed figure changes by about SPREAD_DELTA times its sensitivity, far
# below MOVE_REL; an ill-posed one (the nrmse or correlation of a signal that is
# round-off, a native-contact run that amplifies any change) by its own size.  A figure
# may move by SPREAD_FACTOR times its spread: two draws of amplified round-off differ by a
# factor of a few, and a parameter moved by 1e-6 (a million times the draw) still moves
# every sensitive figure.  One whose spread reaches a tenth of its own size is ill-posed:
# it is reported, not gated.
SPREAD_DELTA = 1e-12
SPREAD_STEPS = (1.0, 2.0)  # the runs' moves, in SPREAD_DELTA
SPREAD_FACTOR = 10.0
PAIR = slice(0, 7)  # a key without its metric: one pair of traces (or one audited term)
FLOOR = {"nrmse": FLOOR_REL, "max_rel_error": FLOOR_REL, "rmse": FLOOR_ABS}


class BaselineError(ValueError):
    """A baseline file that is missing or cannot be read."""


@dataclass
class Finding:
    key: tuple
    baseline: float | None
    current: float | None
    status: str  # "moved", "failed", "missing", "new", "not run", "ill-posed", "ok"


REGRESSIONS = ("moved", "failed", "missing", "new")  # the statuses that fail the gate


def baseline_file(directory: Path | None, robot: str, tier: str) -> Path:
    """A robot's baseline file: ``ROBOT.json`` in a folder the user named, else the one
    shipped in the robot's own comparison package, ``baselines/<tier>.json``."""
    if directory is not None:
        return directory / f"{robot}.json"
    return spec(robot).folder("comparisons") / "baselines" / f"{tier}.json"


def baselines_named(directory: Path | None, tier: str) -> str:
    """Where the baselines are, in words."""
    if directory is not None:
        return f"the baselines in {directory}"
    return (f"the shipped {tier} baselines (baselines/{tier}.json in each robot's "
            "comparison package)")


def keyed(metrics: pd.DataFrame) -> dict[tuple, dict]:
    """The run's figures by their key (KEY); two figures under one key are a ValueError
    naming it, as a baseline could hold only one of them and check the other against it."""
    out: dict[tuple, dict] = {}
    for r in metrics.to_dict("records"):
        key = tuple(r[k] for k in KEY)
        if key in out:
            raise ValueError(f"two figures share the key {' | '.join(map(str, key))}: a "
                             "baseline cannot tell them apart")
        out[key] = r
    return out


def write_baselines(metrics: pd.DataFrame, directory: Path | None, tier: str,
                    spread: dict[tuple, float] | None = None) -> list[Path]:
    """One JSON file per robot with every figure of the current run and, where measured
    (:func:`spreads`), its spread (null: ill-posed, its value turns non-finite)."""
    keyed(metrics)  # two figures under one key could not be told apart
    paths = []
    for robot, sub in metrics.groupby("robot"):
        rows = [{**{k: r[k] for k in KEY}, "value": _num(r["value"]),
                 "passed": verdict_of(r["passed"])} for _, r in sub.iterrows()]
        if spread is not None:
            for row in rows:
                row["spread"] = _num(spread.get(tuple(row[k] for k in KEY), math.inf))
        path = baseline_file(directory, robot, tier)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"robot": robot, "figures": rows}, indent=1) + "\n")
        paths.append(path)
    return paths


def perturbed_overrides(robots: list[str], overrides: Sequence[Override], step: float
                        ) -> list[Override]:
    """Overrides, to follow ``overrides``, that move every real parameter of each robot
    (as ``overrides`` leave it) by ``step`` SPREAD_DELTA of itself, or the other way where
    that would leave its range: a run that measures each figure's spread."""
    from dynval.comparisons.ladder.registry import apply_overrides, comparison
    from dynval.robots.parameters import specs

    out = []
    for robot in robots:
        params = apply_overrides(robot, comparison(robot).default_params, overrides)
        for name, s in specs(params).items():
            value = getattr(params, name)
            if s.range.kind != "real" or value == 0.0:
                continue
            moved = value * (1.0 + step * SPREAD_DELTA)
            if s.range.problem(moved, s.unit) is not None:
                moved = value * (1.0 - step * SPREAD_DELTA)
            out.append(Override(robot, name, moved))
    return out


def spreads(metrics: pd.DataFrame, perturbed: list[pd.DataFrame]) -> dict[tuple, float]:
    """Each figure's largest change across the ``perturbed`` runs: inf where it turns
    non-finite in one and not in the other, or is missing from one."""
    runs = [{tuple(r[k] for k in KEY): _num(r["value"]) for r in m.to_dict("records")}
            for m in perturbed]
    out = {}
    for r in metrics.to_dict("records"):
        key, v = tuple(r[k] for k in KEY), _num(r["value"])
        worst = 0.0
        for run in runs:
            w = run.get(key, math.nan)
            if w is None and v is None:
                continue
            worst = max(worst, math.inf if w is None or v is None or math.isnan(w)
                        else abs(w - v))
        out[key] = worst
    return out


def _num(v) -> float | None:
    v = float(v)
    return v if math.isfinite(v) else None


def load_baselines(directory: Path | None, robots: list[str], tier: str = "ci"
                   ) -> dict[tuple, dict]:
    """Every figure of the robots' baseline files (:func:`baseline_file`), checked before
    anything is computed: a file that is missing, unreadable, empty, holds a malformed row
    or two figures under one key is an error."""
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
            key = tuple(row[k] for k in KEY)
            if key in out:
                raise BaselineError(f"baseline file {path}, figure {i}, repeats the key of an "
                                    "earlier figure: one of the two would go unchecked; run "
                                    "'dynval check --update'")
            out[key] = row
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
    if row["passed"] is not None and not isinstance(row["passed"], bool):
        raise BaselineError(f"{where}: passed {row['passed']!r} is not true, false or null")
    w = row.get("spread", 0.0)
    if w is not None and (isinstance(w, bool) or not isinstance(w, (int, float))
                          or not math.isfinite(w) or w < 0):
        raise BaselineError(f"{where}: spread {w!r} is not a finite number >= 0 or null")


def compare_to_baseline(metrics: pd.DataFrame, baseline: dict[tuple, dict],
                        skip_scenarios: tuple[str, ...] = (),
                        partial: tuple[str, ...] = ()) -> list[Finding]:
    """Every baseline figure of the checked robots against the current run, less the
    scenarios the check was told not to run.  ``partial`` names studies that a subset run
    ran in part (the rover's knock sweep runs its engines only on the selected scenarios'
    knocks): a figure of theirs absent from the run is 'not run', not missing."""
    current = keyed(metrics)
    robots = set(metrics["robot"])
    at_floor = _round_off_pairs(baseline, current)
    loose = _ill_posed_shapes(baseline)
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
        elif (ill_posed(b) or (key[-1] in SHAPE and key[PAIR] in loose)) and not turned(
                b["passed"], c["passed"]):  # a verdict that turned is gated
            findings.append(Finding(key, bv, cv, "ill-posed"))
        elif (cv is None) != (bv is None) or (
                cv is not None and abs(cv - bv) > _margin(key, bv, baseline)):
            findings.append(Finding(key, bv, cv, "moved"))
        elif turned(b["passed"], c["passed"]):
            findings.append(Finding(key, bv, cv, "failed"))
        else:
            findings.append(Finding(key, bv, cv, "ok"))
    for key, c in current.items():  # figures the baseline has never seen
        if key not in baseline and key[1] not in skip_scenarios:
            findings.append(Finding(key, None, _num(c["value"]), "new"))
    return findings


def turned(baseline, current) -> bool:
    """Whether a figure's verdict turned for the worse: from passed to failed or to not
    judged (a check that no longer judges is a check lost), or from not judged (null) to
    failed. Failed to not judged, and anything to passed, is not a regression."""
    b, c = verdict_of(baseline), verdict_of(current)
    return (b is True and c is not True) or (b is None and c is False)


def _margin(key: tuple, baseline: float, baselines: dict[tuple, dict] | None = None
            ) -> float:
    """How far a figure may move before it counts as moved (module docstring); a halving
    ratio's error beside it is looked up in ``baselines``."""
    metric, pair = key[-1], (key[KEY.index("reference")], key[KEY.index("candidate")])
    rel = PYBULLET_RATIO_REL if metric == "halving_ratio" and "pybullet" in pair else MOVE_REL
    margin = rel * abs(baseline) + MOVE_ABS
    if baselines is not None:
        margin = max(margin, SPREAD_FACTOR * (baselines.get(key, {}).get("spread") or 0.0))
    if metric == "halving_ratio" and baselines is not None:
        margin = max(margin, _quotient_margin(key, baseline, baselines))
    return margin


def ill_posed(row: dict) -> bool:
    """A baseline figure that a change of SPREAD_DELTA moves by a tenth of its own size
    (or turns non-finite), beyond the margin any figure has: round-off amplified, not a
    figure a gate can hold."""
    if "spread" not in row:
        return False
    w, v = row["spread"], row["value"]
    if w is None or v is None:
        return w is None
    return SPREAD_FACTOR * w >= abs(v) and SPREAD_FACTOR * w > MOVE_REL * abs(v) + MOVE_ABS


# The figures of a pair of traces that compare their shapes, each normalised by the
# reference's own range: where one of them is ill-posed the reference is flat (its range
# round-off), and so are the others, though two draws may have left one of them (a lag,
# the argmax of a cross-correlation) in place.
SHAPE = ("nrmse", "correlation", "lag")


def _ill_posed_shapes(baseline: dict[tuple, dict]) -> set[tuple]:
    """The pairs of traces one of whose SHAPE figures is ill-posed."""
    return {key[PAIR] for key, b in baseline.items() if key[-1] in SHAPE and ill_posed(b)}


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
    bad = [f for f in findings if f.status in REGRESSIONS]
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<testsuite name="dynval-check" tests="{len(findings)}" failures="{len(bad)}">']
    for f in findings:
        name = escape(" / ".join(str(k) for k in f.key), {'"': "&quot;"})
        lines.append(f'  <testcase classname="dynval.{f.key[0]}" name="{name}">')
        if f.status in REGRESSIONS:
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
