"""What makes a figure outside tolerance a known difference: measured evidence, checked
here (dynval.results.Known, EVIDENCE).

- chaos: a robot declares :class:`Chaos` (how to perturb a run's start); the ladder runs
  the declared implementation once more from the perturbed start (a task of the graph)
  and a difference no larger than ``factor`` times that run's spread against the
  unperturbed one, where the spread itself exceeds the tolerance, is round-off grown by
  the run's own sensitivity;
- ablation: the declared cause switched off or aligned in a counterfactual run whose
  figure (stored as its own row) is within the tolerance (:func:`ablation`);
- convergence: the difference falls at the integrator's order under step halving.

A Known whose evidence does not hold is refused (:func:`verified`): its row differs, and
the declared cause stays in its reason as an unverified note."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from dynval.comparisons.ladder.metrics import pair_metrics
from dynval.results import Known, MetricRow

# the metrics a spread is measured in: differences, where larger is worse
SPREAD_METRICS = ("max_abs", "rmse", "final_diff")
CHAOS_FACTOR = 10.0  # where a robot returns a chaos Known without declaring Chaos
# an observed order of at least this fraction of the integrator's falls at its order
CONVERGENCE_SLACK = 0.8


@dataclass(frozen=True)
class Chaos:
    """A robot's declaration that a run may amplify round-off: its ``implementation``
    with ``contact`` runs again with ``keyword=shift`` passed to its ``make_loop`` (a
    perturbed start; ``what`` names it, with its unit), and an agreement figure outside
    tolerance within ``factor`` times the spread this makes is known (chaos)."""

    shift: float
    factor: float
    what: str
    keyword: str = "start_shift"
    implementation: str = "handrolled"
    contact: str = "shared"


def task_name(scenario: str) -> str:
    """The name of the perturbed run of ``scenario`` in the robot's task graph."""
    return f"sensitivity {scenario}"


def spread(base: pd.DataFrame, moved: pd.DataFrame, signal: str, metric: str) -> float:
    """``metric`` of ``signal`` between a run and its perturbed copy (absolute), over the
    samples both have."""
    n = min(len(base), len(moved))
    t = base["time"].to_numpy()[:n]
    value = pair_metrics(t, base[signal].to_numpy()[:n], moved[signal].to_numpy()[:n])[metric]
    return abs(float(value))


def chaos(row: MetricRow, base: pd.DataFrame, moved: pd.DataFrame, decl: Chaos
          ) -> Known | None:
    """The chaos evidence of an agreement row: the spread of its signal and metric under
    the declared perturbation (None where the metric is not a difference or the signal
    is not recorded)."""
    if (row.kind != "agreement" or row.metric not in SPREAD_METRICS
            or row.signal not in base or row.signal not in moved):
        return None
    s = spread(base, moved, row.signal, row.metric)
    return Known(f"chaotic run: a {decl.shift:g} change of {decl.what} moves {row.signal} "
                 f"by {s:.3g} ({row.metric}, {decl.implementation} against itself), so "
                 f"round-off alone makes differences of this size (this one "
                 f"{abs(row.value):.3g}, within {decl.factor:g}x)", "chaos", s)


def ablation(row: MetricRow, rows: list[MetricRow], reason: str, **counterfactual: str
             ) -> Known | None:
    """The ablation evidence of ``row``: the stored row that differs from it only in the
    fields given in ``counterfactual`` (e.g. ``variant="shared"``: the declared cause, the
    contact law, switched off), its figure as the evidence value; None where the run has
    no such row."""
    want = {**row.__dict__, **counterfactual}
    keys = ("robot", "scenario", "rung", "variant", "signal", "reference", "candidate",
            "metric")
    found = next((r for r in rows if all(r.__dict__[k] == want[k] for k in keys)), None)
    if found is None or found.tolerance is None:
        return None
    changed = ", ".join(f"{k} {v}" for k, v in counterfactual.items())
    return Known(f"{reason} (ablation: with {changed} the figure is {found.value:.3g}, "
                 f"within {row.tolerance:.3g})", "ablation", found.value)


def observed_order(diff: float, diff_half: float) -> float:
    """The order at which a difference falls when the step halves: log2(d(h) / d(h/2))."""
    if diff_half <= 0.0 or diff <= 0.0:
        return math.inf if diff_half == 0.0 < diff else float("nan")
    return float(np.log2(diff / diff_half))


def verified(known: Known, row: MetricRow, factor: float = CHAOS_FACTOR) -> bool:
    """Whether ``known``'s measurement explains ``row`` (module docstring)."""
    e, tol, value = float(known.evidence_value), row.tolerance, abs(float(row.value))
    if tol is None or not math.isfinite(e):
        return False
    if known.evidence == "chaos":
        return e > tol and value <= factor * e
    if known.evidence == "ablation":
        return abs(e) <= tol
    return e >= CONVERGENCE_SLACK * known.order  # convergence
