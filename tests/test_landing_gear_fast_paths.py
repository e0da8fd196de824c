"""The landing gear's compiled fast paths against the stepwise Python they replace: the
same closed loop driven with either gives the same torques at round-off."""

from __future__ import annotations

import copy
import math

import numpy as np
import pytest

from dynval.comparisons.landing_gear.loop import (
    LandingGearLoop,
    forces_W,
    initial_state,
    make_plant,
)
from dynval.comparisons.landing_gear.scenarios import SCENARIOS
from dynval.handrolled.landing_gear import single_leg
from dynval.handrolled.landing_gear.model import Forms
from dynval.robots import ROOT
from dynval.robots.landing_gear.params import PARAMS


def _slope_landing(level: bool):
    """The hand-rolled plant and its closed loop at the start of the slope landing."""
    p, sc = PARAMS, SCENARIOS["slope_lc"]
    aSL, aAZ = math.radians(sc.alpha_SL_deg), math.radians(sc.alpha_AZ_deg)
    plant = make_plant("handrolled", p, "as_derived", "shared", aSL, aAZ, Forms(),
                       ROOT / "landing_gear")
    plant.reset(initial_state(p, aSL, aAZ))
    return plant, LandingGearLoop(plant, p, aSL, aAZ, level, "shared", Forms())


@pytest.mark.parametrize("level", [True, False])
def test_compiled_joint_torques_equal_the_stepwise_controller(level: bool) -> None:
    """Along a slope landing (touchdown, levelling, PID integrals building up), the compiled
    controller's torques, integrals and references equal the stepwise path's."""
    p = PARAMS
    plant, loop = _slope_landing(level)
    twin = copy.deepcopy(loop.controller)
    worst = 0.0
    for _ in range(3000):
        loop.advance()  # runs the compiled controller on the loop's observation
        tau_ref = twin.joint_torques_stepwise(loop.obs, p.dt)
        worst = max(worst, float(np.max(np.abs(loop.tau - tau_ref))))
        np.testing.assert_allclose(loop.controller.int_theta, twin.int_theta, rtol=0,
                                   atol=1e-12)
        np.testing.assert_allclose(loop.controller.y_ref, twin.y_ref, rtol=0, atol=1e-15)
    assert worst <= 1e-9 * p.T_max
    assert np.max(np.abs(loop.controller.int_e - twin.int_e)) <= 1e-15


def test_inverse_kinematics_still_rejects_an_unreachable_foot() -> None:
    p = PARAMS
    assert single_leg.ik_angles(0.07, 0.5, p.l_U, p.l_L)[2] is False
    with pytest.raises(single_leg.UnreachableFootError):
        single_leg.inverse_kinematics(0.07, 0.5, p.l_U, p.l_L)


def test_compiled_observation_equals_the_stepwise_one() -> None:
    """Feet in P from the compiled observation against the numpy operations, along the
    slope landing (legs swinging, body turning)."""
    plant, loop = _slope_landing(True)
    for k in range(2000):
        loop.advance()
        if k % 50 == 0:
            fast, ref = plant.observe(), plant.observe_stepwise()
            np.testing.assert_allclose(fast.p_PF, ref.p_PF, rtol=0, atol=1e-14)
            np.testing.assert_allclose(fast.v_PF, ref.v_PF, rtol=0, atol=1e-13)
            np.testing.assert_array_equal(fast.theta, ref.theta)


def test_an_observation_keeps_its_values_after_later_steps() -> None:
    """observe() hands out the plant's state arrays uncopied: a step must replace them."""
    plant, _ = _slope_landing(True)
    obs = plant.observe()
    kept = {k: np.array(v, copy=True) for k, v in vars(obs).items() if k != "t"}
    for _ in range(10):
        plant.step(np.ones(8), forces_W(np.ones((4, 3)), 10.0))
    for k, v in kept.items():
        np.testing.assert_array_equal(getattr(obs, k), v)
    assert not np.array_equal(plant.observe().p_PB, kept["p_PB"])


def test_compiled_chunks_of_the_printed_forms_equal_the_python_loop() -> None:
    """advance_many (fastloop.run_chunk: the same kernels in the same order) against
    advance() step by step with the paper's printed forms, over the slope landing's first
    0.5 s (touchdown, stick and slip, levelling): every recorded signal the same float,
    the contact and controller states equal. (The scenarios' own runs, corrected forms,
    are tests/test_compiled_equals_readable.py's.)"""
    level, forms = True, Forms.printed()
    p, sc = PARAMS, SCENARIOS["slope_lc"]
    aSL, aAZ = math.radians(sc.alpha_SL_deg), math.radians(sc.alpha_AZ_deg)
    loops = []
    for _ in range(2):
        plant = make_plant("handrolled", p, "as_derived", "shared", aSL, aAZ, forms,
                           ROOT / "landing_gear")
        plant.reset(initial_state(p, aSL, aAZ))
        loops.append(LandingGearLoop(plant, p, aSL, aAZ, level, "shared", forms))
    python, chunked = loops
    for _ in range(500):
        for _ in range(10):
            python.advance()
        chunked.advance_many(10)
        assert python.t == chunked.t
        assert python.signals() == chunked.signals()
    for a, b in ((python.law, chunked.law), (python.controller, chunked.controller)):
        for name, value in vars(a).items():
            if isinstance(value, np.ndarray):
                np.testing.assert_array_equal(value, getattr(b, name))
    assert python.controller.t_touchdown == chunked.controller.t_touchdown is not None


