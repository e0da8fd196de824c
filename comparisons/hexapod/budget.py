"""The hexapod's error budget on WG beta = 50 %: hand-rolled runs with one model choice
changed at a time (the budget's own runs and the scenario runs of Figs. 9-17), the gear
impacts of the backlash run at two steps, and whether the gaits walk at other gains.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from dynval.comparisons import ladder
from dynval.comparisons.hexapod import walking
from dynval.comparisons.hexapod.scenarios import (
    SCENARIOS,
    SETTLE_CYCLES,
    heun_run,
    run_one,
    scenario_params,
)
from dynval.results import BudgetRow, DataTable

LEG = "LF"  # the paper's leg 1
# The error budget on WG beta = 50 %: hand-rolled runs with one model choice changed (the
# scenario runs of Figs. 9-17 and the budget's own runs below), and the signals it measures
BUDGET_SCENARIO = "WG_50"
BACKLASH = "WG_50_backlash"
# name -> (scenario, runner, parameter changes) of a hand-rolled run with one thing changed
BUDGET_RUNS = {
    "budget dt/2": (BUDGET_SCENARIO, run_one, lambda p: {"f_sr": 2.0 * p.f_sr}),
    "budget Grunwald-Letnikov": (BUDGET_SCENARIO, run_one, lambda p: {"fo_form": "gl"}),
    "budget Pade [2/2]": (BUDGET_SCENARIO, run_one, lambda p: {"fo_order": 2}),
    "budget Heun": (BUDGET_SCENARIO, heun_run, lambda p: {}),
    # the position loop alone: G_c1 G_c2 = G_c1, Table IV's gains
    "budget position loop": (BUDGET_SCENARIO, run_one,
                             lambda p: {"control": "position", "K_c2": 1.0}),
    "budget backlash dt/2": (BACKLASH, run_one, lambda p: {"f_sr": 2.0 * p.f_sr}),
    # h_ij read as the half play (the play 2 h_ij in all)
    "budget backlash half play": (BACKLASH, run_one, lambda p: {"h_ij": 2.0 * p.h_ij}),
}
# What the walks would need: the two gaits of Figs. 4-8, hand-rolled, with G_c2 or the
# body's vertical spring changed (the paper gives no G_c2; K_yH is Table I's)
GAIN_RUNS = {f"gains {sc} {label}": (sc, changes)
             for sc, tries in (
                 ("WG_50", (("K_c2 = 0.6", {"K_c2": 0.6}), ("K_c2 = 0.7", {"K_c2": 0.7}),
                            ("K_c2 = 0.78", {"K_c2": 0.78}), ("K_c2 = 0.82", {"K_c2": 0.82}),
                            ("K_c2 = 0.9", {"K_c2": 0.9}), ("K_c2 = 1", {"K_c2": 1.0}),
                            ("position loop (K_c2 = 1)",
                             {"control": "position", "K_c2": 1.0}))),
                 ("EPFC_35", (("K_c2 = 0.6", {"K_c2": 0.6}), ("K_c2 = 1", {"K_c2": 1.0}),
                              ("position loop (K_c2 = 1)",
                               {"control": "position", "K_c2": 1.0}),
                              ("K_yH = 1e5", {"K_yH": 1e5}),
                              ("position loop (K_c2 = 1), K_yH = 1e5",
                               {"control": "position", "K_c2": 1.0, "K_yH": 1e5}))))
             for label, changes in tries}
BUDGET_SIGNALS = (("com.y", 1e3, "mm"), (f"foot.{LEG}.y", 1e3, "mm"),
                  (f"joint.{LEG}.hip.angle", 180.0 / math.pi, "deg"),
                  (f"foot.{LEG}.force.y", 1.0, "N"), (f"joint.{LEG}.hip.torque", 1.0, "N m"))


def budget(ctx: ladder.Context) -> list[BudgetRow]:
    """The error budget on WG beta = 50 % (and the backlash run's own steps): one model
    choice changed at a time, with the gear-impacts and the walking tables beside."""
    runs = ctx.runs("shared")
    if BUDGET_SCENARIO not in runs:
        return []
    base = runs[BUDGET_SCENARIO]
    hand = base["handrolled"]
    other = {n: w["handrolled"] for n, w in runs.items()}
    steps = [("ground model (non-linear (12) vs linear (11))", hand,
              other.get("WG_50_linear")),
             ("transmission (ideal (7) vs flexible with friction (8))", hand,
              other.get("WG_50_flexible")),
             ("transmission (flexible (8) vs backlash (9))", other.get("WG_50_flexible"),
              other.get("WG_50_backlash")),
             ("controller (Pade [4/4] (16) vs Grunwald-Letnikov (15b), whole memory)",
              hand, ctx.result("budget Grunwald-Letnikov")),
             ("controller (Pade [4/4] vs [2/2])", hand, ctx.result("budget Pade [2/2]")),
             ("integrator step (dt = 50 us vs dt/2, semi-implicit Euler)", hand,
              ctx.result("budget dt/2")),
             ("integrator (semi-implicit Euler vs the paper's Heun RK2)", hand,
              ctx.result("budget Heun")),
             (f"control (Fig. 3's force loop, K_c2 = {ctx.params.K_c2:g}, vs the position "
              "loop alone)", hand,
              ctx.result("budget position loop")),
             ("formulation (hand-rolled vs MuJoCo, shared laws)", hand, base["mujoco"])]
    native = ctx.wide.get((BUDGET_SCENARIO, "native"))
    if native is not None:
        steps.append(("contact law (eq. (12) vs MuJoCo's native contact)", base["mujoco"],
                      native["mujoco"]))
    rows = ladder.budget_rows(BUDGET_SCENARIO, steps, BUDGET_SIGNALS)
    back = other.get(BACKLASH)
    if back is not None:
        rows += ladder.budget_rows(BACKLASH, [
            ("backlash step (dt = 50 us vs dt/2: one impact a joint a step)", back,
             ctx.result("budget backlash dt/2")),
            ("gear play (h_ij as the total play vs the half play)", back,
             ctx.result("budget backlash half play"))], BUDGET_SIGNALS)
        _impacts_table(ctx, back, ctx.result("budget backlash dt/2"))
    _walking_table(ctx, other)
    return rows


def _impacts_table(ctx: ladder.Context, back: pd.DataFrame, half: pd.DataFrame) -> None:
    """The gear impacts of the judged backlash cycle at dt and dt/2: (9b)-(9c) resolve
    at most one impact a joint a step, so a play that stays closed under load is an
    impulse train whose count follows the step."""
    p, rows = ctx.params, []
    for label, df, f_sr in (("dt = 50 us", back, p.f_sr), ("dt/2 = 25 us", half,
                                                             2.0 * p.f_sr)):
        n = float(df["hexapod.gear_impacts"].iloc[-1])
        steps = (float(df["time"].iloc[-1]) - float(df["time"].iloc[0])) * f_sr
        gap = (df[f"joint.{LEG}.hip.motor_angle"] - df[f"joint.{LEG}.hip.gear_angle"]).abs()
        closed = float(np.mean(gap >= 0.5 * p.h_ij * (1.0 - 1e-6)))
        rows.append([label, f"{n:.0f}", f"{n / (2 * p.n * steps):.3f}",
                     f"{100.0 * closed:.1f}"])
    ctx.chapter.tables.append(DataTable(
        "Gear impacts (9b)-(9c) in the judged backlash cycle, at two steps",
        ["step", "impacts (12 joints)", "impacts per joint per step",
         "hip 1's play closed [% of 1 ms samples]"], rows,
        "The impacts are resolved once a step after the drive's Euler step "
        "(loop.SharedDrive): while the motor pushes the gear through a closed play, "
        "every step ends in one impact, so the count doubles when the step halves; "
        "the budget's 'backlash step' rows give what this does to the walk.",
        BACKLASH))


def _walking_table(ctx: ladder.Context, runs: dict) -> None:
    """Whether the gaits walk with Table IV's G_c1 and several G_c2 (the paper gives
    none), and with a stiffer body: the walking measures of the judged cycle."""
    rows = []
    for sc in ("WG_50", "EPFC_35"):
        if sc not in runs:
            continue
        p = scenario_params(ctx.params, SCENARIOS[sc])
        named = [(f"force loop, K_c2 = {p.K_c2:g} (the scenario)", runs[sc], {})]
        named += [(name.split(f"{sc} ", 1)[1], ctx.result(name), ch)
                  for name, (s, ch) in GAIN_RUNS.items() if s == sc]
        for label, df, ch in named:
            q = p.with_(**ch)
            miss, planned = walking.support_misses(df, q)
            rows.append([sc, label, walking.airborne(df, q), f"{miss} / {planned}",
                         f"{walking.slip(df, q) * 1e3:.1f}",
                         f"{df['com.y'].min():.4f} .. {df['com.y'].max():.4f}",
                         f"{df['com.vy'].abs().max():.2f}",
                         f"{df['com.vx'].min():.2f} .. {df['com.vx'].max():.2f}"])
    if rows:
        ctx.chapter.tables.append(DataTable(
            "Does it walk? The judged cycle with Table IV's G_c1 and other G_c2 or "
            "body springs (hand-rolled)",
            ["gait", "control", "airborne samples", "support samples off the ground",
             "slip [mm]", "hip height [m]", "max |v_y| [m/s]", "v_x [m/s]"], rows,
            f"Cycle {SETTLE_CYCLES + 1} from the loaded stance (1001 samples at 1 kHz). "
            "The paper gives no G_c2; K_yH is Table I's 1e4 N/m. A row that is not "
            "the scenario's is what the walk would need, not the paper's set-up."))
