"""How far section 4's assumed ground-reaction distribution is from the contact forces
the engines compute for the same gait: per support case and axis, the RMS difference
between the assumed and the engine's foot forces, and how unequal the engine makes the
forces the paper assumes equal."""

from __future__ import annotations

import numpy as np
import pandas as pd

from dynval.robots.quadruped.params import LEGS, side_sign

AXES = "xyz"


def _forces(df: pd.DataFrame, kind: str) -> np.ndarray:
    """(n, 4, 3) foot forces of one trace; ``kind`` is "force" or "force_assumed"."""
    return np.stack([np.column_stack([df[f"foot.{leg}.{kind}.{a}"] for a in AXES])
                     for leg in LEGS], axis=1)


def stance_masks(assumed: np.ndarray) -> np.ndarray:
    """(n, 4) legs the plan has on the ground (nonzero assumed vertical force)."""
    return assumed[:, :, 2] != 0.0


def assumption_errors(hand: pd.DataFrame, engines: dict[str, pd.DataFrame]) -> list[dict]:
    """Rows (engine, legs on the ground, axis, the assumption, RMS assumed - engine [N],
    RMS engine inequality among the legs assumed equal [N], mean engine |F| [N])."""
    F_ass = _forces(hand, "force_assumed")
    on = stance_masks(F_ass)
    n_on = on.sum(axis=1)
    t = hand["time"].to_numpy()
    rows = []
    for name, df in engines.items():
        F_eng = np.stack([np.column_stack([np.interp(t, df["time"], df[f"foot.{leg}.force.{a}"])
                                           for a in AXES]) for leg in LEGS], axis=1)
        for n in sorted(set(n_on.tolist()) - {0}, reverse=True):
            rows_n = n_on == n
            for c, axis in enumerate(AXES):
                d, spread = [], []
                for k in np.flatnonzero(rows_n):
                    legs = np.flatnonzero(on[k])
                    d += list(F_ass[k, legs, c] - F_eng[k, legs, c])
                    for group in _equal_groups(n, axis, [LEGS[j] for j in legs]):
                        idx = [LEGS.index(leg) for leg in group]
                        vals = F_eng[k, idx, c]
                        spread += list(vals - vals.mean())
                rows.append({
                    "engine": name, "legs": int(n), "axis": axis,
                    "assumption": _assumption(n, axis),
                    "rms_error": float(np.sqrt(np.mean(np.square(d)))),
                    "rms_inequality": float(np.sqrt(np.mean(np.square(spread))))
                    if spread else float("nan"),
                    "mean_abs_engine": float(np.mean(np.abs(F_eng[rows_n][on[rows_n]][:, c]))),
                    "samples": int(rows_n.sum())})
    return rows


def _equal_groups(n: int, axis: str, stance: list[str]) -> list[list[str]]:
    """The sets of legs whose force along ``axis`` the paper assumes equal."""
    if axis == "z" or n == 2:
        return []
    if n == 4 or axis == "x":
        return [stance]
    lifted = next(leg for leg in LEGS if leg not in stance)
    return [[leg for leg in stance if side_sign(leg) != side_sign(lifted)]]


def _assumption(n: int, axis: str) -> str:
    if n == 2:
        return "none: six components from six equations (rank 5: least squares)"
    if axis == "z":
        return "independent vertical forces"
    if n == 4:
        return f"equal {axis.upper()} forces on all four legs"
    if axis == "x":
        return "equal X forces on the three legs"
    return "Y: the lifted leg's side free, the opposite pair equal"


def table(rows: list[dict], scenario: str) -> dict:
    return {"scenario": scenario, "title": f"Section 4's assumptions against the engines "
                                           f"({scenario})",
            "columns": ["engine", "legs", "axis", "assumption", "RMS assumed - engine [N]",
                        "RMS inequality in the engine [N]", "mean |F| engine [N]", "samples"],
            "rows": [[r["engine"], r["legs"], r["axis"], r["assumption"],
                      f"{r['rms_error']:.3g}",
                      "-" if np.isnan(r["rms_inequality"]) else f"{r['rms_inequality']:.3g}",
                      f"{r['mean_abs_engine']:.3g}", r["samples"]] for r in rows],
            "caption": "Forces per foot in world axes, engines' forces averaged over each 10 ms "
                       "sample. 'Inequality' is the engine's spread among the legs the paper "
                       "assumes share one force: the error that assumption alone makes."}
