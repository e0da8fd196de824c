"""The rover's declaration for the validation ladder: L0 descriptions, L1/L2 audit on
the explicit chain, the wheel-force erratum, L3 integrator convergence, and the thesis'
scenarios (L4) with its tables recomputed (L5) (dynval.comparisons.ladder.rungs climbs it)."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pandas as pd

from dynval.comparisons import ladder
from dynval.comparisons.ladder import assumed
from dynval.comparisons.rover import (
    audit,
    convergence,
    drawbar_readings,
    estimates,
    settling,
    soil_tables,
    step_halving,
    turning_sweep,
)
from dynval.comparisons.rover import errata as printed_errata
from dynval.comparisons.rover import tables as tables_
from dynval.comparisons.rover.errata import ERRATUM_DURATIONS
from dynval.comparisons.rover.scenarios import (
    SCENARIOS,
    Scenario,
    initial_state,
    run_one,
    scenario_params,
)
from dynval.results import (
    AssumptionRow,
    BudgetRow,
    DataTable,
    Erratum,
    MetricRow,
    Rung,
    TrajectoryRow,
)
from dynval.robots.rover.model_description import segment_name
from dynval.robots.rover.params import ASSUMPTIONS, SIDES, RoverParams
from dynval.robots.rover.soil import load_soil

ROBOT = "rover"
DEG = 180.0 / math.pi

# Straight driving keeps its heading: the thesis reports 1e-8 deg after 60 s; the
# requirement is 1e-6 deg. Equal wheel powers make the problem mirror-symmetric, so any heading
# change is round-off growth.
HEADING_TOL_DEG = 1e-6
REQ_HEADING = ("requirement: straight driving keeps its heading to 1e-6 deg over 60 s "
               "(mirror symmetry; the thesis reports 1e-8 deg)")
# Steady state: the thesis' check that accelerations stay near zero (Table 4.6). Drift of
# the speed over 5 s relative to the speed itself: the steady-state solver converges to
# 1e-10 in slip, the integrator's O(dt) error on a constant state is nil.
DRIFT_TOL = 1e-3
REQ_DRIFT = ("thesis section 4.2.3: starting at steady state the rover keeps its state; "
             "0.1 % of the speed after 5 s allows for the solver tolerance")


SOIL_422 = "lunar_soil_simulant"  # Ishigami's wheel of section 4.2.2 ran on lunar simulant

# Scenarios drawn in the report when the whole set runs (one or two of each section); a
# run of a few chosen scenarios draws them all. Every scenario's numbers are in its table.
FIGURE_SCENARIOS = ("steady_A", "straight_3", "disturbed_3_50", "disturbed_6_100",
                    "drawbar_175", "pd_disturbed_6", "pd_disturbed_6_alt", "turn_3_15",
                    "maneuver_1.5")
# Signals compared against MuJoCo on the moving scenarios (every signal on the steady
# ones): the motion, the turning joint and one wheel.
STEADY_SECTIONS = ("4.2.3", "5.1.1")  # runs that start at, and keep, a steady state
KEY_SIGNALS = ("rover.x", "rover.y", "rover.speed", "rover.heading", "rover.pitch",
               "joint.q7.angle", "wheel.rear_left.sinkage", "wheel.rear_left.torque")


# The error budget on the 1.5 m/s maneuver (Figs. 5.15-5.19: steering, the turning joint and
# the soil all at work): hand-rolled runs with one choice changed, and the formulation
BUDGET_SCENARIO = "maneuver_1.5"
BUDGET_RUNS = {  # name -> (parameter changes, run_one keywords) of a hand-rolled run
    "budget dt/2": (lambda p: {"dt": p.dt / 2.0}, {}),
    "budget rk4": (lambda p: {}, {"integrator": "rk4"}),
    # the half track w is lost from the thesis (ASSUMPTIONS): 10 % wider
    "budget w + 10 %": (lambda p: {"w": 1.1 * p.w}, {}),
}
BUDGET_SIGNALS = (("rover.x", 1e3, "mm"), ("rover.y", 1e3, "mm"),
                  ("rover.heading", DEG, "deg"), ("rover.speed", 1e3, "mm/s"),
                  ("joint.q7.angle", DEG, "deg"))


def _wheels(p: RoverParams) -> list[str]:
    n = p.n_segments
    return [f"wheel.{segment_name(i, n)}_{s}" for i in range(1, n + 1) for s in SIDES]


def _figures(sc: Scenario, p: RoverParams) -> list:
    wheels = _wheels(p)
    figs = [ladder.TimePlot("Motion",
                            ["rover.speed", "rover.heading", "rover.height", "rover.pitch"]
                            + ([] if sc.rigid else ["joint.q7.angle"]),
                            "Rear segment speed, heading (phi_x), height (dx) and pitch (phi_y)"
                            + ("" if sc.rigid else ", and the turning joint q7") + "."),
            ladder.TimePlot("Wheels",
                            [f"{w}.sinkage" for w in wheels[:2]]
                            + [f"{w}.slip" for w in wheels[:2]],
                            "Sinkage (3.12) and slip ratio (root of (2.18)) of the rear wheels."),
            ladder.PathPlot("Path", "rover.x", "rover.y", "m", 1.0, False,
                            "Rear axle centre in the ground plane.")]
    if sc.q7_command:  # the maneuver's Figures 5.18-5.19: every wheel's sinkage and torque
        figs.append(ladder.TimePlot("Sinkages and torques",
                                    [f"{w}.sinkage" for w in wheels]
                                    + [f"{w}.torque" for w in wheels],
                                    "In a left turn the right wheels sink deeper (Figure 5.18)."))
    return figs


def _table_46(p: RoverParams, soil, wide_store: dict) -> dict:
    """Table 4.6 recomputed: steady-state values of rovers A, B, C and each
    implementation's drift after 5 s."""
    rows = []
    for name in ("A", "B", "C"):
        sc = SCENARIOS[f"steady_{name}"]
        ps = scenario_params(p, sc)
        _, _, T, _, ss = initial_state(ps, sc, soil)
        row = [name, sc.speed, T, ss.s, 100 * ss.z, ss.R]
        for impl in ladder.IMPLEMENTATIONS:
            df = wide_store.get(sc.name, {}).get(impl)
            if df is None:
                row += ["-", "-"]
                continue
            row += [df["rover.speed"].iloc[-1] - sc.speed,
                    100 * (df["wheel.rear_left.sinkage"].iloc[-1] - ss.z)]
        rows.append(row)
    cols = ["rover", "v [m/s]", "T [N m]", "slip", "z0 [cm]", "R [N]"]
    for impl in ladder.IMPLEMENTATIONS:
        cols += [f"{impl} dv 5 s [m/s]", f"{impl} dz0 [cm]"]
    return {"scenario": None, "title": "Table 4.6 recomputed: steady-state test values",
            "columns": cols, "rows": rows,
            "caption": "Per wheel, zero drawbar pull, dry sand (constvel.m); the thesis' "
                       "values are held back. Right: change of speed and rear-left sinkage "
                       "after 5 s from that steady state in each implementation."}


