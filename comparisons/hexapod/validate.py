"""The hexapod's declaration for the validation ladder: the audit of eqs. (4) and (6), the
legs' free swing, the paper's two walks (Figs. 4-8) with the shared controller, body
springs and ground law, Tables II and III recomputed, the paper's statements measured and
the errata of the printed forms (dynval.comparisons.ladder.rungs climbs it)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from dynval.comparisons import ladder
from dynval.comparisons.hexapod import statements, sweeps, trajectories, walking
from dynval.comparisons.hexapod.scenarios import (
    SCENARIOS,
    SETTLE_CYCLES,
    Scenario,
    heun_run,
    run_one,
    scenario_params,
)
from dynval.handrolled.hexapod import body, fractional, ground, planning
from dynval.results import AssumptionRow, BudgetRow, DataTable, Erratum, MetricRow, Rung

ROBOT = "hexapod"
LEG = "LF"  # the paper's leg 1

# Shared laws: one tree (L2 agrees to 1e-14), one scheme (semi-implicit Euler in all three),
# one controller, body spring and ground law evaluated from each state: what is left is
# round-off grown through the contacts (measured: 1e-14 m and rad, 1e-7 N over a cycle).
# Each bound is a millionth of the scale the paper's figures resolve, still far above
# round-off: a micrometre against the foot's ~1 mm sinkage of Figs. 10-11, a microradian
# against Fig. 6's tenths of a radian, a millinewton against the ~1.6 kN peaks of f_1yF,
# a millinewton metre against the hundreds of N m of Figs. 7-8.
TOLERANCES = {
    ("com", "max_abs"): ladder.Tolerance("max_abs", 1e-6,
                                         "1 um: 1/1000 of the foot's ~1 mm sinkage"),
    ("segment", "max_abs"): ladder.Tolerance("max_abs", 1e-6, "1 um: 1/1000 of the ~1 mm sinkage"),
    ("foot", "max_abs"): ladder.Tolerance("max_abs", 1e-6, "1 um: 1/1000 of the ~1 mm sinkage"),
    ("foot.LF.force", "max_abs"): ladder.Tolerance("max_abs", 1e-3,
                                                   "1 mN: a millionth of f_1yF's ~1.6 kN peaks"),
    ("joint", "max_abs"): ladder.Tolerance("max_abs", 1e-6,
                                           "1 urad: far below Fig. 6's resolution"),
    ("joint.LF.hip.torque", "max_abs"): ladder.Tolerance(
        "max_abs", 1e-3, "1 mN m: a millionth of the hundreds of N m of Figs. 7-8"),
    # the drives' own states are integrated by the same shared code from each
    # implementation's link angles: round-off again (measured 1e-13 rad)
    ("joint.LF.hip.motor_angle", "max_abs"): ladder.Tolerance(
        "max_abs", 1e-6, "1 urad: a thousandth of the gear play h_ij = 1 mrad"),
    ("joint.LF.hip.gear_angle", "max_abs"): ladder.Tolerance(
        "max_abs", 1e-6, "1 urad: a thousandth of the gear play h_ij = 1 mrad"),
    ("hexapod.gear_impacts", "max_abs"): ladder.Tolerance(
        "max_abs", 0.5, "a count: every implementation has the very same gear impacts"),
}
COMPARED = ["com.x", "com.y", "segment.seg1.y", "segment.seg3.y", f"foot.{LEG}.x",
            f"foot.{LEG}.y", f"joint.{LEG}.hip.angle", f"joint.{LEG}.knee.angle",
            f"foot.{LEG}.force.x", f"foot.{LEG}.force.y", f"joint.{LEG}.hip.torque",
            f"joint.{LEG}.hip.torque_inertial", f"joint.{LEG}.hip.torque_coriolis",
            f"joint.{LEG}.hip.torque_gravity"]
NATIVE_SCENARIOS = ("WG_50",)  # the engines' native contact, on the budget's walk
BODY_BAND = 0.05  # [m]
# Walking (comparisons/hexapod/walking.py), judged on the last cycle
REQ_AIRBORNE = ("the robot walks, it never flies: samples of the judged cycle with no foot "
                "on the ground (0: the plan always has a foot down)")
SUPPORT_TOL = 0.05  # of the planned support samples
REQ_SUPPORT = ("the feet keep the planned support pattern: fraction of the planned support "
               "samples with the foot off the ground (5 %: the plan lands and lifts each "
               "foot at zero speed at y = 0, where the ground's ~0.2 mm static sinkage "
               "shifts contact by a few ms of the cycloid's start)")
SLIP_TOL = 0.002  # [m]
REQ_SLIP = ("a supporting foot does not slip: largest horizontal travel of a foot within "
            "one planned support phase (2 mm: the ground's tangential spring K_xF gives "
            "0.8 mm under a 1 kN traction)")
PERIODIC_TOL = 0.001  # [m]
REQ_PERIODIC = ("the judged cycle is steady: |com.y(T) - com.y(0)| (1 mm, several times "
                "the supporting feet's static sinkage)")
REQ_BODY = ("the body walks, it does not fall: the hips stay within 5 cm of H_B (Table I's "
            "0.9 m; the FO controller's servo stiffness lets them sink by the legs' "
            "compliance only)")
# Table III as printed (exact binary fractions) and the tolerance of a recomputation
TABLE_III = ([1.0, -2.25, 1.6875, -0.46875, 0.03515625],
             [1.0, -1.75, 0.9375, -0.15625, 0.00390625])
TABLE_III_TOL = 1e-12
TABLE_II_TOL = 0.5  # the printed integers' rounding
PADE_FREQUENCIES = (0.5, 1.0, 2.0, 5.0, 20.0, 100.0, 500.0)  # [Hz] eq. (16)'s response table
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
# The gaits that the paper's set-up does not keep on their feet (the 'Does it walk?' table
# is the evidence): their walking requirements fail, a known and explained difference
NOT_WALKING = {
    "EPFC_35": "with beta = 35 % two or three feet carry the segmented body and its "
               "vertical springs (K_yH = 1e4 N/m) let the unsupported segments sag; it walks "
               "with the position loop and a body ten times stiffer (K_yH = 1e5)",
    "WG_50_sine": "the sinusoidal transfer (1b) lands the feet with the tripods still "
                  "pushing off; no G_c2 tried keeps it down",
    "WG_50_backlash": "the gear impacts (9b)-(9c), one a joint a step, kick the legs off "
                      "the ground",
}
# The run's own sensitivity, to judge L4 by: a hand-rolled run from a start moved by
# SENSITIVITY_SHIFT. Where that moves a compared signal by more than its tolerance, two
# implementations that differ by round-off can too (a hopping run amplifies it through its
# impacts), and an L4 difference no larger than SENSITIVITY_FACTOR times that is known.
SENSITIVITY_SHIFT = 1e-12  # [m], segment 1's start height
SENSITIVITY_FACTOR = 10.0
BUDGET_SIGNALS = (("com.y", 1e3, "mm"), (f"foot.{LEG}.y", 1e3, "mm"),
                  (f"joint.{LEG}.hip.angle", 180.0 / math.pi, "deg"),
                  (f"foot.{LEG}.force.y", 1.0, "N"), (f"joint.{LEG}.hip.torque", 1.0, "N m"))


class HexapodLadder(ladder.RobotLadder):
    robot = ROBOT
    title = "Planar hexapod with a compliant body"
    paper = ("Silva, Tenreiro Machado, Lopes: Modelling and simulation of artificial "
             "locomotion systems (Robotica 23, 2005)")
    contact_modes = ladder.CONTACT_MODES
    readable_seconds = 0.25  # fast/ against the readable laws: 5000 steps in Python
    l1_what = "foot p_F, J_F of eq. (6) and J of eq. (4c), one leg and whole robot, vs engines"
    l2_what = "H, c, g and inverse dynamics Gamma of eq. (6), one leg and whole robot"
    audit_reason = "round-off: the closed-form eq. (6) and the engines describe the same tree"
    budget_what = ("WG beta = 50 %, hand-rolled: the ground model, the transmission model, the "
                   "controller's discretisation and the integrator step changed one at a "
                   "time, the formulation (hand-rolled vs MuJoCo) and the contact law (eq. "
                   "(12) vs MuJoCo's native contact)")

    def l3(self, inp: ladder.Inputs):
        return trajectories.l3(inp.params, inp.desc_dir)

    def variants(self, sc: Scenario) -> list[ladder.Variant]:
        shared = ladder.Variant.shared(TOLERANCES)
        if sc.name not in NATIVE_SCENARIOS:
            return [shared]
        # Native contact is each engine's own law (MuJoCo's soft constraint, PyBullet's
        # penalty spring), neither of them eqs. (11)-(12): reported without a tolerance.
        return [shared, ladder.Variant.native()]

    def compared_signals(self, sc, variant, wide) -> list[str]:
        j = f"joint.{LEG}.hip"
        drive = {"ideal": [], "flexible": [f"{j}.torque_motor", f"{j}.motor_angle"],
                 "backlash": [f"{j}.torque_motor", f"{j}.motor_angle", f"{j}.gear_angle",
                              "hexapod.gear_impacts"]}[sc.transmission]
        return COMPARED + drive

    def extra_tasks(self, inp: ladder.Inputs) -> dict:
        """The error budget's hand-rolled WG_50 runs with one thing changed (the ground and
        transmission components reuse the scenario runs of Figs. 10-17)."""
        p, out = inp.params, {}
        for name, (sc, runner, changes) in BUDGET_RUNS.items():
            if BUDGET_SCENARIO not in inp.scenarios or sc not in inp.scenarios:
                continue
            args = ((p, SCENARIOS[sc]) if runner is heun_run
                    else (p, SCENARIOS[sc], "handrolled", "shared", inp.desc_dir))
            out[name] = (runner, args, {"until": inp.until, **changes(p)})
        for name, (sc, changes) in GAIN_RUNS.items():
            if sc in inp.scenarios:
                out[name] = (run_one, (p, SCENARIOS[sc], "handrolled", "shared",
                                       inp.desc_dir), {"until": inp.until, **changes})
        for sc in inp.scenarios:
            out[f"sensitivity {sc}"] = (run_one, (p, SCENARIOS[sc], "handrolled", "shared",
                                                  inp.desc_dir),
                                        {"until": inp.until,
                                         "start_shift": SENSITIVITY_SHIFT})
        return out

    def known_difference(self, row: MetricRow, ctx: ladder.Context) -> str | None:
        """A gait the paper's set-up does not keep on its feet (NOT_WALKING) fails its
        walking requirements for that reason; an L4 difference within what the run's own
        sensitivity makes of round-off (SENSITIVITY_SHIFT) is that sensitivity."""
        sc = row.scenario
        if row.kind == "requirement" and sc in NOT_WALKING and row.variant == "shared":
            return (f"{sc} does not walk with the paper's gains: {NOT_WALKING[sc]} (the "
                    "'Does it walk?' table)")
        if row.kind == "requirement" and row.variant == "native":
            return ("the engines' native contact is not eq. (12)'s ground (no touchdown-point "
                    "spring, no penetration-scaled damping), and the walk holds its feet down "
                    "only in a narrow window of the controller even on that ground")
        if row.kind != "agreement" or row.variant != "shared" or row.metric != "max_abs":
            return None
        base = ctx.runs("shared").get(sc, {}).get("handrolled")
        try:
            moved = ctx.result(f"sensitivity {sc}")
        except KeyError:
            return None
        if base is None or row.signal not in moved:
            return None
        n = min(len(base), len(moved))
        spread = float(np.max(np.abs(moved[row.signal].to_numpy()[:n]
                                     - base[row.signal].to_numpy()[:n])))
        if spread <= row.tolerance or row.value > SENSITIVITY_FACTOR * spread:
            return None
        return (f"the {sc} run is chaotic (it hops): a {SENSITIVITY_SHIFT:g} m change of the "
                f"start moves {row.signal} by {spread:.3g} in the judged cycle (hand-rolled "
                "against itself), past the round-off tolerance, so round-off alone makes "
                f"differences of this size (this one {row.value:.3g}, within "
                f"{SENSITIVITY_FACTOR:g}x)")

    def budget(self, ctx: ladder.Context) -> list[BudgetRow]:
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
            self._impacts_table(ctx, back, ctx.result("budget backlash dt/2"))
        self._walking_table(ctx, other)
        return rows

    def _impacts_table(self, ctx: ladder.Context, back: pd.DataFrame, half: pd.DataFrame) -> None:
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

    def _walking_table(self, ctx: ladder.Context, runs: dict) -> None:
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

    def figure_tag(self, sc: Scenario, variant: ladder.Variant) -> str:
        contact = "shared laws" if variant.name == "shared" else "native contact"
        return f"{sc.name}, {contact}, judged cycle {SETTLE_CYCLES + 1} shown as t = 0 .. T"

    def requirements(self, ctx: ladder.Context, sc: Scenario, variant: ladder.Variant, impl: str,
                     df: pd.DataFrame) -> list[MetricRow]:
        """The body height band, and whether it walks (module walking): never airborne,
        the planned support pattern kept, no slip, a steady cycle; all on the judged
        cycle."""
        p = scenario_params(ctx.params, sc)
        dev = float(np.max(np.abs(df["com.y"] - p.H_B)))
        miss, planned = walking.support_misses(df, p)
        feet = "foot.*"  # every foot
        return [ladder.check_row(ROBOT, sc.name, variant.name, "com.y", impl, "max_abs_from_H_B",
                                 dev, BODY_BAND, REQ_BODY),
                ladder.check_row(ROBOT, sc.name, variant.name, f"{feet}.force", impl,
                                 "airborne_samples", walking.airborne(df, p), 0.0, REQ_AIRBORNE),
                ladder.check_row(ROBOT, sc.name, variant.name, f"{feet}.force", impl,
                                 "planned_support_off_ground_fraction", miss / max(planned, 1),
                                 SUPPORT_TOL, REQ_SUPPORT),
                ladder.check_row(ROBOT, sc.name, variant.name, f"{feet}.x", impl,
                                 "max_slip_in_support", walking.slip(df, p), SLIP_TOL, REQ_SLIP),
                ladder.check_row(ROBOT, sc.name, variant.name, "com.y", impl,
                                 "cycle_end_minus_start", walking.cycle_mismatch(df),
                                 PERIODIC_TOL, REQ_PERIODIC)]

    def figures(self, ctx: ladder.Context, sc: Scenario, variant: ladder.Variant) -> list:
        j, f = f"joint.{LEG}.hip", f"foot.{LEG}"
        path = ladder.PathPlot("Foot 1 path", f"{f}.x", f"{f}.y", "m", 1.0, False,
                               "Leg 1's foot in the paper's plane (x forward, y up).")
        if variant.name == "native":
            return [ladder.TimePlot("Foot 1 height and ground force, native contact",
                                    [f"{f}.y", f"{f}.force.x", f"{f}.force.y"],
                                    "Each engine's own contact (plane at -r_F, K_yF and B_yF of "
                                    "eq. (11), Coulomb friction mu_native) instead of eq. (12)."),
                    ladder.TimePlot("Body height, native contact", ["com.y"],
                                    "Mean hip height of the three segments."), path]
        if sc.name in ("WG_50", "EPFC_35"):
            wg = sc.gait == "WG"
            f_plan, f_tau = ("Fig. 4", "Fig. 7") if wg else ("Fig. 5", "Fig. 8")
            out = [
                ladder.TimePlot(f"{f_plan}: planned foot height of leg 1", [f"{f}.y_ref"],
                                "y_1Fd of eq. (1a) (the same in every implementation)."),
                ladder.TimePlot(f"{f_plan}: planned foot velocity and acceleration",
                                [f"{f}.vy_ref", f"{f}.ay_ref"], "Derivatives of eq. (1a)'s y_1Fd."),
                ladder.TimePlot("Fig. 6: hip joint of leg 1", [f"{j}.reference", f"{j}.angle"],
                                "theta_11: the plan of eq. (4) and the walk."),
                _terms(f"{f_tau}: hip torque terms of leg 1")]
            if wg:
                out += [ladder.TimePlot("Fig. 9 (left): horizontal ground force on foot 1",
                                        [f"{f}.force.x"],
                                        "f_1xF of eq. (12), cycloidal profile (1a)."),
                        ladder.TimePlot("Fig. 11: foot 1 height and vertical ground force",
                                        [f"{f}.y", f"{f}.force.y"],
                                        "y_1F and f_1yF on the non-linear ground of eq. (12).")]
            return out + [path]
        if sc.name == "WG_50_sine":
            return [ladder.TimePlot("Fig. 9 (right): horizontal ground force on foot 1",
                                    [f"{f}.force.x"],
                                    "f_1xF of eq. (12), sinusoidal profile (1b)."),
                    ladder.TimePlot("Planned foot height of leg 1, sinusoidal profile",
                                    [f"{f}.y_ref", f"{f}.vy_ref", f"{f}.ay_ref"],
                                    "y_1Fd of eq. (1b) and its derivatives (compare Fig. 4)."),
                    ladder.TimePlot("Foot 1 vertical ground force, sinusoidal profile",
                                    [f"{f}.force.y"], "f_1yF of eq. (12)."), path]
        if sc.name == "WG_50_linear":
            return [ladder.TimePlot("Fig. 10: foot 1 height and vertical ground force",
                                    [f"{f}.y", f"{f}.force.y"],
                                    "y_1F and f_1yF on the linear ground of eq. (11): f_1yF goes "
                                    "negative (the ground pulls the foot) and jumps at touchdown."),
                    ladder.TimePlot("Horizontal ground force on foot 1, linear ground",
                                    [f"{f}.force.x"], "f_1xF of eq. (11)."), path]
        fig = {"flexible": ("Fig. 12", "Fig. 13", "Fig. 14"),
               "backlash": ("Fig. 15", "Fig. 16", "Fig. 17")}[sc.transmission]
        what = ("friction and flexibility (8)" if sc.transmission == "flexible"
                else "friction, flexibility and backlash (9)")
        out = [_terms(f"{fig[0]}: hip torque terms of leg 1, drives with {what}"),
               ladder.TimePlot(f"{fig[1]}: hip joint of leg 1, drives with {what}",
                               [f"{j}.angle", f"{j}.rate", f"{j}.acceleration"],
                               "theta_11, its rate and its acceleration (the rate difference "
                               "over a step)."),
               ladder.TimePlot(f"{fig[2]}: foot 1 position, drives with {what}",
                               [f"{f}.x", f"{f}.y"], "x_1F and y_1F (compare Figs. 14 and 17)."),
               ladder.TimePlot(f"Hip drive of leg 1, {what}",
                               [f"{j}.torque_motor", f"{j}.torque", f"{j}.motor_angle"],
                               "The motor torque tau_11m after saturation (7), the torque the link "
                               "receives and the motor-side angle theta_11m.")]
        if sc.transmission == "backlash":
            out.append(ladder.TimePlot("Gear impacts (9b)-(9c), all joints",
                                       ["hexapod.gear_impacts", f"{j}.gear_angle"],
                                       "Cumulative count of gear impacts and the hip gear's output "
                                       "side theta_11T."))
        return out + [path]

    def recomputed(self, ctx: ladder.Context) -> None:
        p = ctx.params
        rec = ground.table_ii(p)
        rows, worst = [], 0.0
        for soil, (E, K_x, B_x, K_y, B_y) in ground.TABLE_II.items():
            r = rec[soil]
            for key, printed in (("K_xF", K_x), ("B_xF", B_x), ("K_yF", K_y), ("B_yF", B_y)):
                worst = max(worst, abs(r[key] - printed))
            rows.append([soil, f"{E[1]:.3g}", f"{K_x:.0f} / {r['K_xF']:.1f}",
                         f"{B_x:.0f} / {r['B_xF']:.1f}", f"{K_y:.0f} / {r['K_yF']:.1f}",
                         f"{B_y:.0f} / {r['B_yF']:.1f}"])
        ctx.chapter.tables.append(DataTable(
            "Table II: ground parameters, printed / recomputed",
            ["soil", "E [Pa]", "K_xF [N/m]", "B_xF [N s/m]", "K_yF [N/m]", "B_yF [N s/m]"],
            rows, f"From Sec. IV's soil mechanics with mu = {p.mu_P:g}, beta_y/beta_x = "
            f"{p.beta_y / p.beta_x:g}, beta_x^2 BL = {p.A_F:g} m^2, the upper end of each "
            f"modulus range and zeta sqrt(M) = {p.zeta_F * math.sqrt(p.M_eq):g} kg^0.5 "
            "(robots/hexapod/params.toml says why each)."))
        # fitted, not reproduced: A_F, beta_y/beta_x and zeta sqrt(M) are read off the
        # table itself, so this is the table's consistency with Sec. IV's expressions
        ctx.rows.append(MetricRow(ROBOT, "Table II", "L5", "-", "K, B (28 cells)", "printed",
                                  "handrolled", "max_abs_fitted", worst, TABLE_II_TOL,
                                  worst <= TABLE_II_TOL,
                                  "recomputed (fitted): three constants read off the table "
                                  "reproduce its 28 cells within the printed integers' "
                                  "rounding, a consistency check, not a reproduction",
                                  "recomputed"))
        a, b = fractional.pade_coefficients(0.5)
        err = float(max(np.max(np.abs(a - TABLE_III[0])), np.max(np.abs(b - TABLE_III[1]))))
        ctx.chapter.tables.append(DataTable(
            "Table III: Pade coefficients of eq. (16), printed / recomputed",
            ["k", "a_k printed", "a_k recomputed", "b_k printed", "b_k recomputed"],
            [[k, TABLE_III[0][k], f"{a[k]:.12g}", TABLE_III[1][k], f"{b[k]:.12g}"]
             for k in range(5)],
            "The [4/4] Pade approximant of (1 - z^-1)^0.5 from the Grunwald-Letnikov "
            "weights of eq. (15b) (handrolled/hexapod/fractional.py)."))
        ctx.rows.append(MetricRow(ROBOT, "Table III", "L5", "-", "a_k, b_k", "printed",
                                  "handrolled", "max_abs", err, TABLE_III_TOL,
                                  err <= TABLE_III_TOL, "exact binary fractions: round-off",
                                  "agreement"))
        self._pade_response(ctx)
        self._statements(ctx)

    def _pade_response(self, ctx: ladder.Context) -> None:
        """Eq. (16) with Table III against the half-order derivative it stands for: the
        [4/4] Pade approximant is expanded about z^-1 = 0, so at the gait's frequencies
        (T = 1 s) it is close to a plain gain, not (j omega)^0.5."""
        p = ctx.params
        a, b = fractional.pade_coefficients(p.alpha_1, p.fo_order)
        K = fractional.K_derivative(p.K_alpha1, p.alpha_1, p.f_sc)
        rows = []
        for f_hz in PADE_FREQUENCIES:
            w = 2.0 * math.pi * f_hz
            G = complex(fractional.frequency_response(a, b, K, np.array([w]), p.f_sc)[0])
            S = complex(p.K_alpha1 * fractional.s_alpha(np.array([w]), p.alpha_1)[0])
            rows.append([f"{f_hz:g}", f"{abs(G):.1f}", f"{np.degrees(np.angle(G)):.1f}",
                         f"{abs(S):.1f}", f"{np.degrees(np.angle(S)):.1f}"])
        dc = float(K * np.sum(a) / np.sum(b))
        ctx.rows.append(ladder.recomputed_row(
            ROBOT, "eq. (16)", f"joint.{LEG}.hip", "pade_dc_gain", dc,
            "Pade [4/4] derivative term at z = 1 [N m/rad]: a (j omega)^0.5 term vanishes there"))
        ctx.chapter.tables.append(DataTable(
            "Eq. (16) with Table III: the hip's derivative term against K_alpha1 "
            "(j omega)^0.5", ["f [Hz]", "|Pade| [N m/rad]", "phase [deg]",
                              "|K_a s^0.5| [N m/rad]", "phase [deg]"], rows,
            f"The [4/4] Pade approximant of (1 - z^-1)^0.5 about z^-1 = 0 (Table III), times "
            f"K_1 = K_alpha1 f_sc^0.5 = {K:.0f}: at z = 1 it is {dc:.0f} N m/rad (a true "
            "half-order derivative is 0 there), so below a few hertz, where the 1 s gait "
            "lives, the paper's FO term acts as a proportional gain added to K_p1 = "
            f"{p.K_p1:g} N m/rad with little phase lead. This is why the budget's controller "
            "row (Pade against the Grunwald-Letnikov sum, a true half-order derivative) is "
            "large: the two controllers differ by that gain at the gait's frequencies."))

    def _statements(self, ctx: ladder.Context) -> None:
        """The paper's qualitative statements of Sec. V.2 measured on the runs."""
        runs = {n: w["handrolled"] for n, w in ctx.runs("shared").items()}
        st: list[statements.Statement] = []
        if "WG_50" in runs and "EPFC_35" in runs:
            st += statements.gaits(ROBOT, runs["WG_50"], runs["EPFC_35"])
        st += [statements.spike(ROBOT, n, runs[n]) for n in runs
               if float(runs[n]["time"].iloc[-1]) > 0.5]
        if "WG_50" in runs and "WG_50_sine" in runs:
            st += statements.profiles(ROBOT, runs["WG_50"], runs["WG_50_sine"])
        if "WG_50" in runs and "WG_50_linear" in runs:
            st += statements.grounds(ROBOT, runs["WG_50"], runs["WG_50_linear"],
                                     _touchdown_force(ctx.params, runs["WG_50_linear"]))
        for n in ("WG_50_flexible", "WG_50_backlash"):
            if n in runs:
                st.append(statements.rebound(ROBOT, n, runs[n]))
        if "WG_50" in runs:
            st += statements.transmissions(ROBOT, runs["WG_50"], runs.get("WG_50_flexible"),
                                           runs.get("WG_50_backlash"))
        ctx.rows += [s.row for s in st if s.row is not None]
        if st:
            ctx.chapter.tables.append(DataTable(
                "The paper's statements (Sec. V.2, Figs. 4-17), measured on the hand-rolled "
                "runs", ["statement", "value", "compared with", "verdict"],
                [s.cells() for s in st],
                f"{sum(not s.holds for s in st)} of the {len(st)} statements do not hold on "
                "these runs. The engines agree with the hand-rolled runs to round-off (L4), "
                "so the "
                "measurements hold for every implementation. Leg 1's contacts are read from "
                "its ground force; its landing is its first touchdown after t = 0."))

    def l5(self, ctx: ladder.Context) -> Rung:
        pub = [r for r in ctx.rows if r.scenario in ("Table II", "Table III")]
        ok = all(r.passed for r in pub)
        t2 = next(r for r in pub if r.scenario == "Table II")
        t3 = next(r for r in pub if r.scenario == "Table III")
        said = [r for r in ctx.rows if r.kind == "statement"]
        return Rung("reproduced" if t3.passed else "differs", (
            f"Table III's ten Pade coefficients reproduced within {t3.value:.1e} (exact "
            f"binary fractions). Table II recomputed (fitted): three constants read off the "
            f"table give its 28 cells within {t2.value:.2g} of the printed integers "
            f"(tolerance {TABLE_II_TOL:g}, their rounding), a consistency check, not a "
            f"reproduction{'' if ok else ', and it fails'}; its dampings contradict Sec. IV's "
            "zeta < 0.15 (erratum). The walks' figures are plots without numbers: "
            f"{sum(not r.passed for r in said)} of the {len(said)} statements measured on "
            "them do not hold (the statements table)."))

    def errata(self, ctx: ladder.Context) -> list[Erratum]:
        return _errata(ctx.params)

    def assumptions(self, ctx: ladder.Context) -> list[AssumptionRow]:
        """K_c2, which the paper does not give, with the walk measured across it."""
        gains = {ch["K_c2"]: name for name, (sc, ch) in GAIN_RUNS.items()
                 if sc == BUDGET_SCENARIO and set(ch) == {"K_c2"}}
        forms = {"Grunwald-Letnikov (15b)": "budget Grunwald-Letnikov",
                 "Pade [2/2]": "budget Pade [2/2]"}
        return sweeps.assumptions(ctx, super().assumptions(ctx), BUDGET_SCENARIO, gains,
                                  forms)

    def notes(self, ctx: ladder.Context) -> list[str]:
        p = ctx.params
        return [
            "All three implementations integrate the same rigid tree (the segments on slide "
            "x / slide z joints, the legs on hip and knee hinges) by semi-implicit Euler at "
            f"f_sr = {p.f_sr:g} Hz, with the controller (eqs. 14-16 at f_sc = {p.f_sc:g} Hz), "
            "the saturated ideal drive (7), the body springs (10) and the ground (12) "
            "evaluated in shared code from each one's own state and applied as slide forces, "
            "joint torques and foot point forces. The paper integrates by Heun's RK2 "
            "(dynval.handrolled.hexapod.robot.PlanarHexapod.step); the engines have no such "
            "scheme, so the comparison uses theirs, and the budget's 'integrator' rows run "
            "the hand-rolled Heun walk (scenarios.heun_run).",
            "MuJoCo runs the segmented body: its MJCF folds each massless slide-x link into "
            "its segment's body as the body's first joint (an MJCF body may carry several "
            "joints), the same tree as the URDF, so no fictitious mass is added and the "
            "audit agrees to round-off.",
            "Each run starts from the loaded static stance at t = 0 (loop.loaded_start): the "
            "feet planned on the ground sunk in it to carry the weight (eqs. 11-12 at rest), "
            "the segments at the body springs' static deflection, the joints where the "
            "controller's static torque holds them, the drives twisted to their loads and "
            f"the Pade filters at rest; it walks {SETTLE_CYCLES} cycles before the judged one, "
            "and every figure, requirement, statement and L4 comparison is the judged cycle, "
            "its time shown as 0 .. T (the plan is periodic in T). The walking requirements "
            "(module walking) count samples with no foot down, planned support samples with "
            "the foot off the ground, the feet's slip in support and the cycle's "
            "repeatability; the table 'Does it walk?' gives them for other G_c2 and body "
            "springs.",
            f"Fig. 3's cascade: tau_C = K_c2 (G_c1 e - J_F^T F_RF), K_c2 = {p.K_c2:g} "
            f"(control = {p.control}). The paper gives no G_c2. In stance the force loop's "
            "static gain is K_c2 / (1 - K_c2) on G_c1, so unity is its stability limit; "
            f"K_c2 = {p.K_c2:g} is where the wave gait walks on its feet, a narrow window "
            "('Does it walk?': 0.78 and 0.82 leave it airborne for tens of milliseconds). "
            "With Table IV's G_c1 no G_c2 tried keeps "
            + ", ".join(NOT_WALKING) + " on their feet: their walking requirements fail, "
            "declared as known with the reason, and their figures come from runs that hop.",
            "Declared modelling choices: the body is n/2 segments of 2 M_b / n (a left and a "
            "right leg on one segment, the engines' tree), not the n segments of M_b / n of "
            "Sec. III.3, whose planar adjacency the paper does not give (not toggled); the "
            "gear play h_ij of Table I is read as the total play, the play's edges at "
            "+-h_ij / 2 (the budget toggles the half-play reading).",
            "Backlash: the gear impacts (9b)-(9c) are resolved once a step; a play held closed "
            "by the load then gives one impact a joint a step, an impulse train that "
            "depends on the step (the impacts table and the budget's 'backlash step' rows).",
            "Figs. 9-17 are the wave gait again with one model changed (scenarios "
            "WG_50_sine, WG_50_linear, WG_50_flexible, WG_50_backlash). The drives' own "
            "states (the motor of (8), the gear's output side of (9)) are integrated in the "
            "shared loop beside each plant by the plant's scheme, from that plant's link "
            "angles, and the gear impacts (9b)-(9c) are resolved after each step "
            "(comparisons/hexapod/loop.SharedDrive): every implementation has the same "
            "impacts (compared as a count).",
            "Native contact (WG_50 only, engines only): a plane at -r_F so that the foot "
            "sphere touches it when its centre reaches y = 0, with eq. (11)'s K_yF and B_yF "
            f"(MuJoCo's solref scaled by each foot's apparent mass at the start) and Coulomb "
            f"friction mu_native = {p.mu_native:g} (an assumption: the paper's ground holds "
            "the foot by a tangential spring and never lets it slip). Neither engine has the "
            "touchdown-point spring of eqs. (11)-(12) or its penetration-scaled damping, so "
            "the native runs are a different ground: compared between the engines and in "
            "the budget, without a tolerance.",
        ]


