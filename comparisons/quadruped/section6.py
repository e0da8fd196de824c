"""The paper's own check (section 6) as a table and Figs. 5-7: the maximum percentage
error of the back-right HFE joint (acceleration, velocity, displacement) between the
inverse-kinematics plan and the forward dynamics integrated from the inverse dynamics'
torques, at several steps."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, replace

import numpy as np

from dynval.handrolled.quadruped.balance import balanced_trot, diagonal_moment
from dynval.handrolled.quadruped.fast.trip import round_trip_euler
from dynval.handrolled.quadruped.gait import GAITS, TROT, Gait, PlannedState, plan, stance_legs
from dynval.handrolled.quadruped.inverse import feedforward
from dynval.handrolled.quadruped.kinematics import standing_height
from dynval.handrolled.quadruped.robot import QuadrupedModel, build_model
from dynval.handrolled.quadruped.roundtrip import (
    Plans,
    RoundTrip,
    max_percentage_error,
    round_trip,
    round_trips,
)
from dynval.robots.quadruped.params import JOINTS, LEGS, QuadrupedParams

STEPS = (2e-3, 1e-3, 5e-4)  # [s]
# Open loop, the round trip's errors grow with time wherever the motion is unstable (the
# body over its supporting feet is an inverted pendulum), so each gait is checked over a
# horizon that covers a support case: the walk's first second (three legs; its four-leg
# phases follow, with the unbalanced yaw of erratum 4.1), the trot's first half cycle
# (one diagonal pair in the air).
HORIZON = {"walk": 1.0, "trot": 0.3}  # [s]
JOINT = JOINTS.index("HFE") + 3 * LEGS.index("RB")
MIN_RATIO = 1.5  # 2 x 3/4
REASON = ("first-order integration of a dynamically consistent plan: the error must halve "
          "with the step (ratio 2; 1.5 allows for the O(dt^2) terms)")
QUANTITIES = (("acceleration", "thetadd"), ("velocity", "thetad"), ("displacement", "theta"))


# The balanced trot: the paper's trot with the body's lateral path solved
# from the moment balance about the support diagonal (handrolled/quadruped/balance.py),
# over one whole gait cycle; the ci tier's 1 s (Inputs.until) holds one cycle too.  Over
# more cycles open loop, the roll about the support line (an inverted pendulum) grows
# the step's error out of its asymptotic range at these steps.
BALANCED = "balanced trot"
BALANCED_CYCLES = 1
MAX_RATIO = 2.0 * 4.0 / 3.0  # as MIN_RATIO is 2 x 3/4: the same factor either side of 2
BALANCED_REASON = ("first-order integration (semi-implicit Euler) of a dynamically "
                   f"consistent plan: the error halves with the step (ratio 2; {MIN_RATIO:g} "
                   f"to {MAX_RATIO:g} allows for the O(dt^2) terms)")


# The walk with a consistent four-leg split: section 4.1's common X force
# split side by side (handrolled/quadruped/grf.py "side-wise") balances the yaw of the
# four-leg phases.  Open loop, the supported robot under its feedforward torques is
# unstable (an error e-folds in about 0.1 s, measured below), so semi-implicit Euler's
# first-order error leaves its asymptotic range within a second; the classical RK4 keeps
# it there over the first 2 s: the three-leg phases and the first four-leg phase
# (1.6-2.0 s).  The paper's split runs beside it on the same grid.
WALK_SPLITS = ("side-wise", "paper")
WALK_HORIZON = 2.0  # [s]
RK4_STEPS = (4e-3, 2e-3, 1e-3)  # [s]
RK4_MIN, RK4_MAX = 16.0 * 3.0 / 4.0, 16.0 * 4.0 / 3.0  # 2^4 with the trot's 3/4 factor
RK4_REASON = ("fourth-order integration (classical RK4) of a dynamically consistent plan: "
              f"the error falls 16-fold when the step halves ({RK4_MIN:g} to {RK4_MAX:g} "
              "allows for the higher-order terms)")
GROWTH_FROM = 0.8  # [s] the error's exponential growth is fitted from here to the horizon


def run_walk_splits(p: QuadrupedParams, until: float | None = None) -> dict:
    """Section 6's round trip on the walk by RK4 with each four-leg split, over the first
    ``WALK_HORIZON`` seconds: errors and halving ratios per step, the unbalanced wrench,
    and the growth rate of the consistent plan's error (its log-slope at the finest step)
    with what that growth makes of double precision's round-off over a whole cycle."""
    model = build_model(p)
    g_W = np.array([0.0, 0.0, -p.g])
    height = standing_height(p) - p.foot_radius
    walk = GAITS["walk"]
    horizon = WALK_HORIZON if until is None else min(WALK_HORIZON, until)
    four = next(float(t) for t in np.arange(0.0, walk.period, 0.01)
                if len(stance_legs(walk, float(t))) == 4)
    out: dict = {"horizon": horizon, "period": walk.period, "four_leg_from": four,
                 "growth": float("nan")}
    plans = Plans(model, g_W, lambda t: plan(model, walk, t, height))  # one plan for all
    rows: dict[str, list[dict]] = {split: [] for split in WALK_SPLITS}
    for dt in RK4_STEPS:
        trips = round_trips(model, walk, height, g_W, dt, horizon, WALK_SPLITS,
                            integrator="rk4", plans=plans)
        for split, r in trips.items():
            rows[split].append({"gait": f"walk, {split} split", "step": dt, **_errors(r),
                                "residual": float(np.max(np.abs(r.residual))),
                                "roll_deg": float(np.degrees(np.max(np.abs(r.roll))))})
        if dt == RK4_STEPS[-1] and horizon == WALK_HORIZON:
            r = trips[WALK_SPLITS[0]]
            err = np.max(np.abs(r.theta - r.theta_plan), axis=1)
            fit = (r.t >= GROWTH_FROM) & (err > 0.0)
            out["growth"] = (float(np.polyfit(r.t[fit], np.log(err[fit]), 1)[0])
                             if fit.sum() > 10 else float("nan"))
    for split in WALK_SPLITS:
        out[split] = _with_ratios(rows[split])
    lam = out["growth"]  # fitted on the whole horizon only (the ci tier's is too short)
    out["cycle_amplification"] = float(np.exp(lam * walk.period))
    out["round_off_floor_rad"] = float(np.finfo(float).eps * out["cycle_amplification"])
    return out


