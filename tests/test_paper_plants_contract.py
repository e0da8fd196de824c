"""The paper robots' plants on the framework's contract (ladder.plant.Plant). The hopper's
and the hexapod's:
the hand-rolled model and each engine, given the same joint efforts and the same world
forces on their contact points through ``step``, reach the same state and the same points
to round-off (the points in the plane of the planar models, x and z: the engines' hexapod
feet sit at their lateral offsets either side of the body). The forces are large enough
to matter: the same run without them ends far outside the tolerance, and so does a plant
that reads them on the wrong axes. The engines integrate the description by the
hand-rolled plants' scheme (semi-implicit Euler), so 20 steps apart are round-off only
(measured: at most 4.4e-16, hexapod and hopper alike, against 9e-4 and 3e-3 moved by the
forces)."""

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


def _hexapod(implementation: str):
    from dynval.comparisons.hexapod.loop import make_plant, planned_start
    from dynval.comparisons.hexapod.scenarios import SCENARIOS, scenario_params
    from dynval.robots.hexapod.params import PARAMS

    p = scenario_params(PARAMS, SCENARIOS["WG_50"])
    robot = make_plant(implementation, p, "shared", robot_dir("hexapod"))
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


def _quadruped_points(implementation: str) -> tuple[np.ndarray, np.ndarray, object]:
    """The feet of the quadruped tumbling and kicking at one state: body moved, turned and
    moving, legs off the standing posture and swinging."""
    from dynval.comparisons.quadruped.loop import make_plant
    from dynval.handrolled.so3 import rot_x, rot_y, rot_z
    from dynval.robots.quadruped.params import PARAMS

    rng = np.random.default_rng(1)
    robot = make_plant(implementation, PARAMS, robot_dir("quadruped"))
    theta = np.tile(PARAMS.theta_stand, 4) + rng.uniform(-0.3, 0.3, 12)
    R_WB = rot_z(0.4) @ rot_y(-0.2) @ rot_x(0.3)
    robot.reset(np.array([0.1, -0.2, 0.6]), R_WB, theta, rng.uniform(-1.0, 1.0, 18), ())
    return (*robot.points(), robot)


@pytest.mark.parametrize("engine", ["mujoco", "pybullet"])  # on its feet: Drake has no ground
def test_the_quadrupeds_feet_are_the_same_points_in_the_hand_model_and_the_engine(engine):
    """The quadruped's hand-rolled plant pins its supporting feet (a constraint, not a
    force), so it is held to its points only: the feet as Table 1's frame 4 in the hand
    model and as the point l_3 along each engine's link 3 (measured: 2.2e-16 m, 2.2e-16
    m/s). A point 1 % further along the link is off by 1.7 mm."""
    P, V, hand = _quadruped_points("handrolled")
    P_e, V_e, eng = _quadruped_points(engine)
    assert isinstance(hand, plant.Plant) and isinstance(eng, plant.Plant)
    assert np.max(np.abs(P_e - P)) < TOL and np.max(np.abs(V_e - V)) < TOL
    longer = [plant.ContactPoint(c.frame, c.link, (1.01 * c.offset[0], 0.0, 0.0))
              for c in feet_points()]
    P_wrong, _ = plant.SimulationPlant(eng.sim, longer).points()
    assert np.max(np.abs(P_wrong - P)) > 1e-3


def feet_points() -> list:
    from dynval.comparisons.quadruped.loop import feet_points as points
    from dynval.robots.quadruped.params import PARAMS

    return points(PARAMS)