LADDER = HexapodLadder()


def _terms(title: str) -> ladder.TimePlot:
    j = f"joint.{LEG}.hip"
    return ladder.TimePlot(title, [f"{j}.torque_inertial", f"{j}.torque_coriolis",
                                   f"{j}.torque_gravity"],
                           "tau_11I = (H Theta_dd)_3, tau_11CC = c_3, tau_11G = g_3 of eq. (6) "
                           "from each implementation's state (Theta_dd: the rate difference "
                           "over a step).")


def _touchdown_force(p, run) -> dict[str, float]:
    """f_1yF one f_sr step after touchdown by eq. (11) and by eq. (12), the foot entering
    the ground at leg 1's landing velocity measured in ``run`` (the last 1 kHz sample
    before its landing): the linear law's jump B_yF |v| against the non-linear law's
    start from zero."""
    t_land = statements.landing(run)
    before = run[run["time"] < t_land]
    v = float(before[f"foot.{LEG}.vy"].iloc[-1]) if len(before) else float("nan")
    dt = 1.0 / p.f_sr
    eta, eta_dot, eta_0 = np.array([0.0, v * dt]), np.array([0.0, v]), np.zeros(2)
    return {"linear": float(ground.linear_force(eta, eta_dot, eta_0, p)[1]),
            "nonlinear": float(ground.nonlinear_force(eta, eta_dot, eta_0, p)[1])}