# The walk over its whole 4 s cycle, by the paper's semi-implicit Euler at
# STEPS: open loop, an error made in one support phase grows through all the next ones (the
# run_walk_splits growth: 1.8e14-fold over a cycle), so each support phase is its own round
# trip from its planned start (roundtrip.round_trip(restart=True)), the six of them
# covering the cycle: three-leg, three-leg, four-leg, three-leg, three-leg, four-leg.  The
# four-leg split is what is compared: the paper's (erratum 4.1) and two that balance the
# body wrench, section 4.1 with one X force per side and the minimum-norm distribution.
CYCLE_SPLITS = ("side-wise", "min-norm", "paper")
CONSISTENT_SPLITS = ("side-wise", "min-norm")
SNAP = 1e-9  # [s] the support at t is the plan's 1 ns later (run_walk_cycle)


def run_walk_cycle(p: QuadrupedParams) -> dict[str, dict]:
    """Section 6's round trip over one whole walk cycle with each four-leg split of
    ``CYCLE_SPLITS``, restarted on the plan at each change of support: errors and halving
    ratios per step, the largest unbalanced body wrench, and the back-right HFE error
    traces (10 ms) for the figure.  Always one whole cycle, in every tier: the cycle is
    the claim.  The first split runs the whole cycle; the others only their four-leg
    phases (``walk_cycle_trip``): the three-leg torques are the same under every split
    and each phase starts on the plan, so the rest is the first split's, bit for bit."""
    model = build_model(p)
    g_W = np.array([0.0, 0.0, -p.g])
    height = standing_height(p) - p.foot_radius
    walk = GAITS["walk"]
    out: dict[str, dict] = {}
    first: dict[float, RoundTrip] = {}
    for split in CYCLE_SPLITS:
        rows, traces = [], {}
        for dt in STEPS:
            r = walk_cycle_trip(model, walk, height, g_W, dt, split, first.get(dt))
            first.setdefault(dt, r)
            four = _four_legs(walk, r.t)
            rows.append({"gait": f"walk cycle, {split} split", "step": dt, **_errors(r),
                         "four_leg_displacement": float(  # against the whole cycle's peak
                             100.0 * np.max(np.abs(r.theta - r.theta_plan)[four, JOINT])
                             / np.max(np.abs(r.theta_plan[:, JOINT]))),
                         "residual": float(np.max(np.abs(r.residual))),
                         "roll_deg": float(np.degrees(np.max(np.abs(r.roll))))})
            every = max(1, int(round(0.01 / dt)))
            traces[dt] = {"t": r.t[::every],
                          "error": (r.theta - r.theta_plan)[::every, JOINT]}
        out[split] = {"split": split, "period": walk.period, "rows": _with_ratios(rows),
                      "restarts": [float(t) for t in _support_changes(walk)],
                      "traces": traces}
    return out


