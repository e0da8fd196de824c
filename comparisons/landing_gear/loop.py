"""The landing gear closed loop for each implementation: the same controller and the
same contact law read each implementation's state (paper frame P)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from dynval.comparisons.ladder import plant
from dynval.comparisons.landing_gear.compiled import EngineChunks
from dynval.comparisons.landing_gear.frames import R_PB_from_R_WB, R_WB_from_R_PB, vec_P, vec_W
from dynval.engines.base import FloatingState, Ground
from dynval.handrolled.landing_gear.contact import SlopeContact, ground_normal_P
from dynval.handrolled.landing_gear.control import LandingGearController
from dynval.handrolled.landing_gear.fast import loop as fastloop
from dynval.handrolled.landing_gear.model import (
    DecoupledLandingGear,
    Forms,
    feet_in_body,
    standing_angles,
    system_inertia,
)
from dynval.handrolled.landing_gear.state import Observation, attitude_angles
from dynval.robots.landing_gear.params import JOINTS, LEGS, R_BL, LandingGearParams, p_BH

JOINT_NAMES = [f"{leg}_{j}" for leg in LEGS for j in JOINTS]
FOOT_LINKS = [f"{leg}_lower" for leg in LEGS]
# LandingGearLoop.signals' names, in its order: the body, then leg by leg each joint's
# angle and torque and the foot's normal and vertical forces
SIGNALS = ("body.roll", "body.pitch", "body.yaw", "com.x", "com.y", "com.z", "body.thrust",
           *(name for leg in LEGS
             for name in (*(f"joint.{leg}.{joint}.{what}" for joint in JOINTS
                            for what in ("angle", "torque")),
                          f"foot.{leg}.force.normal", f"foot.{leg}.force.y")))


@dataclass(frozen=True)
class InitialState:
    p_PB: np.ndarray
    R_PB: np.ndarray
    v_PB: np.ndarray
    omega_B: np.ndarray
    theta: np.ndarray


def initial_state(p: LandingGearParams, alpha_SL: float, alpha_AZ: float) -> InitialState:
    """Level body above the slope origin, lowest foot ``clearance`` above the ground,
    descending at the reference rate."""
    theta = standing_angles(p)
    r_B, _ = feet_in_body(theta, np.zeros((4, 2)), np.array([p_BH(leg, p) for leg in LEGS]),
                          np.array([R_BL(leg) for leg in LEGS]), p.l_U, p.l_L)
    n = ground_normal_P(alpha_SL, alpha_AZ)
    h = (p.clearance - np.min(r_B @ n)) / n[1]
    return InitialState(np.array([0.0, h, 0.0]), np.eye(3), np.array([0.0, p.ydot_ref, 0.0]),
                        np.zeros(3), theta)


BODY = plant.ContactPoint("body", "body")  # where the thrust acts: the body's origin


def contact_points(p: LandingGearParams) -> list[plant.ContactPoint]:
    """The points the loop pushes on: the body (the thrust), then each foot, l_L along its
    lower leg (eq. 26's foot point)."""
    return [BODY, *(plant.ContactPoint(f"{leg}_foot", link, (p.l_L, 0.0, 0.0))
                    for leg, link in zip(LEGS, FOOT_LINKS, strict=True))]


def forces_W(F_PF: np.ndarray | None, F_th: float) -> np.ndarray:
    """The world forces on :func:`contact_points`: the thrust F_th along P's y, then the
    feet's forces F_PF (P axes; None: none)."""
    F_P = np.zeros((1 + len(LEGS), 3))
    F_P[0, 1] = F_th
    if F_PF is not None:
        F_P[1:] = F_PF
    return vec_W(F_P)


def forces_P(F: np.ndarray | None) -> tuple[np.ndarray, float]:
    """:func:`forces_W` undone: the feet's forces in P and the thrust (P's y of the
    body's force, the only body force the paper's model takes)."""
    if F is None:
        return np.zeros((len(LEGS), 3)), 0.0
    F_P = vec_P(F)
    return F_P[1:], float(F_P[0, 1])


class PaperFramePlant:
    """The contract's reads of a plant that keeps its state in P (the hand-rolled model,
    the reference on an engine's leg terms): the joints leg by leg, the body's centre and
    the feet in the world."""

    theta: np.ndarray
    thetad: np.ndarray
    observe: Callable[[], Observation]

    def joint_state(self) -> tuple[np.ndarray, np.ndarray]:
        return np.ravel(self.theta).copy(), np.ravel(self.thetad).copy()

    def points(self) -> tuple[np.ndarray, np.ndarray]:
        o = self.observe()
        return vec_W(np.vstack([o.p_PB, o.p_PF])), vec_W(np.vstack([o.v_PB, o.v_PF]))


class EnginePlant(plant.SimulationPlant):
    """An engine simulation seen through the paper's coordinates."""

    def __init__(self, sim, p: LandingGearParams) -> None:
        super().__init__(sim, contact_points(p))
        self.p = p

    def reset(self, s: InitialState) -> None:
        R_WB = R_WB_from_R_PB(s.R_PB)
        self.sim.reset(FloatingState(vec_W(s.p_PB), R_WB, vec_W(s.v_PB),
                                     R_WB @ vec_W(s.omega_B), s.theta.reshape(-1),
                                     np.zeros(8)))

    def observe(self) -> Observation:
        s = self.sim.state()
        R_PB = R_PB_from_R_WB(s.R_WB)
        P, V = self.points()  # the body and the four feet in one read
        return Observation(
            self.sim.time, vec_P(s.p_WB), R_PB, vec_P(s.v_WB_W),
            R_PB.T @ vec_P(s.w_WB_W), s.q.reshape(4, 2), s.qd.reshape(4, 2),
            vec_P(P[1:]), vec_P(V[1:]),
        )

    def observation(self, obs: np.ndarray) -> Observation:
        """:meth:`observe` of the state and the feet an engine's compiled chunk read after
        its last step, in P as the chunk turned them (compiled._observed: p_PB, R_PB row
        by row, v_PB, the angular velocity in P, theta, thetad, then the feet's positions
        and velocities; the numbers :meth:`observe` gives), without reading the engine
        again."""
        n = len(FOOT_LINKS)
        R_PB = obs[3:12].reshape(3, 3)
        return Observation(self.sim.time, obs[0:3], R_PB, obs[12:15], R_PB.T @ obs[15:18],
                           obs[18:18 + 2 * n].reshape(n, 2),
                           obs[18 + 2 * n:18 + 4 * n].reshape(n, 2),
                           obs[18 + 4 * n:18 + 7 * n].reshape(n, 3),
                           obs[18 + 7 * n:18 + 10 * n].reshape(n, 3))

    def native_foot_forces(self) -> np.ndarray:
        """The engine's own ground force on each foot, P axes."""
        return vec_P(self.native_forces()[1:])


class HandrolledPlant(PaperFramePlant, DecoupledLandingGear):
    """The hand-rolled model on the plant contract, reset as the engine plants are."""

    implementation = "handrolled"

    @property
    def dt(self) -> float:
        return self.p.dt

    def reset(self, s: InitialState) -> None:  # type: ignore[override]
        super().reset(s.p_PB, s.R_PB, s.v_PB, s.omega_B, s.theta, np.zeros((4, 2)))

    def step(self, tau: np.ndarray, F: np.ndarray | None) -> None:
        """One step under the joint torques tau (leg by leg) and the world forces F on
        :func:`contact_points`."""
        F_PF, F_th = forces_P(F)
        self.step_P(np.reshape(tau, (4, 2)), F_PF, F_th)


class LandingGearLoop:
    """Controller + contact + plant; ``contact`` is "shared" or "native".  ``fast`` (the
    default): :meth:`advance_many` runs the loop as compiled chunks with the shared contact
    law (the hand-rolled plant, and the engines where their compiled calls are at hand)
    and with an engine's own contact (where its contact list is at hand too); False:
    ``advance()`` step by step, the Python path, for every plant."""

    def __init__(self, plant, p: LandingGearParams, alpha_SL: float, alpha_AZ: float,
                 level_controller: bool, contact: str, forms: Forms, fast: bool = True
                 ) -> None:
        self.plant = plant
        self.fast = fast
        self._engine_chunks: EngineChunks | bool | None = None
        self.p = p
        self.implementation = plant.implementation
        self.contact_mode = contact
        self.law = SlopeContact(p.k, p.b, p.mu_S, p.mu_D, alpha_SL, alpha_AZ)
        self.controller = LandingGearController(p, level_controller, forms.level)
        law = self.law  # the constants compiled_inputs hands the chunks
        self._law_constants = np.array([law.k, law.b, law.mu_S, law.mu_D])
        self._thrust_constants = np.array([p.ydot_ref, p.C_thrust, p.thrust_ramp])
        self.t = 0.0
        self.obs = plant.observe()
        self.F_PF = np.zeros((4, 3))
        self.tau = np.zeros((4, 2))
        self.F_th = 0.0
        self._update_inputs()

    def _update_inputs(self) -> None:
        obs = self.obs
        if self.contact_mode == "shared":
            self.F_PF = self.law.forces(obs.p_PF, obs.v_PF)
        else:
            self.F_PF = self.plant.native_foot_forces()
        self._update_controls()

    def _update_controls(self) -> None:
        """The controllers' outputs from the observation and the foot forces."""
        obs = self.obs
        any_contact = bool(self.law.normal_forces(self.F_PF).max() > 0.0)
        self.tau = self.controller.joint_torques(obs, self.p.dt)
        self.F_th = self.controller.thrust(obs, any_contact)

    def advance(self) -> None:
        applied = self.F_PF if self.contact_mode == "shared" else None
        self.plant.step(np.ravel(self.tau), forces_W(applied, self.F_th))
        self.obs = self.plant.observe()
        self.t = self.obs.t
        self._update_inputs()

    def compiled_inputs(self) -> tuple:
        """The contact law's and the controllers' arrays as the compiled chunks read and
        update them (fastloop.update_inputs' ``shared``), gathered at each chunk: the
        stepwise controller may replace its arrays."""
        law, c = self.law, self.controller
        return (self._law_constants, law.R_SP, law.in_contact, law.anchor_pt, law.slipping,
                c.level_controller, c.int_e, c.int_theta, c.y_ref, c.theta_ref, c.pitch_sign,
                c._constants, self._thrust_constants)

    def _chunks(self) -> EngineChunks | None:
        """The engine plant's compiled chunks (``fast``, the engine's compiled calls at
        hand; the shared contact law, or the engine's own contact), made once; None: step
        by step in Python."""
        if self._engine_chunks is None:
            plant = self.plant
            native = self.contact_mode == "native"
            ok = self.fast and isinstance(plant, EnginePlant) and (
                EngineChunks.native_available(plant.sim) if native
                else EngineChunks.available(plant.sim))
            self._engine_chunks = EngineChunks(
                plant.sim, plant.point_links, plant.point_offsets, self.p.dt, self.p.m, self.p.g,
                native) if ok else False
        return self._engine_chunks or None

    def engine_points(self) -> tuple[list[str], np.ndarray] | None:
        """(links, offsets): the points an engine plant's compiled chunks read and push on
        each step (the benchmarks time the engine side of a step with them); None where
        the loop does not run as compiled engine chunks."""
        chunks = None if isinstance(self.plant, DecoupledLandingGear) else self._chunks()
        return chunks.points if chunks else None

    def advance_many(self, n: int) -> None:
        """``n`` calls of ``advance``; with ``fast`` and the shared contact law (or
        an engine's own contact), as compiled chunks: the hand-rolled plant by
        handrolled/landing_gear/fast/loop.py, the engines by
        comparisons/landing_gear/compiled.py (the same kernels and engine calls in the same
        order, the same floats)."""
        if n <= 0:
            return
        handrolled = isinstance(self.plant, DecoupledLandingGear)
        chunks = None if handrolled else self._chunks()
        if not (chunks or (self.fast and handrolled and self.contact_mode == "shared")):
            for _ in range(n):
                self.advance()
            return
        plant, c = self.plant, self.controller
        F_th = np.array([float(self.F_th)])
        t_touchdown = np.array([math.nan if c.t_touchdown is None else c.t_touchdown])
        tau = np.ascontiguousarray(self.tau, dtype=float)
        F_PF = np.ascontiguousarray(self.F_PF, dtype=float)
        if handrolled:
            t = np.array([plant.t])
            done, plant.state, tau, F_PF, p_PF, v_PF = fastloop.run_chunk(
                plant.state, t, tau, F_PF, F_th, plant.gear, self.compiled_inputs(),
                t_touchdown, n)
            plant.t = float(t[0])
            self.obs = plant.observation(p_PF, v_PF)
        else:
            done, tau, F_PF, obs = chunks.run(np.array([plant.sim.time]), tau, F_PF, F_th,
                                              self.compiled_inputs(), t_touchdown, n)
            self.obs = plant.observation(obs)
        c.t_touchdown = None if math.isnan(t_touchdown[0]) else float(t_touchdown[0])
        self.t, self.F_PF = self.obs.t, F_PF
        if done < 0:  # a reference foot out of reach: the stepwise controller names it
            self._update_controls()
            for _ in range(n + done):
                self.advance()
            return
        self.tau, self.F_th = tau, F_th[0]

    def signals(self) -> dict[str, float]:
        """The recorded signals (:data:`SIGNALS`) of the current observation."""
        obs = self.obs
        roll, pitch, yaw = attitude_angles(obs.R_PB)
        theta, tau = obs.theta.tolist(), np.asarray(self.tau).tolist()
        F_n = self.law.normal_forces(self.F_PF).tolist()
        F_y = np.asarray(self.F_PF)[:, 1].tolist()
        values = [roll, pitch, yaw, *obs.p_PB.tolist(), self.F_th]
        for i in range(len(LEGS)):
            for j in range(len(JOINTS)):
                values += (theta[i][j], tau[i][j])
            values += (F_n[i], F_y[i])
        return dict(zip(SIGNALS, values, strict=True))


def ground_for_native(p: LandingGearParams, alpha_SL: float, alpha_AZ: float) -> Ground:
    """The slope as an engine plane, shifted by the foot radius so that contact begins when
    the foot point reaches n = 0, as in eq. (26); each foot's apparent mass converts k, b
    for MuJoCo."""
    n_W = vec_W(ground_normal_P(alpha_SL, alpha_AZ))
    return Ground(n_W, -p.foot_radius * n_W, p.k, p.b, p.mu_S, None,
                  tuple(f"{leg}_foot" for leg in LEGS))


def make_plant(implementation: str, p: LandingGearParams, mass_model: str, contact: str,
               alpha_SL: float, alpha_AZ: float, forms: Forms, desc_dir: Path):
    """A plant of the named implementation, loading engine descriptions from desc_dir."""
    if implementation == "handrolled":
        theta0 = standing_angles(p)
        return HandrolledPlant(p, np.array([p_BH(leg, p) for leg in LEGS]),
                               np.array([R_BL(leg) for leg in LEGS]),
                               system_inertia(p, theta0), forms)
    ground = ground_for_native(p, alpha_SL, alpha_AZ) if contact == "native" else None
    return EnginePlant(plant.simulation(implementation, desc_dir, f"landing_gear_{mass_model}",
                                        JOINT_NAMES, p.dt, (0.0, 0.0, -p.g), ground,
                                        FOOT_LINKS), p)