def _table_ii_damping_ratios(p) -> list[float]:
    """zeta = B / (2 sqrt(K M)) of every printed Table II damping with Sec. IV's M = M_b/n."""
    M = p.M_b / p.n
    return [B / (2.0 * math.sqrt(K * M)) for _, K_x, B_x, K_y, B_y in ground.TABLE_II.values()
            for K, B in ((K_x, B_x), (K_y, B_y))]


def _span(values: list[float]) -> str:
    lo, hi = f"{min(values):.3f}", f"{max(values):.3f}"
    return lo if lo == hi else f"{lo} to {hi}"


def _table_ii_whole_robot(p) -> tuple[float, float]:
    """M = M_b + n (M_i1 + M_i2), and the worst |B - printed| of Table II's 14 dampings
    with that M and zeta = 0.15 (Sec. IV's bound at its edge) [N s/m]."""
    M = p.M_b + p.n * (p.M_i1 + p.M_i2)
    rec = ground.table_ii(p.with_(M_eq=M, zeta_F=0.15))
    worst = max(abs(rec[soil][key] - printed) for soil, (_, _, B_x, _, B_y)
                in ground.TABLE_II.items() for key, printed in (("B_xF", B_x), ("B_yF", B_y)))
    return M, worst


def _errata(p) -> list[Erratum]:
    d, v, _ = planning.foot_transfer(p.t_T, p, "cycloid", "printed")
    fx, _ = body.F_RH(np.asarray([1.0, 0.0, -1.0]) * p.S_P, np.full(3, p.H_B), np.zeros(3),
                      np.zeros(3), p, "printed")
    w = fractional.gl_weights(0.5, 100000, printed=True).sum()
    zeta = _table_ii_damping_ratios(p)
    M, worst = _table_ii_whole_robot(p)
    return [
        Erratum("Sec. IV, M of B = 2 zeta sqrt(K M)", "equivalent mass M of the ground "
                "dampings B_xF, B_yF",
                f"M = M_b n^-1 = {p.M_b / p.n:.1f} kg (one segment), zeta < 0.15",
                f"M = M_b + n (M_i1 + M_i2) = {M:g} kg (the whole robot), zeta = 0.15",
                f"with M = {M:g} kg and zeta = 0.15, B = 2 zeta sqrt(K M) gives all 14 of "
                f"Table II's dampings within {worst:.3f} N s/m of the printed integers (their "
                f"rounding: 0.5); with the text's M = M_b / n the printed dampings need zeta "
                f"= {_span(zeta)}, against the stated zeta < 0.15: Table II is right, the "
                "text's M is not",
                "none on the runs: they use Table I's (= Table II's compact clay) dampings "
                "as printed"),
        Erratum("(1a), (1b)", "foot transfer trajectory",
                "x_iFd, y_iFd with period T and speed V_F", "period t_T = (1 - beta) T and "
                "speed L_S / t_T (the transfer lasts t_T)",
                f"as printed, at t = t_T (beta = {p.beta:g}) the foot is at y = {d[1]:.3g} m "
                f"(its apex F_C = {p.F_C:g} m) moving at {v[0]:.3g} m/s when the stance "
                "begins", "the printed foot lands at its apex; the walks use the corrected "
                "form"),
        Erratum("(10)", "inter-segment spring-dashpot F_RH",
                "-K_xH (x_iH - x_i'H)", "-K_xH ((x_iH - x_i'H) - (x_i0 - x_i'0)): stretch from "
                "the nominal spacing S_P",
                f"as printed, segments at their nominal spacing feel {abs(fx[0]):.3g} N "
                f"(K_xH S_P; the robot weighs {p.m_total * p.g:.0f} N)",
                "the printed body collapses; the walks use the rest length"),
        Erratum("(15b)", "Grunwald-Letnikov sum", "sum from k = 1", "sum from k = 0",
                f"the printed weights sum to {w:.4f} (the complete ones to 0): D^alpha of a "
                "constant would be -x / h^alpha, unbounded as h -> 0",
                "none on the controller: Table III's coefficients follow from the sum from "
                "k = 0 (reproduced in L5)"),
        Erratum("(7)", "actuator saturation", "tau_ijm = tau_ijC if |tau_ijm| <= tau_ijMax",
                "the condition on the demanded torque |tau_ijC|",
                "the printed condition tests the output it defines", "none: read as corrected"),
        Erratum("Table I vs (12)-(13)", "non-linear ground damping B'_xF",
                f"B'_xF = {p.Bp_xF:.0f} with eq. (12)'s nu_x = 1.0",
                f"B'_xF = B_xF / Delta^{p.nu_y:g}: Table I divided by Delta^nu_y, not nu_x",
                f"B_xF / 0.0007^0.9 = {ground.nonlinear_damping(3423.0, 7e-4, 0.9):.1f} "
                f"(Table I); with nu_x = 1 it would be "
                f"{ground.nonlinear_damping(3423.0, 7e-4, 1.0):.0f}",
                "the runs use Table I's value with eq. (12)'s nu_x = 1.0, as printed"),
    ]
