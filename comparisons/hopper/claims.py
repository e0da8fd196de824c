"""The paper's qualitative claims as measurements on a run's trace: apex heights, hops and
the settling criterion per reference step (Figs. 6-7, Sec. 6), the speed kick after
lift-off (Fig. 7), stance times (Sec. 4.2) and the energy lost to the unsprung leg
(Sec. 3)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

FLIGHT = 0.0
KICK_WINDOW = 0.1  # the speed kick is looked for this long after lift-off [s]


def segments(steps: tuple[tuple[float, float], ...], end: float
             ) -> list[tuple[float, float, float]]:
    """(start, end, value) of each step of a reference, up to the run's end."""
    bounds = [t for t, _ in steps] + [end]
    return [(bounds[i], bounds[i + 1], v) for i, (_, v) in enumerate(steps)
            if bounds[i] < end]


def apexes(df: pd.DataFrame) -> pd.DataFrame:
    """Time and height of each flight apex of the body centre."""
    z, phase, t = (df[c].to_numpy() for c in ("com.z", "hopper.phase", "time"))
    i = np.flatnonzero((z[1:-1] > z[:-2]) & (z[1:-1] >= z[2:]) & (phase[1:-1] == FLIGHT)) + 1
    return pd.DataFrame({"time": t[i], "height": z[i]})


def speed_kicks(df: pd.DataFrame) -> np.ndarray:
    """At each lift-off, the largest change of the body's forward speed within
    KICK_WINDOW: the hip swinging the leg forward kicks the body back (Sec. 6)."""
    phase, t, vx = (df[c].to_numpy() for c in ("hopper.phase", "time", "com.vx"))
    lift = np.flatnonzero((phase[:-1] != FLIGHT) & (phase[1:] == FLIGHT)) + 1
    kicks = []
    for i in lift:
        win = vx[i:np.searchsorted(t, t[i] + KICK_WINDOW)]
        if len(win):
            kicks.append(float(np.max(np.abs(win - vx[i]))))
    return np.array(kicks)


def stance_times(df: pd.DataFrame) -> np.ndarray:
    """Durations of the complete stances of a run [s] (:func:`stances`)."""
    t = df["time"].to_numpy()
    return np.array([t[b] - t[a] for a, b in stances(df)])


# --- steady state -------------------------------------------------------------------------
# A reference step has reached steady state when its apex height and its hop-mean forward
# speed change by less than SETTLE_DZ / SETTLE_DV from hop to hop over SETTLE_RUN
# consecutive hops (the 1 mm and 1 mm/s are a tenth of the resolution of Figs. 6-7's
# 10 mm and 10 mm/s gridlines; three hops span more than one cycle of the period-2
# oscillations seen in the runs).
SETTLE_DZ = 1e-3  # [m]
SETTLE_DV = 1e-3  # [m/s]
SETTLE_RUN = 3  # consecutive hop-to-hop changes


def hops(df: pd.DataFrame) -> pd.DataFrame:
    """One row per hop, apex to next apex: the apex time and height, and the hop-mean
    forward speed (com.vx averaged over the hop, which a stance's braking and a flight's
    kick both enter); the last apex has no complete hop after it and is dropped."""
    ap = apexes(df)
    t, vx = df["time"].to_numpy(), df["com.vx"].to_numpy()
    idx = np.searchsorted(t, ap["time"].to_numpy())
    speed = [float(vx[a:b].mean()) for a, b in zip(idx[:-1], idx[1:], strict=True)]
    return pd.DataFrame({"time": ap["time"].to_numpy()[:-1],
                         "end": ap["time"].to_numpy()[1:],
                         "height": ap["height"].to_numpy()[:-1], "speed": speed})


def settled_index(height: np.ndarray, speed: np.ndarray) -> int | None:
    """The first hop from which every later hop-to-hop change stays within SETTLE_DZ and
    SETTLE_DV, provided that at least SETTLE_RUN changes follow it (None: not settled)."""
    ok = (np.abs(np.diff(height)) < SETTLE_DZ) & (np.abs(np.diff(speed)) < SETTLE_DV)
    if len(ok) < SETTLE_RUN or not ok[-SETTLE_RUN:].all():
        return None
    bad = np.flatnonzero(~ok)
    return int(bad[-1] + 1) if len(bad) else 0


