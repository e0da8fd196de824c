"""Generic closed-loop runner: steps any ``ClosedLoop`` to the end, records its
signals, stops with a clear error on divergence, and shows progress."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Protocol

import numpy as np
import pandas as pd

from dynval.comparisons.ladder.signals import check_names
from dynval.engines import EngineInstabilityError


class DivergenceError(RuntimeError):
    """A run produced a non-finite or runaway signal."""


class EnergyGainError(DivergenceError):
    """A run with no energy input gained more mechanical energy than its integrator can."""


@dataclass(frozen=True)
class EnergyGuard:
    """The energy check of a run in which nothing does work on the robot (no actuator, no
    thrust, lossless or dissipative contact): its total mechanical energy, computed from a
    sample's signals, may not rise above its first value by more than ``bound``."""

    energy: Callable[[Mapping[str, float]], float]  # [J], from one sample's signals
    bound: float  # [J]
    basis: str  # why the bound is what it is, for the error message


@dataclass(frozen=True)
class Samples:
    """What a loop's ``advance_samples(chunks)`` gives: its time after each chunk it
    completed, the signal values there (a row each, in the order of the names its
    ``signals`` gives), and the exception that ended the chunks early, or None. The
    exception is what ``advance_many`` would have raised in the next chunk: :func:`run`
    raises it once the samples before it have passed their checks."""

    t: np.ndarray
    values: np.ndarray
    error: BaseException | None = None


class ClosedLoop(Protocol):
    """One implementation of one scenario: plant, controllers and contact wired together.

    A loop may also offer ``advance_many(n)``: n steps at once (a compiled inner loop);
    :func:`run` then calls it between two recorded samples instead of ``advance``, and
    checks the samples a block at a time (:func:`_chunk_by_chunk`).  It may also offer
    ``advance_samples`` (None where it cannot): a callable taking the chunks of steps
    between the next samples, as ``advance_many`` would take them one by one, and giving
    the samples after each, in one call (:class:`Samples`); :func:`run` then takes the run
    a block of samples at a time (:func:`_run_samples`)."""

    implementation: str
    t: float

    def advance(self) -> None: ...

    def signals(self) -> dict[str, float]: ...


def run_length(duration: float, until: float | None) -> float:
    """A scenario's length, or ``until`` where that is earlier (a shortened run)."""
    return duration if until is None else min(duration, until)


