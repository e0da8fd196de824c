"""The paper's qualitative statements of Sec. V.2 (Figs. 7-17), measured on the hand-rolled
runs and tabulated with their numbers (the engines' own runs are not measured: where a run
hops, they part from it by more than round-off, and the chapter gives their figures).

Each statement declares its premises, what its runs must show for it to be testable: the
runs it is measured on walk (the paper's figures are of walks; walking.not_walking), the
event it refers to exists (a landing, a take-off at the plan's lift), and the run is the
scenario of the figure it cites. Where a premise is not met its verdict is "not testable"
(``holds`` None, its metric row's ``passed`` None) and the reason says which; the
measurement is still shown.

Leg 1's contacts are read from its ground force (non-zero while the foot is below y = 0,
eqs. 11-12); its landing is the first touchdown after its transfer phase, its take-off the
first lift-off. Traces are sampled at 1 kHz."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from dynval.comparisons.hexapod import walking
from dynval.comparisons.hexapod.scenarios import SCENARIOS, scenario_params
from dynval.comparisons.ladder.metrics import statement_row
from dynval.handrolled.hexapod import ground
from dynval.results import MetricRow
from dynval.robots.hexapod.params import HexapodParams

ROBOT = "hexapod"
LEG = "LF"  # the paper's leg 1
FX, FY = f"foot.{LEG}.force.x", f"foot.{LEG}.force.y"
HIP = f"joint.{LEG}.hip"
WINDOW = 0.03  # [s] around a touchdown or take-off: the force transient of Fig. 9
HOLD, NOT, UNTESTABLE = "holds", "does not hold", "not testable"
# Chattering is judged visible when the RMS sample-to-sample change of a trace grows by at
# least this factor with backlash (a tenth more than the flexible drive's own transients)
CHATTER = 1.1
# The gear impacts chatter when a closing of the play brings more than one impact: more
# than this many impacts a joint for each time hip 1's play closes (one impact a closing
# is a clean engagement; the gear settling against the motor takes repeated ones)
CHATTER_IMPACTS = 2.0


@dataclass
class Statement:
    """One row of the statements table and its metric row (kind "statement": ``passed``
    is whether it holds, None where it is not testable). ``runs`` are the runs it is
    measured on, each of which must walk; ``premise`` a further premise that is not met
    (an event that does not exist, a run that is not the cited figure's scenario)."""

    text: str
    value: str
    other: str
    holds: bool | None
    row: MetricRow | None = None
    runs: tuple[str, ...] = ()
    premise: str | None = None
    why_not: str = field(default="", init=False)

    @property
    def verdict(self) -> str:
        return UNTESTABLE if self.holds is None else HOLD if self.holds else NOT

    def cells(self) -> list[str]:
        return [self.text, self.value, self.other,
                self.verdict + (f": {self.why_not}" if self.why_not else "")]


def judge_premises(statements: list[Statement], not_walking: Mapping[str, str | None]
                   ) -> list[Statement]:
    """Each statement whose premises are not met marked not testable (its measurement
    kept): a run it is measured on does not walk (``not_walking``: why, by run name; None
    where it walks), or its own ``premise`` fails."""
    for st in statements:
        why = [f"{n} {not_walking[n]}" for n in st.runs if not_walking.get(n)]
        if st.premise:
            why.append(st.premise)
        if why:
            st.holds, st.why_not = None, "; ".join(why)
            if st.row is not None:
                st.row = replace(st.row, passed=None,
                                 reason=f"not testable: {st.why_not}. {st.row.reason}")
    return statements


def contacts(df: pd.DataFrame) -> list[tuple[float, float]]:
    """Leg 1's contact intervals (start, end) [s], from its ground force."""
    t, on = df["time"].to_numpy(), (df[FY].to_numpy() != 0.0) | (df[FX].to_numpy() != 0.0)
    edges = np.flatnonzero(np.diff(on.astype(int))) + 1
    bounds = np.concatenate([[0] if on[0] else [], edges, [len(t) - 1] if on[-1] else []])
    return [(float(t[int(a)]), float(t[int(b)])) for a, b in zip(bounds[::2], bounds[1::2],
                                                                     strict=True)]


def planned_lift(df: pd.DataFrame) -> float:
    """When leg 1's plan first lifts its foot (y_1Fd > 0)."""
    up = df[df[f"foot.{LEG}.y_ref"] > 0.0]
    return float(up["time"].iloc[0]) if len(up) else float("nan")


def planned_apex(df: pd.DataFrame) -> float:
    """When leg 1's plan has its foot highest in its first transfer (y_1Fd = F_C)."""
    t0 = planned_lift(df)
    first = df[df["time"] >= t0]
    down = first[first[f"foot.{LEG}.y_ref"] <= 0.0]
    if len(down):
        first = first[first["time"] < float(down["time"].iloc[0])]
    return float(first.loc[first[f"foot.{LEG}.y_ref"].idxmax(), "time"])


def landing(df: pd.DataFrame) -> float:
    """Leg 1's touchdown at the end of its first transfer: the first contact starting
    after the plan's apex (a foot scraping the ground early in its lift is not a landing)."""
    if math.isnan(planned_lift(df)):
        return float("nan")
    t0 = planned_apex(df)
    starts = [a for a, _ in contacts(df) if a > t0]
    return starts[0] if starts else float("nan")


def takeoff(df: pd.DataFrame) -> float:
    """Leg 1's first lift-off at or after the plan lifts its foot."""
    t0 = planned_lift(df) - 0.001  # one 1 kHz sample
    ends = [b for _, b in contacts(df) if b >= t0]
    return ends[0] if ends else float("nan")


def takeoff_missing(df: pd.DataFrame, period: float = 1.0) -> str | None:
    """Why leg 1 has no take-off to measure, None where it has one: its first lift-off
    (:func:`takeoff`) must fall within WINDOW of the plan's lift, on the cycle's clock
    (``period``: a lift-off at the cycle's end is the next cycle's take-off); a later one
    is the end of a landing's bounce, not a take-off."""
    t, lift = takeoff(df), planned_lift(df)
    if math.isnan(t) or math.isnan(lift):
        return "leg 1 never lifts off"
    gap = abs(t - lift) % period
    if min(gap, period - gap) > WINDOW:
        return (f"leg 1's first lift-off ({t:.3f} s) is {t - lift:.3f} s after the plan "
                "lifts its foot: the end of a bounce, not a take-off")
    return None


def landing_missing(df: pd.DataFrame) -> str | None:
    """Why leg 1 has no landing to measure, None where it has one."""
    return "leg 1 has no touchdown after its transfer" if math.isnan(landing(df)) else None


def touchdowns(df: pd.DataFrame) -> list[float]:
    """Every foot's touchdowns [s] (a foot's ground force turning non-zero), in time
    order: the feet's impacts."""
    t = df["time"].to_numpy()
    out: list[float] = []
    for c in df.columns:
        if c.startswith("foot.") and c.endswith(".force.y"):
            on = (df[c].to_numpy() != 0.0) | (df[c[:-1] + "x"].to_numpy() != 0.0)
            out += [float(t[i]) for i in np.flatnonzero(on[1:] & ~on[:-1]) + 1]
    return sorted(out)


def _peak(df: pd.DataFrame, sig: str, t0: float, t1: float) -> float:
    m = (df["time"] >= t0) & (df["time"] <= t1)
    return float(df.loc[m, sig].abs().max()) if m.any() else float("nan")


def _row(robot: str, scenario: str, signal: str, metric: str, value: float, holds: bool,
         why: str) -> MetricRow:
    return statement_row(robot, scenario, signal, metric, value, holds, why)


def profiles(robot: str, cyc: pd.DataFrame, sine: pd.DataFrame) -> list[Statement]:
    """Fig. 9: the sinusoidal transfer (1b) imposes higher ground forces than the cycloid
    (1a), "particularly at the instants of feet landing and take-off"."""
    out = []
    event = {"at landing": landing_missing, "at take-off": takeoff_missing,
             "over the cycle": lambda d: None}
    for sig, name in ((FX, "f_1xF"), (FY, "f_1yF")):
        for what, win in (("at landing", lambda d: (landing(d), landing(d) + WINDOW)),
                          ("at take-off", lambda d: (takeoff(d) - WINDOW, takeoff(d))),
                          ("over the cycle", lambda d: (0.0, float(d["time"].iloc[-1])))):
            c, s = _peak(cyc, sig, *win(cyc)), _peak(sine, sig, *win(sine))
            missing = [f"{n}: {m}" for n, d in (("WG_50", cyc), ("WG_50_sine", sine))
                       if (m := event[what](d))]
            st = Statement(f"Fig. 9: sine (1b) gives a larger peak |{name}| {what} than the "
                           "cycloid (1a) [N]", f"cycloid {c:.0f}", f"sine {s:.0f}", s > c,
                           runs=("WG_50", "WG_50_sine"),
                           premise="; ".join(missing) or None)
            st.row = _row(robot, "WG_50_sine vs WG_50", sig,
                          f"peak_ratio_sine_cycloid_{what.replace(' ', '_')}",
                          s / c if c else float("nan"), s > c,
                          f"Fig. 9: peak |{name}| {what}, sine / cycloid; holds above 1")
            out.append(st)
    return out


def grounds(robot: str, nonlin: pd.DataFrame, lin: pd.DataFrame,
            first_force: dict[str, float]) -> list[Statement]:
    """Figs. 10-11: y_1F similar on both grounds; the linear model's f_1yF goes negative
    (the ground pulls) and jumps at touchdown; the non-linear one does neither."""
    y = f"foot.{LEG}.y"
    t = nonlin["time"].to_numpy()
    dy = float(np.max(np.abs(nonlin[y].to_numpy() - np.interp(t, lin["time"], lin[y]))))
    span = float(nonlin[y].max() - nonlin[y].min())
    both = ("WG_50", "WG_50_linear")
    out = [Statement("Figs. 10-11: y_1F is similar on the two grounds [mm]",
                     f"max |difference| {dy * 1e3:.2f}", f"of a {span * 1e3:.0f} mm range",
                     dy < 0.1 * span,
                     _row(robot, "WG_50_linear vs WG_50", y, "max_abs_diff_mm", dy * 1e3,
                          dy < 0.1 * span, "Figs. 10-11: y_1F, linear vs non-linear ground; "
                          "holds below a tenth of y_1F's range"), runs=both)]
    mn_l, mn_n = float(lin[FY].min()), float(nonlin[FY].min())
    out.append(Statement("Fig. 10: the linear ground pulls the foot (f_1yF < 0) [N]",
                         f"min f_1yF {mn_l:.1f}", "", mn_l < 0.0,
                         _row(robot, "WG_50_linear", FY, "min", mn_l, mn_l < 0.0,
                              "Fig. 10: the linear model's negative ground force; holds "
                              "below 0"), runs=("WG_50_linear",)))
    out.append(Statement("Fig. 11: the non-linear ground never pulls (f_1yF >= 0) [N]",
                         f"min f_1yF {mn_n:.3g}", "", mn_n >= 0.0,
                         _row(robot, "WG_50", FY, "min", mn_n, mn_n >= 0.0,
                              "Fig. 11: the non-linear model's ground force; holds at 0 "
                              "or above"), runs=("WG_50",)))
    fl, fn = first_force["linear"], first_force["nonlinear"]
    out.append(Statement("Sec. V.2: the linear f_1yF jumps at touchdown, the non-linear one "
                         "starts from zero (force at the first 20 kHz step in contact) [N]",
                         f"linear {fl:.1f}", f"non-linear {fn:.2f}",
                         fl > 10.0 * max(fn, 1e-12),
                         _row(robot, "WG_50_linear vs WG_50", FY, "touchdown_jump_ratio",
                              fl / max(fn, 1e-12), fl > 10.0 * max(fn, 1e-12),
                              "linear / non-linear force at touchdown; holds above 10"),
                         runs=("WG_50_linear",), premise=landing_missing(lin)))
    return out


FIG_14 = "WG_50_flexible"  # Fig. 14: the drives with friction and flexibility (8)


def rebound(robot: str, name: str, df: pd.DataFrame) -> Statement:
    """Fig. 14: "a small rebounce on y_1F after the feet touch the ground, at t ~ 0.95 s"
    (the impact spikes being near t = 0.9 s): the first lift-off after leg 1's landing, its
    delay after the landing and its height. Fig. 14 is the flexible drive's walk
    (FIG_14): on another run the statement is not testable (the backlash run is Fig.
    17's, whose rebounds the touchdowns statement counts)."""
    land = landing(df)
    premise = "; ".join(x for x in (
        landing_missing(df), None if name == FIG_14 else
        f"Fig. 14 is the flexible drive ({FIG_14}), not {name}") if x) or None
    later = [(a, b) for a, b in contacts(df) if a >= land]
    if len(later) < 2:
        return Statement(f"Fig. 14 ({name}): a rebound after the landing", "none", "", False,
                         _row(robot, name, f"foot.{LEG}.y", "rebound_delay_after_landing",
                              float("nan"), False, "Fig. 14: no rebound after touchdown"),
                         runs=(name,), premise=premise)
    up, down = later[0][1], later[1][0]
    h = _peak(df, f"foot.{LEG}.y", up, down)
    return Statement(f"Fig. 14 ({name}): the foot rebounds after its landing (paper: t ~ 0.95 "
                     "s, ~0.05 s after the impact spikes near 0.9 s)",
                     f"landing {land:.3f} s, rebound {up:.3f} s (+{up - land:.3f} s)",
                     f"height {h * 1e3:.1f} mm", 0.0 < up - land < 0.1,
                     _row(robot, name, f"foot.{LEG}.y", "rebound_delay_after_landing",
                          up - land, 0.0 < up - land < 0.1, "Fig. 14: rebound after "
                          "touchdown, paper ~0.05 s; holds within 0.1 s"),
                     runs=(name,), premise=premise)


def _roughness(df: pd.DataFrame, sig: str) -> float:
    """RMS of the sample-to-sample change of a signal: the chattering of Figs. 15-16."""
    return float(np.sqrt(np.mean(np.diff(df[sig].to_numpy()) ** 2)))


def _tracking(df: pd.DataFrame) -> float:
    """RMS distance of leg 1's foot from its plan p_Fd [m] (Figs. 14, 17)."""
    ex = df[f"foot.{LEG}.x"] - df[f"foot.{LEG}.x_ref"]
    ey = df[f"foot.{LEG}.y"] - df[f"foot.{LEG}.y_ref"]
    return float(np.sqrt(np.mean(ex**2 + ey**2)))


def gear_chatter(df: pd.DataFrame) -> tuple[float, int, int]:
    """(gear impacts of all joints over the trace, closings of hip 1's play, joints): the
    play is closed where |theta_11m - theta_11T| is at its largest (the impacts put the
    motor back on the play's edge, h_ij / 2), a closing a 1 kHz sample where it becomes
    so."""
    n = float(df["hexapod.gear_impacts"].iloc[-1] - df["hexapod.gear_impacts"].iloc[0])
    gap = (df[f"{HIP}.motor_angle"] - df[f"{HIP}.gear_angle"]).abs().to_numpy()
    edge = float(gap.max()) if len(gap) else 0.0
    closed = gap >= edge * (1.0 - 1e-6) if edge > 0.0 else np.zeros(len(gap), bool)
    closings = int(np.sum(closed[1:] & ~closed[:-1]) + (1 if len(closed) and closed[0]
                                                        else 0))
    joints = 2 * sum(1 for c in df.columns if c.startswith("joint.")
                     and c.endswith(".hip.angle"))
    return n, closings, joints


def transmissions(robot: str, ideal: pd.DataFrame, flex: pd.DataFrame | None,
                  back: pd.DataFrame | None) -> list[Statement]:
    """Figs. 12-17: with friction and flexibility the torques and joint motion are "almost
    similar" to the ideal drive's (Figs. 12-13 vs 7 and 6); backlash adds chattering to the
    inertial torque and the joint acceleration (Figs. 15-16) and degrades the foot's
    following with several rebounds (Fig. 17 vs 14)."""
    out = []
    a = f"{HIP}.angle"
    rng = float(ideal[a].max() - ideal[a].min())
    if flex is not None:
        d = float(np.sqrt(np.mean((flex[a].to_numpy() - ideal[a].to_numpy()) ** 2)))
        out.append(Statement("Figs. 12-13 vs 7, 6: theta_11 with flexible drives is almost "
                             "the ideal drive's [deg RMS]", f"{np.degrees(d):.3f}",
                             f"of a {np.degrees(rng):.1f} deg range",
                             d < 0.05 * rng,
                             _row(robot, "WG_50_flexible vs WG_50", a, "rms_diff_deg",
                                  np.degrees(d), d < 0.05 * rng, "Figs. 12-13 vs 6-7; holds "
                                  "below 5 % of theta_11's range"),
                             runs=("WG_50", "WG_50_flexible")))
    if flex is None or back is None:
        return out
    for sig, what in ((f"{HIP}.torque_inertial", "inertial hip torque tau_11I [N m]"),
                      (f"{HIP}.acceleration", "hip acceleration [rad/s^2]")):
        rf, rb = _roughness(flex, sig), _roughness(back, sig)
        out.append(Statement(f"Figs. 15-16: backlash makes the {what} chatter (RMS change "
                             f"per 1 ms sample, visible if {CHATTER:g} times the flexible "
                             "drive's)", f"flexible {rf:.3g}", f"backlash {rb:.3g}",
                             rb > CHATTER * rf,
                             _row(robot, "WG_50_backlash vs WG_50_flexible", sig,
                                  "roughness_ratio", rb / rf, rb > CHATTER * rf,
                                  f"Figs. 15-16: {what}; holds above {CHATTER:g}"),
                             runs=("WG_50_flexible", "WG_50_backlash")))
    n, closings, joints = gear_chatter(back)
    per = n / joints / max(closings, 1)
    repeated = closings > 0 and per > CHATTER_IMPACTS
    out.append(Statement("Figs. 15-16: the chattering is the gears' repeated impacts "
                         f"(9b)-(9c): impacts per joint per closing of hip 1's play (repeated "
                         f"if above {CHATTER_IMPACTS:g})",
                         f"{per:.1f} ({n:.0f} impacts, {joints} joints)",
                         f"{closings} closings of hip 1's play", repeated,
                         _row(robot, "WG_50_backlash", "hexapod.gear_impacts",
                              "impacts_per_joint_per_closing", per, repeated,
                              "Figs. 15-16: repeated gear impacts over the cycle; holds "
                              f"above {CHATTER_IMPACTS:g}"), runs=("WG_50_backlash",)))
    ef, eb = _tracking(flex), _tracking(back)
    out.append(Statement("Fig. 17 vs 14: backlash degrades the foot's following of its plan "
                         "[mm RMS]", f"flexible {ef * 1e3:.1f}", f"backlash {eb * 1e3:.1f}",
                         eb > ef,
                         _row(robot, "WG_50_backlash vs WG_50_flexible", f"foot.{LEG}",
                              "tracking_ratio", eb / ef, eb > ef,
                              "Fig. 17 vs 14: foot tracking; holds above 1"),
                         runs=("WG_50_flexible", "WG_50_backlash")))
    land_f, land_b = landing(flex), landing(back)
    cf = sum(1 for s, _ in contacts(flex) if s >= land_f)
    cb = sum(1 for s, _ in contacts(back) if s >= land_b)
    out.append(Statement("Fig. 17 vs 14: backlash gives several rebounds (touchdowns from "
                         "the landing to the end of the cycle)", f"flexible {cf}",
                         f"backlash {cb}", cb > cf,
                         _row(robot, "WG_50_backlash vs WG_50_flexible", f"foot.{LEG}.y",
                              "touchdowns_ratio", cb / max(cf, 1), cb > cf,
                              "Fig. 17 vs 14: rebounds; holds above 1"),
                         runs=("WG_50_flexible", "WG_50_backlash"),
                         premise="; ".join(f"{n}: {m}" for n, d in (("WG_50_flexible", flex),
                                                                      ("WG_50_backlash", back))
                                           if (m := landing_missing(d))) or None))
    return out


def gaits(robot: str, wg: pd.DataFrame, ep: pd.DataFrame) -> list[Statement]:
    """Figs. 4-8: EPFC at beta = 35 % has lower velocities and accelerations (a longer
    transfer), hence lower inertial and Coriolis torques, than WG at 50 %."""
    out = []
    for sig, what in ((f"foot.{LEG}.vy_ref", "peak planned foot velocity [m/s]"),
                      (f"foot.{LEG}.ay_ref", "peak planned foot acceleration [m/s^2]"),
                      (f"{HIP}.rate", "peak hip rate [rad/s]"),
                      (f"{HIP}.acceleration", "peak hip acceleration [rad/s^2]"),
                      (f"{HIP}.torque_inertial", "peak inertial hip torque [N m]"),
                      (f"{HIP}.torque_coriolis", "peak Coriolis hip torque [N m]")):
        a, b = float(wg[sig].abs().max()), float(ep[sig].abs().max())
        out.append(Statement(f"EPFC 35 % lower than WG 50 %: {what}", f"WG {a:.3g}",
                             f"EPFC {b:.3g}", b < a,
                             _row(robot, "WG_50 vs EPFC_35", sig, "peak_ratio_EPFC_WG", b / a,
                                  b < a, f"{what}; holds below 1"),
                             runs=("WG_50", "EPFC_35")))
    return out


def spike(robot: str, name: str, df: pd.DataFrame) -> Statement:
    """Sec. V.2: "large amplitude spikes" of the inertial hip torque "around t = 0.9 s ...
    due to the large forces that originate during the feet impact with the ground": the
    paper ties the spike to the impact, so it is measured from the touchdown, not on the
    clock (the paper's 0.9 s is where its feet land on its figures' clock). The delay of
    the cycle's largest |tau_11I| after the latest touchdown of a foot at or before it;
    holds within WINDOW (Fig. 9's force transient). Premise: a touchdown before it."""
    sig = f"{HIP}.torque_inertial"
    j = df[sig].abs().idxmax()
    t = float(df.loc[j, "time"])
    before = [x for x in touchdowns(df) if x <= t]
    td = before[-1] if before else float("nan")
    delay = t - td
    holds = bool(0.0 <= delay <= WINDOW)
    return Statement(f"{name}: the inertial hip torque spikes at the feet's impact (paper: "
                     "near t = 0.9 s, 'during the feet impact with the ground')",
                     f"largest |tau_11I| {float(df.loc[j, sig]):.0f} N m at t = {t:.3f} s",
                     f"{delay * 1e3:.0f} ms after a touchdown at {td:.3f} s; leg 1 lands at "
                     f"{landing(df):.3f} s", holds,
                     _row(robot, name, sig, "spike_delay_after_touchdown", delay, holds,
                          "Sec. V.2: the spikes are the feet's impacts: the largest |tau_11I| "
                          f"within {WINDOW:g} s after a touchdown (touchdown-relative; the "
                          "paper's 0.9 s is its own clock's touchdown)"),
                     runs=(name,),
                     premise=None if before else "no touchdown before the torque's peak")


def measured(p: HexapodParams, runs: dict[str, pd.DataFrame]) -> list[Statement]:
    """The paper's statements of Sec. V.2 measured on the hand-rolled runs of the
    scenarios (``runs``, by scenario name), each judged or, where its premises are not met
    (walking.not_walking, its event, its figure's scenario), not testable."""
    st: list[Statement] = []
    if "WG_50" in runs and "EPFC_35" in runs:
        st += gaits(ROBOT, runs["WG_50"], runs["EPFC_35"])
    st += [spike(ROBOT, n, runs[n]) for n in runs if float(runs[n]["time"].iloc[-1]) > 0.5]
    if "WG_50" in runs and "WG_50_sine" in runs:
        st += profiles(ROBOT, runs["WG_50"], runs["WG_50_sine"])
    if "WG_50" in runs and "WG_50_linear" in runs:
        st += grounds(ROBOT, runs["WG_50"], runs["WG_50_linear"],
                      touchdown_force(p, runs["WG_50_linear"]))
    for n in ("WG_50_flexible", "WG_50_backlash"):
        if n in runs:
            st.append(rebound(ROBOT, n, runs[n]))
    if "WG_50" in runs:
        st += transmissions(ROBOT, runs["WG_50"], runs.get("WG_50_flexible"),
                            runs.get("WG_50_backlash"))
    hops = {n: walking.not_walking(df, scenario_params(p, SCENARIOS[n]))
            for n, df in runs.items()}
    return judge_premises(st, hops)


def touchdown_force(p: HexapodParams, run: pd.DataFrame) -> dict[str, float]:
    """f_1yF one f_sr step after touchdown by eq. (11) and by eq. (12), the foot entering
    the ground at leg 1's landing velocity measured in ``run`` (the last 1 kHz sample
    before its landing): the linear law's jump B_yF |v| against the non-linear law's
    start from zero."""
    t_land = landing(run)
    before = run[run["time"] < t_land]
    v = float(before[f"foot.{LEG}.vy"].iloc[-1]) if len(before) else float("nan")
    dt = 1.0 / p.f_sr
    eta, eta_dot, eta_0 = np.array([0.0, v * dt]), np.array([0.0, v]), np.zeros(2)
    return {"linear": float(ground.linear_force(eta, eta_dot, eta_0, p)[1]),
            "nonlinear": float(ground.nonlinear_force(eta, eta_dot, eta_0, p)[1])}
