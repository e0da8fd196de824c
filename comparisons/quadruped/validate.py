"""The quadruped's declaration for the validation ladder: L0 descriptions, L1/L2 audit
(fixed and floating base, the printed frame 0), L3 free swing and free flight, L4 trot and
walk against the engines with section 4's assumed ground forces measured, section 6's
round trip (L5), the errata and the budget (dynval.comparisons.ladder.rungs climbs it)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from dynval.comparisons import ladder
from dynval.comparisons.quadruped import assumptions, audit, pinned, section6
from dynval.comparisons.quadruped.scenarios import (
    SCENARIOS,
    Scenario,
    run_one,
    supports,
)
from dynval.handrolled.quadruped.gait import GAITS
from dynval.handrolled.quadruped.protocol import QuadrupedLegs, QuadrupedRobot
from dynval.handrolled.quadruped.robot import build_model
from dynval.results import BudgetRow, DataTable, Erratum, MetricRow, Rung
from dynval.robots.quadruped.params import LEGS, R_B0_PRINTED, QuadrupedParams, total_mass

ROBOT = "quadruped"
DEG = 180.0 / np.pi  # signals are stored in radians; the budget shows degrees
KIN_SAMPLES = 200
FORCES = [f"foot.{leg}.force.{a}" for leg in LEGS for a in "xyz"]
FORCES_ASSUMED = [f"foot.{leg}.force_assumed.{a}" for leg in LEGS for a in "xyz"]
WEIGHT_TOL = 0.05
REQ_WEIGHT = ("statics over the run: a level body at constant height, so the feet's mean "
              "vertical force is the weight; 5 % allows for the body's vertical velocity "
              "change over the run")
# the paper's model runs with its pinned feet, the engines with their own foot contact
NATIVE = ladder.Variant("native", (("handrolled", "shared"), ("mujoco", "native"),
                                   ("pybullet", "native")))


class QuadrupedLadder(ladder.RobotLadder):
    robot = ROBOT
    title = "Twelve-joint quadruped (recursive Newton-Euler)"
    paper = ("Sureshkumar, Harib, Oseni: Kinematic and dynamic analysis of quadruped legged "
             "robots: a new formulation approach (ICINCO 2025); masses and lengths of the "
             "Unitree A1")
    contact_modes = ladder.CONTACT_MODES
    readable_seconds = ladder.CI_SECONDS  # fast/ against the printed recursions
    l1_what = "Table 1 foot positions and Jacobians vs engines"
    l2_what = ("RNEA M, C+G and tau, fixed base and free root (each engine's free root in "
               "MuJoCo's coordinates)")
    audit_reason = "round-off: the RNEA of Table 1's chain and the engines describe the same tree"
    budget_what = ("trot: section 4's assumed forces, the pinned feet, the engine and the "
                   "step, one at a time")

    def audit_terms(self, inp: ladder.Inputs) -> ladder.AuditResults:
        p, d, n, seed = inp.params, inp.desc_dir, inp.samples, inp.seed
        model = build_model(p)
        kin = audit.kinematics_audit(model, d, min(n, KIN_SAMPLES), seed)
        kin_printed = audit.kinematics_audit(build_model(p, R_B0=R_B0_PRINTED), d,
                                             min(n, KIN_SAMPLES), seed, form="printed")
        return ladder.AuditResults(kin + kin_printed, audit.dynamics_audit(model, p, d, n, seed))

    def swung(self, p: QuadrupedParams) -> list[ladder.Swung]:
        g = (0.0, 0.0, -p.g)
        return [ladder.Swung("legs on the welded body", QuadrupedLegs(p),
                             "quadruped_fixed.urdf", g),
                ladder.Swung("whole robot in free flight", QuadrupedRobot(p),
                             "quadruped.urdf", g)]

    def supports(self, implementation: str, contact: str) -> bool:
        return implementation in self.implementations and supports(implementation, contact)

    def variants(self, sc: Scenario) -> list[ladder.Variant]:
        return [NATIVE]

    def scenario_description(self, sc: Scenario) -> str:
        return sc.description + _gait_text(sc.gait)

    def requirements(self, ctx: ladder.Context, sc: Scenario, variant: ladder.Variant, impl: str,
                     df: pd.DataFrame) -> list[MetricRow]:
        return [ladder.check_row(ROBOT, sc.name, variant.name, "foot.*.force.z", impl,
                                 "weight_balance_rel", _weight_balance(df, ctx.params), WEIGHT_TOL,
                                 REQ_WEIGHT)]

    def scenario_extras(self, ctx: ladder.Context, sc: Scenario, variant: ladder.Variant, wide):
        """Section 4's assumed forces as a pseudo-implementation, measured against the
        engines' contact forces."""
        assumed = wide["handrolled"][["time"] + FORCES_ASSUMED].rename(
            columns=dict(zip(FORCES_ASSUMED, FORCES, strict=True)))
        rows = ladder.compare({"mujoco": wide["mujoco"], "assumed": assumed}, ROBOT, sc.name,
                              variant.name, FORCES, "mujoco", ["assumed"], {})
        err = assumptions.assumption_errors(wide["handrolled"],
                                            {e: wide[e] for e in ("mujoco", "pybullet")})
        rows += [MetricRow(ROBOT, sc.name, "L4", f"{r['legs']} legs",
                           f"foot.*.force.{r['axis']}", r["engine"], "handrolled (assumed)",
                           "rms_error_N", r["rms_error"], None, None, r["assumption"],
                           "agreement") for r in err]
        names = {run: pinned.task_name(sc.name, run) for run in pinned.RUNS}
        if all(f"{ROBOT} {n}" in ctx.outcomes for n in names.values()):
            rows += pinned.rows(ROBOT, sc.name, variant.name, wide["handrolled"],
                                {run: ctx.result(n) for run, n in names.items()})
        return ({"assumed": assumed}, rows,
                [DataTable.from_dict(assumptions.table(err, sc.name))])

    def figure_tag(self, sc: Scenario, variant: ladder.Variant) -> str:
        return f"{sc.name}; hand-rolled: pinned feet, engines: native contact"

    def figures(self, ctx: ladder.Context, sc: Scenario, variant: ladder.Variant) -> list:
        return [
            ladder.TimePlot("Body attitude", ["body.roll", "body.pitch"],
                            "Roll and pitch; error panels show minus MuJoCo."),
            ladder.TimePlot("Figs. 5-7 in closed loop: RB HFE acceleration, rate, angle",
                            ["joint.RB.HFE.acceleration", "joint.RB.HFE.rate",
                             "joint.RB.HFE.angle"],
                            "The joint of the paper's Figs. 5-7 tracking the plan in every "
                            "implementation; the acceleration is the rate difference over one "
                            "step "
                            "(each integrator's own)."),
            ladder.TimePlot("HFE torques", [f"joint.{leg}.HFE.torque" for leg in LEGS],
                            "Feedforward (inverse dynamics with section 4's forces) plus joint "
                            "PD."),
            ladder.TimePlot("Vertical ground forces", [f"foot.{leg}.force.z" for leg in LEGS],
                            "Section 4's assumed forces at the plan (assumed), the pinned feet's "
                            "constraint forces (hand-rolled) and the engines' contact forces, "
                            "10 ms means."),
            ladder.TimePlot("Forward ground forces", [f"foot.{leg}.force.x" for leg in LEGS],
                            "The X forces section 4 assumes equal on the supporting legs."),
        ]

    def extra_tasks(self, inp: ladder.Inputs) -> dict:
        """Section 6's round trip (the paper's plans, and the balanced trot over whole
        cycles, in parallel), the budget's MuJoCo trot at dt/2, and each scenario's
        pinned-feet reference runs (quadruped.pinned)."""
        tasks = {**pinned.tasks(inp.params, SCENARIOS, inp.scenarios, inp.desc_dir,
                                inp.until),"section 6": (section6.run, (inp.params,), {}),
                 "section 6 balanced trot": (section6.run_balanced, (inp.params,),
                                             {"until": inp.until}),
                 "section 6 walk splits": (section6.run_walk_splits, (inp.params,),
                                           {"until": inp.until}),
                 "section 6 walk cycle": (section6.run_walk_cycle, (inp.params,), {})}
        if "trot" in inp.scenarios:
            p = inp.params
            tasks["budget mujoco dt/2"] = (run_one, (replace(p, dt=p.dt / 2), SCENARIOS["trot"],
                                                     "mujoco", "native", inp.desc_dir),
                                           {"until": inp.until})
        return tasks

    def recomputed(self, ctx: ladder.Context) -> None:
        """Section 6's round trip: inverse dynamics of the plan, forward dynamics back."""
        s6 = ctx.result("section 6")
        ctx.rows += _section6_rows(s6)
        ctx.chapter.tables += [DataTable.from_dict(section6.table(name, res))
                               for name, res in s6.items()]
        bal = ctx.result("section 6 balanced trot")
        ctx.rows += _balanced_rows(bal)
        ctx.chapter.tables.append(DataTable.from_dict(section6.balanced_table(bal)))
        splits = ctx.result("section 6 walk splits")
        ctx.rows += _walk_split_rows(splits)
        ctx.chapter.tables.append(DataTable.from_dict(section6.walk_splits_table(splits)))
        cycle = _walk_cycle(ctx)
        ctx.rows += _walk_cycle_rows(cycle)
        ctx.chapter.tables.append(DataTable.from_dict(section6.walk_cycle_table(cycle)))

    def l5(self, ctx: ladder.Context) -> Rung:
        s6 = ctx.result("section 6")
        walk = s6["walk"]["rows"]
        bal = ctx.result("section 6 balanced trot")
        splits = ctx.result("section 6 walk splits")
        ratios_ok = all(min(r["ratio"].values()) >= section6.MIN_RATIO for r in walk[:-1])
        bal_ok = _balanced_ok(bal)
        side = splits[section6.WALK_SPLITS[0]]
        side_ok = _fourth_order(side)
        cycle = _walk_cycle(ctx)
        cycle_ok = all(_first_order(cycle[split]["rows"])
                       for split in section6.CONSISTENT_SPLITS)
        return Rung(
            "recomputed" if ratios_ok and bal_ok and side_ok and cycle_ok else "differs",
            "section 6's round trip recomputed (the paper's figure is held back): the walk's "
            f"error halves with the step ({walk[-1]['displacement']:.3g} % displacement at "
            f"{1e3 * walk[-1]['step']:g} ms; halving ratios "
            + ("all" if ratios_ok else "not all") + f" at least {section6.MIN_RATIO:g}); the "
            "planned trot is not dynamically consistent (unbalanced "
            f"{s6['trot']['plan_residual'].get(2, float('nan')):.2f} N m about the support "
            "diagonal) and its error does not fall with the step; the balanced trot (lateral "
            f"path solved from that moment balance, {bal['plan_residual']:.1e} N m left) over "
            f"{bal['cycles']} whole cycle: {bal['rows'][-1]['displacement']:.3g} % "
            f"displacement at {1e3 * bal['rows'][-1]['step']:g} ms by semi-implicit Euler, "
            f"{bal['rk4'][-1]['displacement']:.3g} % at {1e3 * bal['rk4'][-1]['step']:g} ms "
            "by RK4, halving ratios " + ("all" if bal_ok else "not all") + " within their "
            f"bands ({section6.MIN_RATIO:g}-{section6.MAX_RATIO:g}, {section6.RK4_MIN:g}-"
            f"{section6.RK4_MAX:g}); the walk with the side-wise four-leg split over its "
            f"first {splits['horizon']:g} s by RK4: {side[-1]['displacement']:.3g} % at "
            f"{1e3 * side[-1]['step']:g} ms, halving ratios "
            + ("all" if side_ok else "not all") + f" within {section6.RK4_MIN:g}-"
            f"{section6.RK4_MAX:g}" + (
                f" (the paper's split: {splits['paper'][-1]['displacement']:.3g} %, not "
                "falling)" if splits["horizon"] > splits["four_leg_from"] else "")
            + ". " + (section6.growth_text(splits) + " ").lstrip()
            + "Over the whole cycle with each support phase from its planned start "
            "(semi-implicit Euler): "
            + "; ".join(f"{split} split {cycle[split]['rows'][-1]['displacement']:.3g} % at "
                        f"{1e3 * cycle[split]['rows'][-1]['step']:g} ms, ratios "
                        + "/".join(f"{min(r['ratio'].values()):.2f}-"
                                   f"{max(r['ratio'].values()):.2f}"
                                   for r in cycle[split]["rows"][:-1])
                        for split in section6.CYCLE_SPLITS)
            + " (" + ("all" if cycle_ok else "not all") + " of the balancing splits' ratios "
            f"within {section6.MIN_RATIO:g}-{section6.MAX_RATIO:g}). The paper's own maximum "
            "error is held back, so nothing here is compared with it")

    def budget(self, ctx: ladder.Context) -> list[BudgetRow]:
        trot = ctx.runs("native").get("trot")
        return [] if trot is None else _budget(ctx, trot)

    def errata(self, ctx: ladder.Context) -> list[Erratum]:
        printed = [r for r in ctx.audit.kinematics if r.form == "printed"]
        return [Erratum(**e) for e in _errata(printed, ctx.result("section 6"),
                                              ctx.result("section 6 walk splits"),
                                              _walk_cycle(ctx))]

    def notes(self, ctx: ladder.Context) -> list[str]:
        return (_notes(ctx.result("section 6"))
                + _balanced_notes(ctx.result("section 6 balanced trot"))
                + _walk_cycle_notes(_walk_cycle(ctx)))


