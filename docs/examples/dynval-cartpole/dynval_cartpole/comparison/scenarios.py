"""The cart-pole's scenarios (the pole caught from a tilt by the regulator of
model/control.py; the pole let fall onto a floor, model/contact.py) and how they run in
each implementation: the hand model's eqs. (1)-(2) by semi-implicit Euler, and MuJoCo's,
PyBullet's and Drake's own steps, with the same force law on the cart and the same
floor law on the pole's tip at each step.

The plants are the framework's (``dynval.comparisons.ladder.plant``): this robot supplies
its controller, its contact law and what it records through one hook, ``make_loop``, which
says how long the run is (``ScenarioRun``), and the framework runs it
(``ladder.scenario_run``), as it runs every robot's."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from dynval.comparisons.ladder import plant
from dynval.comparisons.ladder.scenario_run import ScenarioRun
from dynval_cartpole.model import contact, control, dynamics
from dynval_cartpole.model.protocol import CartPole
from dynval_cartpole.robot.params import CartPoleParams

# the hand model, then the engines that simulate the description (Drake too: the floor
# is the robot's own law, applied as a force, not a ground of Drake's, which dynval does
# not give it)
IMPLEMENTATIONS = ("handrolled", "mujoco", "pybullet", "drake")


@dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    theta_0: float  # the pole's tilt at the start [rad]
    duration: float  # [s]
    description: str
    regulated: bool = True  # the regulator pushes the cart (else no force at all)
    floor: bool = False  # the floor of model/contact.py under the pole's tip


SCENARIOS: dict[str, Scenario] = {
    "balance": Scenario(
        "balance", "Caught from a 0.2 rad tilt", 0.2, 4.0,
        "The pole starts at rest tilted 0.2 rad (11.5 deg) from upright, the cart at rest "
        "at x = 0; the regulator F = -K s pushes the cart until both are upright and "
        "still."),
    "drop": Scenario(
        "drop", "Let fall onto a floor", 0.2, 3.0,
        "The pole starts at rest tilted 0.2 rad from upright with no force on the cart; it "
        "falls, its tip strikes the floor h_f below the rail (eq. (5): a spring and a "
        "damper along the normal, no friction), bounces and comes to rest on it while the "
        "cart rolls free.", regulated=False, floor=True),
}


def tip(p: CartPoleParams) -> plant.ContactPoint:
    """The pole's tip: the model's frame "tip", the point 2 l up the link "pole"."""
    return plant.ContactPoint("tip", "pole", (0.0, 0.0, 2.0 * p.l))


def make_loop(implementation: str, contact_mode: str, sc: Scenario, p: CartPoleParams,
              desc_dir: Path) -> ScenarioRun:
    """The cart-pole's closed loop in one implementation: the framework's plant (the hand
    model's eqs. (1)-(2), or an engine's simulation of the description) under the
    regulator's force on the cart, and, where the scenario has the floor, eq. (5) on the
    pole's tip (``contact_mode`` is the one mode 'shared': every implementation applies
    the same law)."""
    q0 = np.array([0.0, sc.theta_0])
    points = [tip(p)] if sc.floor else []
    if implementation == "handrolled":
        robot: plant.Plant = plant.HandPlant.of_model(CartPole(p), p.dt, q0, points)
    else:
        robot = plant.EnginePlant(implementation, desc_dir, "cartpole", CartPole.joint_names, p.dt,
                                  (0.0, 0.0, -p.g), q0, points=points)
    K = control.gains(p)

    def regulator(t: float, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        return np.array([control.force(K, q, v), 0.0])  # F on the cart, none at the hinge

    def unforced(t: float, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        return np.zeros(2)

    def floor(P: np.ndarray, V: np.ndarray) -> np.ndarray:
        return contact.floor_forces(P, V, p.h_f, p.k_f, p.c_f)  # eq. (5)

    def signals(loop: plant.ControlledLoop) -> dict[str, float]:
        q, v = loop.plant.joint_state()
        out = {"joint.slider.extension": float(q[0]),
               "joint.slider.extension_rate": float(v[0]),
               "joint.slider.force": float(loop.tau[0]),
               "joint.hinge.angle": float(q[1]), "joint.hinge.rate": float(v[1]),
               "cartpole.energy": dynamics.energy(q, v, p.m_c, p.m_p, p.l, p.I, p.g)}
        if sc.floor:
            P, _ = loop.plant.points()
            out["cartpole.tip.z"] = float(P[0, 2])
            out["cartpole.tip.force.z"] = 0.0 if loop.F is None else float(loop.F[0, 2])
        return out

    loop = plant.ControlledLoop(robot, regulator if sc.regulated else unforced, signals,
                                floor if sc.floor else None)
    return ScenarioRun(loop, p.dt, sc.duration)  # every step recorded
