"""The cart-pole's scenario (the pole caught from a tilt by the regulator of
model/control.py) and how it runs in each implementation: the hand model's eqs. (1)-(2)
by semi-implicit Euler, and MuJoCo's and PyBullet's own steps with the same force law
applied to the cart at each step.

The engine side (``EngineCartPole``) is this robot's own plant: the ladder's scenario
machinery asks each robot for a wide trace per implementation (``run_one``) and leaves
how an engine is stepped to the robot."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from dynval.comparisons.ladder import harness
from dynval.engines.base import FloatingState
from dynval_cartpole.model import control, dynamics
from dynval_cartpole.robot.params import CartPoleParams

IMPLEMENTATIONS = ("handrolled", "mujoco", "pybullet")


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


class HandCartPole:
    """Eqs. (1)-(2) stepped by semi-implicit Euler, the scheme of MuJoCo's Euler and
    PyBullet's step."""

    implementation = "handrolled"

    def __init__(self, p: CartPoleParams, theta_0: float) -> None:
        self.p, self.t, self.K = p, 0.0, control.gains(p)
        self.q, self.v = np.array([0.0, theta_0]), np.zeros(2)
        self.F = 0.0

    def advance(self) -> None:
        p = self.p
        self.F = control.force(self.K, self.q, self.v)
        vdot = dynamics.forward_dynamics(self.q, self.v, np.array([self.F, 0.0]), p.m_c,
                                         p.m_p, p.l, p.I, p.g)  # eqs. (1)-(2)
        self.v = self.v + p.dt * vdot
        self.q = self.q + p.dt * self.v
        self.t += p.dt

    def state(self) -> tuple[np.ndarray, np.ndarray]:
        return self.q, self.v


class EngineCartPole:
    """An engine's step with the regulator's force of the current state on the cart."""

    def __init__(self, implementation: str, p: CartPoleParams, theta_0: float,
                 desc_dir: Path) -> None:
        joints = ["slider", "hinge"]
        if implementation == "mujoco":
            from dynval.engines.mujoco_engine import MujocoSimulation
            self.sim = MujocoSimulation(desc_dir / "cartpole.xml", joints, p.dt)
        elif implementation == "pybullet":
            from dynval.engines.pybullet_engine import PybulletSimulation
            self.sim = PybulletSimulation(desc_dir / "cartpole.urdf", joints, p.dt,
                                          (0.0, 0.0, -p.g), floating=False)
        else:
            raise ValueError(f"unknown implementation {implementation!r}")
        self.implementation, self.p, self.t = implementation, p, 0.0
        self.K, self.F = control.gains(p), 0.0
        zero = np.zeros(3)
        self.sim.reset(FloatingState(zero, np.eye(3), zero, zero, np.array([0.0, theta_0]),
                                     np.zeros(2)))

    def advance(self) -> None:
        q, v = self.sim.joint_state()
        self.F = control.force(self.K, q, v)
        self.sim.step(np.array([self.F, 0.0]), [])
        self.t += self.p.dt

    def state(self) -> tuple[np.ndarray, np.ndarray]:
        q, v = self.sim.joint_state()
        return np.asarray(q, float), np.asarray(v, float)


class CartPoleLoop:
    """The harness's closed loop: one plant, its signals read from its state."""

    def __init__(self, plant: HandCartPole | EngineCartPole) -> None:
        self.plant = plant
        self.implementation = plant.implementation

    @property
    def t(self) -> float:
        return self.plant.t

    def advance(self) -> None:
        self.plant.advance()

    def signals(self) -> dict[str, float]:
        p = self.plant.p
        q, v = self.plant.state()
        return {"joint.slider.extension": float(q[0]), "joint.slider.extension_rate": float(v[0]),
                "joint.slider.force": self.plant.F,
                "joint.hinge.angle": float(q[1]), "joint.hinge.rate": float(v[1]),
                "cartpole.energy": dynamics.energy(q, v, p.m_c, p.m_p, p.l, p.I, p.g)}


def run_one(p: CartPoleParams, sc: Scenario, implementation: str, contact: str,
            desc_dir: Path, until: float | None = None) -> pd.DataFrame:
    """Wide trace (time x signal) of one implementation in one scenario (``until`` stops
    it early; the cart-pole has no contact, so ``contact`` is the one mode 'shared')."""
    plant = (HandCartPole(p, sc.theta_0) if implementation == "handrolled"
             else EngineCartPole(implementation, p, sc.theta_0, desc_dir))
    return harness.run(CartPoleLoop(plant), harness.run_length(sc.duration, until), p.dt,
                       record_every=1)
