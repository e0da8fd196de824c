"""The hopper's declaration for the validation ladder: the SOA audit, the passive bounce,
the paper's two experiments in both contact modes, its claims measured, the errata with
their effect and the error budget of the speed run (dynval.comparisons.ladder.rungs climbs it)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from dynval.comparisons.hopper import audit, claims, trajectories
from dynval.comparisons.hopper.scenarios import (
    CONTACT_MODES,
    ENGINE_IMPLEMENTATIONS,
    IMPLEMENTATIONS,
    SCENARIOS,
    Scenario,
    run_one,
)
from dynval.comparisons.ladder import harness
from dynval.comparisons.ladder.metrics import Tolerance, check_row, recomputed_row, rms_diff
from dynval.comparisons.ladder.rungs import (
    AuditResults,
    Context,
    Inputs,
    PathPlot,
    RobotLadder,
    TimePlot,
    Variant,
)
from dynval.handrolled.hopper.contact import contact_stiffness, static_penetration
from dynval.results import BudgetRow, DataTable, Erratum, MetricRow, Rung

ROBOT = "hopper"
DEG = 180.0 / math.pi
BUDGET_SCENARIO = "speed"

# Shared contact: one model, one integrator, one contact law read from each state; what
# is left is round-off grown through the controller's phase switches. Each bound is a
# hundredth of what the paper's figures resolve: the 0.1 m apex-height steps of Fig. 6, the
# 0.4 m/s speed steps of Fig. 7, and a degree of attitude.
TOLERANCES = {
    ("com.z", "max_abs"): Tolerance("max_abs", 1e-3, "1 % of the 0.1 m height steps of Fig. 6"),
    ("com.vx", "max_abs"): Tolerance("max_abs", 4e-3, "1 % of the 0.4 m/s speed steps of Fig. 7"),
    ("body.pitch", "max_abs"): Tolerance("max_abs", 0.01 / DEG,
                                         "1 % of a degree of body attitude"),
}
BALANCE_DEG = 20.0
REQ_BALANCE = ("requirement: the robot keeps its balance; past 20 deg of body pitch the "
               "stance torque that rights it would exceed what friction holds (mu = 0.8)")


class HopperLadder(RobotLadder):
    robot = ROBOT
    title = "One-legged hopping robot"
    paper = "Bamyaci, Yazar, Yesiloglu: Modelling and Control of Single Legged Hopping Robot"
    contact_modes = CONTACT_MODES
    l1_what = "tip position, Jacobian (9) and tip velocity (1)-(3) vs engines"
    l2_what = "M, C, gravity, tau and M_b of eq. (19) as operator products vs engines"
    audit_reason = ("round-off: the operator products and the engines describe the same "
                    "chain")
    budget_what = ("integrator step, friction regularisation, controller sampling, contact "
                   "law and formulation toggled one at a time on the speed run")

    def audit_terms(self, inp: Inputs) -> AuditResults:
        p, d, n, seed = inp.params, inp.desc_dir, inp.samples, inp.seed
        return AuditResults(audit.kinematics_audit(p, d, min(n, 200), seed),
                            audit.dynamics_audit(p, d, n, seed))

    def l3(self, inp: Inputs):
        return trajectories.bounce(inp.params, inp.desc_dir, inp.until)

    def variants(self, sc: Scenario) -> list[Variant]:
        # Native contact is each engine's own law (MuJoCo's soft constraint, PyBullet's
        # ERP/CFM spring): reported without a tolerance.
        return [Variant("shared", tuple((i, "shared") for i in IMPLEMENTATIONS), TOLERANCES),
                Variant("native", tuple((i, "native") for i in ENGINE_IMPLEMENTATIONS))]

    def requirements(self, ctx: Context, sc: Scenario, variant: Variant, impl: str,
                     df: pd.DataFrame) -> list[MetricRow]:
        return [check_row(ROBOT, sc.name, variant.name, "body.pitch", impl, "max_abs_deg",
                          float(np.max(np.abs(df["body.pitch"]))) * DEG, BALANCE_DEG,
                          REQ_BALANCE)]

    def figures(self, ctx: Context, sc: Scenario, variant: Variant) -> list:
        ref = "hopper.height_ref" if sc.name == "height" else "hopper.speed_ref"
        main = (TimePlot("Fig. 6: hopping height", ["com.z", ref],
                         "Body-centre height and the apex reference h_d of eq. (20).")
                if sc.name == "height" else
                TimePlot("Fig. 7: forward speed", ["com.vx", ref],
                         "Body forward speed and the reference of eq. (21)."))
        return [
            main,
            TimePlot("Body attitude", ["body.pitch"], "Body pitch phi (eq. 23)."),
            TimePlot("Hip", ["joint.hip.angle", "joint.hip.torque"],
                     "Hip angle theta_1 and torque (eqs. 22-23)."),
            TimePlot("Leg", ["joint.leg.extension", "joint.leg.force", "hopper.thrust"],
                     "Leg length, leg force (spring, stop and thrust) and the thrust "
                     "Delta l of eq. (20)."),
            TimePlot("Ground force", ["foot.force.normal", "foot.force.x"],
                     "Normal force (eq. 24) and friction (eq. 25) on the foot."),
            PathPlot("Body path in the x-z plane", "com.x", "com.z", "m", 1.0, False,
                     "Body centre in the plane of motion."),
        ]

    def recomputed(self, ctx: Context) -> None:
        """The paper's claims measured on every run (Sec. 6)."""
        for (sc_name, v), wide in ctx.wide.items():
            sc = SCENARIOS[sc_name]
            rows = []
            for impl, df in wide.items():
                if sc_name == "height":
                    rows += [[impl, v, f"{h:.2f} m", f"{m:.3f} m", f"{e * 1000:+.0f} mm"]
                             for h, m, e in claims.height_errors(df, sc)]
                else:
                    rows += [[impl, v, f"{r:.1f} m/s", f"{m:.3f} m/s", f"{ph * DEG:+.2f} deg"]
                             for r, m, ph in claims.speed_errors(df, sc)]
                kicks = claims.speed_kicks(df)
                if len(kicks):
                    ctx.rows.append(recomputed_row(
                        ROBOT, sc_name, "com.vx", "max_liftoff_kick", float(kicks.max()),
                        "Sec. 6: the forward speed jumps after lift-off (largest change within "
                        f"{claims.KICK_WINDOW:g} s of a lift-off) [m/s]", variant=v,
                        candidate=impl))
            if sc_name == "height":
                cols = ["implementation", "contact", "reference h_d", "last 3 apexes",
                        "steady-state error"]
                title = "Steady-state hopping height (Fig. 6)"
            else:
                cols = ["implementation", "contact", "reference", "speed, last 1 s",
                        "pitch, last 1 s"]
                title = "Speed and attitude per speed step (Fig. 7)"
            ctx.chapter.tables.append(DataTable(
                f"{title}, {v} contact", cols, rows,
                "The paper shows these as plots only and states that steady-state errors "
                "remain; measured here.", sc_name))

    def l5(self, ctx: Context) -> Rung:
        kicks = [r for r in ctx.rows if r.metric == "max_liftoff_kick"]
        note = ("the paper publishes no numbers (Figs. 6-7 are unlabelled plots); its claims "
                "are measured: steady-state height error and speed/attitude per step are "
                "tabulated")
        if kicks:
            worst = max(kicks, key=lambda r: r.value)
            note += (f"; the speed kick after lift-off is up to {worst.value:.2f} m/s "
                     f"({worst.candidate}, {worst.scenario}, {worst.variant})")
        return Rung("recomputed", note)

    def extra_tasks(self, inp: Inputs) -> dict:
        """On the speed run: the budget's hand-rolled runs with one thing changed, the
        printed bias (12) through the operator products, and eq. (23) with its sign
        flipped."""
        if BUDGET_SCENARIO not in inp.scenarios:
            return {}
        p, sc, d, until = inp.params, SCENARIOS[BUDGET_SCENARIO], inp.desc_dir, inp.until
        hand = ("handrolled", "shared", d)
        return {
            "budget dt/2": (run_one, (p.with_(dt=p.dt / 2), sc, *hand), {"until": until}),
            "budget v_eps/2": (run_one, (p.with_(v_eps=p.v_eps / 2), sc, *hand),
                               {"until": until}),
            "budget control 1 kHz": (run_one, (p.with_(control_every=round(1e-3 / p.dt)), sc,
                                               *hand), {"until": until}),
            "erratum (12)": (run_one, (p, sc, *hand), {"form": "printed", "until": until}),
            "attitude sign flipped": (run_one, (p, sc, *hand),
                                      {"attitude_sign": -1.0, "until": until}),
        }

    def budget(self, ctx: Context) -> list[BudgetRow]:
        if (BUDGET_SCENARIO, "shared") not in ctx.wide:
            return []
        shared = ctx.wide[(BUDGET_SCENARIO, "shared")]
        native = ctx.wide[(BUDGET_SCENARIO, "native")]
        hand = shared["handrolled"]
        steps = [
            ("integrator step (dt vs dt/2, hand-rolled)", hand, ctx.result("budget dt/2")),
            ("friction regularisation (v_eps vs v_eps/2, hand-rolled)", hand,
             ctx.result("budget v_eps/2")),
            ("controller sampling (every step vs 1 kHz, hand-rolled)", hand,
             ctx.result("budget control 1 kHz")),
            ("formulation (hand-rolled vs MuJoCo, shared contact)", hand, shared["mujoco"]),
            ("contact law (eqs. 24-25 vs MuJoCo's native contact)", shared["mujoco"],
             native["mujoco"]),
        ]
        return [BudgetRow(BUDGET_SCENARIO, sig, comp, rms_diff(a, b, sig, scale),
                          f"{unit} RMS")
                for comp, a, b in steps
                for sig, scale, unit in (("com.x", 1000.0, "mm"), ("com.vx", 1.0, "m/s"),
                                         ("com.z", 1000.0, "mm"), ("body.pitch", DEG, "deg"))]

    def errata(self, ctx: Context) -> list[Erratum]:
        return _errata(ctx)

    def notes(self, ctx: Context) -> list[str]:
        return _notes(ctx)


