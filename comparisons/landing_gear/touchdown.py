"""Judged trajectory rows of the landing gear's touchdown: the hand-rolled run against the
decoupled model with engine leg terms (landing_gear.decoupled) over the first TRANSIENT
seconds of each scenario, the descent, touchdown and first bounce, every recorded signal.

The two are the same model stepped by the same scheme at the same step, with the terms
computed apart (the hand-rolled eqs. 12-14 and 1-9, an engine's leg terms and r x F), so
they differ by round-off only, grown through the closed loop. Each row's tolerance is that
growth, measured on the reference itself:

- the reference again from a start moved by SPREAD_DELTA (1e-12) of itself (height,
  descent rate, leg angles): how far this run carries a change at the level of
  round-off, the spread ``dynval check`` measures for every figure;
- the reference with PyBullet's leg terms in place of MuJoCo's: the round-off of two
  engines' terms of the same leg;

tolerance = SPREAD_FACTOR (10) x the larger of the two, as check.SPREAD_FACTOR allows
two draws of amplified round-off. A wrong gain, contact constant, gravity form or step
of the hand-rolled model moves these signals by 1e-6 and more (measured on the declared
mutants), round-off by 1e-12 and less. The reference runs are tasks on the declared
parameters: a mutant of the hand-rolled model does not move them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from dynval.comparisons.ladder.metrics import ReferenceRun, reference_rows
from dynval.comparisons.landing_gear.decoupled import run_reference
from dynval.comparisons.run.check import SPREAD_DELTA, SPREAD_FACTOR
from dynval.results import MetricRow

TRANSIENT = 0.3  # [s] descent (touchdown near 0.08 s), touchdown and first bounce
REFERENCE = "decoupled, mujoco leg terms"
METRIC = "max_abs_touchdown"
RUNS = {"mujoco": ("mujoco", 0.0), "pybullet": ("pybullet", 0.0),
        "perturbed": ("mujoco", SPREAD_DELTA)}


def task_name(scenario: str, run: str) -> str:
    """The name of a reference run (RUNS) of ``scenario`` in the task graph."""
    return f"touchdown {scenario} {run}"


def tasks(params: Any, scenarios: dict[str, Any], names: tuple[str, ...], desc_dir: Path
          ) -> dict:
    """The reference runs of each scenario of the run, on the declared parameters."""
    return {task_name(sc, run): (run_reference, (params, scenarios[sc], desc_dir, TRANSIENT),
                                 {"engine": engine, "perturb": perturb})
            for sc in names for run, (engine, perturb) in RUNS.items()}


JUDGE = ReferenceRun(
    REFERENCE, METRIC, f"round-off of the same decoupled model, scheme and step, grown over "
    f"the first {TRANSIENT:g} s", SPREAD_FACTOR)


def rows(robot: str, scenario: str, variant: str, hand: pd.DataFrame,
         ref: dict[str, pd.DataFrame]) -> list[MetricRow]:
    """One judged row per signal that moves over the transient: max |hand - reference|
    against SPREAD_FACTOR x the reference's round-off spread (module docstring); ``ref``
    holds the RUNS by name."""
    return reference_rows(robot, scenario, variant, JUDGE, hand, ref["mujoco"], {
        f"start moved by {SPREAD_DELTA:g} of itself": ref["perturbed"],
        "PyBullet's leg terms for MuJoCo's": ref["pybullet"]})
