"""The hexapod's declaration for the validation ladder: the audit of eqs. (4) and (6), the
legs' free swing, the paper's two walks (Figs. 4-8) with the shared controller, body
springs and ground law, Tables II and III recomputed, the paper's statements measured and
the errata of the printed forms (dynval.comparisons.ladder.rungs climbs it)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from dynval.comparisons import ladder
from dynval.comparisons.hexapod import budget as error_budget
from dynval.comparisons.hexapod import errata as printed_errata
from dynval.comparisons.hexapod import (
    figures,
    statements,
    sweeps,
    walking,
)
from dynval.comparisons.hexapod.budget import BUDGET_RUNS, BUDGET_SCENARIO, GAIN_RUNS
from dynval.comparisons.hexapod.scenarios import (
    SCENARIOS,
    SETTLE_CYCLES,
    Scenario,
    heun_run,
    run_one,
    scenario_params,
)
from dynval.handrolled.hexapod import fractional, ground
from dynval.handrolled.hexapod.protocol import HexapodLegs
from dynval.results import (
    AssumptionRow,
    BudgetRow,
    DataTable,
    Erratum,
    Known,
    MetricRow,
    NotReproduced,
    Rung,
)
from dynval.robots.hexapod.params import HexapodParams

ROBOT = statements.ROBOT
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
BODY_BAND = 0.01  # [m]
# Walking (comparisons/hexapod/walking.py), judged on the last cycle
REQ_AIRBORNE = ("the robot walks, it never flies: samples of the judged cycle with no foot "
                "on the ground (0: the plan always has a foot down)")
SUPPORT_TOL = walking.SUPPORT_FRACTION  # of the planned support samples
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
REQ_BODY = ("the body walks, it does not fall: the hips stay within 1 cm of H_B (Table I's "
            "0.9 m): twice the wave gait's own excursion on its feet (WG_50, judged cycle: "
            "4.4 mm from H_B, a 5 mm range, the legs' compliance under the tripods' load "
            "transfer); the paper gives no body height trace")
# Table III as printed (exact binary fractions) and the tolerance of a recomputation
TABLE_III = ([1.0, -2.25, 1.6875, -0.46875, 0.03515625],
             [1.0, -1.75, 0.9375, -0.15625, 0.00390625])
TABLE_III_TOL = 1e-12
TABLE_II_TOL = 0.5  # the printed integers' rounding
PADE_FREQUENCIES = (0.5, 1.0, 2.0, 5.0, 20.0, 100.0, 500.0)  # [Hz] eq. (16)'s response table
# The premise of every scenario: the paper's set-up (hand-rolled, shared laws) walks by the
# walking requirements' own bounds (module walking); where it does not, the scenario is
# not reproduced. Why, where measured so (the 'Does it walk?' table tries other gains):
PREMISE = "the gait walks on its feet with the paper's set-up (hand-rolled, shared laws)"
WHY_NOT_WALKING = {
    "EPFC_35": "with beta = 35 % two or three feet carry the segmented body and its "
               "vertical springs (K_yH = 1e4 N/m) let the unsupported segments sag; it walks "
               "with the position loop and a body ten times stiffer (K_yH = 1e5)",
    "WG_50_sine": "the sinusoidal transfer (1b) lands the feet with the tripods still "
                  "pushing off; no G_c2 tried keeps it down",
    "WG_50_backlash": "the gear impacts (9b)-(9c), one a joint a step, kick the legs off "
                      "the ground",
}
# The run's own sensitivity, to judge L4 by (ladder.evidence.Chaos): a hand-rolled run
# from a start moved by SENSITIVITY_SHIFT. Where that moves a compared signal by more than
# its tolerance, two implementations that differ by round-off can too (a hopping run
# amplifies it through its impacts), and an L4 difference no larger than
# SENSITIVITY_FACTOR times that is known (chaos).
SENSITIVITY_SHIFT = 1e-12  # [m], segment 1's start height
SENSITIVITY_FACTOR = 10.0
NATIVE_CAUSE = ("the engines' native contact is not eq. (12)'s ground (no touchdown-point "
                "spring, no penetration-scaled damping)")


class HexapodLadder(ladder.RobotLadder):
    robot = ROBOT
    title = "Planar hexapod with a compliant body"
    paper = ("Silva, Tenreiro Machado, Lopes: Modelling and simulation of artificial "
             "locomotion systems (Robotica 23, 2005)")
    contact_modes = ladder.CONTACT_MODES
    # Drake too: the segments stand on slides from the ground, and the shared ground law
    # needs none of an engine's own contact (which dynval gives Drake not); on the budget's
    # walk only: its loop steps from Python (4x MuJoCo's compiled loop), so it runs where
    # the paper's figures are, not on every variant of the model
    implementations = (*ladder.IMPLEMENTATIONS, "drake")
    only_in = {"drake": ("WG_50",)}
    readable_seconds = 0.25  # fast/ against the readable laws: 5000 steps in Python
    chaos = ladder.Chaos(SENSITIVITY_SHIFT, SENSITIVITY_FACTOR, "segment 1's start height [m]")
    l1_what = "foot p_F, J_F of eq. (6) and J of eq. (4c), one leg and whole robot, vs engines"
    l2_what = "H, c, g and inverse dynamics Gamma of eq. (6), one leg and whole robot"
    audit_reason = "round-off: the closed-form eq. (6) and the engines describe the same tree"
    budget_what = ("WG beta = 50 %, hand-rolled: the ground model, the transmission model, the "
                   "controller's discretisation and the integrator step changed one at a "
                   "time, the formulation (hand-rolled vs MuJoCo) and the contact law (eq. "
                   "(12) vs MuJoCo's native contact)")

    def swung(self, p: HexapodParams) -> list[ladder.Swung]:
        return [ladder.Swung("legs on the welded segments", HexapodLegs(p),
                             "hexapod_fixed.urdf", (0.0, 0.0, -p.g))]

    def variants(self, sc: Scenario) -> list[ladder.Variant]:
        shared = ladder.Variant.shared(TOLERANCES, self.shared_runs(sc))
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
        return out

    def known_difference(self, row: MetricRow, ctx: ladder.Context) -> Known | None:
        """A native-contact requirement that the same engine meets with the paper's ground
        (the shared variant, the counterfactual) fails for its contact law (ablation);
        agreement rows are judged by the run's own sensitivity (``chaos``)."""
        if row.kind == "requirement" and row.variant == "native":
            return ladder.ablation(row, ctx.rows, NATIVE_CAUSE, variant="shared")
        return None

    def premise(self, ctx: ladder.Context, sc: Scenario, variant: ladder.Variant,
                wide: dict[str, pd.DataFrame]) -> NotReproduced | None:
        """Whether the paper's set-up walks (module walking, on the hand-rolled shared
        run): never airborne, the planned support kept within SUPPORT_TOL, no slip past
        SLIP_TOL."""
        if variant.name != "shared" or "handrolled" not in wide:
            return None
        df, p = wide["handrolled"], scenario_params(ctx.params, sc)
        up = walking.airborne(df, p)
        miss, planned = walking.support_misses(df, p)
        off, slid = miss / max(planned, 1), walking.slip(df, p)
        if up == 0 and off <= SUPPORT_TOL and slid <= SLIP_TOL:
            return None
        why = f"; {WHY_NOT_WALKING[sc.name]}" if sc.name in WHY_NOT_WALKING else ""
        return NotReproduced(sc.name, PREMISE,
                             f"{up} of {len(df)} samples with no foot down, {100 * off:.1f} % "
                             f"of the planned support off the ground (bound "
                             f"{100 * SUPPORT_TOL:g} %), slip {1e3 * slid:.1f} mm (bound "
                             f"{1e3 * SLIP_TOL:g} mm){why}")

    def budget(self, ctx: ladder.Context) -> list[BudgetRow]:
        return error_budget.budget(ctx)

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
        return figures.scenario_figures(sc, variant)

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
        """The paper's qualitative statements of Sec. V.2 measured on the hand-rolled runs,
        each not testable where its premises are not met (a run that does not walk)."""
        st = statements.measured(ctx.params, {n: w["handrolled"]
                                              for n, w in ctx.runs("shared").items()})
        ctx.rows += [s.row for s in st if s.row is not None]
        if st:
            untested = sum(s.holds is None for s in st)
            ctx.chapter.tables.append(DataTable(
                "The paper's statements (Sec. V.2, Figs. 4-17), measured on the hand-rolled "
                "runs", ["statement", "value", "compared with", "verdict"],
                [s.cells() for s in st],
                f"{untested} of the {len(st)} statements cannot be tested here (a run they "
                "are measured on does not walk, or the event they refer to is missing); of "
                f"the {len(st) - untested} tested, {sum(s.holds is False for s in st)} do "
                "not hold. Measured on the hand-rolled runs; the engines' runs part from "
                "them where a run hops, so a figure of a hopping run belongs to the "
                f"implementation: {_peak_torques(ctx)}. Leg 1's contacts are read from its "
                "ground force; its landing is its first touchdown after its transfer."))

    def l5(self, ctx: ladder.Context) -> Rung:
        pub = [r for r in ctx.rows if r.scenario in ("Table II", "Table III")]
        ok = all(r.passed for r in pub)
        t2 = next(r for r in pub if r.scenario == "Table II")
        t3 = next(r for r in pub if r.scenario == "Table III")
        said = [r for r in ctx.rows if r.kind == "statement"]
        untested = sum(r.passed is None for r in said)
        return Rung("reproduced" if t3.passed else "differs", (
            f"Table III's ten Pade coefficients reproduced within {t3.value:.1e} (exact "
            f"binary fractions). Table II recomputed (fitted): three constants read off the "
            f"table give its 28 cells within {t2.value:.2g} of the printed integers "
            f"(tolerance {TABLE_II_TOL:g}, their rounding), a consistency check, not a "
            f"reproduction{'' if ok else ', and it fails'}; its dampings contradict Sec. IV's "
            "zeta < 0.15 (erratum). The walks' figures are plots without numbers: of the "
            f"{len(said)} statements measured on them {untested} cannot be tested here (a "
            f"run that hops), and of the {len(said) - untested} tested "
            f"{sum(r.passed is False for r in said)} do not hold (the statements table)."))

    def errata(self, ctx: ladder.Context) -> list[Erratum]:
        return printed_errata.errata(ctx.params)

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
            "Every implementation (the hand-rolled model, MuJoCo, PyBullet and, on the wave "
            "gait, Drake, whose discrete step is the same scheme) integrates the same rigid "
            "tree (the "
            "segments on slide x / slide z joints, the legs on hip and knee hinges) by "
            "semi-implicit Euler at "
            f"f_sr = {p.f_sr:g} Hz, with the controller (eqs. 14-16 at f_sc = {p.f_sc:g} Hz), "
            "the saturated ideal drive (7), the body springs (10) and the ground (12) "
            "evaluated in shared code from each one's own state and applied as slide forces, "
            "joint torques and foot point forces. The paper integrates by Heun's RK2 "
            "(dynval.handrolled.hexapod.robot.PlanarHexapod.step); the engines have no such "
            "scheme, so the comparison uses theirs, and the budget's 'integrator' rows run "
            "the hand-rolled Heun walk (scenarios.heun_run).",
            "Drake runs the wave gait WG beta = 50 % with the shared ground law only: dynval "
            "gives Drake no ground of its own, so the native-contact runs are MuJoCo's and "
            "PyBullet's. Its loop steps from Python, the laws compiled (MuJoCo and PyBullet "
            "run the whole loop compiled).",
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
            + _walking_note(ctx),
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