LADDER = HopperLadder()


def _worst(ctx: Context, term: str) -> str:
    printed = [r for r in ctx.audit.kinematics + ctx.audit.dynamics
               if r.term == term and r.form == "printed"]
    if not printed:
        return f"the printed {term} was not audited"
    w = max(printed, key=lambda r: r.max_rel_error)
    return (f"audit vs {w.reference}: printed {term} off by up to {w.max_abs_error:.3g} "
            f"(relative {w.max_rel_error:.2g}); the corrected form agrees with every engine "
            "to round-off")


def _errata(ctx: Context) -> list[Erratum]:
    out = [Erratum(
        "(1)-(2)", "velocities through the prismatic leg joint",
        "w_2 = w_1 + h_2 theta_2_dot; v_2 = v_1 - l_{1,2} x w_1",
        "w_2 = w_1; v_2 = v_1 - l_{1,2} x w_1 + h_2 theta_2_dot (as (3) with H_2 = [0; h_2] "
        "of (6) has it)",
        _worst(ctx, "v_t"),
        "none on the simulation: the operator form (3), (6) that the paper's SOA computes "
        "with is right; the scalar equations contradict it")]
    if (BUDGET_SCENARIO, "shared") in ctx.wide:
        hand = ctx.wide[(BUDGET_SCENARIO, "shared")]["handrolled"]
        try:
            printed = ctx.result("erratum (12)")
            effect = (f"the speed run with the printed bias: body path differs by "
                      f"{rms_diff(hand, printed, 'com.x', 1000.0):.1f} mm RMS in x, forward "
                      f"speed by {rms_diff(hand, printed, 'com.vx'):.3f} m/s RMS")
        except harness.DivergenceError as exc:
            effect = f"with the printed bias the speed run diverges ({exc})"
        out.append(Erratum(
            "(10)-(12)", "bias acceleration a_k of the prismatic leg",
            "a_2 = [w_1 x w_2; w_1 x (w_1 x l_{1,2})]",
            "a_2 = [0; w_1 x (w_1 x l_{1,2}) + 2 w_1 x h_2 theta_2_dot]: the Coriolis term of "
            "a joint sliding along a turning axis (l_{1,2} grows at theta_2_dot)",
            _worst(ctx, "C"), effect))
    return out