@dataclass(frozen=True)
class StepState:
    """One reference step of a run: its value and span, the hops it holds, and, where it
    settled, when (the apex of the first settled hop) and the steady apex height and
    hop-mean speed (means of the last SETTLE_RUN + 1 hops)."""

    reference: float
    start: float
    end: float
    n_hops: int
    settled_at: float | None
    height: float | None
    speed: float | None

    @property
    def settled(self) -> bool:
        return self.settled_at is not None


def step_states(df: pd.DataFrame, steps: tuple[tuple[float, float], ...]) -> list[StepState]:
    """The settling criterion applied to each step of a reference (``steps``: the h_d or
    x_dot_d of the run), over the hops that lie wholly within the step."""
    hp = hops(df)
    out = []
    for t0, t1, v in segments(steps, float(df["time"].iloc[-1])):
        h = hp[(hp["time"] >= t0) & (hp["end"] <= t1)]
        k = settled_index(h["height"].to_numpy(), h["speed"].to_numpy())
        last = h.iloc[-(SETTLE_RUN + 1):]
        out.append(StepState(v, t0, t1, len(h),
                             None if k is None else float(h["time"].iloc[k]),
                             None if k is None else float(last["height"].mean()),
                             None if k is None else float(last["speed"].mean())))
    return out


# --- stance time (Sec. 4.2) and the energy of the unsprung leg (Sec. 3) ---------------------
# "Constant" stance time read as: every complete stance within STANCE_SPREAD of the run's
# mean (eq. 21 then puts the foot within 5 % of its neutral-point offset x_dot T_s / 2).
STANCE_SPREAD = 0.05  # [-]


def stances(df: pd.DataFrame) -> list[tuple[int, int]]:
    """(first stance sample, first flight sample after it) of each complete stance of a
    run."""
    on = (df["hopper.phase"].to_numpy() != FLIGHT).astype(int)
    edges = np.diff(on)
    starts, ends = np.flatnonzero(edges == 1) + 1, np.flatnonzero(edges == -1) + 1
    ends = ends[ends > starts[0]] if len(starts) else ends
    return list(zip(starts[:len(ends)], ends[:len(starts)], strict=True))


def stance_spread(times: np.ndarray) -> float:
    """Largest departure of a stance time from the mean, over the mean [-]."""
    return float(np.max(np.abs(times - times.mean())) / times.mean())


@dataclass(frozen=True)
class HopEnergy:
    """The energy of one hop's stance [J], from a 1 kHz trace: the unsprung leg's kinetic
    energy at touchdown, what the ground law (24)-(25) dissipates over the stance, what
    the leg stop's damping dissipates as the unsprung leg is yanked up at lift-off, and
    the work of the thrust of eq. (20)."""

    touchdown_ke: float
    ground: float
    stop: float
    thrust: float

    @property
    def unsprung(self) -> float:
        """Energy lost to the unsprung leg: stopped by the ground, caught by the stop."""
        return self.ground + self.stop


def hop_energies(df: pd.DataFrame, m_l: float, k_L: float, b_stop: float, r_0: float
                 ) -> list[HopEnergy]:
    """:class:`HopEnergy` of each complete stance (its stop loss taken up to 0.1 s after
    lift-off, where the stop's transient has died out: its period is 20 ms). Foot
    velocities are the trace's finite differences, the integrals trapezoidal."""
    t = df["time"].to_numpy()
    fx, fz = df["foot.x"].to_numpy(), df["foot.z"].to_numpy()
    vfx, vfz = np.gradient(fx, t), np.gradient(fz, t)
    Fx, Fn = df["foot.force.x"].to_numpy(), df["foot.force.normal"].to_numpy()
    r, rd, u = (df[c].to_numpy() for c in ("joint.leg.extension", "joint.leg.extension_rate",
                                            "hopper.thrust"))
    out = []
    for a, b in stances(df):
        c = int(np.searchsorted(t, t[b] + 0.1))
        if c >= len(t):
            break
        v2 = (fx[a - 1] - fx[a - 2]) ** 2 + (fz[a - 1] - fz[a - 2]) ** 2
        ke = 0.5 * m_l * v2 / (t[a - 1] - t[a - 2]) ** 2  # backward difference, in flight
        s = slice(a - 1, b + 1)
        ground = -np.trapezoid(Fn[s] * vfz[s] + Fx[s] * vfx[s], t[s])
        s2 = slice(a - 1, c)
        stop = np.trapezoid(b_stop * rd[s2] ** 2 * (r[s2] > r_0), t[s2])
        thrust = np.trapezoid(k_L * u[s] * rd[s], t[s])
        out.append(HopEnergy(float(ke), float(ground), float(stop), float(thrust)))
    return out


