"""The L3 rows of a user's model's free swing (``swing_rows``): at each step size, the
model's run against each engine's own steps and against each engine's accelerations through
the model's scheme, judged on the envelope of ``swing`` (the system's sensitivity and each
side's own round-off), and where a row falls outside, its measured cause: an engine's
reading of the file's inertias taken out of its run (ablation), or PyBullet's first-order
step of a free root, which must halve with the step (``_halving_rows``)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from dynval.comparisons.own_model.swing import (
    MIN_RATIO,
    PATH_STATES,
    READING,
    READINGS,
    ROUNDOFF_STATES,
    SWING_SECONDS,
    SWING_STEPS,
    Accel,
    Swing,
    _diff,
    _perturbed,
    _roundoff_drift,
    compare,
    engine_accelerations,
    engine_swing,
    euler,
    first_limit,
    growth,
    integration_errors,
    judged_steps,
    l3_within,
    own_roundoff,
)


def swing_rows(qdd: Accel, engines: dict[str, object], q0: np.ndarray, v0: np.ndarray,
               free: bool, readings: dict[str, tuple[Accel, Accel]] | None = None,
               states: list[tuple[np.ndarray, np.ndarray]] = (),
               limits: tuple[np.ndarray, np.ndarray, list[str]] | None = None,
               who: str = "handrolled") -> list[dict]:
    """L3 rows at each step of SWING_STEPS: the model's semi-implicit Euler against each
    engine's own steps and against each engine's accelerations through the same scheme,
    all judged against the envelope of the system's sensitivity and the two sides' own
    round-off (``own_roundoff`` on ``states`` and along the swing); PyBullet's own steps
    of a free root move the centre of mass rather than the root's origin, an O(dt)
    difference that must halve with the step unless it is round-off already; and the
    scheme's own error.  ``readings`` give, per engine that reads the file's inertias
    differently, the file's accelerations with that engine's reading and with the file's
    own: a row outside its envelope is known by ablation where taking that reading's
    measured effect out of the engine's run brings it within.
    ``limits`` (lower, upper, joint names), for a model that holds within the joint
    ranges, ends each swing's horizon where the model first reaches one.  ``who`` labels
    the model's side of each row (the engine that stands for it in an audit without one)."""
    with np.errstate(over="ignore", invalid="ignore"):  # a diverging run is reported
        return _swing_rows(qdd, engines, q0, v0, free, readings or {}, list(states),
                           limits, who)