def _four_legs(gait: Gait, ts: np.ndarray) -> np.ndarray:
    """Whether all four feet are planned down at each time (the support 1 ns later)."""
    return np.array([len(stance_legs(gait, float(t) + SNAP)) == 4 for t in ts])


def walk_cycle_trip(model: QuadrupedModel, gait: Gait, height: float, g_W: np.ndarray,
                    dt: float, split: str, three_legs: RoundTrip | None = None) -> RoundTrip:
    """One whole cycle's round trip, phase by phase from the plan (``snapped_planner``),
    compiled (fasttrip.py).  With ``three_legs`` (the same cycle and step under another
    split) only the four-leg phases are integrated, from their planned starts on the same
    time grid, and the three-leg phases are taken from it: they are the same under every
    split (section 4's three-leg forces do not depend on the four-leg split; tested bit for
    bit)."""
    if three_legs is None:
        return round_trip_euler(model, gait, height, g_W, dt, gait.period, split=split,
                                restart=True, snap=SNAP)
    out = RoundTrip(**{f.name: np.array(getattr(three_legs, f.name))
                       for f in fields(RoundTrip)})
    four = np.concatenate([[False], _four_legs(gait, three_legs.t), [False]])
    starts, ends = np.flatnonzero(~four[:-1] & four[1:]), np.flatnonzero(four[:-1] & ~four[1:])
    for k0, k1 in zip(starts, ends, strict=True):
        phase = round_trip_euler(model, gait, height, g_W, dt, (k1 - k0) * dt, split=split,
                                 restart=True, start=k0 * dt, snap=SNAP)
        for f in fields(RoundTrip):
            getattr(out, f.name)[k0:k1] = getattr(phase, f.name)
    return out


def snapped_planner(model: QuadrupedModel, gait: Gait, height: float
                    ) -> Callable[[float], PlannedState]:
    """The gait's plan with the support taken 1 ns later (``SNAP``): at a boundary instant
    the phase t/T + offset is off by round-off (t = 3.6 s of the walk lands 4e-17 of a
    cycle before LF's touchdown), which would start the last four-leg phase a step late
    on some grids and not on others; the foot there is at rest on the ground to round-off
    either way.  The printed planner of what ``walk_cycle_trip`` runs compiled (its
    ``snap``)."""
    def planner(t: float) -> PlannedState:
        return replace(plan(model, gait, t, height), stance=stance_legs(gait, t + SNAP))
    return planner


def _support_changes(gait: Gait, dt: float = 1e-3) -> list[float]:
    """The times in (0, T) where the planned support changes (to the grid ``dt``)."""
    ts = np.arange(0.0, gait.period, dt)
    legs = [stance_legs(gait, float(t) + SNAP) for t in ts]  # as _four_legs
    return [float(t) for t, a, b in zip(ts[1:], legs, legs[1:], strict=False) if a != b]


