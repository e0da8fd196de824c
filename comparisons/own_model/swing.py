"""L3 of a user's model, judged by what the system's own sensitivity allows.

Two correct implementations of the same dynamics, stepped by the same scheme, differ by
round-off that the dynamics then amplify: a pendulum keeps it near 1e-15, a chaotic arm
grows it by orders of magnitude within a second.  So each swing is run twice by the
model, the second time from a start moved by DELTA, and the growth of that perturbation,
g(t) = max over s <= t of |x_perturbed(s) - x(s)| / DELTA (at least 1), scales the
tolerance: a difference d(t) between the model and an engine is round-off while
d(t) <= SWING_TOL g(t).  The comparison runs over the horizon on which that envelope stays
below ENVELOPE_LIMIT; past it the system's sensitivity hides any modelling difference,
and the row says where the horizon ended and why.

A swing that goes non-finite is an L3 finding of whoever diverged (the model or an
engine), never a reason to drop the L0-L2 results.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

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
            limit: tuple[int, str] | None = None) -> dict:
    """One L3 row: the model against one engine's run over the horizon, the worst point
    of |diff| / envelope, the envelope being SWING_TOL g plus, where given, the measured
    effect of the engine's own reading of the file (``allowance``, at each step); max_abs
    and tolerance are the difference and the envelope there, so the row passes exactly
    when every point is within its envelope.  A run that diverged within the horizon is a
    failing row naming who diverged.  ``limit`` (steps, joint) ends the horizon where the
    model's run first reaches a joint limit, for a model that holds within them."""
    end = judged_steps(g, limit)
    k = min(end, len(hand.q), len(other.q))
    row = {"step": dt, "comparison": f"handrolled vs {name}", "reason": reason,
           "horizon": k * dt, "growth": float(g[k - 1]) if k else 1.0}
    for who, run in (("the model", hand), (name, other)):
        if run.diverged_at is not None and run.diverged_at < end * dt:
            row.update(max_abs=float("inf"), tolerance=SWING_TOL,
                       diverged=f"{who} diverged at t = {run.diverged_at:g} s ({run.why})")
            return row
    if k == 0:  # reported, not judged: there is nothing to compare
        row.update(max_abs=0.0, tolerance=None, reason="no step to compare")
        return row
    diff = np.max(np.abs(other.q[:k] - hand.q[:k]), axis=1)
    envelope = SWING_TOL * g[:k]
    if allowance is not None and len(allowance):
        envelope = envelope + allowance[:k]
    i = int(np.argmax(diff / envelope))
    row.update(max_abs=float(diff[i]), tolerance=float(envelope[i]))
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


def _allowance(pair: tuple[Accel, Accel], q0: np.ndarray, v0: np.ndarray, dt: float,
               n: int, free: bool) -> np.ndarray:
    """How far an engine's own reading of the file moves the swing: the running maximum
    of |x_a - x_b| for the two accelerations of ``pair`` (Pinocchio with that engine's
    inertias, and Pinocchio's own) through the same scheme."""
    a, b = (euler(f, q0, v0, dt, n, free).q for f in pair)
    k = min(len(a), len(b))
    out = np.full(n + 1, np.inf)
    out[:k] = np.maximum.accumulate(np.max(np.abs(a[:k] - b[:k]), axis=1))
    return out


def swing_rows(qdd: Accel, engines: dict[str, object], q0: np.ndarray, v0: np.ndarray,
               free: bool, allowances: dict[str, tuple[Accel, Accel]] | None = None,
               roundoff: dict[str, float] | None = None, reference: Accel | None = None,
               limits: tuple[np.ndarray, np.ndarray, list[str]] | None = None
               ) -> list[dict]:
    """L3 rows at each step of SWING_STEPS: the model's semi-implicit Euler against each
    engine's own steps and against each engine's accelerations through the same scheme,
    all judged against the sensitivity envelope; PyBullet's own steps of a free root
    move the centre of mass rather than the root's origin, an O(dt) difference that must
    halve with the step unless it is round-off already; and the scheme's own error.
    ``allowances`` give, per engine, two accelerations whose difference is that engine's
    own reading of the file (PyBullet's inertias), added to its envelope; ``roundoff`` per
    engine the relative round-off of its accelerations against Pinocchio's (``reference``,
    which also measures it along the swing), whose effect on the swing (_roundoff_drift)
    is added too.  ``limits`` (lower, upper, joint names), for a model that holds within
    the joint ranges, ends each swing's horizon where the model first reaches one."""
    with np.errstate(over="ignore", invalid="ignore"):  # a diverging run is reported
        return _swing_rows(qdd, engines, q0, v0, free, allowances, roundoff, reference,
                           limits)


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


PATH_STATES = 50  # states along a swing where the engines' accelerations are compared


def acceleration_roundoff(engines: dict[str, object], reference: Accel,
                          states: list[tuple[np.ndarray, np.ndarray]]) -> dict[str, float]:
    """Each engine's accelerations against the reference's (Pinocchio's) at the states
    (q, v), relative to their scale: the terms' round-off amplified by M's conditioning,
    which L2 cannot see (empty where the reference itself fails there)."""
    try:
        ref = np.array([reference(q, v) for q, v in states])
    except (NonFiniteError, np.linalg.LinAlgError):
        return {}
    scale = float(np.max(np.abs(ref)))
    out = {}
    for e, eng in engines.items():
        if e == "pinocchio" or scale == 0.0:
            continue
        acc = engine_accelerations(eng)
        try:
            theirs = np.array([acc(q, v) for q, v in states])
        except (NonFiniteError, np.linalg.LinAlgError):
            continue
        out[e] = float(np.max(np.abs(theirs - ref))) / scale
    return out


