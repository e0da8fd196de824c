"""The landing gear's declaration for the validation ladder: its descriptions, audit,
free swing, scenarios in both contact modes with their requirements, the settled
attitudes, errata with their effect, and the error budget (ladder.rungs climbs it)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from dynval.comparisons import ladder
from dynval.comparisons.ladder import harness
from dynval.comparisons.landing_gear import audit, touchdown
from dynval.comparisons.landing_gear.scenarios import (
    SCENARIOS,
    Scenario,
    run_one,
)
from dynval.handrolled.landing_gear.model import Forms
from dynval.handrolled.landing_gear.protocol import LandingGearLeg
from dynval.results import (
    BudgetRow,
    DataTable,
    Erratum,
    Known,
    MetricRow,
    NotReproduced,
    Rung,
)
from dynval.robots.landing_gear.params import JOINTS, LEGS, LandingGearParams

ROBOT = "landing_gear"
DEG = 180.0 / math.pi
SETTLE_WINDOW = 0.5  # the last 0.5 s of a run is its settled state [s]

# The landing gear's requirements, each with its reason.
LEVEL_TOL_DEG = 0.5
REQ_LEVEL = "requirement: with the level controller roll and pitch settle within 0.5 deg"
GRF_SPREAD_TOL = 0.05
REQ_GRF = ("requirement: the four normal forces converge to equal values; 5 % of their "
           "mean allows for the slow integral action still running at the end of the run")
BALANCE_TOL = 0.01
REQ_BALANCE = ("statics: the vertical foot forces carry m g once thrust is off; 1 % allows "
               "for the residual vertical acceleration of the settling body")

# The error budget's runs on slope_lc at dt/2: (implementation, contact, mass model).
BUDGET_RUNS = (("handrolled", "shared", "as_derived"), ("mujoco", "shared", "as_derived"),
               ("mujoco", "shared", "as_built"), ("mujoco", "native", "as_built"))
# Each erratum's equation alone in its printed form.
ERRATA_FORMS = {"(12)": Forms(leg_gravity="printed"), "(7)-(9)": Forms(moments="printed"),
                "(21)-(24)": Forms(level="printed")}

# What the paper states about the settled attitude (Sec. VII-B).
PAPER_SETTLED = {"slope_lc": "settles to 0 (Fig. 5)", "slope_nolc": "[held back]",
                 "flat": "not in the paper"}

# Agreement tolerances for L4 trajectories, with their reasons.  They apply to shared
# contact, where every implementation feels the same contact law; in native mode the
# engines' contact laws differ by design (MuJoCo's soft constraint, PyBullet's ERP/CFM
# springs), so native figures are reported without a tolerance.
TOLERANCES = {
    (sig, "final_diff"): ladder.Tolerance(
        "final_diff", 0.5 / DEG,
        "same contact law: the settled attitude must agree to the 0.5 deg the level "
        "requirement resolves")
    for sig in ("body.roll", "body.pitch")
}
# On level ground the symmetric gear keeps roll and pitch at zero in every implementation
# (their range is round-off, 1e-16 rad): no tolerance can tell agreement there, so each
# figure of them is reported with the measured range, not judged.
LEVEL_GROUND = {
    (sig, metric): ladder.Tolerance.symmetric(metric, "level ground, symmetric legs")
    for sig in ("body.roll", "body.pitch")
    for metric in ("rmse", "nrmse", "max_abs", "final_diff", "correlation", "lag")
}


# The settled figures are means over the last SETTLE_WINDOW; they stand for the settled
# state only where each signal moves over that window by at most SETTLED_SHARE of the
# tolerance that judges it (the mean is then within that share of every sample of the
# window, the last one included).
SETTLED_SHARE = 0.1
PREMISE = (f"the run settles: over its last {SETTLE_WINDOW:g} s roll and pitch, each normal "
           f"foot force and the vertical forces' sum move by at most {SETTLED_SHARE:g} of "
           "the tolerance of the settled figure each one gives (hand-rolled, shared laws)")


def _tail(df: pd.DataFrame) -> pd.DataFrame:
    return df[df["time"] >= df["time"].iloc[-1] - SETTLE_WINDOW]


def _settled(df: pd.DataFrame, signal: str) -> float:
    return float(_tail(df)[signal].mean())


def unsettled(df: pd.DataFrame, p: LandingGearParams) -> list[str]:
    """What still moves over the run's last SETTLE_WINDOW beyond SETTLED_SHARE of its
    settled figure's tolerance, each with its range and bound (empty: the run settled)."""
    tail = _tail(df)
    F = np.mean([tail[f"foot.{leg}.force.normal"].mean() for leg in LEGS])
    bounds = {**{sig: (DEG, "deg", LEVEL_TOL_DEG) for sig in ("body.roll", "body.pitch")},
              **{f"foot.{leg}.force.normal": (1.0, "N", GRF_SPREAD_TOL * F) for leg in LEGS}}
    out = [f"{sig} moves {np.ptp(tail[sig].to_numpy()) * k:.3g} {unit} (bound "
           f"{SETTLED_SHARE * tol:.3g})" for sig, (k, unit, tol) in bounds.items()
           if np.ptp(tail[sig].to_numpy()) * k > SETTLED_SHARE * tol]
    Fy = sum(tail[f"foot.{leg}.force.y"].to_numpy() for leg in LEGS)
    if np.ptp(Fy) > SETTLED_SHARE * BALANCE_TOL * p.m * p.g:
        out.append(f"the vertical forces' sum moves {np.ptp(Fy):.3g} N (bound "
                   f"{SETTLED_SHARE * BALANCE_TOL * p.m * p.g:.3g})")
    return out


