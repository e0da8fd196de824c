"""The engines driven through their C APIs from compiled code (dynval.engines.pybullet_compiled,
dynval.engines.mujoco_compiled) against the Python APIs they replace: the same reads, the
rover's compiled PyBullet loop and every robot's engine steps, bit for bit."""

from __future__ import annotations

import contextlib
from unittest import mock

import numpy as np
import pytest

from dynval.comparisons.rover import scenarios as sc_
from dynval.comparisons.rover.loop import RoverLoop, WheelLeftSoilError, make_plant
from dynval.engines import pybullet_compiled
from dynval.robots import ROOT
from dynval.robots.rover.params import PARAMS
from dynval.robots.rover.soil import load_soil

DESC = ROOT / "rover"
PYTHON_PATH = mock.patch("dynval.engines.pybullet_compiled.functions", return_value=None)


def _plant(name: str = "pd_disturbed_6"):
    sc = sc_.SCENARIOS[name]
    p = sc_.scenario_params(PARAMS, sc)
    soil = load_soil(p.soil)
    q, qd, T0, P0, _ = sc_.initial_state(p, sc, soil)
    plant = make_plant("pybullet", p, soil.as_tuple(), sc.rigid, DESC)
    plant.reset(q, qd)
    return plant, p, T0, P0


def test_the_compiled_path_is_taken_here():
    # CI's pybullet wheel keeps its symbol table: a run there that silently fell back to
    # the Python path would hide a broken compiled path
    assert pybullet_compiled.functions() is not None
    plant, *_ = _plant()
    assert plant.compiled


def test_a_handle_that_does_not_answer_as_the_python_api_is_refused():
    plant, *_ = _plant()
    c = plant.sim.client
    assert pybullet_compiled.client_handle(c._client, c.getNumBodies()) is not None
    assert pybullet_compiled.client_handle(c._client, c.getNumBodies() + 1) is None
    assert pybullet_compiled.client_handle(99, 1) is None  # no such connection


def test_compiled_reads_equal_the_python_api_bit_for_bit():
    plant, *_ = _plant()
    sim = plant.sim
    for _ in range(20):  # away from the symmetric start: turning, pitching, rolling
        plant.advance(np.full((2, 2), 200.0))
    c, plan = sim.compiled(), sim.compiled_points(plant.point_links)
    base, q, qd = np.empty(13), np.empty(len(c.q_index)), np.empty(len(c.q_index))
    states = np.empty((len(plan.links), pybullet_compiled.LINK_STATE_DOUBLES))
    pybullet_compiled.observe(c, plan.links, base, q, qd, states)
    p_WB, R_WB, v_WB, w_WB = pybullet_compiled.base_frame(base, c.p_BI, c.R_BI)
    P, V = np.empty((len(plant.point_links), 3)), np.empty((len(plant.point_links), 3))
    pybullet_compiled.points(states, plan.rows, plan.R_LI_T, p_WB, R_WB, v_WB, w_WB,
                             plant.point_offsets, P, V)
    s = sim.state()
    P_py, V_py = sim.points(plant.point_links, plant.point_offsets)
    for mine, theirs in ((p_WB, s.p_WB), (R_WB, s.R_WB), (v_WB, s.v_WB_W), (w_WB, s.w_WB_W),
                         (q, s.q), (qd, s.qd), (P, P_py), (V, V_py)):
        assert np.array_equal(mine, theirs)
    assert np.abs(qd).max() > 0.0 and not np.array_equal(R_WB, np.eye(3))


@pytest.mark.parametrize("name, until", [("pd_disturbed_6", 3.0), ("drawbar_175", 2.0),
                                         ("turn_3_15", 2.0)])
def test_compiled_steps_give_the_python_steps_bits(name, until):
    # PD steering on wheel powers (chunks end at each 10 Hz update) on the articulated
    # rover, a constant-torque drive on the rigid one, a turn: the compiled loop sends
    # PyBullet the same commands with the same numbers, so the traces are identical
    sc = sc_.SCENARIOS[name]
    fast = sc_.run_one(PARAMS, sc, "pybullet", "shared", DESC, until=until)
    with PYTHON_PATH:
        slow = sc_.run_one(PARAMS, sc, "pybullet", "shared", DESC, until=until)
    assert fast.equals(slow)


def test_a_wheel_out_of_the_soil_stops_both_paths_alike():
    messages = []
    for path in (contextlib.nullcontext(), PYTHON_PATH):  # compiled, then Python
        with path:
            plant, p, T0, P0 = _plant("straight_3")
            q, qd, *_ = sc_.initial_state(p, sc_.SCENARIOS["straight_3"], load_soil(p.soil))
            q[1] += 0.05  # every wheel 5 cm above the soil
            plant.reset(q, qd)
            loop = RoverLoop(plant, p, np.full((2, 2), T0), np.full((2, 2), P0), None)
            with pytest.raises(WheelLeftSoilError) as err:
                loop.advance_many(10)
            messages.append(str(err.value))
            assert loop.k == 1
    assert messages[0] == messages[1] and "left the soil at t = 0.001 s" in messages[0]


MUJOCO_PYTHON_PATH = mock.patch("dynval.engines.mujoco_compiled.step_addresses",
                                return_value=None)