def _notes(ctx: Context) -> list[str]:
    p = ctx.params
    notes = [
        "The hand-rolled model is the paper's spatial operator algebra on the planar chain x, "
        "z, pitch, hip, leg (eq. 19 with y, yaw, roll struck); the simulation uses the O(n) "
        "recursions (12), (15), (18), which the tests hold to the operator products at "
        "round-off, and steps by semi-implicit Euler as the engines do. MuJoCo and PyBullet "
        "integrate the free-base robot of the generated MJCF/URDF; the motion stays in the "
        "x-z plane by symmetry (body.y stays zero).",
        "The paper prints no masses, lengths, gains or ground constants: every number is "
        "Raibert's planar hopper or an assumption, each with its source in the parameter "
        f"table. Eq. (24) with k = {p.k_c:g} N/m^{p.e:g} sinks "
        f"{static_penetration(p) * 1000:.1f} mm under the robot's weight; native contact "
        f"gets the law's slope there, {contact_stiffness(p):.3g} N/m, and c_max as damping.",
    ]
    notes.append(
        "Native contact is each engine's own law, not eq. (24): MuJoCo imposes the contact-point "
        "acceleration -K r - B v of a soft constraint (K, B from the law's slope and c_max, "
        "divided by the foot's apparent mass), PyBullet a spring-damper through its ERP/CFM; "
        "neither has the exponent e = 1.5, the STEP-ramped damping or the pull at lift-off, "
        "so the hops drift apart hop by hop (the budget's contact-law row gives the size on "
        "the speed run).")
    F = [(impl, float(df["foot.force.normal"].min()))
         for (sc, v), wide in ctx.wide.items() if v == "shared" for impl, df in wide.items()]
    if F:
        impl, least = min(F, key=lambda x: x[1])
        notes.append(
            f"Eq. (24) as printed is not clipped at zero: at lift-off its damping term pulls "
            f"the foot down, down to {least:.0f} N ({impl}). The penetration depth d = "
            f"{p.d * 1000:g} mm is below the static penetration, so the full damping c_max "
            "still acts while the spring force fades.")
    if (BUDGET_SCENARIO, "shared") not in ctx.wide:
        return notes
    try:
        flipped = ctx.result("attitude sign flipped")
        pitch = float(np.max(np.abs(flipped["body.pitch"]))) * DEG
        notes.append(f"Eq. (23) with its sign flipped: the speed run stays within {pitch:.1f} "
                     "deg of pitch, so the sign is not what keeps the body upright here.")
    except harness.DivergenceError as exc:
        notes.append(f"Eq. (23) as printed keeps the body upright; with its sign flipped the "
                     f"speed run falls ({exc}). The printed sign is right for a hip torque "
                     "that acts on the leg and back on the body.")
    return notes