def walk_cycle_table(res: dict[str, dict]) -> dict:
    """The chapter table and figure of the walk's whole-cycle round trip, one block of
    rows per four-leg split: errors, halving ratios, the unbalanced wrench; the figure
    draws the back-right HFE error times (first step / step), which lies on one curve
    wherever the error is first order in the step."""
    body, panels = [], []
    for split in CYCLE_SPLITS:
        rows = res[split]["rows"]
        for r, nxt in zip(rows, [*rows[1:], None], strict=True):
            ratio = ("-" if r["ratio"] is None else
                     " / ".join(f"{r['ratio'][q]:.2f}" for q, _ in QUANTITIES))
            four = ("" if nxt is None else
                    f" ({r['four_leg_displacement'] / nxt['four_leg_displacement']:.2f})")
            body.append([split, f"{1e3 * r['step']:g}", f"{r['acceleration']:.4g}",
                         f"{r['velocity']:.4g}", f"{r['displacement']:.4g}", ratio,
                         f"{r['four_leg_displacement']:.4g}{four}", f"{r['residual']:.3g}"])
        panels.append({
            "title": f"RB HFE error x ({1e3 * STEPS[0]:g} ms / step), {split} split",
            "xlabel": "t [s]", "ylabel": "deg",
            "series": [{"label": f"dt = {1e3 * dt:g} ms", "x": list(tr["t"]),
                        "y": list(np.degrees(tr["error"]) * STEPS[0] / dt),
                        "style": "-" if k == 0 else "--"}
                       for k, (dt, tr) in enumerate(res[split]["traces"].items())]})
    first = res[CYCLE_SPLITS[0]]
    return {"scenario": None,
            "title": f"Section 6 round trip, walk, one whole {first['period']:g} s cycle "
                     "by four-leg force split",
            "columns": ["four-leg split", "step [ms]", "max error acc. [%]", "vel. [%]",
                        "disp. [%]", "ratio to half step (acc/vel/disp)",
                        "four-leg phases disp. [%] (ratio)", "unbalanced wrench [N, N m]"],
            "rows": body,
            "caption": "The paper's walk plan and its semi-implicit Euler round trip (section "
                       "6) over a whole cycle, each support phase from its planned start "
                       "(restarts at " + ", ".join(f"{t:.1f}" for t in first["restarts"])
                       + " s), with the four-leg ground forces split as section 4.1 prints "
                       "(paper: one X and one Y force for all four feet), with one X force "
                       "per side (side-wise) or by the least sum of squared forces "
                       "(min-norm). Same measure as the other section-6 tables (back-right "
                       "HFE, 100 max|FD - IK| / max|IK| over the cycle; the four-leg column "
                       "takes the maximum over the four-leg phases only, against the same "
                       "peak). Two splits that both supply the wrench differ by "
                       "self-equilibrated foot forces, which the pinned feet take up without "
                       "changing the motion on the plan, so they share the three-leg phases "
                       "exactly and the four-leg phases to within the round trip's own error. "
                       "In the figure the error is scaled by the step: first-order curves "
                       "coincide.",
            "plot": {"panels": panels}}


def walk_splits_table(res: dict) -> dict:
    """The chapter table of the walk's round trip with both four-leg splits (RK4)."""
    body = []
    for split in WALK_SPLITS:
        for r in res[split]:
            ratio = ("-" if r["ratio"] is None else
                     " / ".join(f"{r['ratio'][q]:.2f}" for q, _ in QUANTITIES))
            body.append([split, f"{1e3 * r['step']:g}", f"{r['acceleration']:.4g}",
                         f"{r['velocity']:.4g}", f"{r['displacement']:.4g}", ratio,
                         f"{r['residual']:.3g}", f"{r['roll_deg']:.3g}"])
    return {"scenario": None,
            "title": f"Section 6 round trip, walk, four-leg force splits, "
                     f"RK4, first {res['horizon']:g} s",
            "columns": ["four-leg split", "step [ms]", "max error acc. [%]", "vel. [%]",
                        "disp. [%]", "ratio to half step (acc/vel/disp)",
                        "unbalanced wrench [N, N m]", "max |roll| [deg]"],
            "rows": body,
            "caption": "The paper's walk plan, its torques from section 4's forces with the "
                       "four-leg X force common to all feet (paper, eq. 4.1) or common to "
                       "each side's pair (side-wise: the least change that supplies the yaw "
                       "moment), integrated open loop by classical RK4. Same measure as the "
                       "other section-6 tables (back-right HFE). " + growth_text(res)}


def growth_text(res: dict) -> str:
    """What the walk splits' run says of the open-loop growth (or that its horizon is too
    short to say, and reaches no four-leg phase, as in the ci tier)."""
    if res["horizon"] <= res["four_leg_from"]:
        return (f"This run's {res['horizon']:g} s ends before the first four-leg phase "
                f"({res['four_leg_from']:g} s): both splits give the same torques there.")
    if not np.isfinite(res["growth"]):
        return ""
    return (f"The consistent plan's error grows as exp({res['growth']:.2f} t) from "
            f"{GROWTH_FROM:g} s: over the {res['period']:g} s cycle a factor "
            f"{res['cycle_amplification']:.1e}, which turns double precision's round-off "
            f"alone into {res['round_off_floor_rad']:.1e} rad.")


def _errors(r) -> dict[str, float]:
    return {q: max_percentage_error(getattr(r, f"{a}_plan")[:, JOINT], getattr(r, a)[:, JOINT])
            for q, a in QUANTITIES}


def _with_ratios(rows: list[dict]) -> list[dict]:
    for a, b in zip(rows, rows[1:], strict=False):
        a["ratio"] = {q: a[q] / b[q] if b[q] > 0 else np.nan for q, _ in QUANTITIES}
    rows[-1]["ratio"] = None
    return rows


