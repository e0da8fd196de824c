"""The paper robots' plants on the framework's contract (ladder.plant.Plant).

The hopper's and the hexapod's hand-rolled model and each engine, given the same joint
efforts and the same world forces on their contact points through ``step``, reach the
same state and the same points to round-off (the points in the plane of the planar
models, x and z: the engines' hexapod feet sit at their lateral offsets either side of
the body). The inputs are large enough to matter: the same run without them ends far
outside the tolerance, and so does a plant that reads the forces on the wrong axes. The
engines integrate the description by the hand-rolled plants' scheme (semi-implicit
Euler), so 20 steps apart are round-off only (measured: at most 4.4e-16, hexapod and
hopper alike, against 1.3e-3 and 2.7e-3 without the inputs, 1.6e-3 and 3.1e-3 with the
forces' axes swapped).

The quadruped's and the landing gear's are held to the engines' points at one state."""

from __future__ import annotations

import numpy as np
import pytest

from dynval.comparisons.ladder import plant
from dynval.robots import robot_dir

STEPS = 20
TOL = 1e-12  # [m, rad, m/s dt]: 20 steps of round-off, measured 4.4e-16


def _hopper(implementation: str):
    from dynval.comparisons.hopper.loop import make_plant
    from dynval.comparisons.hopper.scenarios import initial_state
    from dynval.robots.hopper.params import PARAMS

    robot = make_plant(implementation, PARAMS, "shared", robot_dir("hopper"))
    robot.reset(*initial_state(PARAMS))
    return robot, np.array([2.0, 80.0]), np.array([[30.0, 0.0, 400.0]])


def _hexapod(implementation: str, fast: bool = True):
    from dynval.comparisons.hexapod.loop import make_plant, planned_start
    from dynval.comparisons.hexapod.scenarios import SCENARIOS, scenario_params
    from dynval.robots.hexapod.params import PARAMS

    p = scenario_params(PARAMS, SCENARIOS["WG_50"])
    robot = make_plant(implementation, p, "shared", robot_dir("hexapod"), fast)
    q0, _ = planned_start(p)
    robot.reset(q0, np.zeros_like(q0))
    rng = np.random.default_rng(0)
    tau = rng.uniform(-20.0, 20.0, len(q0))
    F = np.zeros((p.n, 3))
    F[:, 0], F[:, 2] = rng.uniform(-50.0, 50.0, p.n), rng.uniform(100.0, 300.0, p.n)
    return robot, tau, F


ROBOTS = {"hopper": _hopper, "hexapod": _hexapod}


def _run(robot: str, implementation: str, pushed: bool, swapped: bool = False
         ) -> np.ndarray:
    """The state and the points after STEPS steps (``pushed`` False: no efforts and no
    forces; ``swapped``: the forces' x and z exchanged, a plant that read them on the
    wrong axes)."""
    p, tau, F = ROBOTS[robot](implementation)
    if swapped:
        F = F[:, ::-1].copy()
    if not pushed:
        tau, F = np.zeros_like(tau), None
    assert isinstance(p, plant.Plant) and p.implementation == implementation
    for _ in range(STEPS):
        p.step(tau, F)
    q, v = p.joint_state()
    P, V = p.points()  # in the plane (x, z): the engines' feet sit at their lateral offsets
    return np.concatenate([q, v * p.dt, P[:, 0::2].ravel(), V[:, 0::2].ravel() * p.dt])


@pytest.mark.parametrize("robot", ROBOTS)
@pytest.mark.parametrize("engine", ["mujoco", "pybullet"])
def test_one_step_means_the_same_in_the_hand_model_and_the_engine(robot, engine):
    hand = _run(robot, "handrolled", True)
    assert np.max(np.abs(_run(robot, engine, True) - hand)) < TOL
    assert np.max(np.abs(_run(robot, "handrolled", False) - hand)) > 1e6 * TOL
    assert np.max(np.abs(_run(robot, engine, True, swapped=True) - hand)) > 1e6 * TOL


