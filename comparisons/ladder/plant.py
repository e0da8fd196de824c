"""One plant contract for a scenario run: what a robot's closed loop steps, whichever
implementation runs it, and the framework's plants that a robot need not write.

A :class:`Plant` holds one implementation's state and takes one step under joint efforts
and point forces. The framework builds two kinds: :class:`EnginePlant`, an engine's
simulation of the robot's description (MuJoCo, PyBullet or Drake, ``dynval.engines``),
and :class:`HandPlant`, a hand-rolled model's forward dynamics stepped by semi-implicit
Euler (velocity first, then position: the scheme of MuJoCo's Euler, PyBullet's step and
Drake's discrete step, so the implementations differ in their dynamics only). A robot
supplies what its paper adds, its controller and, where its feet or wheels touch the
ground, its contact law, through one hook, ``make_loop(implementation, contact,
scenario, params, desc_dir)``, which returns a :class:`ControlledLoop` (a
``harness.ClosedLoop``); :func:`run_scenario` runs it as every scenario run is recorded.

The paper robots' loops predate this contract and keep their own plants (compiled
chunks, floating bases, their contact laws), each building its engine's simulation by
:func:`simulation`; a robot from a package of its own uses the whole contract
(``docs/examples/dynval-cartpole``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import pandas as pd

from dynval.comparisons.ladder import harness
from dynval.engines.base import FloatingState, Ground, PointForce

ENGINES = ("mujoco", "pybullet", "drake")  # the engines that simulate (Pinocchio does not)

# Control law: (time [s], q, v) -> joint efforts tau [N m or N], one per joint.
Controller = Callable[[float, np.ndarray, np.ndarray], np.ndarray]
# Contact law: the plant after its last step -> the point forces of the next one.
ContactLaw = Callable[["Plant"], Sequence[PointForce]]
# Forward dynamics of a hand-rolled model: (q, v, tau) -> v' (its eqs. of motion solved).
ForwardDynamics = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]


class Plant(Protocol):
    """One implementation's robot under a closed loop: its joint state and one step."""

    implementation: str
    dt: float

    def joint_state(self) -> tuple[np.ndarray, np.ndarray]:
        """The joints' positions q and rates v."""
        ...

    def step(self, tau: np.ndarray, forces: Sequence[PointForce]) -> None:
        """Advance one step ``dt`` under joint efforts ``tau`` and point ``forces``."""
        ...


def simulation(implementation: str, desc_dir: Path, stem: str, joints: Sequence[str],
               dt: float, gravity: Sequence[float], ground: Ground | None = None,
               pybullet_links: Sequence[str] | None = None, floating: bool = True) -> Any:
    """An engine's simulation of a robot's description, the one way every plant builds
    it: MuJoCo's of ``<stem>.xml`` (its base floating where the file's root has a free
    joint), PyBullet's and Drake's of ``<stem>.urdf`` (``floating``: its base free);
    ``ground``: the engine's own contact with a ground plane, its contact bodies named as
    MuJoCo names them, and as PyBullet's links by ``pybullet_links`` where they differ
    (Drake is given none, and says so: dynval.engines.drake_simulation)."""
    if implementation == "mujoco":
        from dynval.engines.mujoco_engine import MujocoSimulation

        return MujocoSimulation(desc_dir / f"{stem}.xml", list(joints), dt, tuple(gravity),
                                ground)
    if implementation == "pybullet":
        from dynval.engines.pybullet_simulation import PybulletSimulation

        if ground is not None and pybullet_links is not None:
            ground = replace(ground, contact_geoms=tuple(pybullet_links))
        return PybulletSimulation(desc_dir / f"{stem}.urdf", list(joints), dt,
                                  tuple(gravity), ground, floating=floating)
    if implementation == "drake":  # no ground: dynval does not build Drake's contact
        from dynval.engines.drake_simulation import DrakeSimulation

        return DrakeSimulation(desc_dir / f"{stem}.urdf", list(joints), dt, tuple(gravity),
                               ground, floating=floating)
    raise ValueError(f"no engine plant for {implementation!r}; the engines that simulate "
                     f"are {', '.join(ENGINES)}")