class LandingGearLadder(ladder.RobotLadder):
    robot = ROBOT
    title = "Helicopter robotic landing gear"
    paper = ("Melia Boix, Goh, McWhinnie: Helicopter lands on uneven terrain by means of "
             "articulated robotic legs")
    contact_modes = ladder.CONTACT_MODES
    # Drake too, with the shared contact law (dynval gives it no ground), on the paper's
    # landing (Fig. 5) only: its loop steps from Python, so it runs where the paper's
    # figures are, not on every slope
    implementations = (*ladder.IMPLEMENTATIONS, "drake")
    only_in = {"drake": ("slope_lc",)}
    readable_seconds = ladder.CI_SECONDS  # fast/loop.py against the readable laws
    l1_what = "foot position (18)-(19) and Jacobian vs engines"
    l2_what = "leg terms (12)-(13) and moment sums (7)-(9)"
    audit_reason = ("round-off: the corrected equations and the engines describe the same "
                    "point-mass leg")
    budget_what = "decoupling, mass model, contact mode and step toggled one at a time on slope_lc"

    def audit_terms(self, inp: ladder.Inputs) -> ladder.AuditResults:
        p, d, n, seed = inp.params, inp.desc_dir, inp.samples, inp.seed
        return ladder.AuditResults(
            audit.leg_kinematics_audit(p, d, min(n, 200), seed),
            audit.leg_dynamics_audit(p, d, n, seed) + audit.moment_audit(n, seed))

    def swung(self, p: LandingGearParams) -> list[ladder.Swung]:
        return [ladder.Swung("fixed-base leg", LandingGearLeg(p),
                             "landing_gear_leg_as_derived.urdf", (0.0, 0.0, -p.g))]

    def variants(self, sc: Scenario) -> list[ladder.Variant]:
        # In native mode the engines' contact laws differ by design (MuJoCo's soft
        # constraint, PyBullet's ERP/CFM springs): reported without a tolerance.
        level = sc.alpha_SL_deg == 0.0
        return [ladder.Variant.shared(LEVEL_GROUND if level else TOLERANCES,
                                      self.shared_runs(sc)),
                ladder.Variant.native()]

    def premise(self, ctx: ladder.Context, sc: Scenario, variant: ladder.Variant,
                wide: dict[str, pd.DataFrame]) -> NotReproduced | None:
        """Whether the landing settles (PREMISE), on the hand-rolled shared run: the
        settled attitude, forces and balance are figures of a settled run only."""
        if variant.name != "shared" or "handrolled" not in wide:
            return None
        moving = unsettled(wide["handrolled"], ctx.params)
        return NotReproduced(sc.name, PREMISE, "; ".join(moving)) if moving else None

    def requirements(self, ctx: ladder.Context, sc: Scenario, variant: ladder.Variant, impl: str,
                     df: pd.DataFrame) -> list[MetricRow]:
        if not sc.level_controller:
            return []
        p, v = ctx.params, variant.name
        F = np.array([_settled(df, f"foot.{leg}.force.normal") for leg in LEGS])
        level = [(sig, "settled_abs_deg", abs(_settled(df, sig)) * DEG, LEVEL_TOL_DEG, REQ_LEVEL)
                 for sig in ("body.roll", "body.pitch")]
        level.append(("foot.*.force.normal", "settled_spread_rel",
                      (F.max() - F.min()) / F.mean(), GRF_SPREAD_TOL, REQ_GRF))
        if sc.alpha_SL_deg == 0.0:  # level ground: a level body and equal feet by symmetry
            rows = [MetricRow(ROBOT, sc.name, "L4", v, sig, "-", impl, metric, value, None,
                              None, "zero by symmetry (level ground, symmetric legs): "
                              "reported, not judged", "requirement")
                    for sig, metric, value, _, _ in level]
        else:
            rows = [ladder.check_row(ROBOT, sc.name, v, sig, impl, metric, value, tol, why)
                    for sig, metric, value, tol, why in level]
        Fy = sum(_settled(df, f"foot.{leg}.force.y") for leg in LEGS)
        rows.append(ladder.check_row(ROBOT, sc.name, v, "foot.*.force.y", impl,
                                     "weight_balance_rel", Fy / (p.m * p.g) - 1.0, BALANCE_TOL,
                                     REQ_BALANCE))
        return rows

    def known_difference(self, row: MetricRow, ctx: ladder.Context) -> Known | None:
        """The feet's load spread on native contact: the same engine with eq. (26)'s
        contact (the shared variant, the counterfactual) must settle within the
        requirement for the contact law to be the verified cause (ablation). The
        mechanism (soft contact sharing a statically indeterminate load) stays a note: no
        run aligns the load sharing alone."""
        if row.variant == "native" and row.metric == "settled_spread_rel":
            return ladder.ablation(row, ctx.rows, "the engine's native contact law",
                                   variant="shared")
        return None

    def figures(self, ctx: ladder.Context, sc: Scenario, variant: ladder.Variant) -> list:
        return [
            ladder.TimePlot("Fig. 5: roll and pitch", ["body.roll", "body.pitch"],
                            "Body roll (theta_z) and pitch (theta_x); error panels show minus "
                            "MuJoCo."),
            ladder.TimePlot("Fig. 7: joint angles",
                            [f"joint.{leg}.{j}.angle" for leg in LEGS for j in JOINTS],
                            "Hip and knee angles."),
            ladder.TimePlot("Fig. 8: ground reaction forces",
                            [f"foot.{leg}.force.normal" for leg in LEGS],
                            "Normal force at each foot (eq. 26)."),
            ladder.TimePlot("Fig. 9: joint torques",
                            [f"joint.{leg}.{j}.torque" for leg in LEGS for j in JOINTS],
                            "PID joint torques, limited to T_max = 1.76 N m."),
            ladder.PathPlot("Fig. 6: CoM displacement in the XZ plane", "com.x", "com.z", "mm",
                            1000.0, True, "Body-centre displacement from its initial position."),
        ]

    def recomputed(self, ctx: ladder.Context) -> None:
        """The settled attitude of every run, next to what the paper states (Sec. VII-B)."""
        rows = [[sc, impl, v, sig, _settled(df, sig) * DEG, PAPER_SETTLED[sc]]
                for (sc, v), wide in ctx.wide.items() for impl, df in wide.items()
                for sig in ("body.roll", "body.pitch")]
        if rows:
            ctx.chapter.tables.append(DataTable(
                "Settled attitude", ["scenario", "implementation", "contact", "signal",
                                     "value [deg]", "paper"], rows,
                f"Mean over the last {SETTLE_WINDOW:g} s of each run."))

    def l5(self, ctx: ladder.Context) -> Rung:
        return Rung("recomputed", "the paper's settled no-controller inclinations are held "
                                  "back; recomputed values are tabulated next to its statements")

    def extra_tasks(self, inp: ladder.Inputs) -> dict:
        """The touchdown's reference runs of every scenario (landing_gear.touchdown); the
        budget's runs at dt/2 and each erratum's run with only that equation printed, all
        on slope_lc."""
        reference = touchdown.tasks(inp.params, SCENARIOS, inp.scenarios, inp.desc_dir)
        if "slope_lc" not in inp.scenarios:
            return reference
        sc, d = SCENARIOS["slope_lc"], inp.desc_dir
        half = inp.params.with_(dt=inp.params.dt / 2)
        tasks = {f"budget {impl} {mass} {contact} dt/2":
                 (run_one, (half, sc, impl, contact, d), {"mass_model": mass, "until": inp.until})
                 for impl, contact, mass in BUDGET_RUNS}
        tasks.update({f"erratum {eq}": (run_one, (inp.params, sc, "handrolled", "shared", d),
                                        {"forms": forms, "until": inp.until})
                      for eq, forms in ERRATA_FORMS.items()})
        return {**reference, **tasks}

    def scenario_extras(self, ctx: ladder.Context, sc: Scenario, variant: ladder.Variant,
                        wide: dict[str, pd.DataFrame]) -> tuple[dict, list, list]:
        """The touchdown judged against the decoupled model with engine leg terms, where
        the hand-rolled model runs (shared contact)."""
        names = {run: touchdown.task_name(sc.name, run) for run in touchdown.RUNS}
        if ("handrolled" not in wide
                or any(f"{ROBOT} {n}" not in ctx.outcomes for n in names.values())):
            return {}, [], []
        ref = {run: ctx.result(n) for run, n in names.items()}
        return {}, touchdown.rows(ROBOT, sc.name, variant.name, wide["handrolled"], ref), []

    def budget(self, ctx: ladder.Context) -> list[BudgetRow]:
        if ("slope_lc", "shared") not in ctx.wide:
            return []
        return _budget(ctx)

    def errata(self, ctx: ladder.Context) -> list[Erratum]:
        if ("slope_lc", "shared") not in ctx.wide:
            return []
        return _errata(ctx)

    def notes(self, ctx: ladder.Context) -> list[str]:
        return _notes(ctx)


