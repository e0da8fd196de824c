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

This module holds the swing, its envelope and the round-off measures; the rows built
from them, with the ablation and the halving test, are ``swing_rows``.
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


def __getattr__(name: str):
    """``swing.swing_rows`` as before the rows had their own module (which imports this
    one, so it is imported here only when asked for)."""
    if name == "swing_rows":
        from dynval.comparisons.own_model.swing_rows import swing_rows

        return swing_rows
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