LADDER = QuadrupedLadder()


def _budget(ctx: ladder.Context, trot: dict[str, pd.DataFrame]) -> list[BudgetRow]:
    """What each modelling difference contributes on the trot, one at a time (RMS)."""
    p = ctx.params
    half = ctx.result("budget mujoco dt/2")
    hand, mj, pb = trot["handrolled"], trot["mujoco"], trot["pybullet"]
    steps = [
        ("section 4's assumed forces vs the pinned feet's forces (hand-rolled run)",
         hand, hand, "foot.RB.force_assumed.z"),
        ("contact model: pinned feet (hand-rolled) vs native (MuJoCo)", hand, mj, None),
        ("engine: MuJoCo vs PyBullet, both native", mj, pb, None),
        (f"step: MuJoCo at dt = {p.dt:g} s vs dt/2", mj, half, None),
        ("total: section 4's assumed forces vs MuJoCo", hand, mj, "assumed"),
    ]
    rows = []
    for comp, a, b, alt in steps:
        for sig, unit in (("joint.RB.HFE.angle", "deg"), ("body.roll", "deg"),
                          ("foot.RB.force.z", "N")):
            if alt is not None and not sig.startswith("foot"):
                continue  # the assumed forces are forces only
            if alt == "assumed":
                value = ladder.rms_diff(b, a, sig,
                                        signal_b=sig.replace("force.", "force_assumed."))
            else:
                value = ladder.rms_diff(a, b, sig, scale=DEG if unit == "deg" else 1.0,
                                        signal_b=alt)
            rows.append(BudgetRow("trot", sig, comp, value, f"{unit} RMS"))
    return rows