# --- the paper's statements, each judged ----------------------------------------------------
# Energy: "a part" of each hop's energy read as at least ENERGY_PART of the thrust's work per
# hop (well above the 1 kHz integrals' hop-to-hop scatter of about 10 %); "lighter is
# better" read as the loss per hop falling by more than that scatter, LIGHTER_RATIO.
ENERGY_PART = 0.1  # [-]
LIGHTER_RATIO = 0.9  # [-]


@dataclass(frozen=True)
class Statement:
    """A paper's statement measured on a run: the value, the bound it is judged by (its
    reason in ``why``), and whether it holds: None where the run cannot test it (its
    premise is not met; ``why`` says which). ``scenario`` names the run in the metric
    table (default: the first word of ``run``)."""

    text: str
    run: str
    metric: str
    value: float
    bound: float
    holds: bool | None
    why: str
    scenario: str = ""

    @property
    def verdict(self) -> str:
        return ("not testable" if self.holds is None
                else "holds" if self.holds else "does not hold")


def errors_at_horizon(df: pd.DataFrame, steps: tuple[tuple[float, float], ...],
                      duration: float) -> list[tuple[float, float]] | str:
    """(h_d, apex minus h_d) of each step of a run of the paper's length ``duration`` at
    the step's end, the paper's horizon: the last apex within the step. A string (why not)
    where the run stops before the last step's end or a step holds no apex."""
    end = float(df["time"].iloc[-1])
    if end < duration - 0.01:
        return (f"the run ends at {end:g} s, before the paper's {duration:g} s (its steps "
                f"end at {', '.join(f'{t:g}' for t, _ in steps[1:])} and {duration:g} s)")
    ap = apexes(df)
    out = []
    for t0, t1, v in segments(steps, end + 1e-9):
        within = ap[(ap["time"] >= t0) & (ap["time"] < t1)]
        if not len(within):
            return f"the step to {v:g} m holds no apex"
        out.append((v, float(within["height"].iloc[-1]) - v))
    return out


def error_at_horizon(errors: list[tuple[float, float]] | str, run: str) -> Statement:
    """Sec. 6: "In the hopping height graphics, steady state errors can be observed. That
    is the hopping height can be a little less or more than the desired height": judged on
    Fig. 6's own run, at each step's end (the paper's horizon: each h_d held 4 s); holds
    where a step ends with its apex off h_d by at least SETTLE_DZ (the settling
    criterion's resolution). Not testable where the run does not reach the horizon."""
    text = "Sec. 6: hopping-height errors remain at the paper's horizon (Fig. 6)"
    if isinstance(errors, str):
        return Statement(text, run, "max_abs_error_at_horizon_m", float("nan"), SETTLE_DZ,
                         None, f"not testable: {errors}", "height")
    e = max(abs(x) for _, x in errors)
    return Statement(text, run, "max_abs_error_at_horizon_m", e, SETTLE_DZ, e >= SETTLE_DZ,
                     "last apex of each 4 s step minus h_d: " + ", ".join(
                         f"{x * 1e3:+.1f} mm at {v:g} m" for v, x in errors)
                     + f"; holds if one is off by >= {SETTLE_DZ * 1e3:g} mm", "height")


def steady_error_remains(states: list[StepState], run: str) -> Statement | None:
    """The long run (each h_d held HOLD s, past the paper's horizon): the largest
    |apex - h_d| of a settled step, reported beside the horizon's statement (it says
    whether the errors vanish with time; the paper's figure does not run that long); None
    where no step settled (nothing to report). ``holds``: an error of at least SETTLE_DZ
    remains (below it, it cannot be told from a settled run's hop-to-hop scatter)."""
    done = [s for s in states if s.settled]
    if not done:
        return None
    e = max(abs(s.height - s.reference) for s in done)
    after = ", ".join(f"{s.settled_at - s.start:.0f} s" for s in done)
    return Statement("Hopping-height steady-state error in the long run (each h_d held "
                     "until settled)", run, "max_abs_steady_error_m", e, SETTLE_DZ,
                     e >= SETTLE_DZ,
                     f"settled steps' apex minus h_d, largest; settled {after} into their "
                     f"steps; an error remains if >= {SETTLE_DZ * 1e3:g} mm, the settling "
                     "criterion's resolution")