def _walking_note(ctx: ladder.Context) -> str:
    """Which gaits this run measured as not walking (L4's scenarios not reproduced)."""
    if ctx.inputs.until is not None:
        return ("The ci tier's shortened runs start from the stance, not the judged cycle: "
                "whether a gait walks is not judged there.")
    missed = [nr.scenario for nr in ctx.chapter.not_reproduced]
    if not missed:
        return "Every gait run walks on its feet with the paper's set-up (L4's premise)."
    return ("With Table IV's G_c1 " + ", ".join(missed) + " do not walk with the paper's "
            "set-up (measured: L4's scenarios not reproduced, with the evidence): their "
            "figures come from runs that hop, and their walking requirements are counted "
            "as not reproduced, not judged.")


def _peak_torques(ctx: ladder.Context) -> str:
    """Each shared-contact run's peak |tau_11I| in every implementation, in words: how far
    a statement's measurement on the hand-rolled run carries to the others."""
    sig = f"joint.{LEG}.hip.torque_inertial"
    parts = []
    for name, wide in ctx.runs("shared").items():
        peaks = {impl: float(df[sig].abs().max()) for impl, df in wide.items() if sig in df}
        parts.append(f"{name} " + ", ".join(f"{v:.0f}" for v in peaks.values())
                     + f" N m ({', '.join(peaks)})")
    return "the peak inertial hip torque |tau_11I| is " + "; ".join(parts)