LADDER = LandingGearLadder()


def contact_warning(p: LandingGearParams) -> str | None:
    """A warning where the contact spring cannot carry the robot: the static penetration of
    eq. (26)'s spring under the weight shared by four feet, m g / (4 k), beyond the lower
    link's length means the body sinks through the ground and no figure describes a
    landing."""
    delta = p.m * p.g / (4.0 * p.k)
    if delta <= p.l_L:
        return None
    return (f"WARNING: physically meaningless contact. With k = {p.k:g} N/m the four feet "
            f"carry the weight at a static penetration m g / (4 k) = {delta:.3g} m, more than "
            f"the lower link (l_L = {p.l_L:g} m): the body sinks through the ground, and "
            "this chapter's figures describe no landing.")


def _notes(ctx: ladder.Context) -> list[str]:
    """What a reader should take from the figures, computed from them."""
    warning = contact_warning(ctx.params)
    notes = [warning] if warning else []
    notes += [
        "The hand-rolled model is the paper's decoupled model: a point mass m with inertia I "
        "at the body centre (eqs. 1-9) and four fixed-base two-link legs (eqs. 12-14) whose "
        "foot forces reach the body only through the ground. MuJoCo, PyBullet and Drake "
        "integrate the full multibody (body plus eight joints) from the generated MJCF/URDF "
        "(Drake on the 20 deg slope with the shared contact law only: dynval gives it no "
        "ground); the same "
        "controller code and, in shared mode, the same contact law read each one's state."]
    for r in ctx.rows:
        if r.metric == "settled_spread_rel" and r.passed is False:
            notes.append(
                f"{r.candidate} with {r.variant} contact in {r.scenario}: the four normal "
                f"forces settle {100 * r.value:.0f} % apart (requirement 5 %). The stance is "
                "statically indeterminate; at rest MuJoCo's soft contact acts as a spring of "
                "stiffness k d/(1-d) per foot (d = 0.99 from solimp: 99 k), so sub-millimetre "
                "height differences shift the load between feet. Lowering d towards 0.5 "
                "restores k but softens the friction constraint, which then lets the gear "
                "creep down the slope. With the paper's contact law (shared) the same engine "
                "meets the requirement.")
    nolc = [(impl, v, sig, _settled(df, sig) * DEG)
            for (sc, v), wide in ctx.wide.items() if sc == "slope_nolc"
            for impl, df in wide.items() for sig in ("body.roll", "body.pitch")]
    if nolc:
        parts = ", ".join(f"{impl} {v} {sig.split('.')[1]} {val:.2f}"
                          for impl, v, sig, val in nolc)
        notes.append("Without the level controller the gear settles on the 20/30 deg slope at "
                     f"(deg) {parts}. The paper's values are held back; its Fig. 5 says the "
                     "body would settle inclined in both roll and pitch, as all four do here.")
    return notes


