"""The hexapod's plants on dynval's plant contract (``ladder.plant.Plant``: joint state,
contact points, one step under generalised efforts and the feet's world forces): the
hand-rolled PlanarHexapod (eq. 6 summed over the legs) stepped by semi-implicit Euler with
the forces held over the step (its compiled copy; the printed path is eq. (6) through the
model protocol on the framework's HandPlant), and MuJoCo / PyBullet on the generated
``hexapod.xml`` / ``hexapod.urdf`` (segments on slide-x / slide-z joints from the ground,
legs on hip and knee hinges), whose own integrators are that same scheme. All read their
state in the paper frame (robots/hexapod/FRAMES.md: the paper's (x, y) is the world's (x,
z)), the feet as the paper's planar points (``read``). ``loop`` re-exports every name."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from dynval.comparisons.ladder import plant
from dynval.engines.base import FloatingState, Ground
from dynval.handrolled.hexapod.protocol import HexapodRobot
from dynval.handrolled.hexapod.robot import PlanarHexapod
from dynval.robots.hexapod.model_description import robot_joints, robot_offset
from dynval.robots.hexapod.params import HexapodParams, leg_names


@dataclass(frozen=True)
class PlantState:
    """Paper-frame coordinates and rates, and the feet's positions and velocities (n x 2)."""

    t: float
    q: np.ndarray
    qd: np.ndarray
    feet: np.ndarray
    feet_v: np.ndarray


def world(F_feet: np.ndarray) -> np.ndarray:
    """The feet's planar forces (n x 2, the paper's x and y) as world vectors (n x 3)."""
    F = np.zeros((len(F_feet), 3))
    F[:, 0::2] = F_feet
    return F


def feet_points(p: HexapodParams) -> list[plant.ContactPoint]:
    """Each foot's centre: the hand-rolled model's foot and the origin of its link."""
    return [plant.ContactPoint(f"{leg}_foot", f"{leg}_foot") for leg in leg_names(p)]


