"""One plant contract for a scenario run: what a robot's closed loop steps, whichever
implementation runs it, and the framework's plants that a robot need not write.

A :class:`Plant` holds one implementation's state, reads its contact points and takes one
step under joint efforts and forces at those points. The framework builds two kinds:
:class:`EnginePlant`, an engine's simulation of the robot's description (MuJoCo, PyBullet
or Drake, ``dynval.engines``), and :class:`HandPlant`, a hand-rolled model's forward
dynamics stepped by semi-implicit Euler (velocity first, then position: the scheme of
MuJoCo's Euler, PyBullet's step and Drake's discrete step, so the implementations differ
in their dynamics only), a force at a contact point entering it through the model's own
Jacobian of that point (tau + J^T F). A robot supplies what its paper adds, its
controller and, where its feet, wheels or tips touch the ground, its contact law (the
points' world positions and velocities to the forces on them, the same function in
every implementation), through one hook, ``make_loop(implementation, contact, scenario,
params, desc_dir)``, which returns a ``scenario_run.ScenarioRun``: the
:class:`ControlledLoop` (a ``harness.ClosedLoop``) and how it runs. The framework runs
it as it runs every robot's (``scenario_run.run_scenario``).

A robot from a package of its own uses the whole contract (``docs/examples/
dynval-cartpole``: a regulator, and a contact law on the pole's tip). The paper robots'
plants take the same ``step``: each engine plant is a :class:`SimulationPlant` seen in its
paper's coordinates (floating bases on quaternions, planar models), each hand-rolled plant
its paper's own step; their loops, compiled in chunks, compute their contact laws
themselves (docs/DESIGN.md), and reach the framework by the same hook."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from dynval.engines.base import FloatingState, Ground, PointForce

ENGINES = ("mujoco", "pybullet", "drake")  # the engines that simulate (Pinocchio does not)

# Control law: (time [s], q, v) -> joint efforts tau [N m or N], one per joint.
Controller = Callable[[float, np.ndarray, np.ndarray], np.ndarray]
# Contact law: the contact points' world positions P [m] and velocities V [m/s], (n, 3)
# each, after the last step -> the world forces on them [N], (n, 3), for the next one.
ContactLaw = Callable[[np.ndarray, np.ndarray], np.ndarray]
# Forward dynamics of a hand-rolled model: (q, v, tau) -> v' (its eqs. of motion solved).
ForwardDynamics = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]


@dataclass(frozen=True)
class ContactPoint:
    """A point where a robot's contact law acts, as each implementation knows it: the
    hand-rolled model's frame ``frame`` (its ``frame_position`` and ``frame_jacobian``,
    dynval.model), and the point ``offset`` [m] of the description's link ``link`` (the
    engines)."""

    frame: str
    link: str
    offset: tuple[float, float, float] = (0.0, 0.0, 0.0)


@runtime_checkable
class Plant(Protocol):
    """One implementation's robot under a closed loop: its joint state, its contact
    points and one step."""

    implementation: str
    dt: float

    def joint_state(self) -> tuple[np.ndarray, np.ndarray]:
        """The joints' positions q and rates v."""
        ...

    def points(self) -> tuple[np.ndarray, np.ndarray]:
        """World positions and velocities, (n, 3) each, of the plant's contact points."""
        ...

    def step(self, tau: np.ndarray, F: np.ndarray | None) -> None:
        """Advance one step ``dt`` under joint efforts ``tau`` and the world forces ``F``
        (n, 3) on the contact points (None: no force)."""
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


class SimulationPlant:
    """An engine's simulation (:func:`simulation`) behind the contract: its joints, the
    contact points ``points`` (each a point of a link) where the forces of ``step`` act,
    and the engine's own contact forces on their links (:meth:`native_forces`). A robot
    whose paper reads the state in coordinates of its own (a floating base on a
    quaternion, a planar model's pitch) builds the simulation, resets it and reads it
    through ``sim``, and steps it here."""

    def __init__(self, sim: Any, points: Sequence[ContactPoint] = ()) -> None:
        self.sim = sim
        self.implementation, self.dt = sim.name, sim.dt
        self.point_links = [c.link for c in points]
        self.point_offsets = np.array([c.offset for c in points], dtype=float).reshape(-1, 3)

    def joint_state(self) -> tuple[np.ndarray, np.ndarray]:
        q, v = self.sim.joint_state()
        return np.asarray(q, float), np.asarray(v, float)

    def points(self) -> tuple[np.ndarray, np.ndarray]:
        if not self.point_links:
            return np.empty((0, 3)), np.empty((0, 3))
        return self.sim.points(self.point_links, self.point_offsets)

    def step(self, tau: np.ndarray, F: np.ndarray | None) -> None:
        """One step; a point whose force is zero is not pushed (the engine adds nothing
        for it either way)."""
        forces = [] if F is None else [
            PointForce(link, o, np.asarray(f, float)) for link, o, f
            in zip(self.point_links, self.point_offsets, F, strict=True) if np.any(f)]
        self.sim.step(np.asarray(tau, float), forces)

    def native_forces(self) -> np.ndarray:
        """The engine's own contact force [N] on each contact point's link, world axes,
        (n, 3); zero on a link it does not touch the ground with."""
        f = self.sim.contact_forces()
        zero = np.zeros(3)
        return np.array([f.get(link, zero) for link in self.point_links],
                        dtype=float).reshape(-1, 3)


