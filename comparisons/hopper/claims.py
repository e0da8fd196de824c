"""The paper's qualitative claims (Sec. 6) as measurements on a run's trace: apex heights
and the steady-state height error per reference step (Fig. 6), the forward speed and body
attitude per speed step and the speed kick after lift-off (Fig. 7)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from dynval.comparisons.hopper.scenarios import Scenario

FLIGHT = 0.0
SETTLE_HOPS = 3  # the last hops of a reference step are its steady state
SETTLE_SECONDS = 1.0  # the last second of a speed step is its steady state [s]
KICK_WINDOW = 0.1  # the speed kick is looked for this long after lift-off [s]


def segments(steps: tuple[tuple[float, float], ...], end: float
             ) -> list[tuple[float, float, float]]:
    """(start, end, value) of each step of a reference, up to the run's end."""
    bounds = [t for t, _ in steps] + [end]
    return [(bounds[i], bounds[i + 1], v) for i, (_, v) in enumerate(steps)
            if bounds[i] < end]


def apexes(df: pd.DataFrame) -> pd.DataFrame:
    """Time and height of each flight apex of the body centre."""
    z, phase, t = (df[c].to_numpy() for c in ("com.z", "hopper.phase", "time"))
    i = np.flatnonzero((z[1:-1] > z[:-2]) & (z[1:-1] >= z[2:]) & (phase[1:-1] == FLIGHT)) + 1
    return pd.DataFrame({"time": t[i], "height": z[i]})


def height_errors(df: pd.DataFrame, sc: Scenario) -> list[tuple[float, float, float]]:
    """(reference, mean of the last SETTLE_HOPS apexes, error) per height step."""
    ap = apexes(df)
    out = []
    for t0, t1, h_d in segments(sc.h_d, float(df["time"].iloc[-1])):
        last = ap[(ap["time"] >= t0) & (ap["time"] < t1)]["height"].to_numpy()[-SETTLE_HOPS:]
        if len(last):
            out.append((h_d, float(last.mean()), float(last.mean() - h_d)))
    return out


def speed_errors(df: pd.DataFrame, sc: Scenario) -> list[tuple[float, float, float]]:
    """(reference, mean speed, mean pitch [rad]) over the last SETTLE_SECONDS of each
    speed step."""
    out = []
    for t0, t1, v in segments(sc.x_dot_d, float(df["time"].iloc[-1])):
        win = df[(df["time"] >= max(t0, t1 - SETTLE_SECONDS)) & (df["time"] < t1)]
        if len(win):
            out.append((v, float(win["com.vx"].mean()), float(win["body.pitch"].mean())))
    return out


def speed_kicks(df: pd.DataFrame) -> np.ndarray:
    """At each lift-off, the largest change of the body's forward speed within
    KICK_WINDOW: the hip swinging the leg forward kicks the body back (Sec. 6)."""
    phase, t, vx = (df[c].to_numpy() for c in ("hopper.phase", "time", "com.vx"))
    lift = np.flatnonzero((phase[:-1] != FLIGHT) & (phase[1:] == FLIGHT)) + 1
    kicks = []
    for i in lift:
        win = vx[i:np.searchsorted(t, t[i] + KICK_WINDOW)]
        if len(win):
            kicks.append(float(np.max(np.abs(win - vx[i]))))
    return np.array(kicks)


def stance_times(df: pd.DataFrame) -> np.ndarray:
    """Durations of the complete stances of a run [s]."""
    stance = (df["hopper.phase"].to_numpy() != FLIGHT).astype(int)
    t = df["time"].to_numpy()
    edges = np.diff(stance)
    on, off = t[1:][edges == 1], t[1:][edges == -1]
    off = off[off > on[0]] if len(on) else off
    n = min(len(on), len(off))
    return off[:n] - on[:n]