def _steady_rows(p: RoverParams, soil, scenarios: list[str]) -> list[MetricRow]:
    """Table 4.6's recomputed numbers as metric rows, so that ``dynval check`` sees a
    parameter change move them (the thesis' values are held back: no tolerance)."""
    rows = []
    for sc_name in scenarios:
        sc = SCENARIOS[sc_name]
        if sc.section != "4.2.3":
            continue
        _, _, _, _, ss = initial_state(scenario_params(p, sc), sc, soil)
        for signal, value, unit in (("wheel.torque", ss.T, "N m"), ("wheel.slip", ss.s, "-"),
                                    ("wheel.sinkage", ss.z, "m"), ("wheel.R", ss.R, "N")):
            rows.append(ladder.recomputed_row(ROBOT, sc_name, signal, "steady_value", value,
                                              f"Table 4.6 recomputed by constvel [{unit}]"))
    return rows


def _straight_table(wide_store: dict) -> dict:
    rows = []
    for sc_name, sc in SCENARIOS.items():
        if sc.section != "5.1.1":
            continue
        for impl, df in wide_store.get(sc_name, {}).items():
            rows.append([sc.speed, impl, abs(df["joint.q7.angle"].iloc[-1]) * DEG,
                         abs(df["rover.heading"].iloc[-1]) * DEG,
                         abs(df["rover.speed"].iloc[-1] / sc.speed - 1.0)])
    return {"scenario": None, "title": "Section 5.1.1 recomputed: straight driving, 60 s",
            "columns": ["v [m/s]", "implementation", "|q7| [deg]", "|heading change| [deg]",
                        "|speed change| (relative)"], "rows": rows,
            "caption": "The thesis: turning joint angles of order 1e-9 deg, heading shifts of "
                       "1e-8 deg, speeds unchanged to about one part in a million."}