class EnginePlant(SimulationPlant):
    """An engine's simulation of a description (``<stem>.xml`` for MuJoCo, ``<stem>.urdf``
    for PyBullet and Drake), its joints ``joints`` in that order, on a fixed or a floating
    base, started at rest at the joint positions q0; ``points``: where the contact law
    acts, each a point of a link."""

    def __init__(self, implementation: str, desc_dir: Path, stem: str,
                 joints: Sequence[str], dt: float, gravity: Sequence[float],
                 q0: np.ndarray, floating: bool = False,
                 points: Sequence[ContactPoint] = ()) -> None:
        super().__init__(simulation(implementation, desc_dir, stem, joints, dt, gravity,
                                    floating=floating), points)
        zero = np.zeros(3)
        self.sim.reset(FloatingState(zero, np.eye(3), zero, zero, np.asarray(q0, float),
                                     np.zeros(len(joints))))


class HandPlant:
    """A hand-rolled model's forward dynamics stepped by semi-implicit Euler: v += dt
    v'(q, v, tau + sum_k J_k(q)^T F_k), then q += dt v, where F_k is the world force on
    the contact point k and J_k its linear Jacobian in the model (``frames``: an object
    with the protocol's ``frame_position`` and ``frame_jacobian``, dynval.model, at the
    points' ``frame`` names). q and v have one entry per coordinate: a floating base
    enters as the model's own base coordinates (the hopper's chain on x, y, z, yaw, pitch
    and roll joints), not as a quaternion."""

    implementation = "handrolled"

    def __init__(self, forward_dynamics: ForwardDynamics, dt: float, q0: np.ndarray,
                 points: Sequence[ContactPoint] = (), frames: Any = None,
                 v0: np.ndarray | None = None) -> None:
        if points and not all(callable(getattr(frames, m, None))
                              for m in ("frame_position", "frame_jacobian")):
            raise ValueError("a hand plant's contact points need the model's "
                             "frame_position and frame_jacobian (pass the model as frames)")
        self.forward_dynamics, self.dt = forward_dynamics, dt
        self.frames, self._names = frames, [c.frame for c in points]
        self.q = np.array(q0, dtype=float)
        self.v = np.zeros_like(self.q) if v0 is None else np.array(v0, dtype=float)
        # the points' positions, velocities and Jacobians at the present state, read once
        # (the contact law, the recorded signals and the step's J^T F all ask for them)
        self._read: tuple[np.ndarray, np.ndarray, list[np.ndarray]] | None = None

    @classmethod
    def of_model(cls, model: Any, dt: float, q0: np.ndarray,
                 points: Sequence[ContactPoint] = (), v0: np.ndarray | None = None
                 ) -> HandPlant:
        """The plant of a protocol model: its ``forward_dynamics`` where it has one, else
        M(q) v' = tau - bias(q, v) solved; its frames for the contact points."""
        fd = getattr(model, "forward_dynamics", None)
        if not callable(fd):
            def fd(q: np.ndarray, v: np.ndarray, tau: np.ndarray) -> np.ndarray:
                return np.linalg.solve(model.mass_matrix(q), tau - model.bias(q, v))
        return cls(fd, dt, q0, points, model, v0)

    def joint_state(self) -> tuple[np.ndarray, np.ndarray]:
        return self.q, self.v

    def points(self) -> tuple[np.ndarray, np.ndarray]:
        P, V, _ = self._points()
        return P, V

    def _points(self) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
        """Positions, velocities J v and Jacobians J of the contact points at (q, v)."""
        if self._read is None:
            J = [self.frames.frame_jacobian(name, self.q) for name in self._names]
            P, V = np.empty((len(J), 3)), np.empty((len(J), 3))
            for k, name in enumerate(self._names):
                P[k] = self.frames.frame_position(name, self.q)
                V[k] = J[k] @ self.v
            self._read = P, V, J
        return self._read

    def step(self, tau: np.ndarray, F: np.ndarray | None) -> None:
        tau = np.asarray(tau, float)
        if F is not None and len(F):
            # point by point, in the points' order, as the engines accumulate applied forces
            for J_k, f in zip(self._points()[2], F, strict=True):
                tau = tau + J_k.T @ np.asarray(f, float)
        self.v = self.v + self.dt * self.forward_dynamics(self.q, self.v, tau)
        self.q = self.q + self.dt * self.v
        self._read = None


class ControlledLoop:
    """A plant, its controller and its contact law wired together (a
    ``harness.ClosedLoop``): each step the controller's efforts from the state, the
    contact law's forces on the plant's contact points, one step; ``signals`` names what
    is recorded from the loop (its plant, its last efforts ``tau`` and contact forces
    ``F``, its clock ``t``)."""

    def __init__(self, plant: Plant, controller: Controller,
                 signals: Callable[[ControlledLoop], dict[str, float]],
                 contact: ContactLaw | None = None) -> None:
        self.plant, self.controller, self.contact = plant, controller, contact
        self._signals = signals
        self.implementation = plant.implementation
        self.t = 0.0
        q, _ = plant.joint_state()
        self.tau = np.zeros(len(q))
        self.F: np.ndarray | None = None

    def advance(self) -> None:
        q, v = self.plant.joint_state()
        self.tau = np.asarray(self.controller(self.t, q, v), dtype=float)
        self.F = np.asarray(self.contact(*self.plant.points()), float) if self.contact else None
        self.plant.step(self.tau, self.F)
        self.t += self.plant.dt

    def signals(self) -> dict[str, float]:
        return self._signals(self)
