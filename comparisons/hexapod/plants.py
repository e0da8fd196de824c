"""The hexapod's plants behind one interface (reset, state, step with the shared forces):
the hand-rolled PlanarHexapod (eq. 6 summed over the legs) stepped by semi-implicit Euler
with the forces held over the step, and MuJoCo / PyBullet on the generated ``hexapod.xml`` /
``hexapod.urdf`` (segments on slide-x / slide-z joints from the ground, legs on hip and
knee hinges), whose own integrators are that same scheme.  State in the paper frame
(robots/hexapod/FRAMES.md).  ``loop`` re-exports every name."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from dynval.comparisons.ladder import plant
from dynval.engines.base import FloatingState, Ground, PointForce
from dynval.handrolled.hexapod import lagrange
from dynval.handrolled.hexapod.robot import PlanarHexapod
from dynval.robots.hexapod.model_description import robot_joints, robot_offset
from dynval.robots.hexapod.params import HexapodParams, leg_names

ORIGIN = np.zeros(3)


@dataclass(frozen=True)
class PlantState:
    """Paper-frame coordinates and rates, and the feet's positions and velocities (n x 2)."""

    t: float
    q: np.ndarray
    qd: np.ndarray
    feet: np.ndarray
    feet_v: np.ndarray


class HandrolledPlant:
    """PlanarHexapod behind the plant interface (forces held over each step). ``fast``:
    the step and the feet by hexapod.fast.model's compiled copies of PlanarHexapod.step_held and
    .feet (the default; tests hold them to the printed path at round-off)."""

    name = "handrolled"
    contact = "shared"

    def __init__(self, p: HexapodParams, fast: bool = True) -> None:
        self.model = PlanarHexapod(p)
        self.fast = fast
        if fast:
            from dynval.handrolled.hexapod.fast import model as compiled

            self._compiled = compiled
            self._c = compiled.constants(p)[0]

    def reset(self, q: np.ndarray, qd: np.ndarray) -> None:
        self.model.q, self.model.qd, self.model.t = q.copy(), qd.copy(), 0.0

    def observe(self) -> PlantState:
        m = self.model
        if self.fast:
            feet, feet_v = self._compiled.feet(m.q, m.qd, self._c, m.n, m.k)
        else:
            feet, feet_v = m.feet(m.q, m.qd)
        return PlantState(m.t, m.q.copy(), m.qd.copy(), feet, feet_v)

    def read(self) -> tuple[float, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(t, q, qd, feet, feet_v) as :meth:`observe`, without the PlantState."""
        s = self.observe()
        return s.t, s.q, s.qd, s.feet, s.feet_v

    def step(self, F_seg: np.ndarray, tau: np.ndarray, F_feet: np.ndarray) -> None:
        """One step under segment forces F_seg (k x 2), link torques tau (2n) and ground
        forces F_feet (n x 2), all paper frame: Q = [F_RH; tau] + sum_i J_Fi^T F_RFi (6)."""
        m = self.model
        if self.fast:
            m.q, m.qd = self._compiled.held_step(m.q, m.qd, np.asarray(F_seg, float),
                                                 np.asarray(tau, float),
                                                 np.asarray(F_feet, float), self._c, m.n,
                                                 m.k, m.dt)
            m.t += m.dt
            return
        Q = np.concatenate([F_seg.ravel(), tau])
        for i, idx in enumerate(m.idx):
            if F_feet[i].any():
                Q[idx] += lagrange.J_F(m.q[idx], m.lm).T @ F_feet[i]
        m.step_held(Q)


class EnginePlant:
    """An engine's hexapod (fixed ground link, slides and hinges) in paper coordinates."""

    def __init__(self, sim, p: HexapodParams, contact: str = "shared") -> None:
        self.sim, self.name, self.contact = sim, sim.name, contact
        self.off = robot_offset(p)
        self.feet_links = [f"{leg}_foot" for leg in leg_names(p)]
        self._origins = np.zeros((len(self.feet_links), 3))

    def reset(self, q: np.ndarray, qd: np.ndarray) -> None:
        z = np.zeros(3)
        self.sim.reset(FloatingState(z, np.eye(3), z, z, q - self.off, qd.copy()))

    def observe(self) -> PlantState:
        s = self.sim.state()
        pts = [self.sim.point(f, ORIGIN) for f in self.feet_links]
        feet = np.array([[pw[0], pw[2]] for pw, _ in pts])
        feet_v = np.array([[vw[0], vw[2]] for _, vw in pts])
        return PlantState(self.sim.time, s.q + self.off, s.qd.copy(), feet, feet_v)

    def read(self) -> tuple[float, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(t, q, qd, feet, feet_v) as :meth:`observe`, the feet read in one ``points``
        call (the same numbers as ``point`` per foot)."""
        s = self.sim.state()
        P, V = self.sim.points(self.feet_links, self._origins)
        return self.sim.time, s.q + self.off, s.qd, P[:, 0::2], V[:, 0::2]

    def step(self, F_seg: np.ndarray, tau: np.ndarray, F_feet: np.ndarray) -> None:
        forces = [PointForce(link, ORIGIN, np.array([F[0], 0.0, F[1]]))
                  for link, F in zip(self.feet_links, F_feet, strict=True) if F.any()]
        self.sim.step(np.concatenate([F_seg.ravel(), tau]), forces)

    def native_feet_forces(self) -> np.ndarray:
        """The engine's own ground force on each foot (n x 2, paper frame)."""
        f = self.sim.contact_forces()
        return np.array([[f[link][0], f[link][2]] if link in f else [0.0, 0.0]
                         for link in self.feet_links])


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
        return HandrolledPlant(p, fast)
    joints, dt, g = robot_joints(p), 1.0 / p.f_sr, (0.0, 0.0, -p.g)
    ground = native_ground(p) if contact == "native" else None
    return EnginePlant(plant.simulation(implementation, desc_dir, "hexapod", joints, dt, g,
                                        ground, floating=False), p, contact)