def _weight_balance(df: pd.DataFrame, p: QuadrupedParams) -> float:
    """Mean total vertical foot force over the weight, less one."""
    Fz = sum(df[f"foot.{leg}.force.z"] for leg in LEGS).to_numpy()[1:]  # first: no step yet
    return float(Fz.mean() / (total_mass(p) * p.g) - 1.0)


def _gait_text(name: str) -> str:
    g = GAITS[name]
    return (f" Plan: stride {g.stride:g} m per {g.period:g} s cycle, foot lift {g.height:g} m, "
            f"each foot {100 * g.swing_fraction:g} % of the cycle in the air"
            + (f", body sway +-{g.sway:g} m" if g.sway else "") + ".")


def _section6_rows(s6: dict) -> list[MetricRow]:
    """The paper's gaits: errors (recomputed) and, for the walk, the halving ratio's lower
    bound (requirement); the paper's trot does not converge (its erratum)."""
    walk_band = (section6.MIN_RATIO, None, "lower bound: " + section6.REASON)
    return [row for name, res in s6.items()
            for row in _trip_rows(name, res["rows"], walk_band if name == "walk" else None)]


def _first_order(rows: list[dict]) -> bool:
    """Every halving ratio of a round trip within the first-order band."""
    return _within(rows, section6.MIN_RATIO, section6.MAX_RATIO)