def _budget(ctx: ladder.Context) -> list[BudgetRow]:
    """Toggle one modelling difference at a time on slope_lc (RMS differences).

    The chain runs at dt/2: MuJoCo's native contact on the as-built legs (knee inertia
    m_L l_L^2 / 3, K_D/M ~ 8200 1/s) chatters at dt; the step itself is a component."""
    p = ctx.params
    hand, mj_derived, mj_built, mj_built_native = (
        ctx.result(f"budget {impl} {mass} {contact} dt/2") for impl, contact, mass in BUDGET_RUNS)
    steps = [
        (f"integrator step (dt = {p.dt:g} s vs dt/2, MuJoCo as derived, shared)",
         ctx.wide[("slope_lc", "shared")]["mujoco"], mj_derived),
        ("decoupling (paper model vs multibody, as derived, shared)", hand, mj_derived),
        ("mass model (as derived vs as built, MuJoCo shared)", mj_derived, mj_built),
        ("contact mode (shared vs native, MuJoCo as built)", mj_built, mj_built_native),
        ("total (paper model vs MuJoCo as built, native)", hand, mj_built_native),
    ]
    return ladder.budget_rows("slope_lc", steps, (
        ("body.roll", DEG, "deg"), ("body.pitch", DEG, "deg"), ("com.x", 1000.0, "mm"),
        ("com.z", 1000.0, "mm")))


