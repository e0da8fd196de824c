"""The hopper's compiled chunks (HopperLoop.advance_many: handrolled/hopper/fast/loop.py,
comparisons/hopper/compiled.py) against advance() step by step, the Python path they
replace: the same laws and engine calls in the same order, so the same floats. The
scenarios' own runs, chunks against single steps, are tests/test_compiled_equals_readable.py's;
here what they do not run: a sampled controller and the printed bias, chunks and single
steps mixed, a run that falls, and that the engines take the compiled chunks."""

from __future__ import annotations

import pytest

from dynval.comparisons.hopper.loop import HopperLoop, make_plant
from dynval.comparisons.hopper.scenarios import (
    SCENARIOS,
    WORKSPACE,
    initial_state,
    piecewise,
    scenario_params,
)
from dynval.comparisons.ladder import harness
from dynval.robots import ROOT
from dynval.robots.hopper.params import PARAMS


def _trace(implementation: str, scenario: str, fast: bool, seconds: float,
           form: str = "corrected", control_every: int = 1, contact: str = "shared",
           attitude_sign: float = 1.0):
    """The trace of a closed loop with the shared contact law (or the engine's own) as
    scenarios.run_one records it (harness.run: advance_many between 1 kHz samples), by the
    compiled chunks (``fast``) or by advance() step by step."""
    sc = SCENARIOS[scenario]
    p = scenario_params(PARAMS, sc).with_(control_every=control_every)
    plant = make_plant(implementation, p, contact, ROOT / "hopper", form)
    plant.reset(*initial_state(p))
    loop = HopperLoop(plant, p, contact, piecewise(sc.h_d), piecewise(sc.x_dot_d),
                      sc.controlled, attitude_sign, fast=fast)
    trace = harness.run(loop, seconds, p.dt, max(1, int(round(1e-3 / p.dt))),
                        workspace=WORKSPACE)
    return trace, loop


def _assert_same(python, chunked, a: HopperLoop, b: HopperLoop, slips: bool) -> None:
    """The traces and states equal, the compiled path taken, the run long enough to hop
    (and, where ``slips``, for the foot to slip under friction)."""
    assert b._compiled() is not None and a._compiled() is None
    assert python.equals(chunked)
    assert a.controller.state == b.controller.state
    assert (a.steps, a.F_min) == (b.steps, b.F_min)
    assert a.controller.touchdowns >= 3  # several hops: touchdowns, thrusts, apexes
    assert python["hopper.thrust"].max() > 0.0
    assert python["hopper.phase"].nunique() == 3
    assert bool(python["foot.force.x"].abs().max() > 0.0) == slips


@pytest.mark.parametrize("contact", ["shared", "native"])
@pytest.mark.parametrize("implementation", ["mujoco", "pybullet"])
def test_the_engines_loops_run_as_compiled_chunks(implementation: str, contact: str) -> None:
    """With the engines' compiled calls at hand (here), the loop takes the compiled chunks
    in either contact mode, so that the parity test compares the chunks, not the Python
    loop with itself."""
    plant = make_plant(implementation, PARAMS, contact, ROOT / "hopper")
    plant.reset(*initial_state(PARAMS))
    sc = SCENARIOS["height"]
    loop = HopperLoop(plant, PARAMS, contact, piecewise(sc.h_d), piecewise(sc.x_dot_d))
    assert loop._compiled() is not None


def test_a_run_that_falls_stops_at_the_same_sample_in_blocks() -> None:
    """The attitude correction's sign flipped, the body tips over: the compiled blocks of
    samples (HopperLoop.advance_samples) leave the workspace at the sample, and with the
    message, of advance() step by step."""
    messages = []
    for fast in (False, True):
        with pytest.raises(harness.DivergenceError) as err:
            _trace("handrolled", "speed", fast, 20.0, attitude_sign=-1.0)
        messages.append(str(err.value))
    assert messages[0] == messages[1]
    assert "left the scenario's workspace" in messages[0]


def test_compiled_chunks_follow_the_sampling_and_the_printed_bias() -> None:
    """The controller sampled every third step, and the hand-rolled model's printed bias
    of eq. (12): still advance()'s floats."""
    (python, a), (chunked, b) = (_trace("handrolled", "speed", fast, 4.5, "printed", 3)
                                 for fast in (False, True))
    _assert_same(python, chunked, a, b, True)


