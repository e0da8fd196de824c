"""Whether a hexapod run walks: its feet on the ground as planned (SPEC, Verdicts: a walking
robot's figures come from a run where it walks). Measured on a run's judged trace (1 kHz,
scenarios.run_one), from every foot's ground force (a foot is in contact while eqs.
(11)-(12), or an engine's own contact, push on it) and the plan's support pattern
(planning.in_support: leg i supports over the last beta T of each cycle from its lift-off
phase phi_i)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from dynval.handrolled.hexapod import planning
from dynval.robots.hexapod.params import HexapodParams, leg_names


def in_contact(df: pd.DataFrame, p: HexapodParams) -> np.ndarray:
    """(n x samples) whether each foot is in contact: a non-zero ground force."""
    return np.array([(df[f"foot.{leg}.force.y"].to_numpy() != 0.0)
                     | (df[f"foot.{leg}.force.x"].to_numpy() != 0.0) for leg in leg_names(p)])


def planned_support(df: pd.DataFrame, p: HexapodParams) -> np.ndarray:
    """(n x samples) whether the plan has each foot in its support phase."""
    phi = planning.phases(p.gait, p.beta, p.n)
    t = df["time"].to_numpy()
    return np.array([[planning.in_support(float(tk), float(phi[i]), p.beta, p.T) for tk in t]
                     for i in range(p.n)])


# A walk keeps its feet in their planned support: at most this fraction of the planned
# support samples may have the foot off the ground (the plan lands and lifts each foot at
# zero speed at y = 0, where the ground's ~0.2 mm static sinkage shifts contact by a few ms
# of the cycloid's start)
SUPPORT_FRACTION = 0.05


def not_walking(df: pd.DataFrame, p: HexapodParams) -> str | None:
    """Why a run does not walk, None where it does: the chapter's walking check (a walk
    never has all its feet off the ground, the plan always has one down, and keeps the
    planned support pattern to SUPPORT_FRACTION). A paper's statement about a walk cannot
    be tested on a run that fails it."""
    up = airborne(df, p)
    miss, planned = support_misses(df, p)
    why = []
    if up:
        why.append(f"{up} of {len(df)} samples with no foot on the ground")
    if miss > SUPPORT_FRACTION * max(planned, 1):
        why.append(f"{miss / max(planned, 1):.0%} of its planned support off the ground")
    return "hops (" + ", ".join(why) + ")" if why else None


def airborne(df: pd.DataFrame, p: HexapodParams) -> int:
    """Samples with no foot on the ground (the plan always has one down)."""
    return int(np.sum(~in_contact(df, p).any(axis=0)))


def support_misses(df: pd.DataFrame, p: HexapodParams) -> tuple[int, int]:
    """(samples of a foot in its planned support but off the ground, samples of planned
    support), over all feet."""
    plan = planned_support(df, p)
    return int(np.sum(plan & ~in_contact(df, p))), int(np.sum(plan))


def slip(df: pd.DataFrame, p: HexapodParams) -> float:
    """The largest horizontal travel of a foot within one of its planned support phases
    [m] (max - min of x_iF over the phase; a foot held by the ground's tangential spring
    moves only by its deflection)."""
    plan = planned_support(df, p)
    worst = 0.0
    for i, leg in enumerate(leg_names(p)):
        x = df[f"foot.{leg}.x"].to_numpy()
        edges = np.flatnonzero(np.diff(plan[i].astype(int))) + 1
        for seg in np.split(np.arange(len(x)), edges):
            if len(seg) and plan[i, seg[0]]:
                worst = max(worst, float(x[seg].max() - x[seg].min()))
    return worst


def cycle_mismatch(df: pd.DataFrame) -> float:
    """|com.y(end) - com.y(start)| of the judged cycle [m]: a gait in steady state repeats
    itself every T."""
    y = df["com.y"].to_numpy()
    return float(abs(y[-1] - y[0]))
