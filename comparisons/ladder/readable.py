"""The compiled copy held to the readable model: what the gate runs is what the paper says.

The scenario runs step a robot's hand-rolled model by compiled copies of its laws (numba),
while the readable modules beside them are the ones that mirror the paper and that the
audit reads.  So that an edit to either that the other does not share cannot pass the
gate, the ci tier also runs each scenario's shared-contact hand-rolled model by its
readable path for the robot's ``readable_seconds``, and holds the compiled run to it,
signal by signal: the two evaluate the same equations, in the same order where the copy is
faithful (bit for bit) or in another order (round-off, grown by the closed loop over a
short run), so the largest difference must stay within PARITY_REL of the signal's own
size (or FLOOR_ABS for a signal at rest).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from dynval.results import MetricRow

PARITY_REL = 1e-9  # of the signal's largest value over the window: round-off, grown
FLOOR_ABS = 1e-9  # [SI]: a nanometre, a nanonewton, for a signal at rest
VARIANT = "readable"
CANDIDATE = "handrolled (readable)"
REASON = ("the compiled copy against the readable model it copies, over the readable run: "
          "the same equations, so round-off only (1e-9 of the signal's size)")


def parity_rows(robot: str, scenario: str, compiled: pd.DataFrame, readable: pd.DataFrame
                ) -> list[MetricRow]:
    """One row per signal both traces record: the largest difference between the compiled
    run and the readable one over the readable run's samples (the compiled run is at
    least as long), judged against PARITY_REL of the signal's size."""
    k = len(readable)
    if len(compiled) < k or not np.array_equal(compiled["time"].to_numpy()[:k],
                                               readable["time"].to_numpy()):
        raise ValueError(f"{robot} {scenario}: the compiled and readable runs do not record "
                         "the same times")
    rows = []
    for signal in (c for c in readable.columns if c != "time" and c in compiled.columns):
        a = compiled[signal].to_numpy()[:k]
        b = readable[signal].to_numpy()
        diff = float(np.max(np.abs(a - b), initial=0.0))
        tol = PARITY_REL * float(np.max(np.abs(b), initial=0.0)) + FLOOR_ABS
        rows.append(MetricRow(robot, scenario, "L4", VARIANT, signal, "handrolled",
                              CANDIDATE, "max_abs", diff, tol, bool(diff <= tol), REASON,
                              "agreement"))
    return rows