@pytest.mark.parametrize("implementation", ["mujoco", "pybullet"])
def test_chunks_and_single_steps_mixed(implementation: str) -> None:
    """Chunks between single advance() steps (PyBullet's chunk then reads the foot again
    rather than reuse the last chunk's): advance()'s floats still, through a touchdown
    with a forward speed reference (the foot moves in x, where the forces push)."""
    sc = SCENARIOS["height"]
    loops = []
    for fast in (False, True):
        plant = make_plant(implementation, PARAMS, "shared", ROOT / "hopper")
        plant.reset(*initial_state(PARAMS))
        loops.append(HopperLoop(plant, PARAMS, "shared", piecewise(sc.h_d),
                                piecewise(((0.0, 0.5),)), fast=fast))
    python, mixed = loops
    for k in range(400):  # 0.8 s: the first touchdown near 0.4 s
        for _ in range(10):
            python.advance()
        mixed.advance_many(4 + k % 2)
        mixed.advance()
        mixed.advance_many(5 - k % 2)
        assert python.t == mixed.t
        assert python.signals() == mixed.signals()
    assert python.controller.touchdowns >= 1


def test_tip_state_gives_the_vector_forms_floats() -> None:
    # recursive.tip_state (the foot after every step) is written element by element: it
    # must give what its vector form gives, bit for bit: h = R a, p += R l, R = R Rot,
    # V = Phi V + H qd with each product a sum from 0.0 and Phi by np.cross, compiled alike
    import numpy as np
    from numba import njit

    from dynval.handrolled.hopper.chain import PRISMATIC, REVOLUTE, planar
    from dynval.handrolled.hopper.fast import recursive

    @njit
    def mv(A, x):
        out = np.zeros(A.shape[0])
        for i in range(A.shape[0]):
            acc = 0.0
            for r in range(A.shape[1]):
                acc += A[i, r] * x[r]
            out[i] = acc
        return out

    @njit
    def mm(A, B):
        out = np.zeros((A.shape[0], B.shape[1]))
        for i in range(A.shape[0]):
            for j in range(B.shape[1]):
                acc = 0.0
                for r in range(A.shape[1]):
                    acc += A[i, r] * B[r, j]
                out[i, j] = acc
        return out

    @njit
    def rot(a, angle):  # the rotation's entries as recursive computes them, as an array
        R = np.empty((3, 3))
        for i, row in enumerate(recursive._rot_rows(a, angle)):
            R[i, 0], R[i, 1], R[i, 2] = row
        return R

    @njit
    def vector_form(kind, axis, offset, q, qd):
        R, p, V = np.eye(3), np.zeros(3), np.zeros(6)
        for k in range(kind.shape[0]):
            h = mv(R, axis[k])
            if kind[k] == REVOLUTE:
                p_next = p + mv(R, offset[k])
                R = mm(R, rot(axis[k], q[k]))
            else:
                p_next = p + mv(R, offset[k] + axis[k] * q[k])
            out = V.copy()
            out[3:] -= np.cross(p_next - p, V[:3])
            H = np.zeros(6)
            if kind[k] == REVOLUTE:
                H[:3] = h
            else:
                H[3:] = h
            V = out + H * qd[k]
            p = p_next
        return p, V[3:].copy()

    args = recursive.Recursive(planar(PARAMS))._args
    rng = np.random.default_rng(2)
    for trial in range(1000):
        kind, axis, offset = args[0], args[1], args[2]
        if trial % 2:  # and on chains in general position: every term of every sum
            kind = np.where(rng.random(5) < 0.5, REVOLUTE, PRISMATIC).astype(np.int64)
            axis = rng.normal(size=(5, 3))
            axis /= np.linalg.norm(axis, axis=1)[:, None]
            offset = rng.normal(size=(5, 3))
        q, qd = rng.uniform(-2.0, 2.0, 5), rng.normal(0.0, 3.0, 5)
        p, v = recursive.tip_state(kind, axis, offset, *args[3:], q, qd)
        p_ref, v_ref = vector_form(kind, axis, offset, q, qd)
        assert np.array_equal(p, p_ref) and np.array_equal(v, v_ref)