def _requirements(sc_name: str, impl: str, df: pd.DataFrame) -> list[MetricRow]:
    sc = SCENARIOS[sc_name]
    rows = []
    if sc.section == "5.1.1":
        rows.append(ladder.check_row(ROBOT, sc_name, "shared", "rover.heading", impl,
                                     "final_abs_deg", abs(df["rover.heading"].iloc[-1]) * DEG,
                                     HEADING_TOL_DEG, REQ_HEADING))
    if sc.section in ("4.2.3", "5.1.1"):
        rows.append(ladder.check_row(ROBOT, sc_name, "shared", "rover.speed", impl, "drift_rel",
                                     df["rover.speed"].iloc[-1] / sc.speed - 1.0, DRIFT_TOL,
                                     REQ_DRIFT))
    return rows


def _step_convergence(p: RoverParams, desc_dir: Path
                      ) -> tuple[list[TrajectoryRow], list[MetricRow], Rung]:
    """L3: the chapter's trajectory rows, the halving-ratio metric rows and the L3 rung of
    the step convergence on the disturbed drive (dynval.comparisons.rover.step_halving)."""
    l3 = step_halving.convergence(p, desc_dir)
    rows = [
        {"step": r["step"], "comparison": f"{r['comparison']}, {r['signal']}"
         + ("" if r["ratio_to_half_step"] is None
            else f" (difference / difference at dt/2 = {r['ratio_to_half_step']:.2f})"),
         "max_abs": r["max_abs"], "tolerance": None, "reason": r["reason"]}
        for r in l3]
    ratios = [r for r in l3 if r["ratio_to_half_step"] is not None]
    metrics = [MetricRow(
        ROBOT, step_halving.SCENARIO, "L3", f"dt={r['step']:g}", r["signal"], "mujoco",
        r["comparison"].split(" vs ")[0], "halving_ratio", r["ratio_to_half_step"],
        step_halving.MIN_RATIO, bool(r["ratio_to_half_step"] >= step_halving.MIN_RATIO),
        "lower bound: " + r["reason"], "requirement") for r in ratios]
    rung = Rung(
        ladder.rows_verdict(metrics),
        f"disturbed drive, {step_halving.DURATION:g} s at dt "
        f"{', '.join(f'{d:g}' for d in step_halving.STEPS)}: differences from MuJoCo halve "
        f"with the step (ratios {min(r['ratio_to_half_step'] for r in ratios):.2f}-"
        f"{max(r['ratio_to_half_step'] for r in ratios):.2f}): integration error, no "
        "modelling difference")
    return [TrajectoryRow(**r) for r in rows], metrics, rung


