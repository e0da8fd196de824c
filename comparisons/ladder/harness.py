"""Generic closed-loop runner: steps any ``ClosedLoop`` to the end, records its
signals, stops with a clear error on divergence, and shows progress."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
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


class ClosedLoop(Protocol):
    """One implementation of one scenario: plant, controllers and contact wired together.

    A loop may also offer ``advance_many(n)``: n steps at once (a compiled inner loop);
    :func:`run` then calls it between two recorded samples instead of ``advance``.  And
    ``record_many(samples, every)``: ``samples`` times ``every`` steps, returning the
    sample after each ``every`` as a row (time, then the values of ``signals`` in its
    order), or None where it cannot (then :func:`run` steps as above); where it raises,
    the loop must be as it was, for :func:`run` to step it again and fail where it
    fails."""

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
    start: dict[str, float] = {}
    E_0 = 0.0
    report_every = max(1, n_steps // 100)
    many = getattr(loop, "advance_many", None)
    record = getattr(loop, "record_many", None)
    k, recorded = 0, False  # recorded: the sample at k came with a block
    while True:
        if not recorded and (k % record_every == 0 or k == n_steps):
            sig = loop.signals()
            if names is None:
                names = list(sig)
                check_names(names)  # one name, one unit and frame (ladder/signals.py)
                start = {n: sig[n] for n in workspace or {}}
                E_0 = energy_guard.energy(sig) if energy_guard else 0.0
            values = [sig[n] for n in names]
            _check_sample(loop, loop.t, sig, names, values, limit, workspace, start,
                          energy_guard, E_0)
            rows.append([loop.t, *values])
        recorded = False
        if k == n_steps:
            break
        samples = (n_steps - k) // record_every if k % record_every == 0 else 0
        if record is not None and samples > 1:
            samples = min(samples, BLOCK)
            t_before = loop.t
            try:
                block = record(samples, record_every)
            except (EngineInstabilityError, np.linalg.LinAlgError):
                block = None  # stepped again below, to fail where it fails
            if block is None:
                record = None  # step by step from here
            else:
                _check_block(loop, t_before, block, names, record_every, dt, limit,
                             workspace, start, energy_guard, E_0)
                rows.extend(block.tolist())
                for j in range(samples):  # what the steps one sample at a time report
                    kj = k + j * record_every
                    if progress is not None and \
                            (kj + record_every - 1) // report_every != (kj - 1) // report_every:
                        progress(kj / n_steps)
                k += samples * record_every
                recorded = True
                continue
        m = 1 if many is None else min(record_every - k % record_every, n_steps - k)
        t_before = loop.t
        try:
            if many is None:
                loop.advance()
            else:
                many(m)
        except EngineInstabilityError as exc:
            raise DivergenceError(f"{loop.implementation} diverged: {exc}") from None
        except np.linalg.LinAlgError as exc:  # a mass matrix a blown-up state made singular
            raise DivergenceError(
                f"{loop.implementation} diverged: its equations of motion could not be "
                f"solved after t = {loop.t:.4f} s ({exc})") from None
        if not abs(loop.t - t_before - m * dt) <= 1e-6 * dt + 1e-9:
            raise DivergenceError(
                f"{loop.implementation} diverged: its time went from {t_before:.4f} s to "
                f"{loop.t:.4f} s in {m} step(s) of {dt:g} s (the engine reset itself after "
                "an instability)")
        if progress is not None and (k + m - 1) // report_every != (k - 1) // report_every:
            progress(k / n_steps)
        k += m
    if progress is not None:
        progress(1.0)
    return pd.DataFrame(np.array(rows), columns=["time", *names])


BLOCK = 1000  # samples a loop's record_many gives at most at once


def _check_sample(loop: ClosedLoop, t: float, sig: Mapping[str, float], names: list[str],
                  values: list[float], limit: float, workspace: dict[str, float] | None,
                  start: dict[str, float], energy_guard: EnergyGuard | None,
                  E_0: float) -> None:
    """Raise DivergenceError where a sample recorded at t is non-finite, beyond ``limit``,
    outside the workspace or above the energy bound (see :func:`run`)."""
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


def _check_block(loop: ClosedLoop, t_before: float, block: np.ndarray, names: list[str],
                 every: int, dt: float, limit: float, workspace: dict[str, float] | None,
                 start: dict[str, float], energy_guard: EnergyGuard | None,
                 E_0: float) -> None:
    """:func:`run`'s checks of a block of samples ``every`` steps apart (rows: time, then
    ``names``' values), sample by sample as it makes them between steps: the first that
    fails a check raises what the step's clock check or :func:`_check_sample` raises."""
    t, values = block[:, 0], block[:, 1:]
    ok = np.isfinite(values).all(axis=1)
    ok[ok] = (np.abs(values[ok]) <= limit).all(axis=1)
    for name, reach in (workspace or {}).items():
        ok &= ~(np.abs(values[:, names.index(name)] - start[name]) > reach)
    before = np.concatenate([[t_before], t[:-1]])
    clock = np.abs(t - before - every * dt) <= 1e-6 * dt + 1e-9
    for i in range(len(block)):
        if not clock[i]:
            raise DivergenceError(
                f"{loop.implementation} diverged: its time went from {before[i]:.4f} s to "
                f"{t[i]:.4f} s in {every} step(s) of {dt:g} s (the engine reset itself "
                "after an instability)")
        sig = None
        if energy_guard is not None:
            sig = dict(zip(names, values[i].tolist(), strict=True))
            ok[i] &= not energy_guard.energy(sig) - E_0 > energy_guard.bound
        if not ok[i]:
            sig = sig or dict(zip(names, values[i].tolist(), strict=True))
            _check_sample(loop, float(t[i]), sig, names, list(sig.values()), limit,
                          workspace, start, energy_guard, E_0)


def tidy(wide: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Wide frames per implementation -> tidy (time, implementation, signal, value)."""
    parts = []
    for impl, df in wide.items():
        long = df.melt(id_vars="time", var_name="signal", value_name="value")
        long.insert(1, "implementation", impl)
        parts.append(long)
    return pd.concat(parts, ignore_index=True)