def _errata(ctx: ladder.Context) -> list[Erratum]:
    """The three printed-equation errata with audit evidence and scenario effect."""
    shared_lc = ctx.wide[("slope_lc", "shared")]
    dyn = ctx.audit.dynamics

    def effect(eq: str) -> str:
        try:
            df = ctx.result(f"erratum {eq}")
        except harness.DivergenceError as exc:
            return f"with only this equation printed the slope_lc landing diverges ({exc})"
        roll, pitch = _settled(df, "body.roll") * DEG, _settled(df, "body.pitch") * DEG
        base_r = _settled(shared_lc["handrolled"], "body.roll") * DEG
        base_p = _settled(shared_lc["handrolled"], "body.pitch") * DEG
        return (f"slope_lc with only this equation printed settles at roll {roll:.2f} deg, "
                f"pitch {pitch:.2f} deg (corrected: {base_r:.3f}, {base_p:.3f} deg)")

    g = max((r for r in dyn if r.form == "printed" and r.term == "G"),
            key=lambda r: r.max_rel_error)
    m = next(r for r in dyn if r.form == "printed" and r.equation.startswith("(7)"))
    return [
        Erratum("(12)", "gravity, hip", "(m_U - m_L) g l_U cos(theta_h)",
                "(m_U + m_L) g l_U cos(theta_h)",
                f"audit vs {g.reference}: printed G off by up to {g.max_abs_error:.3f} N m "
                f"(= 2 m_L g l_U), relative {g.max_rel_error:.2f}; the corrected form "
                "agrees with all three engines to round-off; dV/dtheta_h of two end "
                "point masses gives (m_U + m_L)",
                effect("(12)")),
        Erratum("(7)-(9)", "moment sums",
                "M_x = sum(F_y z + F_z y), M_y = sum(F_x z + F_z x), M_z = sum(F_x y + F_y x)",
                "M = sum(r_i x F_i): M_x = sum(y F_z - z F_y), M_y = sum(z F_x - x F_z), "
                "M_z = sum(x F_y - y F_x)",
                f"audit vs r x F over {m.samples} random forces: relative error up to "
                f"{m.max_rel_error:.1f}; one term of each sum has the wrong sign",
                effect("(7)-(9)")),
        Erratum("(21)-(24)", "level controller pitch signs",
                "LF +, LB -, RF -, RB + on y_inc_pitch (diagonal pairs)",
                "LF -, LB +, RF -, RB + (front legs together)",
                "the printed pattern pairs LF with RB, a twist rather than a pitch; with "
                "the right-handed axes implied by roll = theta_z, pitch = theta_x "
                "(x left, y up, z forward) a nose-down pitch needs longer front legs",
                effect("(21)-(24)")),
    ]
