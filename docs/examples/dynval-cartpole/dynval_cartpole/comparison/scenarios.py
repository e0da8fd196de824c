"""The cart-pole's scenario (the pole caught from a tilt by the regulator of
model/control.py) and how it runs in each implementation: the hand model's eqs. (1)-(2)
by semi-implicit Euler, and MuJoCo's, PyBullet's and Drake's own steps with the same
force law applied to the cart at each step.

The plants are the framework's (``dynval.comparisons.ladder.plant``): this robot supplies
its controller and what it records through one hook, ``make_loop``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from dynval.comparisons.ladder import plant
from dynval_cartpole.model import control, dynamics
from dynval_cartpole.robot.params import CartPoleParams

# the hand model, then the engines that simulate the description (Drake too: the
# cart-pole touches no ground, which dynval does not give Drake)
IMPLEMENTATIONS = ("handrolled", "mujoco", "pybullet", "drake")


@dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    theta_0: float  # the pole's tilt at the start [rad]
    duration: float  # [s]
    description: str


SCENARIOS: dict[str, Scenario] = {
    "balance": Scenario(
        "balance", "Caught from a 0.2 rad tilt", 0.2, 4.0,
        "The pole starts at rest tilted 0.2 rad (11.5 deg) from upright, the cart at rest "
        "at x = 0; the regulator F = -K s pushes the cart until both are upright and "
        "still."),
}


JOINTS = ("slider", "hinge")


def make_loop(implementation: str, contact: str, sc: Scenario, p: CartPoleParams,
              desc_dir: Path) -> plant.ControlledLoop:
    """The cart-pole's closed loop in one implementation: the framework's plant (the hand
    model's eqs. (1)-(2), or an engine's simulation of the description) under the
    regulator's force on the cart; no contact (``contact`` is the one mode 'shared')."""
    q0 = np.array([0.0, sc.theta_0])
    if implementation == "handrolled":
        def eqs_1_2(q: np.ndarray, v: np.ndarray, tau: np.ndarray) -> np.ndarray:
            return dynamics.forward_dynamics(q, v, tau, p.m_c, p.m_p, p.l, p.I, p.g)

        robot: plant.Plant = plant.HandPlant(eqs_1_2, p.dt, q0)
    else:
        robot = plant.EnginePlant(implementation, desc_dir, "cartpole", JOINTS, p.dt,
                                  (0.0, 0.0, -p.g), q0)
    K = control.gains(p)

    def regulator(t: float, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        return np.array([control.force(K, q, v), 0.0])  # F on the cart, none at the hinge

    def signals(loop: plant.ControlledLoop) -> dict[str, float]:
        q, v = loop.plant.joint_state()
        return {"joint.slider.extension": float(q[0]),
                "joint.slider.extension_rate": float(v[0]),
                "joint.slider.force": float(loop.tau[0]),
                "joint.hinge.angle": float(q[1]), "joint.hinge.rate": float(v[1]),
                "cartpole.energy": dynamics.energy(q, v, p.m_c, p.m_p, p.l, p.I, p.g)}

    return plant.ControlledLoop(robot, regulator, signals)


def run_one(p: CartPoleParams, sc: Scenario, implementation: str, contact: str,
            desc_dir: Path, until: float | None = None) -> pd.DataFrame:
    """Wide trace (time x signal) of one implementation in one scenario (``until`` stops
    it early; the cart-pole has no contact, so ``contact`` is the one mode 'shared')."""
    return plant.run_scenario(make_loop(implementation, contact, sc, p, desc_dir),
                              sc.duration, until)