def _measure_states(hand: Swing, states: list[tuple[np.ndarray, np.ndarray]],
                    k: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Where round-off is measured: ROUNDOFF_STATES of the sampled states and PATH_STATES
    of the model's swing within its horizon (k steps), the states the swing meets."""
    picked = states[:ROUNDOFF_STATES]
    if hand.v is not None and min(k, len(hand.v)) > 0:
        picks = np.unique(np.linspace(0, min(k, len(hand.v)) - 1, PATH_STATES).astype(int))
        picked = picked + [(hand.q[i], hand.v[i]) for i in picks]
    return picked


REASON = ("same semi-implicit Euler scheme and, if the model is right, the same dynamics: "
          "only each side's own round-off remains, amplified as the system amplifies it")


def _swing_rows(qdd: Accel, engines: dict[str, object], q0: np.ndarray, v0: np.ndarray,
                free: bool, readings: dict[str, tuple[Accel, Accel]],
                states: list[tuple[np.ndarray, np.ndarray]],
                limits: tuple[np.ndarray, np.ndarray, list[str]] | None, who: str
                ) -> list[dict]:
    rows, pb_rows = [], []
    hands: dict[float, tuple[Swing, int]] = {}
    accs = {e: engine_accelerations(eng) for e, eng in engines.items()}
    for dt in SWING_STEPS:
        n = int(round(SWING_SECONDS / dt))
        hand = euler(qdd, q0, v0, dt, n, free)
        g = growth(hand, euler(qdd, _perturbed(q0, free), v0, dt, n, free))
        limit = first_limit(hand, limits, free)
        end = judged_steps(g, limit)
        where = _measure_states(hand, states, end)
        own = {e: own_roundoff(acc, where) for e, acc in {**accs, "model": qdd}.items()}
        drift = _roundoff_drift(hand, g, dt)
        ablation = _Ablations({e: r for e, r in readings.items() if e in engines}, q0, v0,
                              dt, n, free, where)
        for name, run in _engine_runs(engines, accs, q0, v0, dt, n, free).items():
            engine = name.split(" ")[0]
            both = own["model"] + own[engine]
            row = compare(hand, run, g, dt, name, REASON, both * drift, limit, who)
            if both > 0.0:
                row["reason"] += (f"; plus the two sides' own round-off in the accelerations "
                                  f"({own['model']:.1g} and {own[engine]:.1g} of their "
                                  "scale, each measured alone), integrated")
            if free and name == "pybullet (own integrator)" and not l3_within(row) \
                    and "diverged" not in row:
                for judged in ("at", "exceeds_at", "exceeds"):  # judged by halving instead
                    row.pop(judged, None)
                row.update(tolerance=None, reason=RATIO_REASON)
                k = min(len(run.q), len(hand.q), len(g), end)
                cause = ablation.of(engine)
                pb_rows.append((row, _diff(run, hand, k), g[:k], None if cause is None
                                else _diff(_without(run, cause[0]), hand, k)))
                continue
            cause = None if l3_within(row) or "diverged" in row else ablation.of(engine)
            if cause is not None:
                shift, measured = cause
                _ablate(row, compare(hand, _without(run, shift), g, dt, name, REASON,
                                     (both + measured) * drift, limit), engine)
            rows.append(row)
        if hand.diverged_at is None:
            hands[dt] = (hand, min(end, len(hand.q)))
    halving = _halving_rows(pb_rows)
    if hands:
        rows += integration_errors(qdd, hands, q0, v0, free)
    return rows + halving


def _engine_runs(engines: dict[str, object], accs: dict[str, Accel], q0: np.ndarray,
                 v0: np.ndarray, dt: float, n: int, free: bool) -> dict[str, Swing]:
    """Each engine's own steps (where it simulates) and its accelerations through the
    model's scheme, by row name."""
    runs: dict[str, Swing] = {}
    for name, eng in engines.items():
        if callable(getattr(eng, "simulate", None)):
            runs[f"{name} (own integrator)"] = engine_swing(
                lambda eng=eng: eng.simulate(q0, v0, dt, n), dt)
        runs[f"{name} accelerations, hand integrator"] = euler(accs[name], q0, v0, dt, n,
                                                               free)
    return runs


@dataclass
class _Ablations:
    """Per step size, each engine's reading of the inertias as it moves the swing: made
    only for a row outside its envelope, and once (``readings`` as swing_rows takes them,
    ``where`` the states their round-off is measured on)."""

    readings: dict[str, tuple[Accel, Accel]]
    q0: np.ndarray
    v0: np.ndarray
    dt: float
    n: int
    free: bool
    where: list[tuple[np.ndarray, np.ndarray]]
    made: dict[str, tuple[np.ndarray, float]] = field(default_factory=dict)

    def of(self, engine: str) -> tuple[np.ndarray, float] | None:
        """The reading's shift of the swing and the round-off of the two swings that
        measure it; None where the engine reads the inertias as the file says."""
        if engine not in self.readings:
            return None
        if engine not in self.made:
            pair = self.readings[engine]
            self.made[engine] = (
                _reading_shift(pair, self.q0, self.v0, self.dt, self.n, self.free),
                sum(own_roundoff(acc, self.where) for acc in pair))
        return self.made[engine]


def _reading_shift(pair: tuple[Accel, Accel], q0: np.ndarray, v0: np.ndarray, dt: float,
                   n: int, free: bool) -> np.ndarray:
    """How far an engine's reading of the file moves the swing at each step: the file's
    dynamics with the engine's reading of the inertias (``pair[0]``) less with the
    file's own (``pair[1]``), through the same scheme; NaN past where either stopped."""
    a, b = (euler(f, q0, v0, dt, n, free).q for f in pair)
    k = min(len(a), len(b))
    out = np.full((n + 1, a.shape[1]), np.nan)
    out[:k] = a[:k] - b[:k]
    return out


def _without(run: Swing, shift: np.ndarray) -> Swing:
    """An engine's run with its reading's measured effect (``shift``) taken out: what it
    would give reading the file as the reference does."""
    k = min(len(run.q), len(shift))
    return Swing(run.q[:k] - shift[:k], run.diverged_at, run.why)


def _ablate(row: dict, ablated: dict, engine: str) -> None:
    """Mark ``row`` known by ablation where ``ablated`` (the same comparison with the
    engine's reading of the inertias taken out of its run, _without) is within its
    envelope: the reading, and nothing else, makes the difference."""
    reading = READINGS.get(engine, f"{engine}'s reading of the file's inertias")
    if not l3_within(ablated) or "diverged" in ablated:
        row["ablation"] = (f"without the effect of {reading} the difference is still "
                           f"{ablated['max_abs']:.3g} (envelope {ablated['tolerance']:.3g}):"
                           " the reading does not explain it")
        return
    row.update(evidence="ablation", evidence_value=ablated["max_abs"],
               known=f"{reading}: with its measured effect taken out of {engine}'s run, "
                     f"the difference falls to {ablated['max_abs']:.3g} (envelope "
                     f"{ablated['tolerance']:.3g})")


QUIET_GROWTH = 10.0  # the halving test's window: where round-off has grown at most tenfold


def _halving_rows(pb_rows: list[tuple[dict, np.ndarray, np.ndarray, np.ndarray | None]]
                  ) -> list[dict]:
    """PyBullet's own steps of a free root, one row per step size with the largest
    difference over a common window (from the start to where the system has amplified
    round-off QUIET_GROWTH-fold, in every run), and the ratio to the next halved step: a
    first-order difference halves; chaos past the window would hide that.  Where
    PyBullet reads the inertias differently (the fourth entry: the difference with that
    reading's measured effect taken out of its run), a ratio that fails is known by
    ablation when that difference halves."""
    if not pb_rows:
        return []
    seconds = min(
        (int(np.argmax(g > QUIET_GROWTH)) if np.any(g > QUIET_GROWTH) else len(g))
        * r["step"] for r, _, g, _ in pb_rows)
    peaks = []
    for row, diff, _, ablated in pb_rows:
        k = max(int(round(seconds / row["step"])), 1)
        row["max_abs"] = float(np.max(diff[:k + 1]))
        row["horizon"] = k * row["step"]
        peaks.append(None if ablated is None else float(np.max(ablated[:k + 1])))
    rows = [r for r, *_ in pb_rows]
    for (row, half), (mine, halved) in zip(zip(rows[:-1], rows[1:], strict=False),
                                           zip(peaks[:-1], peaks[1:], strict=False),
                                           strict=False):
        ratio = _ratio(row["max_abs"], half["max_abs"])
        row.update(ratio_to_half_step=ratio, min_ratio=MIN_RATIO)
        row["comparison"] += f" (difference / difference at dt/2 = {ratio:.2f})"
        if ratio < MIN_RATIO and mine is not None and halved is not None \
                and _ratio(mine, halved) >= MIN_RATIO:
            row.update(evidence="ablation", evidence_value=_ratio(mine, halved),
                       known=f"{READING}: with its measured effect taken out, PyBullet's "
                             f"difference halves with the step (ratio "
                             f"{_ratio(mine, halved):.2f})")
    return rows


def _ratio(a: float, b: float) -> float:
    """a / b, infinite where b is 0."""
    return float(a / b) if b > 0.0 else float("inf")


RATIO_REASON = ("PyBullet's own first-order step of the same dynamics (it moves the centre of "
                "mass, not the root's origin): the difference must fall as dt (ratio 2 per "
                "halving; 1.5 allows for the O(dt^2) terms); a modelling difference would not")
