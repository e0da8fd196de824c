"""The rover's compiled loop (dynval.comparisons.rover.compiled) beyond what the parity
test holds it to (tests/test_compiled_equals_readable.py: every scenario's compiled run
against its steps from Python): the compiled path taken, a wheel leaving the soil on
both paths alike, blocks of samples against chunks, and the harness's chunked stepping."""

from __future__ import annotations

import contextlib
import math
from unittest import mock

import numpy as np
import pytest

from dynval.comparisons.ladder import harness
from dynval.comparisons.rover import scenarios as sc_
from dynval.comparisons.rover.loop import RoverLoop, WheelLeftSoilError, make_plant
from dynval.engines import mujoco_compiled
from dynval.robots import ROOT
from dynval.robots.rover.params import PARAMS
from dynval.robots.rover.soil import load_soil

DESC = ROOT / "rover"
PYTHON_PATH = mock.patch("dynval.engines.mujoco_compiled.step_addresses", return_value=None)


def test_the_compiled_path_is_taken_here():
    # CI's machine has MuJoCo's library beside its bindings: a run there that silently fell
    # back to the Python path would hide a broken compiled path
    assert mujoco_compiled.step_addresses() is not None
    sc = sc_.SCENARIOS["straight_3"]
    p = sc_.scenario_params(PARAMS, sc)
    plant = make_plant("mujoco", p, load_soil(p.soil).as_tuple(), sc.rigid, DESC)
    assert plant.compiled


def _lifted_loop() -> RoverLoop:
    """The straight_3 rover put 5 cm above the soil: every wheel is out of it."""
    sc = sc_.SCENARIOS["straight_3"]
    p = sc_.scenario_params(PARAMS, sc)
    soil = load_soil(p.soil)
    q, qd, T0, P0, _ = sc_.initial_state(p, sc, soil)
    q[1] += 0.05
    plant = make_plant("mujoco", p, soil.as_tuple(), sc.rigid, DESC)
    plant.reset(q, qd)
    return RoverLoop(plant, p, np.full((2, 2), T0), np.full((2, 2), P0), None)


def test_a_wheel_out_of_the_soil_stops_both_paths_alike():
    messages = []
    for path in (contextlib.nullcontext(), PYTHON_PATH):  # compiled, then Python
        with path:
            loop = _lifted_loop()
            with pytest.raises(WheelLeftSoilError) as err:
                loop.advance_many(10)
            messages.append(str(err.value))
            assert loop.k == 1  # stopped after the first step, as RoverLoop.advance does
    assert messages[0] == messages[1] and "left the soil at t = 0.001 s" in messages[0]


class _Clock:
    """A loop that offers advance_many, with a clock that can be made to slip."""

    implementation = "clock"

    def __init__(self, dt: float, slip_at: int | None = None) -> None:
        self.dt, self.t, self.k, self.slip_at, self.calls = dt, 0.0, 0, slip_at, []

    def advance(self) -> None:
        raise AssertionError("advance_many is offered: advance must not be called")

    def advance_many(self, n: int) -> None:
        self.calls.append(n)
        self.k += n
        self.t = self.k * self.dt if self.slip_at is None or self.k < self.slip_at else 0.0

    def signals(self) -> dict[str, float]:
        return {"body.x": float(self.k)}


def test_the_harness_steps_a_chunk_from_one_sample_to_the_next():
    loop = _Clock(0.001)
    df = harness.run(loop, 0.025, 0.001, record_every=10)
    assert loop.calls == [10, 10, 5]  # chunks end at the samples and at the run's end
    assert df["body.x"].tolist() == [0.0, 10.0, 20.0, 25.0]


def test_a_chunk_whose_clock_goes_back_is_a_divergence():
    with pytest.raises(harness.DivergenceError, match="in 10 step"):
        harness.run(_Clock(0.001, slip_at=20), 0.05, 0.001, record_every=10)


def test_the_rk4_scheme_steps_from_python():
    # the compiled chunks run the Euler step; the budget's RK4 run takes advance()
    rk4 = make_plant("handrolled", PARAMS, load_soil(PARAMS.soil).as_tuple(), False, DESC,
                     integrator="rk4")
    assert not rk4.compiled