def _sweep_tasks(inp: ladder.Inputs) -> dict:
    """Section 5.1.2's knock swept finely at each speed (Figures 5.2-5.5) and section
    5.3.2's settling against the knock for both gain sets: one task per speed (or case)
    and implementation, each running its knocks in turn (a run of the ci tier's first
    second costs less than the task around it). The engines run a subset of knocks
    (dynval.comparisons.rover.turning_sweep, dynval.comparisons.rover.settling)."""
    p, d, until = inp.params, inp.desc_dir, inp.until
    tasks: dict = {}
    if any(SCENARIOS[s].section == "5.1.2" for s in inp.scenarios):
        for v in turning_sweep.SPEEDS:
            for impl in ladder.IMPLEMENTATIONS:
                fr = (turning_sweep.FRACTIONS if impl == "handrolled"
                      else turning_sweep.ENGINE_FRACTIONS)
                tasks[f"5.1.2 sweep {v:g} {impl}"] = (turning_sweep.sweep_speed,
                                                      (p, v, impl, fr, d), {"until": until})
    if any(SCENARIOS[s].section == "5.3.2" for s in inp.scenarios):
        for case in settling.CASES:
            for impl in ladder.IMPLEMENTATIONS:
                fr = settling.FRACTIONS if impl == "handrolled" else settling.ENGINE_FRACTIONS
                tasks[f"5.3.2 settling {case.scenario} {impl}"] = (
                    settling.sweep_case, (p, case.scenario, impl, fr, d), {"until": until})
    return tasks


def _sweep_tables(ctx: ladder.Context, runs: dict) -> list[tuple[list[dict], list[MetricRow]]]:
    """The tables of the two sweeps, where their tasks ran (their note on where the 6 m/s
    maximum levels out goes to ``ctx.store`` for the L5 rung)."""
    out = []
    if any(SCENARIOS[s].section == "5.1.2" for s in ctx.scenarios):
        res = {}
        for v in turning_sweep.SPEEDS:
            for impl in ladder.IMPLEMENTATIONS:
                res[(v, impl)] = ctx.result(f"5.1.2 sweep {v:g} {impl}") + (
                    [] if impl == "handrolled"
                    else turning_sweep.from_scenarios(ctx.params, runs, impl, v))
        tables, rows, ctx.store["levels_out"] = turning_sweep.turning_angle_table(
            res, ctx.params.l)
        out.append((tables, rows))
    if any(SCENARIOS[s].section == "5.3.2" for s in ctx.scenarios):
        res = {(case.scenario, impl): ctx.result(f"5.3.2 settling {case.scenario} {impl}")
               for case in settling.CASES for impl in ladder.IMPLEMENTATIONS}
        out.append(settling.settling_table(res))
    return out