@pytest.mark.parametrize("engine", ["pybullet", "mujoco"])
@pytest.mark.parametrize("robot, scenario, contact, until", [
    ("landing_gear", "slope_lc", "shared", 1.0),  # feet read with points, forces at them
    ("landing_gear", "flat", "native", 0.6),  # the engine's own contact (state reads only)
    ("hopper", "speed", "shared", 0.6),
    ("hexapod", "WG_50", "shared", 0.05),  # feet read with point, one at a time
    ("quadruped", "trot", "native", 0.3),
])
def test_the_simulations_step_through_the_c_api_with_the_python_api_bits(
        engine, robot, scenario, contact, until):
    # PybulletSimulation reads and steps through Bullet's C client, MujocoSimulation steps
    # through mj_applyFT, mj_step and mj_forward called from compiled code, where they are
    # at hand; every robot's loop, shared or native contact, gives the Python API's traces
    # bit for bit
    import importlib

    from dynval.engines import mujoco_compiled

    python_path = PYTHON_PATH if engine == "pybullet" else MUJOCO_PYTHON_PATH
    assert pybullet_compiled.functions() is not None  # else both runs took the Python path
    assert mujoco_compiled.step_addresses() is not None
    mod = importlib.import_module(f"dynval.comparisons.{robot}.scenarios")
    params = importlib.import_module(f"dynval.robots.{robot}.params").PARAMS
    sc = mod.SCENARIOS[scenario]
    fast = mod.run_one(params, sc, engine, contact, ROOT / robot, until=until)
    with python_path:
        slow = mod.run_one(params, sc, engine, contact, ROOT / robot, until=until)
    assert fast.equals(slow) and len(fast) > 2


def test_a_split_step_gives_the_same_trajectory_with_joint_limits_engaged():
    # mj_step2 + mj_step1 against mj_step + mj_forward on the landing gear in the air, its
    # joints driven into their limits and back (up to 8 limit rows active): the extra
    # forward pass's constraint solve persists nothing the next step reads
    from dynval.comparisons.landing_gear.loop import JOINT_NAMES
    from dynval.engines.base import FloatingState
    from dynval.engines.mujoco_engine import MujocoSimulation

    def run(split: bool) -> tuple[np.ndarray, int]:
        sim = MujocoSimulation(ROOT / "landing_gear" / "landing_gear_as_derived.xml",
                               JOINT_NAMES, 1e-4, (0.0, 0.0, -9.81))
        z = np.zeros(3)
        sim.reset(FloatingState(np.array([0.0, 0.0, 1.0]), np.eye(3), z, z, np.zeros(8),
                                np.zeros(8)))
        tau, rows, out = np.array([30.0, -30.0] * 4), 0, []
        with mock.patch.object(MujocoSimulation, "split_step", lambda self: split):
            for k in range(4000):
                sim.step(tau if (k // 500) % 2 == 0 else -tau, [])
                rows = max(rows, sim.data.nefc)
                out.append(np.concatenate([sim.data.qpos, sim.data.qvel]))
        return np.array(out), rows

    (split, rows), (whole, _) = run(True), run(False)
    assert rows >= 4 and np.array_equal(split, whole)


@pytest.mark.parametrize("engine", ["mujoco", "pybullet"])
def test_the_benchmarks_timed_steps_leave_the_simulation_as_they_found_it(engine):
    # bench.py times the engine's bare step and a compiled plant step (the hopper's foot
    # read and pushed on) on the simulation a loop is running: after the timing, the state,
    # the clock and what the next read gives must be what they were before it
    from dynval.comparisons.hopper.loop import make_plant as hopper_plant
    from dynval.comparisons.hopper.scenarios import initial_state
    from dynval.engines import chunk_args
    from dynval.robots.hopper.params import PARAMS as HOP

    plant = hopper_plant(engine, HOP, "shared", ROOT / "hopper")
    plant.reset(*initial_state(HOP))
    sim, foot = plant.sim, (["leg"], np.zeros((1, 3)))
    for _ in range(50):
        plant.step(np.array([1.0, 5.0]), np.array([[3.0, 0.0, 40.0]]))  # F on the foot
    before, t = sim.flat_state(*foot).copy(), sim.time
    assert sim.bare_step_seconds(200) > 0.0
    assert chunk_args.plant_step_seconds(sim, *foot, 200) > 0.0
    assert sim.time == t
    assert np.array_equal(sim.flat_state(*foot), before)
    plant.step(np.array([1.0, 5.0]), np.array([[3.0, 0.0, 40.0]]))  # and steps on from there
    assert sim.time > t


def test_a_turn_by_the_identity_gives_the_products_values():
    # the compiled reads (and the Python path alike) skip the BLAS product with an
    # inertial frame's rotation where it is exactly the identity: R I must have R's
    # values, and any other rotation still gets the BLAS product (np.dot's floats)
    from numba import njit

    @njit
    def turn(R, S):
        return pybullet_compiled._turn_into(R, S, np.empty((3, 3)))

    rng = np.random.default_rng(4)
    for _ in range(200):
        R = np.array(pybullet_compiled.quat_xyzw_to_R(*rng.normal(size=4)))
        R[0, 1] = -0.0  # an exact zero of either sign keeps its value
        assert np.array_equal(turn(R, np.eye(3)), R @ np.eye(3))
        assert np.array_equal(turn(R, np.eye(3).T), R)
        S = np.array(pybullet_compiled.quat_xyzw_to_R(*rng.normal(size=4)))
        assert np.array_equal(turn(R, S), R @ S) and not np.array_equal(turn(R, S), R)
