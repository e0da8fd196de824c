"""The hopper's reference tracking, hop by hop: the apex heights against h_d (Fig. 6) or
the hop-mean speeds against x_dot_d (Fig. 7) of every shared-contact implementation and
the settling run, as a table with its figure."""

from __future__ import annotations

from dynval.comparisons.hopper import claims
from dynval.comparisons.hopper.scenarios import SETTLING, Scenario, SettlingRun
from dynval.results import DataTable, Panel, Series


def table(sc_name: str, sc: Scenario, wide, settling: SettlingRun | None) -> DataTable:
    """Apex heights with h_d (Fig. 6) or hop-mean speeds with x_dot_d (Fig. 7), each
    reference drawn on the axes of the signal it commands, for every shared-contact
    implementation and the settling run; the table lists the paper's run hop by hop."""
    height = sc_name == "height"
    key, steps = ("height", sc.h_d) if height else ("speed", sc.x_dot_d)
    unit = "m" if height else "m/s"

    def stairs(st, end: float) -> Series:
        xs, ys = [], []
        for t0, t1, v in claims.segments(st, end):
            xs += [t0, t1]
            ys += [v, v]
        return Series("h_d" if height else "x_dot_d", xs, ys, "--")

    end = float(wide["handrolled"]["time"].iloc[-1])
    hp = {impl: claims.hops(df) for impl, df in wide.items()}
    label = "apex height" if height else "hop-mean speed"
    panels = [Panel(f"{sc.title}: {label} and its reference", "time [s]",
                    f"{label} [{unit}]",
                    [Series(impl, h["time"].tolist(), h[key].tolist(), "-")
                     for impl, h in hp.items()] + [stairs(steps, end)])]
    if settling is not None and len(settling.trace):
        st = SETTLING[sc_name]
        h = claims.hops(settling.trace)
        panels.append(Panel(f"{st.title} (hand-rolled)", "time [s]", f"{label} [{unit}]",
                            [Series("handrolled", h["time"].tolist(), h[key].tolist(), "-"),
                             stairs(st.h_d if height else st.x_dot_d,
                                    float(settling.trace["time"].iloc[-1]))]))
    ref = hp["handrolled"]
    rows = []
    for i, t in enumerate(ref["time"]):
        r = next(v for t0, t1, v in claims.segments(steps, end) if t0 <= t < t1)
        rows.append([f"{t:.2f}", f"{r:g}", *(f"{hp[impl][key].iloc[i]:.4f}"
                                               if i < len(hp[impl]) else "-"
                                               for impl in hp)])
    return DataTable(
        f"{sc.title}: {label} per hop with its reference (shared contact)",
        ["apex time [s]", "reference", *hp], rows,
        f"Each hop's {label} (apex to next apex) beside the reference in force at its "
        "apex; the figure draws both on the same axes, for the paper's run and the settling "
        "run.", sc_name, panels)
