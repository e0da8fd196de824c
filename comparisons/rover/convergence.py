"""Judged trajectory rows of the rover's moving scenarios: the hand-rolled run against
MuJoCo's over the whole run, held to the integration error both carry at the declared step.

On a moving run the hand-rolled model (the thesis' Euler step, eqs. 4.1-4.2, on its own
formulation) and MuJoCo (its semi-implicit Euler on the multibody description) integrate
the same wheel-soil law and the same equations of motion by different first-order schemes, so
their traces differ by integration error, not by round-off. Each row's tolerance is that
error, measured by step halving of each implementation on the declared model: for a
first-order scheme x(dt) - x* ~ c dt, so |x(dt) - x(dt/2)| ~ c dt / 2 and the error at dt is
about twice the halving spread (Richardson). Two implementations each within their error of
the exact solution differ by at most the sum:

    tolerance = 2 (max|hand(dt) - hand(dt/2)| + max|mujoco(dt) - mujoco(dt/2)|)

The halved runs are tasks of their own on the declared parameters (a mutant of the
hand-rolled model does not move its tolerance), and the tolerance is measured on the same
run length as the figure it judges (the ci tier's first second, or the whole run)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pandas as pd

from dynval.comparisons.ladder.metrics import max_abs_diff
from dynval.results import MetricRow

# the moving scenarios judged this way (one per kind of motion: a knock left free, a knock
# steered back by the PD law, a pull from rest at constant torque); their runs are short
CONVERGENCE_SCENARIOS = ("disturbed_3_50", "pd_disturbed_3", "drawbar_10")
# what the rows compare: the rover's motion, its pitch, the turning joint and one wheel's
# sinkage (where the vertical damping D and the step act first)
SIGNALS = ("rover.x", "rover.y", "rover.speed", "rover.heading", "rover.pitch",
           "joint.q7.angle", "wheel.rear_left.sinkage")
REFERENCE = "mujoco"
METRIC = "max_abs_vs_halving"
# a signal whose halving spread in both implementations is below this (SI units) is one no
# run moves (zero by symmetry, or unused): no row is made for it
UNMOVED = 1e-12


def task_name(scenario: str, implementation: str, step: str = "dt/2") -> str:
    """The name of an implementation's run of ``scenario`` on the declared model at the
    declared step (``step`` "dt") or half of it ("dt/2")."""
    return f"convergence {scenario} {implementation} {step}"


def tasks(params: Any, scenarios: dict[str, Any], names: tuple[str, ...], desc_dir: Path,
          until: float | None, run_one: Callable[..., pd.DataFrame]) -> dict:
    """The halved runs (hand-rolled and MuJoCo, shared contact) of each judged scenario the
    run has, on the declared parameters, and the hand-rolled run at the declared step on
    them (under a mutant the scenario's own hand-rolled run is the mutant's: the spread is
    measured on one model, the declared one)."""
    half = replace(params, dt=params.dt / 2.0)
    runs = {task_name(sc, impl): (run_one, (half, scenarios[sc], impl, "shared", desc_dir),
                                  {"until": until})
            for sc in CONVERGENCE_SCENARIOS if sc in names
            for impl in ("handrolled", REFERENCE)}
    runs.update({task_name(sc, "handrolled", "dt"): (
        run_one, (params, scenarios[sc], "handrolled", "shared", desc_dir), {"until": until})
        for sc in CONVERGENCE_SCENARIOS if sc in names})
    return runs


def rows(robot: str, scenario: str, variant: str, wide: dict[str, pd.DataFrame],
         halved: dict[str, pd.DataFrame], declared: pd.DataFrame) -> list[MetricRow]:
    """One judged row per signal: max |hand - MuJoCo| over the run (``wide``: the hand-rolled
    model judged, MuJoCo) against twice the sum of the two implementations' halving
    spreads on the declared model (``declared``: its hand-rolled run at dt; ``halved``: both
    at dt/2), module docstring."""
    hand, ref = wide["handrolled"], wide[REFERENCE]
    out = []
    for sig in SIGNALS:
        if sig not in hand or sig not in ref:
            continue
        s_hand = max_abs_diff(declared, halved["handrolled"], sig)
        s_ref = max_abs_diff(ref, halved[REFERENCE], sig)
        if max(s_hand, s_ref) <= UNMOVED:
            continue
        tol = 2.0 * (s_hand + s_ref)
        value = max_abs_diff(ref, hand, sig)
        reason = (f"integration error at the declared step, measured by step halving "
                  f"(first order, Richardson): 2 x (hand-rolled {s_hand:.3g} + {REFERENCE} "
                  f"{s_ref:.3g}) = max |x(dt) - x(dt/2)| of each on the declared model")
        out.append(MetricRow(robot, scenario, "L4", variant, sig, REFERENCE, "handrolled",
                             METRIC, value, tol, bool(value <= tol), reason, "agreement"))
    return out