def _fourth_order(rows: list[dict]) -> bool:
    """Every halving ratio of an RK4 round trip within the fourth-order band."""
    return _within(rows, section6.RK4_MIN, section6.RK4_MAX)


def _within(rows: list[dict], lower: float, upper: float) -> bool:
    """Every halving ratio of a round trip's rows (the last has none) in [lower, upper]."""
    return all(lower <= v <= upper for r in rows[:-1] for v in r["ratio"].values())


def _balanced_ok(bal: dict) -> bool:
    """Every halving ratio of the balanced trot within its band: first order by
    semi-implicit Euler, fourth by RK4."""
    return _first_order(bal["rows"]) and _fourth_order(bal["rk4"])


def _walk_cycle(ctx: ladder.Context) -> dict[str, dict]:
    """The walk's whole-cycle round trips, by four-leg split."""
    return ctx.result("section 6 walk cycle")


def _walk_cycle_rows(cycle: dict[str, dict]) -> list[MetricRow]:
    """The whole walk cycle: every split's errors (recomputed); the balancing splits'
    halving ratios held to the first-order band, the paper's reported only."""
    band = (section6.MIN_RATIO, section6.MAX_RATIO, "band: " + section6.BALANCED_REASON)
    return [row for split, res in cycle.items()
            for row in _trip_rows(f"walk cycle {split}", res["rows"],
                                  band if split in section6.CONSISTENT_SPLITS else None)]


