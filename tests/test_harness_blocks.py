"""harness.run with a loop that gives its samples in blocks (ClosedLoop.advance_samples),
and with one that steps in chunks (advance_many, whose samples run checks a block at a
time): the same frame, the same progress and the same failures, at the same sample, as
stepping it one step at a time and checking every sample."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dynval.comparisons.ladder.harness import (
    DivergenceError,
    EnergyGainError,
    EnergyGuard,
    Samples,
    run,
)
from dynval.engines import EngineInstabilityError


class Toy:
    """x' = v, v' = a(t): stepped one step at a time (``mode`` "steps"), in chunks by
    advance_many ("chunks"), or in blocks by advance_samples ("blocks")."""

    implementation = "toy"

    def __init__(self, dt: float, mode: str, blow_up_at: float = math.inf,
                 reset_at: float = math.inf, unstable_at: float = math.inf) -> None:
        self.dt, self.t, self.x, self.v = dt, 0.0, 0.0, 1.0
        self.blow_up_at, self.reset_at, self.unstable_at = blow_up_at, reset_at, unstable_at
        if mode != "steps":
            self.advance_many = self.steps
        self.advance_samples = self.samples if mode == "blocks" else None

    def advance(self) -> None:
        self.steps(1)

    def steps(self, n: int) -> None:
        for _ in range(n):
            if self.t >= self.unstable_at:  # an engine's instability: the step is not made
                raise EngineInstabilityError(f"unstable at t = {self.t:.2f} s")
            self.v += self.dt * (math.cos(self.t) if self.t < self.blow_up_at else math.inf)
            self.x += self.dt * self.v
            self.t = 0.0 if self.t > self.reset_at else self.t + self.dt

    def signals(self) -> dict[str, float]:
        return {"com.x": self.x, "com.vx": self.v}

    def samples(self, chunks: np.ndarray) -> Samples:
        rows = np.empty((len(chunks), 3))
        for i, n in enumerate(chunks.tolist()):
            try:
                self.steps(n)
            except EngineInstabilityError as exc:
                return Samples(rows[:i, 0], rows[:i, 1:], exc)
            rows[i] = self.t, self.x, self.v
        return Samples(rows[:, 0], rows[:, 1:])


def _each(**kw):
    """The frame (or the error) and the progress reports of a run in each mode."""
    out, reported = [], []
    for mode in ("steps", "chunks", "blocks"):
        seen: list[float] = []
        loop = Toy(0.01, mode, **{k: v for k, v in kw.items() if k != "run"})
        try:
            out.append(run(loop, 30.0, 0.01, 5, progress=seen.append, **kw.get("run", {})))
        except DivergenceError as exc:
            out.append(f"{type(exc).__name__}: {exc}")
        reported.append(seen)
    return out, reported


def test_chunks_and_blocks_give_the_frame_and_the_progress_of_single_steps():
    (a, b, c), (pa, pb, pc) = _each()
    assert a.equals(b) and a.equals(c) and len(a) == 601 and pa == pb == pc


@pytest.mark.parametrize("kw", [
    {"blow_up_at": 12.3},
    {"unstable_at": 21.4},
    {"reset_at": 17.0},
    {"run": {"workspace": {"com.x": 2.5}}},
    {"run": {"energy_guard": EnergyGuard(lambda s: 0.5 * s["com.vx"] ** 2, 0.9, "toy")}},
])
def test_chunks_and_blocks_fail_where_single_steps_fail(kw):
    (a, b, c), _ = _each(**kw)
    assert isinstance(a, str) and b == c
    if "reset_at" in kw:  # a step's clock, or a chunk's (its steps named): the same reset
        assert "from 17.0" in a and "from 17.0" in b and "reset itself" in a and "reset itself" in b
    else:
        assert a == b
    assert ("EnergyGainError" in a) == ("energy_guard" in kw.get("run", {}))
    assert EnergyGainError.__name__ != DivergenceError.__name__
