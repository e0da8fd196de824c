"""Generic closed-loop runner: steps any ``ClosedLoop`` to the end, records its
signals, stops with a clear error on divergence, and shows progress."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Protocol

import numpy as np
import pandas as pd


class DivergenceError(RuntimeError):
    """A run produced a non-finite or runaway signal."""


class ClosedLoop(Protocol):
    """One implementation of one scenario: plant, controllers and contact wired together."""

    implementation: str
    t: float

    def advance(self) -> None: ...

    def signals(self) -> dict[str, float]: ...


def run(loop: ClosedLoop, duration: float, dt: float, record_every: int = 10,
        limit: float = 1e6, progress: Callable[[float], None] | None = None) -> pd.DataFrame:
    """Step ``loop`` for ``duration`` seconds and return a wide frame (time x signal).

    Raises DivergenceError naming the signal and time where a value is NaN or beyond
    ``limit`` in magnitude.
    """
    n_steps = int(round(duration / dt))
    rows: list[list[float]] = []
    names: list[str] | None = None
    report_every = max(1, n_steps // 100)
    for k in range(n_steps + 1):
        if k % record_every == 0 or k == n_steps:
            sig = loop.signals()
            if names is None:
                names = list(sig)
            values = [sig[n] for n in names]
            for name, v in zip(names, values, strict=True):
                if not math.isfinite(v) or abs(v) > limit:
                    raise DivergenceError(
                        f"{loop.implementation} diverged: signal {name} = {v:.3g} at "
                        f"t = {loop.t:.4f} s"
                    )
            rows.append([loop.t, *values])
        if k == n_steps:
            break
        loop.advance()
        if progress is not None and k % report_every == 0:
            progress(k / n_steps)
    if progress is not None:
        progress(1.0)
    return pd.DataFrame(np.array(rows), columns=["time", *names])


def tidy(wide: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Wide frames per implementation -> tidy (time, implementation, signal, value)."""
    parts = []
    for impl, df in wide.items():
        long = df.melt(id_vars="time", var_name="signal", value_name="value")
        long.insert(1, "implementation", impl)
        parts.append(long)
    return pd.concat(parts, ignore_index=True)


def wide_from_tidy(traces: pd.DataFrame, implementation: str) -> pd.DataFrame:
    """Inverse of :func:`tidy` for one implementation."""
    sub = traces[traces["implementation"] == implementation]
    return sub.pivot(index="time", columns="signal", values="value").reset_index()