def _balanced_rows(bal: dict) -> list[MetricRow]:
    """The balanced trot's errors (recomputed) and halving ratios within the band, by
    semi-implicit Euler (first order) and RK4 (fourth order)."""
    return (_trip_rows(section6.BALANCED, bal["rows"],
                       (section6.MIN_RATIO, section6.MAX_RATIO,
                        "band: " + section6.BALANCED_REASON))
            + _trip_rows(f"{section6.BALANCED} rk4", bal["rk4"],
                         (section6.RK4_MIN, section6.RK4_MAX, "band: " + section6.RK4_REASON)))


def _walk_split_rows(res: dict) -> list[MetricRow]:
    """The walk's RK4 round trip: errors of both splits (recomputed), and the consistent
    split's halving ratios held to the fourth-order band."""
    side, paper = section6.WALK_SPLITS
    return (_trip_rows(f"walk {side} rk4", res[side],
                       (section6.RK4_MIN, section6.RK4_MAX, "band: " + section6.RK4_REASON))
            + _trip_rows(f"walk {paper} rk4", res[paper], None))


def _trip_rows(name: str, trip: list[dict], band: tuple[float, float | None, str] | None
               ) -> list[MetricRow]:
    """One round trip's rows: each step's errors, and its halving ratios held to
    ``band`` = (lower, upper or None, reason); no ratio rows where ``band`` is None."""
    rows = []
    for r in trip:
        variant = f"{name} dt={r['step']:g}"
        for q, _ in section6.QUANTITIES:
            rows.append(ladder.recomputed_row(
                ROBOT, "section 6", f"joint.RB.HFE.{q}", "max_pct_error", r[q],
                "the paper's figure is held back; reported, not toleranced",
                variant=variant, reference="inverse kinematics"))
            if r["ratio"] is None or band is None:
                continue
            lower, upper, reason = band
            ratio = r["ratio"][q]
            ok = ratio >= lower and (upper is None or ratio <= upper)
            rows.append(MetricRow(
                ROBOT, "section 6", "L5", variant, f"joint.RB.HFE.{q}", "inverse kinematics",
                "handrolled", "halving_ratio", ratio, lower, bool(ok), reason,
                "requirement"))
    return rows