def _path_roundoff(hand: Swing, engines: dict[str, object], reference: Accel | None,
                   k: int) -> dict[str, float]:
    """acceleration_roundoff at PATH_STATES states of the model's swing within its horizon
    (k steps): the round-off the swing meets, which random states may understate."""
    if reference is None or hand.v is None:
        return {}
    picks = np.unique(np.linspace(0, min(k, len(hand.v)) - 1, PATH_STATES).astype(int))
    return acceleration_roundoff(engines, reference, [(hand.q[i], hand.v[i]) for i in picks])


def _swing_rows(qdd: Accel, engines: dict[str, object], q0: np.ndarray, v0: np.ndarray,
                free: bool, allowances: dict[str, tuple[Accel, Accel]] | None,
                roundoff: dict[str, float] | None, reference: Accel | None,
                limits: tuple[np.ndarray, np.ndarray, list[str]] | None) -> list[dict]:
    reason = ("same semi-implicit Euler scheme and, if the model is right, the same "
              "dynamics: only round-off remains, amplified as the system amplifies it")
    rows, pb_rows = [], []
    hands: dict[float, tuple[Swing, int]] = {}
    for dt in SWING_STEPS:
        n = int(round(SWING_SECONDS / dt))
        hand = euler(qdd, q0, v0, dt, n, free)
        g = growth(hand, euler(qdd, _perturbed(q0, free), v0, dt, n, free))
        runs: dict[str, Swing] = {}
        for name, eng in engines.items():
            if callable(getattr(eng, "simulate", None)):
                runs[f"{name} (own integrator)"] = engine_swing(
                    lambda eng=eng, dt=dt, n=n: eng.simulate(q0, v0, dt, n), dt)
            runs[f"{name} accelerations, hand integrator"] = euler(
                engine_accelerations(eng), q0, v0, dt, n, free)
        extra = {e: _allowance(pair, q0, v0, dt, n, free)
                 for e, pair in (allowances or {}).items() if e in engines}
        drift = _roundoff_drift(hand, g, dt)
        limit = first_limit(hand, limits, free)
        end = judged_steps(g, limit)
        on_path = _path_roundoff(hand, engines, reference, end)
        for name, run in runs.items():
            engine = name.split(" ")[0]
            own = max((roundoff or {}).get(engine, 0.0), on_path.get(engine, 0.0))
            allowed = own * drift
            if engine in extra:
                allowed = allowed + extra[engine][:len(allowed)]
            row = compare(hand, run, g, dt, name, reason, allowed, limit)
            if engine in extra:
                row["reason"] += ("; plus the measured effect of the engine's reading of the "
                                  "inertias")
            if own > 0.0:
                row["reason"] += (f"; plus its accelerations' own round-off ({own:.1g} of "
                                  "their scale against Pinocchio's, on the sampled states "
                                  "and along the swing), integrated")
            if free and name == "pybullet (own integrator)" and row["max_abs"] > row[
                    "tolerance"] and "diverged" not in row:
                row.update(tolerance=None, reason=RATIO_REASON)
                k = min(len(run.q), len(hand.q), len(g), end)
                pb_rows.append((row, np.max(np.abs(run.q[:k] - hand.q[:k]), axis=1), g[:k]))
            else:
                rows.append(row)
        if hand.diverged_at is None:
            hands[dt] = (hand, min(end, len(hand.q)))
    halving = _halving_rows(pb_rows)
    if hands:
        rows += integration_errors(qdd, hands, q0, v0, free)
    return rows + halving


QUIET_GROWTH = 10.0  # the halving test's window: where round-off has grown at most tenfold


def _halving_rows(pb_rows: list[tuple[dict, np.ndarray, np.ndarray]]) -> list[dict]:
    """PyBullet's own steps of a free root, one row per step size with the largest
    difference over a common window (from the start to where the system has amplified
    round-off QUIET_GROWTH-fold, in every run), and the ratio to the next halved step: a
    first-order difference halves; chaos past the window would hide that."""
    if not pb_rows:
        return []
    seconds = min(
        (int(np.argmax(g > QUIET_GROWTH)) if np.any(g > QUIET_GROWTH) else len(g)) * r["step"]
        for r, _, g in pb_rows)
    for row, diff, _ in pb_rows:
        k = max(int(round(seconds / row["step"])), 1)
        row["max_abs"] = float(np.max(diff[:k + 1]))
        row["horizon"] = k * row["step"]
    rows = [r for r, _, _ in pb_rows]
    for row, half in zip(rows[:-1], rows[1:], strict=False):
        ratio = row["max_abs"] / half["max_abs"] if half["max_abs"] > 0.0 else np.inf
        row.update(ratio_to_half_step=float(ratio), min_ratio=MIN_RATIO)
        row["comparison"] += f" (difference / difference at dt/2 = {ratio:.2f})"
    return rows


RATIO_REASON = ("PyBullet's own first-order step of the same dynamics (it moves the centre of "
                "mass, not the root's origin): the difference must fall as dt (ratio 2 per "
                "halving; 1.5 allows for the O(dt^2) terms); a modelling difference would not")