def run(loop: ClosedLoop, duration: float, dt: float, record_every: int = 10,
        limit: float = 1e6, progress: Callable[[float], None] | None = None,
        workspace: dict[str, float] | None = None,
        energy_guard: EnergyGuard | None = None) -> pd.DataFrame:
    """Step ``loop`` for ``duration`` seconds and return a wide frame (time x signal).

    Raises DivergenceError naming the signal and time where a value is NaN or beyond
    ``limit`` in magnitude, where a signal of ``workspace`` has moved further from its
    start than the distance given for it (a body far outside the scenario's workspace), or
    where the loop's time does not advance by one step (an engine that reset itself after
    an instability, as MuJoCo does). Raises EnergyGainError where ``energy_guard`` is given
    and the energy has risen above its start by more than its bound.
    """
    n_steps = int(round(duration / dt))
    rows: list[list[float]] = []
    names: list[str] | None = None
    # what each sample is checked against; start and E_0 are the first sample's
    checks = _Checks(limit, workspace, {}, energy_guard, 0.0)
    report_every = max(1, n_steps // 100)
    many = getattr(loop, "advance_many", None)
    samples = getattr(loop, "advance_samples", None)
    blocks: list[np.ndarray] = []
    k = 0
    while True:
        if k % record_every == 0 or k == n_steps:
            sig = loop.signals()
            if names is None:
                names = list(sig)
                check_names(names)  # one name, one unit and frame (ladder/signals.py)
                checks = replace(checks, start={n: sig[n] for n in workspace or {}},
                                 E_0=energy_guard.energy(sig) if energy_guard else 0.0)
            values = [sig[n] for n in names]
            _check_sample(loop, loop.t, sig, names, values, checks)
            rows.append([loop.t, *values])
        if k == n_steps:
            break
        if samples is not None or many is not None:
            _run_samples(loop, samples or _chunk_by_chunk(loop, many, names), k, n_steps, dt,
                         record_every, names, blocks, checks, progress, report_every)
            break
        t_before = loop.t  # a loop that takes one step at a time
        try:
            loop.advance()
        except (EngineInstabilityError, np.linalg.LinAlgError) as exc:
            raise _diverged(loop, exc) from None
        _check_clock(loop, t_before, loop.t, 1, dt)
        if progress is not None and k // report_every != (k - 1) // report_every:
            progress(k / n_steps)
        k += 1
    if progress is not None:
        progress(1.0)
    table = np.vstack([np.array(rows), *blocks]) if blocks else np.array(rows)
    return pd.DataFrame(table, columns=["time", *names])


SAMPLES_PER_CALL = 500  # the samples one advance_samples call takes at most


@dataclass(frozen=True)
class _Checks:
    """What :func:`run` checks each sample against (see :func:`_check_sample`)."""

    limit: float
    workspace: dict[str, float] | None
    start: dict[str, float]
    energy_guard: EnergyGuard | None
    E_0: float


def _chunk_by_chunk(loop: ClosedLoop, many: Callable[[int], None], names: list[str]
                    ) -> Callable[[np.ndarray], Samples]:
    """``advance_samples`` made of ``advance_many`` and ``signals``: each chunk, then its
    sample (the values of ``names``), as :func:`run` would take them one by one; the
    checks are then made on the block of samples (:func:`_run_samples`), with the same
    outcome and the same numbers, without a Python check of every value of every sample.
    An exception of a chunk, or of reading its sample, ends the block and is returned."""
    def samples(chunks: np.ndarray) -> Samples:
        t: list[float] = []
        rows: list[list[float]] = []
        error = None
        for m in chunks.tolist():
            try:
                many(m)
                sig = loop.signals()
            except Exception as exc:  # noqa: BLE001 - run raises it after the checks
                error = exc
                break
            t.append(loop.t)
            rows.append([sig[n] for n in names])
        return Samples(np.array(t, dtype=float),
                       np.array(rows, dtype=float).reshape(len(rows), len(names)), error)
    return samples


def _run_samples(loop: ClosedLoop, samples: Callable[[np.ndarray], Samples], k: int,
                 n_steps: int, dt: float, record_every: int, names: list[str],
                 blocks: list[np.ndarray], checks: _Checks,
                 progress: Callable[[float], None] | None, report_every: int) -> None:
    """:func:`run`'s loop from step k (a sample) to the end with ``advance_samples``: the
    chunks ``advance_many`` would be given, up to SAMPLES_PER_CALL samples a call; then,
    chunk by chunk, the same clock check, progress report and sample check in the same
    order, the error that ended the chunks raised last. The samples' rows (time first)
    go to ``blocks``."""
    while k < n_steps:
        chunks, j = [], k
        while j < n_steps and len(chunks) < SAMPLES_PER_CALL:
            chunks.append(min(record_every - j % record_every, n_steps - j))
            j += chunks[-1]
        t_before = loop.t
        got = samples(np.array(chunks, dtype=np.int64))
        if got.error is None and len(got.t) < len(chunks):
            raise RuntimeError(f"{loop.implementation}: advance_samples took "
                               f"{len(got.t)} of {len(chunks)} chunks and gave no error")
        n = len(got.t)
        steps, t = np.array(chunks[:n], dtype=np.int64), got.t
        t_prev = np.concatenate([[t_before], t[:-1]])
        # the first chunk whose clock, or whose sample, fails its check (the clock first)
        late = ~(np.abs(t - t_prev - steps * dt) <= 1e-6 * dt + 1e-9)
        clock = int(np.argmax(late)) if late.any() else n
        failing = _first_failing(got.values, names, checks)
        end = min(clock, failing)
        if progress is not None:  # reported after each chunk's clock check, as there
            for m in steps[:min(end + 1, n) if failing < clock else end].tolist():
                if (k + m - 1) // report_every != (k - 1) // report_every:
                    progress(k / n_steps)
                k += m
        if end < n:  # raises, as the sample-by-sample loop does at this chunk
            _check_clock(loop, float(t_prev[end]), float(t[end]), int(steps[end]), dt)
            values = got.values[end].tolist()
            _check_sample(loop, float(t[end]), dict(zip(names, values, strict=True)), names,
                          values, checks)
        if progress is None:
            k += int(steps.sum())
        blocks.append(np.column_stack([got.t, got.values]))
        if isinstance(got.error, (EngineInstabilityError, np.linalg.LinAlgError)):
            raise _diverged(loop, got.error) from None
        if got.error is not None:
            raise got.error


def _first_failing(values: np.ndarray, names: list[str], checks: _Checks) -> int:
    """The first row of ``values`` (samples x signals) that :func:`_check_sample` rejects,
    or the number of rows where none is rejected."""
    bad = (~np.isfinite(values) | (np.abs(values) > checks.limit)).any(axis=1)
    for name, reach in (checks.workspace or {}).items():
        bad |= np.abs(values[:, names.index(name)] - checks.start[name]) > reach
    first = int(np.argmax(bad)) if bad.any() else len(values)
    guard = checks.energy_guard
    if guard is not None:  # the energy of each sample before it, one by one
        for i in range(first):
            if guard.energy(dict(zip(names, values[i].tolist(), strict=True))) \
                    - checks.E_0 > guard.bound:
                return i
    return first


def _diverged(loop: ClosedLoop, exc: BaseException) -> DivergenceError:
    """The DivergenceError for an engine's instability or a singular solve in advancing
    the loop from its time ``loop.t``."""
    if isinstance(exc, EngineInstabilityError):
        return DivergenceError(f"{loop.implementation} diverged: {exc}")
    # a mass matrix a blown-up state made singular
    return DivergenceError(
        f"{loop.implementation} diverged: its equations of motion could not be "
        f"solved after t = {loop.t:.4f} s ({exc})")


def _check_clock(loop: ClosedLoop, t_before: float, t: float, m: int, dt: float) -> None:
    """Raise DivergenceError where the time did not go from t_before to t in m steps."""
    if not abs(t - t_before - m * dt) <= 1e-6 * dt + 1e-9:
        raise DivergenceError(
            f"{loop.implementation} diverged: its time went from {t_before:.4f} s to "
            f"{t:.4f} s in {m} step(s) of {dt:g} s (the engine reset itself after "
            "an instability)")


def _check_sample(loop: ClosedLoop, t: float, sig: Mapping[str, float], names: list[str],
                  values: list[float], checks: _Checks) -> None:
    """Raise DivergenceError where the sample recorded at time t is non-finite, beyond
    ``limit``, outside the workspace or above the energy bound (see :func:`run`)."""
    limit, workspace, start, energy_guard, E_0 = (checks.limit, checks.workspace,
                                                  checks.start, checks.energy_guard,
                                                  checks.E_0)
    for name, v in zip(names, values, strict=True):
        if not math.isfinite(v) or abs(v) > limit:
            raise DivergenceError(
                f"{loop.implementation} diverged: signal {name} = {v:.3g} at "
                f"t = {t:.4f} s"
            )
    for name, reach in (workspace or {}).items():
        if abs(sig[name] - start[name]) > reach:
            raise DivergenceError(
                f"{loop.implementation} left the scenario's workspace: signal {name} "
                f"= {sig[name]:.3g} ({sig[name] - start[name]:+.3g} from its start, "
                f"bound {reach:g}) at t = {t:.4f} s")
    if energy_guard is not None:
        gain = energy_guard.energy(sig) - E_0
        if gain > energy_guard.bound:
            raise EnergyGainError(
                f"{loop.implementation} gained {gain:.3g} J of mechanical energy "
                f"(from {E_0:.4g} J) at t = {t:.4f} s with no energy input, more "
                f"than the {energy_guard.bound:.3g} J allowed for integration error "
                f"({energy_guard.basis})")


def tidy(wide: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Wide frames per implementation -> tidy (time, implementation, signal, value)."""
    parts = []
    for impl, df in wide.items():
        long = df.melt(id_vars="time", var_name="signal", value_name="value")
        long.insert(1, "implementation", impl)
        parts.append(long)
    return pd.concat(parts, ignore_index=True)
