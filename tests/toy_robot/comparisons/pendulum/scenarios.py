"""The pendulum's scenario (a release from rest) and how one is run for each
implementation: the hand model's eq. (1) by semi-implicit Euler, and MuJoCo's and
PyBullet's own steps with the damping torque -b theta_dot applied at the pivot."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from dynval.comparisons.ladder import harness
from dynval.engines.base import FloatingState
from dynval.handrolled.pendulum import model
from dynval.robots.pendulum.params import PendulumParams

IMPLEMENTATIONS = ("handrolled", "mujoco", "pybullet")


@dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    theta_0: float  # release angle [rad]
    duration: float  # [s]
    description: str


SCENARIOS: dict[str, Scenario] = {
    "release30": Scenario(
        "release30", "Released from 30 deg", math.radians(30.0), 3.0,
        "Released from rest at 30 deg; it swings under gravity with viscous damping at "
        "the pivot, no torque applied."),
}


class HandPendulum:
    """Eq. (1) stepped by semi-implicit Euler, the scheme of MuJoCo's Euler and PyBullet."""

    implementation = "handrolled"

    def __init__(self, p: PendulumParams, theta_0: float) -> None:
        self.p, self.t = p, 0.0
        self.theta, self.theta_dot = theta_0, 0.0

    def advance(self) -> None:
        p = self.p
        theta_ddot = model.forward_dynamics(self.theta, self.theta_dot, 0.0, p.m, p.l, p.I,
                                            p.b, p.g)  # eq. (1)
        self.theta_dot += p.dt * theta_ddot
        self.theta += p.dt * self.theta_dot
        self.t += p.dt

    def state(self) -> tuple[float, float]:
        return self.theta, self.theta_dot


class EnginePendulum:
    """An engine's step with the damping torque -b theta_dot of the current state applied
    at the pivot (the description files carry no damping)."""

    def __init__(self, implementation: str, p: PendulumParams, theta_0: float,
                 desc_dir: Path) -> None:
        if implementation == "mujoco":
            from dynval.engines.mujoco_engine import MujocoSimulation
            self.sim = MujocoSimulation(desc_dir / "pendulum.xml", ["pivot"], p.dt)
        elif implementation == "pybullet":
            from dynval.engines.pybullet_engine import PybulletSimulation
            self.sim = PybulletSimulation(desc_dir / "pendulum.urdf", ["pivot"], p.dt,
                                          (0.0, 0.0, -p.g), floating=False)
        else:
            raise ValueError(f"unknown implementation {implementation!r}")
        self.implementation, self.p, self.t = implementation, p, 0.0
        zero = np.zeros(3)
        self.sim.reset(FloatingState(zero, np.eye(3), zero, zero, np.array([theta_0]),
                                     np.zeros(1)))

    def advance(self) -> None:
        _, theta_dot = self.sim.joint_state()
        self.sim.step(np.array([-self.p.b * theta_dot[0]]), [])
        self.t += self.p.dt

    def state(self) -> tuple[float, float]:
        q, qd = self.sim.joint_state()
        return float(q[0]), float(qd[0])


class PendulumLoop:
    """The harness's closed loop: one plant, its signals read from its state."""

    def __init__(self, plant: HandPendulum | EnginePendulum) -> None:
        self.plant = plant
        self.implementation = plant.implementation

    @property
    def t(self) -> float:
        return self.plant.t

    def advance(self) -> None:
        self.plant.advance()

    def signals(self) -> dict[str, float]:
        p = self.plant.p
        theta, theta_dot = self.plant.state()
        return {"joint.pivot.angle": theta, "joint.pivot.rate": theta_dot,
                "pendulum.damping_torque": -p.b * theta_dot,
                "pendulum.energy": model.energy(theta, theta_dot, p.m, p.l, p.I, p.g)}


def run_one(p: PendulumParams, sc: Scenario, implementation: str, contact: str,
            desc_dir: Path, until: float | None = None) -> pd.DataFrame:
    """Wide trace (time x signal) of one implementation in one scenario (``until`` stops
    it early; the pendulum has no contact, so ``contact`` is the one mode 'shared')."""
    plant = (HandPendulum(p, sc.theta_0) if implementation == "handrolled"
             else EnginePendulum(implementation, p, sc.theta_0, desc_dir))
    return harness.run(PendulumLoop(plant), harness.run_length(sc.duration, until), p.dt,
                       record_every=1)
