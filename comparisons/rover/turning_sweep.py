"""Maximum and final turning joint angle against the disturbance, section 5.1.2
(Figures 5.2, 5.4 and 5.5), as curves over a fine sweep of the knock.

The thesis disturbs straight driving with "a non-zero initial turning joint rate", over
"rates ranging from 0 deg/s to one such that its lateral velocity matched its
longitudinal velocity" (v / l: the front axle's lateral speed equals the forward speed),
and plots for each speed the maximum and the settled turning joint angle against that
rate. Here the knock runs over ``FRACTIONS`` (17 magnitudes, 0 to v / l in sixteenths) at
each speed, for the scenario's 20 s, in all three implementations: the hand-rolled model
runs every magnitude; MuJoCo and PyBullet run ``ENGINE_FRACTIONS`` (every magnitude but
25, 50 and 100 %) and the chapter takes those three points from the 5.1.2 scenario runs,
which are the same runs.

Section 5.1.2 says the maximum at 6 m/s "eventually levels out ... independent of the
initial displacement"; :func:`plateau` finds where, from the numbers: the smallest knock
from which every larger knock's maximum stays in a band of +-``PLATEAU_REL``.
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

from dynval.comparisons.ladder.metrics import recomputed_row
from dynval.comparisons.rover.scenarios import SCENARIOS, run_one
from dynval.results import MetricRow
from dynval.robots.rover.params import RoverParams

ROBOT = "rover"
DEG = 180.0 / math.pi
SPEEDS = (0.5, 3.0, 6.0)  # [m/s] the three speeds of section 5.1
FRACTIONS = tuple(k / 16 for k in range(17))  # knock / (v / l): 17 magnitudes, 0 included
SCENARIO_FRACTIONS = {0.25: 25, 0.5: 50, 1.0: 100}  # disturbed_{v}_{pct} scenario runs
# the engines' own runs: the rest of the grid (module docstring)
ENGINE_FRACTIONS = tuple(f for f in FRACTIONS if f not in SCENARIO_FRACTIONS)
PLATEAU_REL = 0.10  # "levels out": every larger knock's maximum in a +-10 % band
PLATEAU_MIN_POINTS = 3  # a plateau needs at least three knocks


def base_scenario(speed: float) -> str:
    """The 5.1.2 scenario a sweep at ``speed`` is derived from (its knock replaced)."""
    return f"disturbed_{speed:g}_100"


def summarize(df: pd.DataFrame, fraction: float, rate0: float) -> dict:
    """Largest |q7| and when, the final q7 and its rate (has it settled?), of one run."""
    t, q = df["time"].to_numpy(), df["joint.q7.angle"].to_numpy()
    k = int(np.argmax(np.abs(q)))
    return {"fraction": fraction, "rate0": rate0, "duration": float(t[-1]),
            "max_abs_q7": float(abs(q[k])), "t_max": float(t[k]), "final_q7": float(q[-1]),
            "final_rate": float(df["joint.q7.rate"].iloc[-1]),
            "heading_rate": float(df["rover.heading_rate"].iloc[-1])}


def sweep_speed(p: RoverParams, speed: float, implementation: str,
                fractions: tuple[float, ...], desc_dir: Path, until: float | None = None
                ) -> list[dict]:
    """Section 5.1.2 at one speed: the disturbed drive at each knock fraction of v / l
    (``until``: the ci tier's first second). One summary per run."""
    sc0 = SCENARIOS[base_scenario(speed)]
    out = []
    for f in fractions:
        rate0 = f * speed / p.l  # the largest knock is v / l (section 5.1.2)
        df = run_one(p, replace(sc0, q7_rate0=rate0), implementation, "shared", desc_dir,
                     until=until)
        out.append(summarize(df, f, rate0))
    return out


def from_scenarios(p: RoverParams, runs: dict[str, dict[str, pd.DataFrame]],
                   implementation: str, speed: float) -> list[dict]:
    """The sweep points an implementation already ran as 5.1.2 scenarios (25, 50, 100 %)."""
    out = []
    for f, pct in SCENARIO_FRACTIONS.items():
        df = runs.get(f"disturbed_{speed:g}_{pct}", {}).get(implementation)
        if df is not None:
            out.append(summarize(df, f, SCENARIOS[f"disturbed_{speed:g}_{pct}"].q7_rate0))
    return out


def plateau(x: list[float], y: list[float], rel: float = PLATEAU_REL,
            min_points: int = PLATEAU_MIN_POINTS) -> tuple[int, float, float, float] | None:
    """Where y levels out: the smallest index k such that y[k:] (at least ``min_points``
    of them) spans no more than 2 ``rel`` of its mean, i.e. lies in a band of +-``rel``
    about the band's centre, and so does every shorter tail (the span of a tail never
    exceeds that of a longer one, so the scan from the end stops at the first failure);
    (k, mean, min, max) of that tail, or None when even the last ``min_points`` do not."""
    y_arr = np.asarray(y, dtype=float)
    if len(x) != len(y_arr):
        raise ValueError("plateau: x and y differ in length")
    found = None
    for k in range(len(y_arr) - min_points, -1, -1):
        tail = y_arr[k:]
        m = float(tail.mean())
        if tail.max() - tail.min() <= 2.0 * rel * abs(m):
            found = (k, m, float(tail.min()), float(tail.max()))
        else:
            break
    return found


def _merge(points: list[dict]) -> list[dict]:
    """Points sorted by knock, one per knock."""
    return sorted({r["fraction"]: r for r in points}.values(), key=lambda r: r["fraction"])


def turning_angle_table(results: dict[tuple[float, str], list[dict]], l: float
                        ) -> tuple[list[dict], list[MetricRow], str]:
    """Figures 5.2, 5.4 and 5.5 as curves: max |q7| and final q7 against the knock for each
    speed and implementation, a table of every point, metric rows, and the note on where
    the 6 m/s maximum levels out (also returned on its own for the L5 rung)."""
    rows, tracked, panels = [], [], []
    for v in SPEEDS:
        series = []
        for impl, styles in (("handrolled", ("-", "--")), ("mujoco", ("-.", ":")),
                             ("pybullet", ("-.", ":"))):
            pts = _merge(results.get((v, impl), []))
            if not pts:
                continue
            for r in pts:
                rows.append([v, 100 * r["fraction"], r["rate0"] * DEG, impl,
                             r["max_abs_q7"] * DEG, r["t_max"], r["final_q7"] * DEG,
                             (r["max_abs_q7"] - abs(r["final_q7"])) * DEG,
                             r["final_rate"] * DEG, r["duration"]])
                tracked += [recomputed_row(ROBOT, f"5.1.2 sweep {v:g} m/s",
                                           f"joint.q7.knock{100 * r['fraction']:g}.{m}",
                                           "recomputed", val, what, candidate=impl)
                            for m, val, what in (
                                ("max_abs", r["max_abs_q7"], "Figures 5.2-5.5: max |q7| [rad]"),
                                ("final", r["final_q7"], "Figures 5.2-5.5: final q7 [rad]"))]
            x = [r["rate0"] * DEG for r in pts]
            series += [{"label": f"max |q7|, {impl}", "style": styles[0], "x": x,
                        "y": [r["max_abs_q7"] * DEG for r in pts]},
                       {"label": f"final q7, {impl}", "style": styles[1], "x": x,
                        "y": [r["final_q7"] * DEG for r in pts]}]
        fig = {0.5: "5.2", 3.0: "5.4", 6.0: "5.5"}[v]
        if series:
            panels.append({"title": f"{v:g} m/s (Figure {fig})", "xlabel": "knock q7'(0) [deg/s]",
                           "ylabel": "q7 [deg]", "series": series})
    note = levels_out_note(results, l)
    hr = {v: _merge(results.get((v, "handrolled"), [])) for v in SPEEDS}
    gaps = ", ".join(
        f"{v:g} m/s {max((r['max_abs_q7'] - abs(r['final_q7'])) * DEG for r in pts):.2f}"
        for v, pts in hr.items() if pts)
    counts = "; ".join(
        f"{v:g} m/s: " + ", ".join(f"{impl} {len(_merge(results.get((v, impl), [])))}"
                                   for impl in ("handrolled", "mujoco", "pybullet"))
        for v in SPEEDS)
    caption = (
        "Section 5.1.2 swept finely: the knock (initial turning joint rate) from 0 to v/l in "
        f"sixteenths (magnitudes run: {counts}), each run the scenario's length; max |q7| "
        "and the final q7 (signed: a negative value is a turn the other way) against the "
        "knock, and the final q7 rate (a non-zero rate: not yet settled). "
        f"Largest max - |final| (hand-rolled): {gaps} deg (the thesis' medium-speed figure "
        "is held back). " + note)
    table = {"scenario": None,
             "title": "Figures 5.2-5.5 recomputed: maximum and final turning joint angle "
                      "against the disturbance",
             "columns": ["v [m/s]", "knock [% v/l]", "q7'(0) [deg/s]", "implementation",
                         "max |q7| [deg]", "t of max [s]", "final q7 [deg]",
                         "max - |final| [deg]", "final q7' [deg/s]", "run [s]"],
             "rows": rows, "caption": caption, "plot": {"panels": panels}}
    return [table], tracked, note


def levels_out_note(results: dict[tuple[float, str], list[dict]], l: float) -> str:
    """Where the 6 m/s maximum levels out, from the hand-rolled curve (and what the
    engines give at their knocks on that stretch)."""
    pts = _merge(results.get((6.0, "handrolled"), []))
    if len(pts) < PLATEAU_MIN_POINTS:
        return ""
    x = [r["rate0"] * DEG for r in pts]
    y = [r["max_abs_q7"] * DEG for r in pts]
    peak = int(np.argmax(y))
    found = plateau(x, y)
    text = (f"At 6 m/s (v/l = {6.0 / l * DEG:.0f} deg/s) the largest |q7| rises with the knock "
            f"to {y[peak]:.1f} deg at {x[peak]:.0f} deg/s ({100 * pts[peak]['fraction']:g} % "
            "of v/l)")
    if found is None:
        return text + f", and does not level out within {100 * PLATEAU_REL:g} % over the " \
                      "range swept."
    k, m, lo, hi = found
    finals = [abs(r["final_q7"]) * DEG for r in pts[k:]]
    flips = sum(r["final_q7"] < 0 for r in pts[k:])
    text += (f", then falls back and levels out from {x[k]:.0f} deg/s "
             f"({100 * pts[k]['fraction']:g} % of v/l) on: every larger knock's maximum lies "
             f"in {lo:.1f}-{hi:.1f} deg (mean {m:.1f} deg, a band of +-"
             f"{100 * PLATEAU_REL:g} %), whatever the knock. On that stretch the final "
             f"|q7| is {min(finals):.1f}-"
             f"{max(finals):.1f} deg after the run, {flips} of {len(finals)} runs ending in a "
             "turn the other way")
    eng = []
    for impl in ("mujoco", "pybullet"):
        e = [r for r in _merge(results.get((6.0, impl), [])) if r["fraction"]
             >= pts[k]["fraction"]]
        if e:
            eng.append(f"{impl} {min(r['max_abs_q7'] for r in e) * DEG:.1f}-"
                       f"{max(r['max_abs_q7'] for r in e) * DEG:.1f} deg at "
                       + ", ".join(f"{100 * r['fraction']:g}" for r in e) + " %")
    return text + (f"; the engines' maxima there: {'; '.join(eng)}." if eng else ".")
