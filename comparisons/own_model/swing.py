"""L3 of a user's model, judged by what the implementations' own round-off and the
system's own sensitivity allow, never by the difference it judges.

Two correct implementations of the same dynamics, stepped by the same scheme, differ by
round-off that the dynamics then amplify: a pendulum keeps it near 1e-15, a chaotic arm
grows it by orders of magnitude within a second.  So each swing is run twice by the
model, the second time from a start moved by DELTA, and the growth of that perturbation,
g(t) = max over s <= t of |x_perturbed(s) - x(s)| / DELTA (at least 1), scales the
tolerance: a difference d(t) between the model and an engine is round-off while
d(t) <= SWING_TOL g(t), plus the drift that each side's own round-off in the
accelerations integrates to.  That round-off is measured on each implementation alone
(``own_roundoff``: its accelerations under a move of the state by a few ulps), never
against another reading of the file.  The comparison runs over the horizon on which the
envelope stays below ENVELOPE_LIMIT; past it the system's sensitivity hides any modelling
difference, and the row says where the horizon ended and why.

Where an engine reads the file's inertias differently (PyBullet's principal axes), its
rows are still judged on that envelope; a row outside it is a known difference only when
the ablation shows it: the reading's effect on the swing, measured as the file's dynamics
with that reading less with the file's own (Pinocchio's algorithm on both sets of
numbers), taken out of the engine's run, leaves a difference within the envelope, so the
reading, and nothing else, makes the difference.

A swing that goes non-finite is an L3 finding of whoever diverged (the model or an
engine), never a reason to drop the L0-L2 results.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from dynval.comparisons.ladder.integrate import (
    free_root_position_step,
    integrate_free_rk4,
    integrate_rk4,
)
from dynval.engines import EngineInstabilityError
from dynval.model import NonFiniteError

SWING_SECONDS = 2.0  # [s]
SWING_STEPS = (1e-3, 5e-4, 2.5e-4)  # [s]
SWING_TOL = 1e-9  # [rad or m]: the same scheme on the same dynamics leaves round-off
DELTA = 1e-12  # [rad or m]: the start's perturbation that measures the sensitivity
ENVELOPE_LIMIT = 1e-4  # [rad or m]: past this the sensitivity hides modelling differences
MIN_RATIO = 1.5  # a first-order difference halves with the step: ratio 2, less O(dt^2)

Accel = Callable[[np.ndarray, np.ndarray], np.ndarray]


@dataclass(frozen=True)
class Swing:
    """One run's positions at every step; ``diverged_at`` [s] where it went non-finite
    (the positions stop there) and who diverged."""

    q: np.ndarray
    diverged_at: float | None = None
    why: str = ""
    v: np.ndarray | None = None  # the velocities, where the run kept them


def euler(qdd: Accel, q0: np.ndarray, v0: np.ndarray, dt: float, n: int,
          free: bool) -> Swing:
    """Semi-implicit Euler (MuJoCo's and PyBullet's scheme): v += vdot dt, then q moves at
    the new v (a free root's quaternion as MuJoCo turns it), stopped where the model's
    accelerations or the state go non-finite."""
    q, v = np.array(q0, dtype=float), np.array(v0, dtype=float)
    out, rates = [q.copy()], [v.copy()]
    for k in range(n):
        try:
            v = v + qdd(q, v) * dt
        except (NonFiniteError, np.linalg.LinAlgError) as exc:
            return Swing(np.array(out), k * dt, str(exc), np.array(rates))
        q = free_root_position_step(q, v, dt) if free else q + v * dt
        if not np.all(np.isfinite(q)):
            return Swing(np.array(out), (k + 1) * dt, "the state went non-finite",
                         np.array(rates))
        out.append(q.copy())
        rates.append(v.copy())
    return Swing(np.array(out), v=np.array(rates))


def engine_swing(simulate: Callable[[], np.ndarray], dt: float) -> Swing:
    """An engine's own steps, cut where they go non-finite or the engine reports an
    instability."""
    try:
        traj = simulate()
    except EngineInstabilityError as exc:
        return Swing(np.asarray(exc.partial if exc.partial is not None else []),
                     exc.time or 0.0, str(exc))
    bad = ~np.all(np.isfinite(traj), axis=1)
    if np.any(bad):
        k = int(np.argmax(bad))
        return Swing(traj[:k], k * dt, "its state went non-finite")
    return Swing(traj)


def growth(base: Swing, perturbed: Swing) -> np.ndarray:
    """g(t): the running maximum of |perturbed - base| / DELTA, at least 1, at each step
    both runs reached."""
    k = min(len(base.q), len(perturbed.q))
    spread = np.max(np.abs(perturbed.q[:k] - base.q[:k]), axis=1) / DELTA
    return np.maximum.accumulate(np.maximum(spread, 1.0))


def horizon(g: np.ndarray) -> int:
    """The number of steps over which the envelope SWING_TOL g stays within
    ENVELOPE_LIMIT."""
    over = SWING_TOL * g > ENVELOPE_LIMIT
    return int(np.argmax(over)) if np.any(over) else len(g)


def judged_steps(g: np.ndarray, limit: tuple[int, str] | None) -> int:
    """The steps a swing is judged over: the sensitivity's horizon, ended earlier where
    the model first reaches a joint limit (``limit``: steps, joint)."""
    return min(horizon(g), limit[0]) if limit else horizon(g)


def compare(hand: Swing, other: Swing, g: np.ndarray, dt: float, name: str,
            reason: str, allowance: np.ndarray | None = None,
            limit: tuple[int, str] | None = None, who: str = "handrolled") -> dict:
    """One L3 row: the model against one engine's run over the horizon, judged point by
    point against the envelope SWING_TOL g plus, where given, the drift of the two sides'
    own round-off (``allowance``, at each step).  ``max_abs`` is the largest difference
    and ``tolerance`` the envelope at that time; where the difference leaves the envelope
    somewhere else first, ``exceeds_at`` [s] says when, with the difference and the
    envelope there (``exceeds``).  A run that diverged within the horizon is a failing
    row naming who diverged.  ``limit`` (steps, joint) ends the horizon where the model's
    run first reaches a joint limit, for a model that holds within them.  ``who`` names the
    model's side in the row's label ("pinocchio" where an engine stands for the model)."""
    end = judged_steps(g, limit)
    k = min(end, len(hand.q), len(other.q))
    row = {"step": dt, "comparison": f"{who} vs {name}", "reason": reason,
           "horizon": k * dt, "growth": float(g[k - 1]) if k else 1.0}
    for who, run in (("the model", hand), (name, other)):
        if run.diverged_at is not None and run.diverged_at < end * dt:
            row.update(max_abs=float("inf"), tolerance=SWING_TOL,
                       diverged=f"{who} diverged at t = {run.diverged_at:g} s ({run.why})")
            return row
    if k == 0:  # reported, not judged: there is nothing to compare
        row.update(max_abs=0.0, tolerance=None, reason="no step to compare")
        return row
    row.update(judge(_diff(other, hand, k), envelope(g[:k], allowance), dt))
    if limit and limit[0] < horizon(g):
        row["reason"] += (f"; judged over the first {k * dt:g} s, until joint {limit[1]!r} "
                          "reaches its limit (past it each engine's limit force is its "
                          "solver's own law)")
    elif k * dt < SWING_SECONDS:
        row["reason"] += (f"; judged over the first {k * dt:g} s, where a {DELTA:g} change "
                          f"of the start has grown {g[k - 1]:.3g}-fold (the system's own "
                          "sensitivity hides any difference past that)")
    elif g[-1] > 1.0:
        row["reason"] += f"; tolerance scaled by the sensitivity, {g[-1]:.3g}-fold at 2 s"
    return row


def envelope(g: np.ndarray, allowance: np.ndarray | None) -> np.ndarray:
    """SWING_TOL g plus the integrated round-off ``allowance``, step by step."""
    out = SWING_TOL * g
    if allowance is not None and len(allowance):
        out = out + allowance[:len(out)]
    return out


def judge(diff: np.ndarray, env: np.ndarray, dt: float) -> dict:
    """The row's figures for a difference ``diff`` and its envelope ``env`` at each step:
    the largest difference, the envelope and the time there, and, where the difference
    leaves the envelope before that, the first such time with both values."""
    i = int(np.argmax(diff))
    out = {"max_abs": float(diff[i]), "tolerance": float(env[i]), "at": i * dt}
    over = diff > env
    first = int(np.argmax(over))
    if over[first] and first != i:
        out.update(exceeds_at=first * dt, exceeds=(float(diff[first]), float(env[first])))
    return out


def integration_errors(qdd: Accel, hands: dict[float, tuple[Swing, int]], q0: np.ndarray,
                       v0: np.ndarray, free: bool) -> list[dict]:
    """Each step's Euler swing against one RK4 run at the smallest step, over that swing's
    horizon (k steps): the scheme's own error, reported (first order in dt), not judged."""
    fine = min(hands)  # RK4's error there, O(dt^4), is some ten orders below Euler's O(dt)
    seconds = max(k * dt for dt, (_, k) in hands.items())
    n = int(round(seconds / fine))
    if free:
        exact = integrate_free_rk4(qdd, q0, v0, fine, n)
    else:
        exact = integrate_rk4(qdd, q0, fine, n)
    rows = []
    for dt, (hand, k) in hands.items():
        every = int(round(dt / fine))
        ref = exact[::every][:k]
        rows.append({"step": dt, "comparison": f"semi-implicit Euler vs RK4 at dt={fine:g}",
                     "max_abs": float(np.max(np.abs(hand.q[:len(ref)] - ref))),
                     "tolerance": None,
                     "reason": "integration error of the shared scheme, first order in dt"})
    return rows


def engine_accelerations(engine: object) -> Accel:
    """An engine's unforced accelerations: its own forward dynamics where it has one,
    else M \\ -bias from its terms."""
    if callable(getattr(engine, "acceleration", None)):
        return engine.acceleration

    def qdd(q: np.ndarray, v: np.ndarray) -> np.ndarray:
        out = np.linalg.solve(engine.mass_matrix(q), -engine.bias(q, v))
        if not np.all(np.isfinite(out)):
            raise NonFiniteError("its accelerations went non-finite")
        return out
    return qdd


def _perturbed(q0: np.ndarray, free: bool) -> np.ndarray:
    """The start moved by DELTA in every coordinate but a free root's quaternion."""
    out = np.array(q0, dtype=float)
    if free:
        out[0:3] += DELTA
        out[7:] += DELTA
    else:
        out += DELTA
    return out


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


def first_limit(hand: Swing, limits: tuple[np.ndarray, np.ndarray, list[str]] | None,
                free: bool) -> tuple[int, str] | None:
    """The number of steps before the model's run first leaves a joint's range, and that
    joint; None where it never does (or no limits are given)."""
    if limits is None:
        return None
    lo, hi, names = limits
    joints = hand.q[:, 7:] if free else hand.q
    out = (joints < lo) | (joints > hi)
    if not np.any(out):
        return None
    k = int(np.argmax(np.any(out, axis=1)))
    return k, names[int(np.argmax(out[k]))]


def _roundoff_drift(hand: Swing, g: np.ndarray, dt: float) -> np.ndarray:
    """How far a relative error of 1 in the accelerations moves the swing by each step:
    A(t) t^2 / 2, A the running maximum of the swing's accelerations (its positions'
    second differences), amplified as the system amplifies (g)."""
    q = hand.q
    a = np.zeros(len(q))
    if len(q) > 2:
        a[1:-1] = np.max(np.abs(q[2:] - 2.0 * q[1:-1] + q[:-2]), axis=1) / dt**2
    t = dt * np.arange(len(q))
    k = min(len(q), len(g))
    return (np.maximum.accumulate(a) * t * t / 2.0)[:k] * g[:k]


PATH_STATES = 50  # states along a swing where each side's round-off is measured
ROUNDOFF_STATES = 50  # of the audit's sampled states, those where it is measured too
JITTER = (4e-16, 8e-16, 1.6e-15)  # relative moves of the state: a few units of round-off


def own_roundoff(acc: Accel, states: list[tuple[np.ndarray, np.ndarray]]) -> float:
    """One implementation's own round-off in its accelerations, relative to their scale:
    the largest change of acc(q, v) when q and v move by a few units of round-off
    (JITTER).  The move changes how every operation rounds while the dynamics stay as
    they are (it moves the true accelerations by about 1e-15 of their scale times the
    system's own stiffness), so what changes is the implementation's arithmetic, M's
    conditioning included.  Measured on the implementation alone, never against another
    reading of the file; 0.0 where it cannot be evaluated on the states."""
    try:
        base = np.array([acc(q, v) for q, v in states])
        scale = float(np.max(np.abs(base), initial=0.0))
        worst = max((float(np.max(np.abs(np.array(
            [acc(q * (1.0 + e), v * (1.0 + e)) for q, v in states]) - base)))
            for e in JITTER), default=0.0)
    except (NonFiniteError, np.linalg.LinAlgError):
        return 0.0
    return worst / scale if scale > 0.0 and np.isfinite(worst) else 0.0


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


def _diff(a: Swing, b: Swing, k: int) -> np.ndarray:
    """max |a - b| over the coordinates at each of the first k steps."""
    return np.max(np.abs(a.q[:k] - b.q[:k]), axis=1)


def l3_within(row: dict) -> bool:
    """A judged L3 row whose difference stays within its envelope at every step (a row
    with no tolerance is reported, not judged: True)."""
    return row["tolerance"] is None or (row["max_abs"] <= row["tolerance"]
                                        and "exceeds_at" not in row)


READING = "PyBullet's principal-axes reading of the file's inertias"
READINGS = {"pybullet": READING,  # what an engine's reading of the inertias is, in words
            "drake": "Drake's own reading of an inertia its parser judges impossible"}


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