def _balanced_notes(bal: dict) -> list[str]:
    rows = bal["rows"]
    lo, hi = bal["lateral_mm"]
    return [
        "Section 6, the balanced trot: the paper's trot (stride, lift, period and "
        "foot profiles unchanged, body level at constant forward speed) with the body's "
        "lateral position y(t) solved from the moment balance about the support diagonal, "
        "the one equation two point feet cannot supply (erratum 4.3). That moment is affine "
        "in y'', so y'' is solved at each instant; y, y' integrate it (DOP853, rtol 1e-11) "
        "and the periodic path (an inverted pendulum about the diagonal) is found by "
        f"shooting over one cycle ({bal['evaluations']} evaluations). The body sways "
        f"{lo:.2f} to {hi:.2f} mm; the plan leaves at most {bal['plan_residual']:.1e} N m "
        "about the diagonal. A lateral path rather than a roll keeps the body level, so the "
        "plan, the inverse dynamics and the round trip are the paper's own. Section 6's "
        f"round trip over {bal['cycles']} whole cycle ({bal['horizon']:g} s): "
        + ", ".join(f"{r['acceleration']:.3g}/{r['velocity']:.3g}/{r['displacement']:.3g} % "
                    f"at {1e3 * r['step']:g} ms" for r in rows)
        + " (acceleration/velocity/displacement), halving ratios "
        + "; ".join(" / ".join(f"{v:.2f}" for v in r["ratio"].values()) for r in rows[:-1])
        + ": first order, falling with the step towards round-off, where the paper's "
        "trot does not fall at all. The paper's plan and its erratum stay as they are; its "
        "printed maximum error is held back and is not compared.",
    ]


def _walk_cycle_notes(cycle: dict[str, dict]) -> list[str]:
    def trip(split: str) -> str:
        rows = cycle[split]["rows"]
        return (", ".join(f"{r['acceleration']:.3g}/{r['velocity']:.3g}/"
                          f"{r['displacement']:.3g} % at {1e3 * r['step']:g} ms" for r in rows)
                + " (halving ratios "
                + "; ".join(" / ".join(f"{v:.2f}" for v in r["ratio"].values())
                            for r in rows[:-1]) + ")")

    return [
        "Section 6, the walk over its whole 4 s cycle: the four-leg phases need a "
        "force split that supplies the body's whole wrench (erratum 4.1). Two do: section "
        "4.1 with one X force per side's pair instead of one for all four (side-wise), and "
        "the minimum-norm distribution of the wrench over the four feet (all twelve "
        "components free, least sum of squares); both leave round-off unbalanced. Open "
        "loop the supported robot is unstable (an error grows about 1e14-fold over a "
        "cycle), so section 6's round trip is run phase by phase, each of the six support "
        "phases from its planned start, with the paper's semi-implicit Euler. Back-right "
        "HFE acceleration/velocity/displacement errors over the cycle: side-wise "
        + trip("side-wise") + "; minimum-norm " + trip("min-norm") + "; the paper's split "
        + trip("paper") + ": the balancing splits fall at first order towards round-off, "
        "the paper's stays at the error its unbalanced yaw sets in the four-leg phases.",
    ]