@pytest.mark.parametrize("engine", ["mujoco", "pybullet", "drake"])
def test_the_readable_hexapod_is_the_frameworks_hand_plant(engine):
    """The hexapod's printed path is eq. (6) through the model protocol on the
    framework's HandPlant: the feet's forces enter by the protocol's Jacobians, and its
    feet are the protocol's frames, at their lateral offsets as the engines' are. After
    20 steps its state and its feet in all three axes are the engine's to round-off
    (measured: 4.4e-16 m and 1.3e-15 m/s)."""
    readable, tau, F = _hexapod("handrolled", fast=False)
    assert isinstance(readable, plant.HandPlant)
    engine_plant = _hexapod(engine)[0]
    for p in (readable, engine_plant):
        for _ in range(STEPS):
            p.step(tau, F)
    for a, b in zip(readable.joint_state(), engine_plant.joint_state(), strict=True):
        assert np.max(np.abs(a - b)) < TOL
    for a, b in zip(readable.points(), engine_plant.points(), strict=True):
        assert np.max(np.abs(a - b)) < TOL


def _quadruped_at_a_state(implementation: str):
    """The quadruped tumbling and kicking: body moved, turned and moving, legs off the
    standing posture and swinging."""
    from dynval.comparisons.quadruped.loop import feet_points, make_plant
    from dynval.handrolled.so3 import rot_x, rot_y, rot_z
    from dynval.robots.quadruped.params import PARAMS

    rng = np.random.default_rng(1)
    robot = make_plant(implementation, PARAMS, robot_dir("quadruped"))
    theta = np.tile(PARAMS.theta_stand, 4) + rng.uniform(-0.3, 0.3, 12)
    R_WB = rot_z(0.4) @ rot_y(-0.2) @ rot_x(0.3)
    robot.reset(np.array([0.1, -0.2, 0.6]), R_WB, theta, rng.uniform(-1.0, 1.0, 18), ())
    return robot, feet_points(PARAMS)


def _landing_gear_at_a_state(implementation: str):
    """The landing gear at the start of its slope landing, descending."""
    import math

    from dynval.comparisons.landing_gear.loop import contact_points, initial_state, make_plant
    from dynval.comparisons.landing_gear.scenarios import SCENARIOS
    from dynval.handrolled.landing_gear.model import Forms
    from dynval.robots.landing_gear.params import PARAMS

    sc = SCENARIOS["slope_lc"]
    slope = math.radians(sc.alpha_SL_deg), math.radians(sc.alpha_AZ_deg)
    robot = make_plant(implementation, PARAMS, "as_derived", "shared", *slope, Forms(),
                       robot_dir("landing_gear"))
    robot.reset(initial_state(PARAMS, *slope))
    return robot, contact_points(PARAMS)


AT_A_STATE = {"quadruped": _quadruped_at_a_state, "landing_gear": _landing_gear_at_a_state}


@pytest.mark.parametrize("robot", AT_A_STATE)
@pytest.mark.parametrize("engine", ["mujoco", "pybullet"])  # on its feet: Drake has no ground
def test_the_contact_points_are_the_same_in_the_hand_model_and_the_engine(robot, engine):
    """Where the hand-rolled model is not the engines' equations stepped alike (the
    quadruped pins its supporting feet, a constraint; the landing gear's body is a
    Newton-Euler CoM with the legs decoupled), its plant is held to its state and its
    points at one state: the quadruped's feet as Table 1's frame 4 in the hand model and
    as the point l_3 along each engine's link 3; the landing gear's body centre, where the
    thrust acts, and its feet l_L along the lower legs (measured: at most 2.2e-16 m and
    m/s). The feet 1 % further along their links are 1.7 mm (quadruped) and 1.0 mm
    (landing gear) off."""
    hand, _ = AT_A_STATE[robot]("handrolled")
    eng, points = AT_A_STATE[robot](engine)
    assert isinstance(hand, plant.Plant) and isinstance(eng, plant.Plant)
    (P, V), (P_e, V_e) = hand.points(), eng.points()
    assert np.max(np.abs(P_e - P)) < TOL and np.max(np.abs(V_e - V)) < TOL
    for a, b in zip(hand.joint_state(), eng.joint_state(), strict=True):
        assert np.max(np.abs(a - b)) < TOL
    longer = [plant.ContactPoint(c.frame, c.link, tuple(1.01 * np.array(c.offset)))
              for c in points]
    P_wrong, _ = plant.SimulationPlant(eng.sim, longer).points()
    assert np.max(np.abs(P_wrong - P)) > 1e-3