def test_frame_turns_are_blas_products_bit_for_bit():
    # the MuJoCo and PyBullet chunks turn hubs, attitudes and forces between the world and
    # the thesis' frame 0 by _turn: R_0W and R_W0 are signed permutations, so each product
    # is exact and the floats (zero signs included) must be those of the BLAS product they
    # replace
    from numba import njit

    from dynval.comparisons.rover import compiled
    from dynval.comparisons.rover.frames import R_0W
    from dynval.robots.rover.params import R_W0

    @njit
    def blas(R, x):
        return R @ x

    rng = np.random.default_rng(4)
    for _ in range(2000):
        x, X = rng.normal(size=3), rng.normal(size=(3, 3))
        x[rng.random(3) < 0.3], X[rng.random((3, 3)) < 0.3] = 0.0, -0.0
        for R in (R_0W, R_W0):
            R = np.ascontiguousarray(R)
            out, OUT = np.empty(3), np.empty((3, 3))
            compiled._turn(R, x, out)
            compiled._turn_matrix(R, X, OUT)
            for got, ref in ((out, blas(R, x)), (OUT, blas(R, X))):
                assert np.array_equal(got, ref)
                assert np.array_equal(np.signbit(got), np.signbit(ref))
        # the PyBullet chunk turns the hubs' rows as the Python path's numpy products do:
        # P @ R_W0 row by row is R_0W p, F @ R_0W is R_W0 f, R_0W @ R_W column by column
        Y = rng.normal(size=(4, 3))
        Y[rng.random((4, 3)) < 0.3] = -0.0
        for R, rows in ((np.ascontiguousarray(R_0W), Y @ R_W0), (R_W0, Y @ R_0W)):
            for h in range(4):
                compiled._turn(R, Y[h], out)
                assert np.array_equal(out, rows[h])
                assert np.array_equal(np.signbit(out), np.signbit(rows[h]))
        compiled._turn_matrix(np.ascontiguousarray(R_0W), X, OUT)
        assert np.array_equal(OUT, R_0W @ X)
        assert np.array_equal(np.signbit(OUT), np.signbit(R_0W @ X))


def test_thesis_coordinates_give_the_python_conversion_bit_for_bit():
    # EnginePlant.state reads every sample through frames.thesis_coordinates and numpy's
    # solve: the floats (zero signs included) of q_from_pose, the heading followed past
    # +-pi, and qd_from_velocity on base_axes_W, at angles of every size, exact zeros of
    # both signs and attitudes at the clip of the arcsine
    import math

    from dynval.comparisons.rover.frames import (
        base_axes_W,
        q_from_pose,
        qd_from_velocity,
        thesis_coordinates,
    )
    from dynval.handrolled.so3 import matrix_from_euler_yxz

    rng = np.random.default_rng(7)
    for k in range(3000):
        ang = rng.normal(size=3) * rng.choice([1e-8, 1e-3, 0.3, 3.0], size=3)
        ang[rng.random(3) < 0.2] = 0.0
        ang[rng.random(3) < 0.1] = -0.0
        R = matrix_from_euler_yxz(*ang)
        if k % 7 == 0:
            R[1, 2] = rng.choice([1.0, -1.0, 1.0 + 2e-16, -1.0 - 2e-16])
        p, v, w = rng.normal(size=3), rng.normal(size=3), rng.normal(size=3)
        w[rng.random(3) < 0.3] = rng.choice([0.0, -0.0])
        q_j, qd_j = rng.normal(size=1), rng.normal(size=1)
        heading = float(rng.normal() * 10.0) if k % 2 else float(ang[2])
        q6 = q_from_pose(p, R)
        q6[5] = heading + (q6[5] - heading + math.pi) % (2.0 * math.pi) - math.pi
        qd6 = qd_from_velocity(q6, v, w)
        q, qd, A, h = thesis_coordinates(p, R, v, q_j, qd_j, heading, 1)
        qd[3:6] = np.linalg.solve(A, w)
        assert A.tobytes() == base_axes_W(q6).tobytes()
        assert q.tobytes() == np.concatenate([q6, q_j]).tobytes() and h == q6[5]
        assert qd.tobytes() == np.concatenate([qd6, qd_j]).tobytes()


NO_SAMPLES = mock.patch.object(RoverLoop, "advance_samples", property(lambda self: None))


@pytest.mark.parametrize("implementation", ["handrolled", "mujoco", "pybullet"])
@pytest.mark.parametrize("name, until", [("pd_disturbed_6", 1.5), ("drawbar_175", 0.5),
                                         ("turn_3_15", 0.5)])
def test_compiled_samples_give_the_chunks_bits(implementation, name, until):
    # harness.run takes a block of samples per compiled call (RoverLoop.samples: chunks,
    # PD steering, signals, the engines' heading rates by numpy's batched solve); without
    # it, one compiled chunk per sample and the steering in Python: the same bits
    sc = sc_.SCENARIOS[name]
    fast = sc_.run_one(PARAMS, sc, implementation, "shared", DESC, until=until)
    with NO_SAMPLES:
        slow = sc_.run_one(PARAMS, sc, implementation, "shared", DESC, until=until)
    assert list(fast.columns) == list(slow.columns)
    assert fast.to_numpy().tobytes() == slow.to_numpy().tobytes()