def stance_constant(runs: list[np.ndarray], run: str, scenario: str = "",
                    steady: float | None = None) -> Statement:
    """Sec. 4.2: the stance time "does not change as long as the mass and the spring rating
    stays the same": every stance of the runs (``runs``: each run's stance times, one
    robot) within STANCE_SPREAD of their mean. Not testable where a run has fewer than
    two complete stances (the runs' first stances are the same drop, so one a run cannot
    show a change); ``steady`` (the spread of the steady stances per reference, where
    known) is said beside it."""
    text = "Sec. 4.2: stance time is constant (same mass and spring)"
    if not runs or min(len(x) for x in runs) < 2:
        return Statement(text, run, "stance_time_spread", float("nan"), STANCE_SPREAD, None,
                         "not testable: fewer than two complete stances in a run "
                         f"({', '.join(str(len(x)) for x in runs)})", scenario)
    times = np.concatenate(runs)
    spread = stance_spread(times)
    return Statement(text, run, "stance_time_spread", spread, STANCE_SPREAD,
                     spread <= STANCE_SPREAD,
                     f"holds if every stance is within {STANCE_SPREAD:.0%} of the mean "
                     f"({len(times)} stances, {times.min():.3f}-{times.max():.3f} s"
                     + ("" if steady is None else
                        f"; the steady stances per reference spread {steady:.1%}") + ")",
                     scenario)


def speed_step_held(state: StepState, end: float, fell: bool, run: str) -> Statement:
    """Sec. 6: "the forward speed control ... was completed successfully", for one speed
    step held long enough to settle: holds where the robot keeps hopping to the step's end
    and the step settles (its hop-mean speed steady); does not hold where it falls within
    the step (``fell``: the run ended at ``end`` because the robot fell) or never settles;
    not testable where the run ended before the step's end for another reason, or fell
    before the step began. The value: how long it hopped within the step [s]."""
    text = (f"Sec. 6: forward speed control completes: the x_dot_d = {state.reference:g} "
            "m/s step, held until settled")
    metric, span = f"seconds_hopped_at_{state.reference:g}_m_s", state.end - state.start
    how = "fell" if fell else "ends"
    if end <= state.start or (end < state.end - 0.01 and not fell):
        return Statement(text, run, metric, float("nan"), span, None,
                         f"not testable: the run {how} at {end:.2f} s, before the step's "
                         f"{'start' if end <= state.start else 'end'} "
                         f"({state.start:g}-{state.end:g} s)", "speed")
    down = fell and end < state.end
    hopped = (end if down else state.end) - state.start
    return Statement(text, run, metric, hopped, span, not down and state.settled,
                     (f"fell {hopped:.1f} s into the step" if down else
                      f"hopped the whole {span:g} s step, "
                      + ("settled" if state.settled else "not settled"))
                     + "; holds if it hops to the step's end and settles", "speed")


def unsprung_loss_every_hop(energies: list[HopEnergy], run: str) -> Statement:
    """Sec. 3: "In every cycle, a part of the energy disappears to accelerate the unsprung
    part of the leg": the least per-hop loss to the unsprung leg (ground and leg stop) as
    a share of the mean thrust work per hop, at least ENERGY_PART."""
    thrust = float(np.mean([e.thrust for e in energies]))
    share = min(e.unsprung for e in energies) / thrust if thrust > 0 else 0.0
    return Statement("Sec. 3: every hop loses a part of its energy to the unsprung leg", run,
                     "least_unsprung_loss_share", share, ENERGY_PART, share >= ENERGY_PART,
                     f"holds if every hop's loss at the ground and leg stop is >= "
                     f"{ENERGY_PART:.0%} of the thrust's mean work per hop ({thrust:.2f} J, "
                     f"{len(energies)} hops)")


def lighter_leg_loses_less(heavy: list[HopEnergy], light: list[HopEnergy], run: str
                           ) -> Statement:
    """Sec. 3: a light unsprung leg reduces the energy loss: the mean loss per hop with
    the unsprung mass halved, over the loss with it as built, below LIGHTER_RATIO."""
    ratio = (float(np.mean([e.unsprung for e in light]))
             / float(np.mean([e.unsprung for e in heavy])))
    return Statement("Sec. 3: a lighter unsprung leg loses less energy per hop", run,
                     "unsprung_loss_ratio_half_mass", ratio, LIGHTER_RATIO,
                     ratio < LIGHTER_RATIO,
                     f"holds if halving m_l cuts the loss per hop below {LIGHTER_RATIO:g} of "
                     "its value (the integrals' scatter is about 10 %)")


def settled_tail(df: pd.DataFrame, state: StepState) -> pd.DataFrame:
    """The part of a run from a settled step's settling to the step's end."""
    return df[(df["time"] >= state.settled_at) & (df["time"] < state.end)]
