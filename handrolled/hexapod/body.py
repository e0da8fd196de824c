"""The segmented body of Sec. III.3: n/2 segments joined by linear spring-dashpots, eq. (10).

Segment m (front m = 0) carries the hips of legs 2m+1 and 2m+2; its position (x_mH, y_mH)
is the shared hip point of those legs. Eq. (10) is printed without rest lengths,

    f_ixH = sum_{i'} [-K_xH (x_iH - x_i'H) - B_xH (x_iH_dot - x_i'H_dot)],

which with hips S_P apart pulls adjacent segments together with K_xH S_P (1e5 N with Table
I, about a hundred times the robot's weight). ``form="corrected"`` measures the spring's
stretch from the nominal spacing (the segments' positions in the plan), ``form="printed"``
keeps it as printed.
"""

from __future__ import annotations

import numpy as np

from dynval.robots.hexapod.params import HexapodParams, station_x

FORMS = ("corrected", "printed")


def F_RH(x_H: np.ndarray, y_H: np.ndarray, x_H_dot: np.ndarray, y_H_dot: np.ndarray,
         p: HexapodParams, form: str = "corrected") -> tuple[np.ndarray, np.ndarray]:
    """Eq. (10): the inter-segment forces (f_xH, f_yH) on each segment [N], the sums over
    its u adjacent segments (u = 1 at the ends, 2 between)."""
    if form not in FORMS:
        raise ValueError(f"unknown form {form!r}; use one of {', '.join(FORMS)}")
    rest = np.asarray(station_x(p)) if form == "corrected" else np.zeros(len(x_H))
    dx = np.asarray(x_H, float) - rest  # stretch measured from the nominal spacing
    f_x, f_y = np.zeros(len(x_H)), np.zeros(len(x_H))
    for m in range(len(x_H) - 1):  # the spring-dashpot between segments m and m+1
        fx = -p.K_xH * (dx[m] - dx[m + 1]) - p.B_xH * (x_H_dot[m] - x_H_dot[m + 1])  # (10a)
        fy = -p.K_yH * (y_H[m] - y_H[m + 1]) - p.B_yH * (y_H_dot[m] - y_H_dot[m + 1])  # (10b)
        f_x[m] += fx
        f_x[m + 1] -= fx
        f_y[m] += fy
        f_y[m + 1] -= fy
    return f_x, f_y


def spring_energy(x_H: np.ndarray, y_H: np.ndarray, p: HexapodParams) -> float:
    """Energy stored in the inter-segment springs (corrected form) [J]."""
    dx = np.asarray(x_H, float) - np.asarray(station_x(p))
    return float(0.5 * p.K_xH * np.sum(np.diff(dx) ** 2)
                 + 0.5 * p.K_yH * np.sum(np.diff(np.asarray(y_H, float)) ** 2))