class RoverLadder(ladder.RobotLadder):
    robot = ROBOT
    title = "Passively articulated, segmented-body rover"
    paper = ("Wasserman: Simulation and control of a passively articulated, segmented-body "
             "rover (MSc thesis, University of Maryland, 2007)")
    l1_what = "hub positions (Table 3.1, eq. 3.1) and Jacobians (3.14) vs engines"
    l2_what = ("7-DoF M, velocity terms, gravity, inverse dynamics and wheel-force terms on "
               "the explicit chain")
    audit_reason = ("round-off: the modified Newton-Euler terms and the engines describe the "
                    "same two-body chain")
    # Drake runs the shared wheel-soil law as forces at the hubs (it needs no ground of
    # its own) on Table 4.6's steady states, judged, and on the maneuver of Figs.
    # 5.15-5.19; its loop steps from Python, so not on every knock and speed
    implementations = (*ladder.IMPLEMENTATIONS, "drake")
    only_in = {"drake": ("steady_A", "steady_B", "steady_C", "maneuver_1.5")}

    def conventions(self, p: RoverParams) -> list[str]:
        return super().conventions(p) + [f"ASSUMPTION {k}: {v}" for k, v in ASSUMPTIONS.items()]

    def audit_terms(self, inp: ladder.Inputs) -> ladder.AuditResults:
        p, d, n, seed = inp.params, inp.desc_dir, inp.samples, inp.seed
        return ladder.AuditResults(audit.kinematics_audit(p, d, min(n, 200), seed),
                                   audit.dynamics_audit(p, d, n, seed)
                                   + audit.wheel_force_audit(p, d, min(n, 200), seed))

    # No free swing: the explicit chain floats on its six base joints, and under gravity
    # alone a floating chain released at rest only falls, every segment alike; started
    # tumbling, its turning joints' motion does not depend on the segments' masses (a 1 %
    # heavier m_seg leaves it within 1e-9 m of the file's). The chain's terms are audited
    # at L2, and its moving runs checked here by step halving.
    def trajectory_checks(self, inp: ladder.Inputs):
        if not any(SCENARIOS[s].section == "5.1.2" for s in inp.scenarios):
            return None
        typed, metrics, rung = _step_convergence(inp.params, inp.desc_dir)
        return typed, metrics, rung.note

    assumption_budget = {"w": "half track w"}
    budget_what = ("maneuver at 1.5 m/s, hand-rolled: the integrator step, the integrator "
                   "(semi-implicit Euler vs RK4) and the assumed half track w changed one at a "
                   "time, and the formulation (hand-rolled vs MuJoCo, shared wheel-soil law)")

    def budget(self, ctx: ladder.Context) -> list[BudgetRow]:
        runs = ctx.runs("shared").get(BUDGET_SCENARIO)
        if runs is None:
            return []
        hand = runs["handrolled"]
        # the step carries simcore.m's loop too: the wheel torques follow the powers once a
        # step and are held over the next, a first-order lag that RK4 at the same step
        # keeps (hence the small integrator row beside the large step row)
        steps = [(f"step (dt = {ctx.params.dt:g} s vs dt/2: the scheme and the wheel torques "
                  "updated from the powers once a step)", ctx.result("budget dt/2")),
                 ("integrator at the same step (semi-implicit Euler vs classical RK4)",
                  ctx.result("budget rk4")),
                 (f"half track w (assumed {ctx.params.w:g} m vs 10 % wider)",
                  ctx.result("budget w + 10 %")),
                 ("formulation (hand-rolled vs MuJoCo, shared laws)", runs["mujoco"])]
        return ladder.budget_rows(BUDGET_SCENARIO, ((what, hand, b) for what, b in steps),
                                  BUDGET_SIGNALS)

    def extra_tasks(self, inp: ladder.Inputs) -> dict:
        """The single-wheel studies of section 4.2, Table 4.7's two tests driven for their
        full time with each reading of the printed torques and speeds (section 4.2.4),
        steady_A with the printed sign of eq. (3.30) over 0.05 s and 1 s, the sweeps of
        sections 5.1.2 and 5.3.2 over the knock (``_sweep_tasks``) and the error budget's
        runs of the maneuver."""
        sc, soil = SCENARIOS["steady_A"], load_soil(inp.params.soil)
        budget = {} if BUDGET_SCENARIO not in inp.scenarios else {
            name: (run_one, (replace(inp.params, **changes(inp.params)),
                             SCENARIOS[BUDGET_SCENARIO], "handrolled", "shared", inp.desc_dir),
                   {"until": inp.until, **keywords})
            for name, (changes, keywords) in BUDGET_RUNS.items()}
        return {
            **budget,
            **_sweep_tasks(inp),
            **convergence.tasks(inp.params, SCENARIOS, inp.scenarios, inp.desc_dir,
                                inp.until, run_one),
            "power laws 4.2.1": (soil_tables.power_law_tables, (soil,), {}),
            "single wheel 4.2.2": (soil_tables.single_wheel_table, (load_soil(SOIL_422),), {}),
            **{f"Table 4.8 test {k}": (drawbar_readings.read_test,
                                       (inp.params, name, inp.desc_dir), {})
               for k, name in (("1", "drawbar_10"), ("2", "drawbar_175"))},
            **{f"erratum (3.30) {t:g} s": (run_one, (inp.params, sc, "handrolled", "shared",
                                                     inp.desc_dir),
                                           {"duration": t, "wheel_form": "printed"})
               for t in ERRATUM_DURATIONS}}

    def scenario_extras(self, ctx: ladder.Context, sc: Scenario, variant: ladder.Variant,
                        wide: dict[str, pd.DataFrame]) -> tuple[dict, list, list]:
        """The judged trajectory rows of the moving scenarios (rover.convergence)."""
        names = {impl: convergence.task_name(sc.name, impl)
                 for impl in ("handrolled", convergence.REFERENCE)}
        declared = convergence.task_name(sc.name, "handrolled", "dt")
        if any(f"{ROBOT} {n}" not in ctx.outcomes for n in [*names.values(), declared]):
            return {}, [], []
        halved = {impl: ctx.result(n) for impl, n in names.items()}
        return {}, convergence.rows(ROBOT, sc.name, variant.name, wide, halved,
                                    ctx.result(declared)), []

    def figure_tag(self, sc: Scenario, variant: ladder.Variant) -> str:
        return sc.name

    def variants(self, sc: Scenario) -> list[ladder.Variant]:
        steady = sc.section in STEADY_SECTIONS
        return [ladder.Variant.shared(TOLERANCES if steady else {}, self.shared_runs(sc))]

    def scenario_description(self, sc: Scenario) -> str:
        return f"Thesis section {sc.section}. " + sc.description

    def compared_signals(self, sc: Scenario, variant: ladder.Variant, wide) -> list[str]:
        # every signal on the steady runs; the motion, the turning joint and one wheel on
        # the moving ones
        steady = sc.section in STEADY_SECTIONS
        return [s for s in super().compared_signals(sc, variant, wide)
                if steady or s in KEY_SIGNALS]

    def requirements(self, ctx: ladder.Context, sc: Scenario, variant: ladder.Variant, impl: str,
                     df: pd.DataFrame) -> list[MetricRow]:
        return _requirements(sc.name, impl, df)

    def figures(self, ctx: ladder.Context, sc: Scenario, variant: ladder.Variant):
        if sc.name in FIGURE_SCENARIOS or len(ctx.scenarios) <= len(FIGURE_SCENARIOS):
            return _figures(sc, scenario_params(ctx.params, sc))
        return []

    def recomputed(self, ctx: ladder.Context) -> None:
        p, scenarios = ctx.params, ctx.scenarios
        soil = load_soil(p.soil)
        runs = ctx.runs("shared")
        tables: list[dict] = []
        for section, build in (
                ("4.2.3", lambda: ([_table_46(p, soil, runs)], _steady_rows(p, soil, scenarios))),
                ("4.2.4", lambda: tables_.drawbar_tables(p, soil, runs)),
                ("5.1.2", lambda: tables_.disturbance_table(p, runs)),
                ("5.3.2", lambda: tables_.pd_disturbance_table(runs)),
                ("5.3.3", lambda: tables_.turning_tables(p, runs))):
            if any(SCENARIOS[s].section == section for s in scenarios):
                section_tables, rows = build()
                tables += section_tables
                ctx.rows += rows
        est_table, est_rows, ctx.store["ssl"] = estimates.estimates_422(soil)
        tables.append(est_table)
        ctx.rows += est_rows
        for section_tables, rows in (ctx.result("power laws 4.2.1"),
                                     ctx.result("single wheel 4.2.2"),
                                     tables_.drawbar_readings_table(
                                         ctx.result("Table 4.8 test 1"),
                                         ctx.result("Table 4.8 test 2"))):
            tables += section_tables
            ctx.rows += rows
        if any(SCENARIOS[s].section == "5.1.1" for s in scenarios):
            tables.append(_straight_table(runs))
        for section_tables, rows in _sweep_tables(ctx, runs):
            tables += section_tables
            ctx.rows += rows
        ctx.chapter.tables += [DataTable.from_dict(t) for t in tables]

    def l5(self, ctx: ladder.Context) -> Rung:
        run_sections = sorted({SCENARIOS[s].section for s in ctx.scenarios})
        ssl = ctx.store["ssl"].split(": ")[1]
        return Rung(
            "recomputed",
            "Recomputed: Tables 4.1-4.4 (power laws at zero slip and at the thesis' zero "
            "drawbar pull), Figures 4.4-4.5, the SSL/LRV estimates of 4.2.2 (the LRV in each "
            "soil and gravity; the author's reading, lunar soil simulant in lunar gravity, "
            "puts the top speed near the LRV's design speed as the text says), Table 4.7's "
            "tests driven for their full time against its printed 8.75 m/s (erratum), and "
            f"the runs of sections {', '.join(run_sections)}"
            + (", the 5.1.2 knock swept finely (Figures 5.2-5.5 as curves) and 5.3.2's "
               "settling time against the knock by the thesis' criterion (angle and rate "
               "negligible), both gain sets"
               if "5.1.2" in run_sections or "5.3.2" in run_sections else "")
            + "; the "
            "thesis' own numbers are held back, so most tables stand without a reference. "
            "Printed figures they can be checked against: the SSL rover's measured 6.2 N "
            f"rolling resistance ({ssl}), the ~14 N / ~25 N rut-recovery offsets of 4.2.2 and "
            "175 N per wheel for an unpowered rover-A segment (see the tables and notes)")

    def errata(self, ctx: ladder.Context) -> list[Erratum]:
        wheel = [r for r in ctx.audit.dynamics if r.term == "F[F_w] + N[N_w]"]
        errata = [printed_errata.wheel_force_erratum(ctx, wheel)]
        errata.append(printed_errata.table_47_erratum(ctx.result("Table 4.8 test 2"),
                                        ctx.runs("shared").get("drawbar_175")))
        return [Erratum(**e) for e in errata]

    def assumptions(self, ctx: ladder.Context) -> list[AssumptionRow]:
        """The assumed parameters, and the thesis' lost values that are not parameters."""
        rows = super().assumptions(ctx)
        named = {r.symbol for r in rows}
        return rows + [AssumptionRow(k, "-", "-", why, assumed.NOT_SWEPT)
                       for k, why in ASSUMPTIONS.items() if k not in named]

    def notes(self, ctx: ladder.Context) -> list[str]:
        levels_out = ctx.store.get("levels_out")
        return _notes(ctx.params, load_soil(ctx.params.soil)) + (
            [f"Section 5.1.2, where the 6 m/s maximum levels out: {levels_out}"]
            if levels_out else [])


