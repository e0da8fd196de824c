"""The hopper's and the hexapod's plants on the framework's contract (ladder.plant.Plant):
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
    """The state and the points after STEPS steps (``swapped``: the forces' x and z
    exchanged, a plant that read them on the wrong axes)."""
    p, tau, F = ROBOTS[robot](implementation)
    if swapped:
        F = F[:, ::-1].copy()
    assert isinstance(p, plant.Plant) and p.implementation == implementation
    for _ in range(STEPS):
        p.step(tau, F if pushed else None)
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