def _errata(kin_printed, s6: dict, splits: dict, cycle: dict[str, dict]) -> list[dict]:
    worst = max(kin_printed, key=lambda r: r.max_rel_error)
    trot = s6["trot"]["rows"][-1]
    walk_res = s6["walk"]["plan_residual"].get(4, float("nan"))
    return [
        {"equation": "section 2", "term": "frame 0 axes",
         "printed": "x_0, y_0, z_0 along y_B, x_B, z_B",
         "corrected": "x_0 = y_B, y_0 = x_B, z_0 = -z_B",
         "evidence": "the printed axes form a left-handed frame (determinant -1), which no "
                     "rotation, MJCF or URDF can express; used as printed, the D-H chain puts "
                     f"the feet above the hips: foot positions off by relative "
                     f"{worst.max_rel_error:.2f} against {worst.reference}",
         "effect": "with z_0 = -z_B, theta_1 = 90 deg hangs the leg down (Fig. 1.b) and the "
                   "audit agrees with the engines to round-off; both forms are selectable "
                   "(dynval.robots.quadruped.params R_B0, R_B0_PRINTED)"},
        {"equation": "(3)-(4), section 4.1", "term": "four-leg assumption",
         "printed": "4 vertical forces + one common X + one common Y: six unknowns, fully "
                    "determined",
         "corrected": "rank 5: the yaw moment is set by the common X and Y forces, which "
                      "the force balance already fixes, and one split of the vertical forces "
                      "is free; solved by least squares",
         "evidence": f"A of the body equations has rank 5 at every four-leg instant; over a "
                     f"planned walk cycle the four-leg phases leave up to {walk_res:.3f} N m "
                     "of the body wrench unbalanced (three-leg phases: "
                     f"{s6['walk']['plan_residual'].get(3, float('nan')):.1e})",
         "effect": "the walk's four-leg phases are not exactly consistent (RK4 round trip "
                   "over the first 2 s: the error stays at "
                   f"{splits['paper'][-1]['displacement']:.3g} % whatever the step); one X "
                   "force per side instead of one for all four supplies the yaw moment (rank "
                   f"6, {splits['side-wise'][-1]['residual']:.1e} N m left) and the error "
                   "then falls 16-fold per halving of the step; over the "
                   "whole cycle (Euler, each support phase from its planned start) the "
                   "paper's split stays at "
                   + "/".join(f"{r['displacement']:.3g}" for r in cycle["paper"]["rows"])
                   + " % displacement at " + "/".join(f"{1e3 * dt:g}" for dt in section6.STEPS)
                   + " ms, the side-wise split falls "
                   + "/".join(f"{r['displacement']:.3g}" for r in cycle["side-wise"]["rows"])
                   + " %, the minimum-norm split "
                   + "/".join(f"{r['displacement']:.3g}" for r in cycle["min-norm"]["rows"])
                   + " %"},
        {"equation": "(3)-(4), section 4.3", "term": "two-leg support",
         "printed": "six unknown components determined directly from the equations of motion",
         "corrected": "rank 5: two point forces make no moment about the line through the "
                      "feet, and a force along that line is free",
         "evidence": f"the planned trot leaves up to "
                     f"{s6['trot']['plan_residual'].get(2, float('nan')):.2f} N m about the "
                     "support diagonal unbalanced (gravity: the centre of mass is not above "
                     "the diagonal except at mid-stance)",
         "effect": f"open loop the body rolls {trot['roll_deg']:.1f} deg within "
                   f"{s6['trot']['horizon']:g} s and the round-trip error does not fall with "
                   "the step; section 5's 13th coordinate (roll) is this missing equation"},
    ]


def _notes(s6: dict) -> list[str]:
    walk, trot = s6["walk"]["rows"], s6["trot"]["rows"]
    return [
        "The hand-rolled model is Table 1's D-H chain for each leg on a floating body, "
        "with Craig's recursive Newton-Euler algorithm (eqs. 6.45-6.53) run outward from the "
        "body and inward from each foot, the body's equations (3)-(4) closing it. M, C and G "
        "of eq. (5) are the RNEA evaluated with unit accelerations, velocities alone and "
        "gravity alone (Walker-Orin). The masses and lengths are the Unitree A1's (the paper "
        "gives none); its 0.0838 m HAA-HFE offset is dropped because Table 1 has none.",
        "Section 5's reduced coordinates are implemented as constraints: the supporting feet "
        "are pinned points and eq. (5) is solved with zero foot acceleration; the body pose "
        "then follows from the supporting legs, as the paper's 12 (walk) or 13 (trot) "
        "coordinates say.",
        "Section 6: over the walk's first second the back-right HFE errors are "
        + ", ".join(f"{r['acceleration']:.3g}/{r['velocity']:.3g}/{r['displacement']:.3g} % "
                    f"at {1e3 * r['step']:g} ms" for r in walk)
        + " (acceleration/velocity/displacement): first order, they halve with the step. "
        "The trot's plan is not dynamically consistent (erratum 4.3): "
        + ", ".join(f"{r['displacement']:.3g} % at {1e3 * r['step']:g} ms" for r in trot)
        + " displacement error, not falling with the step.",
        "Closed loop (L4), feedforward torques from the plan plus joint PD keep all three "
        "implementations on the plan for the scenario's length; the body is not controlled "
        "about the support diagonal, so a longer trot falls over in every implementation.",
    ]