def test_chunk_hands_a_failed_compiled_controller_to_the_stepwise_one() -> None:
    """Where the compiled controller gives up (a reference foot out of its reach: here its
    own copy of y_0 made unreachable), the chunk stops after that step and the stepwise
    controller takes it, as advance() does."""
    loops = [_slope_landing(False)[1] for _ in range(2)]
    for loop in loops:
        loop.controller._constants[0] = 10.0  # the kernel's y_0: no leg reaches it
    for _ in range(3):
        for _ in range(10):
            loops[0].advance()
        loops[1].advance_many(10)
        assert loops[0].t == loops[1].t
        assert loops[0].signals() == loops[1].signals()


def _engine_trace(implementation: str, scenario: str, fast: bool, seconds: float,
                  unreachable: bool = False, contact: str = "shared"):
    """The trace of an engine plant's closed loop with the shared contact law (or the
    engine's own ``contact``), as scenarios.run_one records it (harness.run: advance_many
    between 1 kHz samples), by the compiled chunks (``fast``) or by advance() step by step;
    ``unreachable``: the compiled controller's copy of y_0 out of every leg's reach, so
    that each chunk hands its step to the stepwise controller."""
    from dynval.comparisons.ladder import harness
    from dynval.comparisons.landing_gear.scenarios import WORKSPACE

    p, sc = PARAMS, SCENARIOS[scenario]
    aSL, aAZ = math.radians(sc.alpha_SL_deg), math.radians(sc.alpha_AZ_deg)
    plant = make_plant(implementation, p, "as_derived", contact, aSL, aAZ, Forms(),
                       ROOT / "landing_gear")
    plant.reset(initial_state(p, aSL, aAZ))
    loop = LandingGearLoop(plant, p, aSL, aAZ, sc.level_controller, contact, Forms(),
                           fast=fast)
    if unreachable:
        loop.controller._constants[0] = 10.0
    trace = harness.run(loop, seconds, p.dt, max(1, int(round(1e-3 / p.dt))),
                        workspace=WORKSPACE)
    return trace, loop


@pytest.mark.parametrize("contact", ["shared", "native"])
@pytest.mark.parametrize("implementation", ["mujoco", "pybullet"])
def test_the_engines_loops_run_as_compiled_chunks(implementation: str, contact: str) -> None:
    """With the engines' compiled calls (and, for their own contact, their contact lists)
    at hand, here, the loop takes the compiled chunks, so that the parity test
    (tests/test_compiled_equals_readable.py: the landing's first second, the whole trace
    the same floats as advance()) compares the chunks, not the Python loop with itself;
    stepping by advance() alone (``fast`` False) takes none."""
    fast, python = (_engine_trace(implementation, "slope_lc", f, 0.01, contact=contact)[1]
                    for f in (True, False))
    assert fast._chunks() is not None and python._chunks() is None


@pytest.mark.parametrize("implementation", ["mujoco", "pybullet"])
def test_engine_chunks_hand_a_failed_controller_to_the_stepwise_one(implementation: str
                                                                    ) -> None:
    """Where the compiled controller gives up (its copy of y_0 out of reach), each engine
    chunk stops after that step and the stepwise controller takes it, as advance() does."""
    python, chunked = (_engine_trace(implementation, "slope_lc", fast, 0.05,
                                     unreachable=True)[0] for fast in (False, True))
    assert python.equals(chunked)


@pytest.mark.parametrize("implementation", ["mujoco", "pybullet"])
def test_native_chunks_hand_a_failed_controller_to_the_stepwise_one(implementation: str
                                                                    ) -> None:
    """With the engine's own contact too, a chunk whose compiled controller gives up stops
    after that step and the stepwise controller takes it, as advance() does."""
    python, chunked = (_engine_trace(implementation, "slope_lc", fast, 0.05,
                                     unreachable=True, contact="native")[0]
                       for fast in (False, True))
    assert python.equals(chunked)


@pytest.mark.parametrize("implementation, contact", [
    ("handrolled", "shared"), ("mujoco", "shared"), ("pybullet", "shared"),
    ("mujoco", "native"), ("pybullet", "native")])
def test_chunk_observation_equals_a_fresh_observe(implementation: str, contact: str) -> None:
    """The observation a compiled chunk hands back (the state it read after its last step,
    turned to P in compiled code) is the one the plant's observe() reads, every field the
    same floats, along the landing (touchdown, levelling)."""
    p, sc = PARAMS, SCENARIOS["slope_lc"]
    aSL, aAZ = math.radians(sc.alpha_SL_deg), math.radians(sc.alpha_AZ_deg)
    plant = make_plant(implementation, p, "as_derived", contact, aSL, aAZ, Forms(),
                       ROOT / "landing_gear")
    plant.reset(initial_state(p, aSL, aAZ))
    loop = LandingGearLoop(plant, p, aSL, aAZ, True, contact, Forms())
    for _ in range(40):
        loop.advance_many(250)
        fresh = plant.observe()
        for name, value in vars(fresh).items():
            np.testing.assert_array_equal(getattr(loop.obs, name), value, err_msg=name)