LADDER = RoverLadder()

# Agreement of the engine-backed runs with MuJoCo on the steady scenarios (4.2.3, 5.1.1).
# From a steady state the three implementations stay at that state; differences are
# round-off (measured 1e-11 m/s on speed) and any drift shows as a failed requirement. On
# moving scenarios the differences are integration error, checked by L3's step halving.
TOLERANCES = {
    ("rover.speed", "max_abs"): ladder.Tolerance(
        "max_abs", 1e-6, "same steady state, same wheel-soil law: speeds agree to the "
        "steady-state solver's tolerance"),
}


def _notes(p: RoverParams, soil) -> list[str]:
    from dynval.handrolled.rover.steady_state import constvel

    ss = constvel(200.0, p.g, 0.5, 0.2, soil, 0.0)
    return [
        "The hand-rolled model is the thesis' modified Newton-Euler chain of Table 3.1 (3 "
        "prismatic, 3 revolute base joints and the turning joint), integrated by eqs. "
        "(4.1)-(4.2). MuJoCo and PyBullet integrate the same two rigid segments from the "
        "generated MJCF/URDF (free rear segment, hinge). Every implementation gets its wheel "
        "forces from the same wheel-soil code (sections 3.2.1-3.2.4) evaluated on its own "
        "hub poses and velocities; the forces act at the hubs.",
        f"Cross-check with a printed number: section 4.2.4 says overcoming the rolling "
        f"resistance of an unpowered segment of rover A means 175 N per wheel; the steady "
        f"state here gives R = {ss.R:.1f} N per wheel for rover A on dry sand.",
    ]