def run_balanced(p: QuadrupedParams, until: float | None = None,
                 progress: Callable[[str, float], None] | None = None) -> dict:
    """Section 6's round trip on the balanced trot over whole gait cycles at each step:
    the errors, their halving ratios, the largest unbalanced body wrench over the run and
    over a finely sampled cycle, the periodic lateral path's size and its cost."""
    model = build_model(p)
    g_W = np.array([0.0, 0.0, -p.g])
    height = standing_height(p) - p.foot_radius
    bt = balanced_trot(model, TROT, height, g_W)
    cycles = BALANCED_CYCLES if until is None else max(1, min(BALANCED_CYCLES,
                                                              int(until / TROT.period)))
    horizon = cycles * TROT.period
    trips = {}
    plans = Plans(model, g_W, bt.plan)  # the RK4 runs' plan, shared by their steps
    runs = [("euler", dt) for dt in STEPS] + [("rk4", dt) for dt in RK4_STEPS]
    for k, (integrator, dt) in enumerate(runs):
        if progress is not None:
            progress(f"quadruped section 6 {BALANCED}", k / len(runs))
        r = (round_trip_euler(model, TROT, height, g_W, dt, horizon, lateral=bt.lateral)
             if integrator == "euler" else  # RK4's figures hold round-off (fasttrip.py)
             round_trip(model, TROT, height, g_W, dt, horizon, integrator=integrator,
                        plans=plans))
        trips.setdefault(integrator, []).append(
            {"gait": BALANCED, "step": dt, **_errors(r),
             "residual": float(np.max(np.abs(r.residual))),
             "roll_deg": float(np.degrees(np.max(np.abs(r.roll))))})
    ts = np.linspace(0.0, TROT.period, 61)[:-1]
    lateral = np.array([bt.lateral(float(t))[0] for t in ts])
    return {"rows": _with_ratios(trips["euler"]), "rk4": _with_ratios(trips["rk4"]),
            "horizon": horizon, "cycles": cycles,
            "plan_residual": float(max(abs(diagonal_moment(model, bt.plan(float(t)), g_W))
                                       for t in ts)),
            "lateral_mm": (1e3 * float(lateral.min()), 1e3 * float(lateral.max())),
            "evaluations": bt.evaluations}


def balanced_table(res: dict) -> dict:
    """The chapter table of the balanced trot's round trip (error per step and ratio), by
    the paper's semi-implicit Euler and by classical RK4."""
    body = []
    for integrator, rows in (("semi-implicit Euler", res["rows"]), ("RK4", res["rk4"])):
        for r in rows:
            ratio = ("-" if r["ratio"] is None else
                     " / ".join(f"{r['ratio'][q]:.2f}" for q, _ in QUANTITIES))
            body.append([integrator, f"{1e3 * r['step']:g}", f"{r['acceleration']:.4g}",
                         f"{r['velocity']:.4g}", f"{r['displacement']:.4g}", ratio,
                         f"{r['residual']:.3g}", f"{r['roll_deg']:.3g}"])
    lo, hi = res["lateral_mm"]
    return {"scenario": None,
            "title": f"Section 6 round trip, balanced trot, "
                     f"{res['cycles']} gait cycle{'s' if res['cycles'] > 1 else ''} "
                     f"({res['horizon']:g} s)",
            "columns": ["integrator", "step [ms]", "max error acc. [%]", "vel. [%]",
                        "disp. [%]", "ratio to half step (acc/vel/disp)",
                        "unbalanced wrench [N, N m]", "max |roll| [deg]"],
            "rows": body,
            "caption": "The paper's trot (stride, lift, period, feet) with the body's lateral "
                       "position solved from the moment balance about the support diagonal "
                       f"(body sways {lo:.2f} to {hi:.2f} mm, periodic); the plan's moment "
                       f"about the diagonal is at most {res['plan_residual']:.1e} N m over a "
                       "cycle. Same measure as the paper's trot table: back-right HFE, "
                       "100 max|FD - IK| / max|IK|. Semi-implicit Euler is the paper's "
                       "scheme (sections 5-6); RK4 stands in for the variable-step solver "
                       "behind the paper's Simulink figure: its error falls 16-fold per "
                       "halving, so its figures bound what a fixed-step scheme leaves of a "
                       "consistent plan."}