class HandrolledPlant:
    """PlanarHexapod as a plant, stepped by hexapod.fast.model's compiled held_step and
    feet (the forces held over each step); tests hold it to :class:`ReadablePlant`, the
    printed path, at round-off."""

    implementation = "handrolled"
    contact = "shared"

    def __init__(self, p: HexapodParams) -> None:
        from dynval.handrolled.hexapod.fast import model as compiled

        self.model = PlanarHexapod(p)
        self.dt = self.model.dt
        self._compiled = compiled
        self._c = compiled.constants(p)[0]

    def reset(self, q: np.ndarray, qd: np.ndarray) -> None:
        self.model.q, self.model.qd, self.model.t = q.copy(), qd.copy(), 0.0

    def joint_state(self) -> tuple[np.ndarray, np.ndarray]:
        return self.model.q, self.model.qd

    def read(self) -> tuple[float, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(t, q, qd, feet, feet_v): the time, the state and the feet (n x 2) in the paper
        frame."""
        m = self.model
        feet, feet_v = self._compiled.feet(m.q, m.qd, self._c, m.n, m.k)
        return m.t, m.q.copy(), m.qd.copy(), feet, feet_v

    def points(self) -> tuple[np.ndarray, np.ndarray]:
        _, _, _, feet, feet_v = self.read()
        return world(feet), world(feet_v)

    def step(self, tau: np.ndarray, F: np.ndarray | None) -> None:
        """One step under the generalised forces tau = [F_RH; link torques] (the segments'
        forces, k x 2, then 2n torques) and the feet's world forces F (n x 3, None:
        none): Q = tau + sum_i J_Fi^T F_RFi, eq. (6)."""
        m = self.model
        F_feet = (np.zeros((m.n, 2)) if F is None
                  else np.ascontiguousarray(np.asarray(F, float)[:, 0::2]))
        k2 = 2 * m.k
        m.q, m.qd = self._compiled.held_step(m.q, m.qd, tau[:k2].reshape(m.k, 2), tau[k2:],
                                             F_feet, self._c, m.n, m.k, m.dt)
        m.t += m.dt


class PaperCoordinates(HexapodRobot):
    """The model protocol's hexapod read at the paper's own coordinates Theta (the
    description's offsets, the stations and H_B, left out): the loop's q."""

    def __init__(self, p: HexapodParams) -> None:
        super().__init__(p)
        self.off = np.zeros_like(self.off)


class ReadablePlant(plant.HandPlant):
    """The printed path: eq. (6) through the model protocol (:class:`PaperCoordinates`:
    H, c + g and each foot's J_F) stepped by the framework's hand plant, semi-implicit
    Euler with the feet's forces entering as J_F^T F. Made by :func:`readable_plant`."""

    contact = "shared"
    t = 0.0

    def reset(self, q: np.ndarray, qd: np.ndarray) -> None:
        self.q, self.v, self.t, self._read = q.copy(), qd.copy(), 0.0, None

    def read(self) -> tuple[float, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(t, q, qd, feet, feet_v) as :meth:`HandrolledPlant.read`."""
        P, V = self.points()
        return self.t, self.q.copy(), self.v.copy(), P[:, 0::2], V[:, 0::2]

    def step(self, tau: np.ndarray, F: np.ndarray | None) -> None:
        super().step(tau, F)
        self.t += self.dt


def readable_plant(p: HexapodParams) -> ReadablePlant:
    """:class:`ReadablePlant` of the parameters ``p`` (at rest at the description's zero
    until reset)."""
    model = PaperCoordinates(p)
    return ReadablePlant.of_model(model, 1.0 / p.f_sr, np.zeros(len(model.joint_names)),
                                  feet_points(p))


class EnginePlant(plant.SimulationPlant):
    """An engine's hexapod (fixed ground link, slides and hinges) in paper coordinates."""

    def __init__(self, sim, p: HexapodParams, contact: str = "shared") -> None:
        super().__init__(sim, feet_points(p))
        self.contact = contact
        self.off = robot_offset(p)

    def reset(self, q: np.ndarray, qd: np.ndarray) -> None:
        z = np.zeros(3)
        self.sim.reset(FloatingState(z, np.eye(3), z, z, q - self.off, qd.copy()))

    def joint_state(self) -> tuple[np.ndarray, np.ndarray]:
        s = self.sim.state()
        return s.q + self.off, s.qd

    def read(self) -> tuple[float, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(t, q, qd, feet, feet_v) as the hand-rolled plant's, the feet read in one
        ``points`` call."""
        q, qd = self.joint_state()
        P, V = self.points()
        return self.sim.time, q, qd, P[:, 0::2], V[:, 0::2]

    def native_feet_forces(self) -> np.ndarray:
        """The engine's own ground force on each foot (n x 2, paper frame)."""
        return self.native_forces()[:, 0::2]


def observe(plant: HandrolledPlant | ReadablePlant | EnginePlant) -> PlantState:
    """A plant's :meth:`read` as a PlantState."""
    return PlantState(*plant.read())


def native_ground(p: HexapodParams) -> Ground:
    """The ground plane of the engines' native contact: lowered by the foot radius so that
    the foot sphere touches it when its centre reaches y = 0 (where eqs. 11-12 start), with
    the linear law's K_yF and B_yF of eq. (11) as its stiffness and damping (MuJoCo's scaled
    by each foot's apparent mass at the start) and Coulomb friction mu_native."""
    n = np.array([0.0, 0.0, 1.0])
    return Ground(n, -p.r_F * n, p.K_yF, p.B_yF, p.mu_native, None,
                  tuple(f"{leg}_foot" for leg in leg_names(p)))


def make_plant(implementation: str, p: HexapodParams, contact: str, desc_dir: Path,
               fast: bool = True):
    """A plant of the named implementation (engines load ``hexapod.xml`` / ``.urdf``);
    ``contact`` "shared" (the ground law of eqs. 11-12 applied by the loop) or "native"
    (the engine's own contact with :func:`native_ground`; engines only); ``fast``: the
    hand-rolled model by its compiled copy."""
    if contact not in ("shared", "native"):
        raise ValueError(f"unknown contact mode {contact!r}; use shared or native")
    if implementation == "handrolled":
        if contact != "shared":
            raise ValueError("the hand-rolled model has no native contact; use 'shared'")
        return HandrolledPlant(p) if fast else readable_plant(p)
    joints, dt, g = robot_joints(p), 1.0 / p.f_sr, (0.0, 0.0, -p.g)
    ground = native_ground(p) if contact == "native" else None
    return EnginePlant(plant.simulation(implementation, desc_dir, "hexapod", joints, dt, g,
                                        ground, floating=False), p, contact)