@pytest.mark.parametrize("implementation", ["handrolled", "mujoco", "pybullet"])
def test_a_wheel_out_of_the_soil_ends_the_samples_as_the_chunks(implementation):
    sc = sc_.SCENARIOS["straight_3"]
    p = sc_.scenario_params(PARAMS, sc)
    soil = load_soil(p.soil)
    q, qd, T0, P0, _ = sc_.initial_state(p, sc, soil)
    q[1] += 0.05
    messages = []
    for samples in (True, False):
        plant = make_plant(implementation, p, soil.as_tuple(), sc.rigid, DESC)
        plant.reset(q, qd)
        loop = RoverLoop(plant, p, np.full((2, 2), T0), np.full((2, 2), P0), None)
        if samples:
            got = loop.advance_samples(np.array([10, 10]))
            assert len(got.t) == 0 and isinstance(got.error, WheelLeftSoilError)
            messages.append(str(got.error))
        else:
            with pytest.raises(WheelLeftSoilError) as err:
                loop.advance_many(10)
            messages.append(str(err.value))
    assert messages[0] == messages[1] and "left the soil at t = 0.001 s" in messages[0]


class _Blocks(_Clock):
    """:class:`_Clock` with advance_samples: a signal that goes out of bounds at step
    ``bad_at`` and an error that ends the chunks at step ``error_at``."""

    def __init__(self, dt: float, bad_at: int | None = None, error_at: int | None = None,
                 error: Exception | None = None) -> None:
        super().__init__(dt)
        self.bad_at, self.error_at, self.error, self.blocks = bad_at, error_at, error, []

    def advance_many(self, n: int) -> None:
        if self.error_at is not None and self.k + n >= self.error_at:
            raise self.error
        super().advance_many(n)

    def signals(self) -> dict[str, float]:
        return {"body.x": math.nan if self.k == self.bad_at else float(self.k)}

    @property
    def advance_samples(self):
        return self._samples

    def _samples(self, chunks):
        self.blocks.append(len(chunks))
        t, values = [], []
        try:
            for m in chunks:
                self.advance_many(int(m))
                t.append(self.t)
                values.append([self.signals()["body.x"]])
        except Exception as exc:  # noqa: BLE001
            return harness.Samples(np.array(t), np.array(values).reshape(-1, 1), exc)
        return harness.Samples(np.array(t), np.array(values))


def test_the_harness_takes_blocks_of_samples_as_it_takes_chunks():
    with mock.patch.object(harness, "SAMPLES_PER_CALL", 2):
        loop = _Blocks(0.001)
        df = harness.run(loop, 0.025, 0.001, record_every=10)
    assert loop.calls == [10, 10, 5] and loop.blocks == [2, 1]
    assert df["body.x"].tolist() == [0.0, 10.0, 20.0, 25.0]
    assert df["time"].tolist() == [0.0, 0.01, 0.02, 0.025]


@pytest.mark.parametrize("bad_at, error_at, match", [
    (20, 35, "signal body.x = nan at t = 0.0200 s"),  # the sample fails before the error
    (None, 35, "could not be solved after t = 0.0300 s"),  # the error, at the loop's time
])
def test_a_block_raises_what_the_chunks_would_in_the_same_order(bad_at, error_at, match):
    for blocks in (True, False):
        loop = _Blocks(0.001, bad_at, error_at, np.linalg.LinAlgError("Singular matrix"))
        if not blocks:
            loop.__class__ = type("NoBlocks", (_Blocks,), {"advance_samples": None})
        with pytest.raises(harness.DivergenceError, match=match):
            harness.run(loop, 0.05, 0.001, record_every=10)


@pytest.mark.parametrize("bad_at", [None, 30])
def test_a_block_reports_progress_as_the_chunks_do(bad_at):
    reports = []
    for blocks in (True, False):
        loop = _Blocks(0.001, bad_at)
        if not blocks:
            loop.__class__ = type("NoBlocks", (_Blocks,), {"advance_samples": None})
        seen: list[float] = []
        with contextlib.suppress(harness.DivergenceError), \
                mock.patch.object(harness, "SAMPLES_PER_CALL", 3):
            harness.run(loop, 0.5, 0.001, record_every=10, progress=seen.append)
        reports.append(seen)
    assert reports[0] == reports[1] and len(reports[0]) >= 3