def plan_residuals(model: QuadrupedModel, gait: Gait, height: float, g_W: np.ndarray,
                   dt: float = 0.01) -> dict[int, float]:
    """Largest body wrench section 4's forces leave unbalanced over one planned cycle, by
    the number of legs on the ground [N, N m]."""
    out: dict[int, float] = {}
    for t in np.arange(0.0, gait.period, dt):
        s = plan(model, gait, float(t), height)
        r = float(np.max(np.abs(feedforward(model, s, g_W).residual)))
        out[len(s.stance)] = max(out.get(len(s.stance), 0.0), r)
    return out


def run(p: QuadrupedParams, progress: Callable[[str, float], None] | None = None) -> dict:
    """Errors per gait and step, the worst unbalanced wrench and body roll, and the
    traces at each step for the figures (decimated to 10 ms)."""
    model = build_model(p)
    g_W = np.array([0.0, 0.0, -p.g])
    height = standing_height(p) - p.foot_radius  # the plan's feet are points on z = 0
    out = {}
    for name, horizon in HORIZON.items():
        rows, traces = [], {}
        label = f"quadruped section 6 {name}"
        for k, dt in enumerate(STEPS):
            if progress is not None:
                progress(label, k / len(STEPS))
            r = round_trip_euler(model, GAITS[name], height, g_W, dt, horizon)
            errs = {q: max_percentage_error(getattr(r, f"{a}_plan")[:, JOINT],
                                            getattr(r, a)[:, JOINT]) for q, a in QUANTITIES}
            rows.append({"gait": name, "step": dt, **errs,
                         "residual": float(np.max(np.abs(r.residual))),
                         "roll_deg": float(np.degrees(np.max(np.abs(r.roll))))})
            every = max(1, int(round(0.01 / dt)))
            traces[dt] = {"t": r.t[::every], **{q: getattr(r, a)[::every, JOINT]
                                                for q, a in QUANTITIES},
                          **{f"{q} plan": getattr(r, f"{a}_plan")[::every, JOINT]
                             for q, a in QUANTITIES}}
        if progress is not None:
            progress(label, 1.0)
        for a, b in zip(rows, rows[1:], strict=False):
            a["ratio"] = {q: a[q] / b[q] if b[q] > 0 else np.nan for q, _ in QUANTITIES}
        rows[-1]["ratio"] = None
        out[name] = {"rows": rows, "traces": traces, "horizon": horizon,
                     "plan_residual": plan_residuals(model, GAITS[name], height, g_W)}
    return out


def table(name: str, res: dict) -> dict:
    """The chapter table (with Figs. 5-7 as its plot) of one gait."""
    rows = res["rows"]
    cols = ["step [ms]", "max error acc. [%]", "vel. [%]", "disp. [%]",
            "ratio to half step (acc/vel/disp)", "unbalanced wrench [N, N m]",
            "max |roll| [deg]"]
    body = []
    for r in rows:
        ratio = ("-" if r["ratio"] is None else
                 " / ".join(f"{r['ratio'][q]:.2f}" for q, _ in QUANTITIES))
        body.append([f"{1e3 * r['step']:g}", f"{r['acceleration']:.4g}",
                     f"{r['velocity']:.4g}", f"{r['displacement']:.4g}", ratio,
                     f"{r['residual']:.3g}", f"{r['roll_deg']:.3g}"])
    panels = []
    units = {"acceleration": "deg/s^2", "velocity": "deg/s", "displacement": "deg"}
    for fig, (q, _) in zip((5, 6, 7), QUANTITIES, strict=True):
        series = []
        first = res["traces"][STEPS[0]]
        series.append({"label": "inverse kinematics (plan)", "x": list(first["t"]),
                       "y": list(np.degrees(first[f"{q} plan"])), "style": "k-"})
        for dt, tr in res["traces"].items():
            series.append({"label": f"forward dynamics, dt = {1e3 * dt:g} ms",
                           "x": list(tr["t"]), "y": list(np.degrees(tr[q])), "style": "--"})
        panels.append({"title": f"Fig. {fig}: RB HFE {q}", "xlabel": "t [s]",
                       "ylabel": units[q], "series": series})
    return {"scenario": None,
            "title": f"Section 6 round trip, {name}, first {res['horizon']:g} s",
            "columns": cols, "rows": body,
            "caption": "Maximum percentage error = 100 max|FD - IK| / max|IK| of the back-right "
                       "HFE joint; the paper's figure is held back. The unbalanced wrench is "
                       "what section 4's assumed forces leave of the body equations (3)-(4).",
            "plot": {"panels": panels}}