class EnginePlant:
    """An engine's simulation of a description (``<stem>.xml`` for MuJoCo, ``<stem>.urdf``
    for PyBullet and Drake), its joints ``joints`` in that order, on a fixed or a floating
    base."""

    def __init__(self, implementation: str, desc_dir: Path, stem: str,
                 joints: Sequence[str], dt: float, gravity: Sequence[float],
                 q0: np.ndarray, floating: bool = False) -> None:
        self.sim = simulation(implementation, desc_dir, stem, joints, dt, gravity,
                              floating=floating)
        self.implementation, self.dt = implementation, dt
        zero = np.zeros(3)
        self.sim.reset(FloatingState(zero, np.eye(3), zero, zero, np.asarray(q0, float),
                                     np.zeros(len(joints))))

    def joint_state(self) -> tuple[np.ndarray, np.ndarray]:
        q, v = self.sim.joint_state()
        return np.asarray(q, float), np.asarray(v, float)

    def step(self, tau: np.ndarray, forces: Sequence[PointForce]) -> None:
        self.sim.step(np.asarray(tau, float), list(forces))


class HandPlant:
    """A hand-rolled model's forward dynamics on a fixed base, stepped by semi-implicit
    Euler: v += dt v'(q, v, tau), then q += dt v. Point forces need the model's own
    Jacobians and are not taken here (a robot with contact supplies its own plant)."""

    implementation = "handrolled"

    def __init__(self, forward_dynamics: ForwardDynamics, dt: float, q0: np.ndarray) -> None:
        self.forward_dynamics, self.dt = forward_dynamics, dt
        self.q = np.array(q0, dtype=float)
        self.v = np.zeros_like(self.q)

    def joint_state(self) -> tuple[np.ndarray, np.ndarray]:
        return self.q, self.v

    def step(self, tau: np.ndarray, forces: Sequence[PointForce]) -> None:
        if forces:
            raise ValueError("HandPlant takes joint efforts only: a robot with contact "
                             "maps its point forces through its own model's Jacobians")
        self.v = self.v + self.dt * self.forward_dynamics(self.q, self.v, tau)
        self.q = self.q + self.dt * self.v


class ControlledLoop:
    """A plant, its controller and its contact law wired together (a
    ``harness.ClosedLoop``): each step the controller's efforts from the state, the
    contact law's forces from the plant, one step; ``signals`` names what is recorded
    from the loop (its plant, its last efforts ``tau``, its clock ``t``)."""

    def __init__(self, plant: Plant, controller: Controller,
                 signals: Callable[[ControlledLoop], dict[str, float]],
                 contact: ContactLaw | None = None) -> None:
        self.plant, self.controller, self.contact = plant, controller, contact
        self._signals = signals
        self.implementation = plant.implementation
        self.t = 0.0
        q, _ = plant.joint_state()
        self.tau = np.zeros(len(q))

    def advance(self) -> None:
        q, v = self.plant.joint_state()
        self.tau = np.asarray(self.controller(self.t, q, v), dtype=float)
        self.plant.step(self.tau, self.contact(self.plant) if self.contact else ())
        self.t += self.plant.dt

    def signals(self) -> dict[str, float]:
        return self._signals(self)


def run_scenario(loop: ControlledLoop, duration: float, until: float | None,
                 record_every: int = 1, **kwargs: Any) -> pd.DataFrame:
    """Wide trace (time x signal) of one implementation's loop over a scenario of
    ``duration`` seconds (``until``: the first seconds only), as every scenario run is
    recorded (``harness.run``)."""
    return harness.run(loop, harness.run_length(duration, until), loop.plant.dt,
                       record_every, **kwargs)
