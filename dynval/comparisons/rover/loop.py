"""The rover closed loop for each implementation: the same wheel-soil law and the same
motor and steering code read each implementation's state (thesis coordinates, frame 0).

simcore.m's order within one 1 ms step: wheel forces from the current torques (slip by
bisection), the dynamics step, the PD power update every 100th step (10 Hz), then new
wheel torques from the wheel powers, the slips and the wheel speeds of this step.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from dynval.comparisons.harness import DivergenceError
from dynval.comparisons.rover.frames import (
    R_0W,
    pose_from_q,
    q_from_pose,
    qd_from_velocity,
    velocity_from_q,
)
from dynval.engines.base import FloatingState, PointForce
from dynval.handrolled.rover.control import PowerSteering
from dynval.handrolled.rover.model import HandRolledRover
from dynval.handrolled.rover.wheel_contact import DIAGNOSTICS, N_DIAG, wheel_contact
from dynval.handrolled.so3 import rot_z
from dynval.robots.rover.model_description import (
    description_stem,
    hub_site,
    segment_name,
    turning_joint_name,
)
from dynval.robots.rover.params import R_W0, SIDES, RoverParams, hub_positions

DIAG = {name: k for k, name in enumerate(DIAGNOSTICS)}


class HandrolledPlant:
    """The hand-rolled model behind the plant interface of the loop."""

    name = "handrolled"

    def __init__(self, p: RoverParams, soil: tuple, rigid: bool, wheel_form: str = "corrected",
                 integrator: str = "euler") -> None:
        self.model = HandRolledRover(p, soil, wheel_form, integrator, rigid)
        self.dt = p.dt
        self.t = 0.0

    def reset(self, q: np.ndarray, qd: np.ndarray) -> None:
        self.model.reset(q, qd)
        self.t = 0.0

    def state(self) -> tuple[np.ndarray, np.ndarray]:
        return self.model.q, self.model.qd

    def wheel_state(self, T_cmd: np.ndarray) -> np.ndarray:
        return self.model.wheel_state(T_cmd)

    def advance(self, T_cmd: np.ndarray) -> np.ndarray:
        diag = self.model.advance(T_cmd, self.dt)
        self.t += self.dt
        return diag


class EnginePlant:
    """An engine simulation seen through the thesis' coordinates; the wheel forces come
    from :func:`wheel_contact` on the engine's own hub states and act at the hubs."""

    def __init__(self, sim, p: RoverParams, soil: tuple) -> None:
        self.sim = sim
        self.p = p
        self.soil = soil
        self.name = sim.name
        n = p.n_segments
        self.links = [segment_name(i, n) for i in range(1, n + 1)]
        self.hubs = [[hub_positions(p, i)[s] for s in SIDES] for i in range(1, n + 1)]
        self.n_turning = len(sim.state().q)
        self.heading = 0.0  # last heading q6, unwrapped: the engine pose gives it mod 2 pi

    @property
    def t(self) -> float:
        return self.sim.time

    def reset(self, q: np.ndarray, qd: np.ndarray) -> None:
        p_W6, R_W6 = pose_from_q(q)
        v_W6, w_W6 = velocity_from_q(q, qd)
        k = self.n_turning
        self.heading = q[5]
        self.sim.reset(FloatingState(p_W6, R_W6, v_W6, w_W6, q[6:6 + k].copy(),
                                     qd[6:6 + k].copy()))

    def state(self) -> tuple[np.ndarray, np.ndarray]:
        s = self.sim.state()
        q6 = q_from_pose(s.p_WB, s.R_WB)
        # the hand-rolled q6 is a joint and winds past +-pi on a circle; follow it
        q6[5] = self.heading + (q6[5] - self.heading + math.pi) % (2.0 * math.pi) - math.pi
        self.heading = q6[5]
        qd6 = qd_from_velocity(q6, s.v_WB_W, s.w_WB_W)
        n_t = self.p.n_segments - 1
        q = np.zeros(6 + n_t)
        qd = np.zeros(6 + n_t)
        q[:6], qd[:6] = q6, qd6
        q[6:6 + len(s.q)], qd[6:6 + len(s.q)] = s.q, s.qd
        return q, qd

    def wheel_state(self, T_cmd: np.ndarray) -> np.ndarray:
        return self._wheel_forces(T_cmd)[0]

    def advance(self, T_cmd: np.ndarray) -> np.ndarray:
        diag, forces = self._wheel_forces(T_cmd)
        self.sim.step(np.zeros(self.n_turning), forces)
        return diag

    def _wheel_forces(self, T_cmd: np.ndarray) -> tuple[np.ndarray, list[PointForce]]:
        """Diagnostics and hub forces of every wheel at the engine's current state."""
        s = self.sim.state()
        diag = np.zeros((len(self.links), 2, N_DIAG))
        forces = []
        R_W = s.R_WB
        for i, link in enumerate(self.links):
            if i > 0 and len(s.q) >= i:
                R_W = R_W @ rot_z(s.q[i - 1])
            R_0link = R_0W @ R_W
            for j in range(2):
                p_W, v_W = self.sim.point(link, self.hubs[i][j])
                F_0, diag[i, j] = wheel_contact(R_0W @ p_W, R_0link, R_0W @ v_W, T_cmd[i, j],
                                                self.p.r, self.p.b, self.p.D, self.soil)
                forces.append(PointForce(link, self.hubs[i][j], R_W0 @ F_0))
        return diag, forces


def make_plant(implementation: str, p: RoverParams, soil: tuple, rigid: bool,
               desc_dir: Path, wheel_form: str = "corrected", integrator: str = "euler"):
    """A plant of the named implementation, loading engine descriptions from desc_dir."""
    if implementation == "handrolled":
        return HandrolledPlant(p, soil, rigid, wheel_form, integrator)
    stem = description_stem("rover_rigid" if rigid else "rover", p.rover)
    joints = [] if rigid else [turning_joint_name(i) for i in range(1, p.n_segments)]
    if implementation == "mujoco":
        from dynval.engines.mujoco_engine import MujocoSimulation

        sim = MujocoSimulation(desc_dir / f"{stem}.xml", joints, p.dt, (0.0, 0.0, -p.g))
    elif implementation == "pybullet":
        from dynval.engines.pybullet_engine import PybulletSimulation

        sim = PybulletSimulation(desc_dir / f"{stem}.urdf", joints, p.dt, (0.0, 0.0, -p.g))
    else:
        raise ValueError(f"unknown implementation {implementation!r}")
    return EnginePlant(sim, p, soil)


class WheelLeftSoilError(DivergenceError):
    """A wheel lost contact with the soil: the wheel-soil law no longer applies."""


class RoverLoop:
    """Plant + wheel drive (torque from power) + optional PD steering (5.2)-(5.3)."""

    def __init__(self, plant, p: RoverParams, T0: np.ndarray, P0: np.ndarray | None,
                 steering: PowerSteering | None) -> None:
        self.plant = plant
        self.p = p
        self.implementation = plant.name
        self.T = np.array(T0, dtype=float)
        self.P = None if P0 is None else np.array(P0, dtype=float)
        self.steering = steering
        self.k = 0
        self.t = 0.0
        self.diag = plant.wheel_state(self.T)
        self.q, self.qd = plant.state()

    def advance(self) -> None:
        self.diag = self.plant.advance(self.T)
        out = np.argwhere(self.diag[:, :, DIAG["sinkage"]] <= 0.0)
        if len(out):
            i, j = out[0]
            raise WheelLeftSoilError(
                f"{self.implementation}: wheel {segment_name(i + 1, self.p.n_segments)}_"
                f"{SIDES[j]} left the soil at t = {self.plant.t:.3f} s (the thesis stops its "
                "simulation there too)")
        self.k += 1
        self.t = self.plant.t
        self.q, self.qd = self.plant.state()
        if self.P is None:
            return  # constant-torque drive
        if self.steering is not None and self.k % self.steering.every == 0:
            self.P = self.steering.powers(self.t, self.q, self.qd)
        self.T = self.steering_torques()

    def steering_torques(self) -> np.ndarray:
        from dynval.handrolled.rover.terramechanics import torque_from_power

        d = self.diag
        T = np.empty_like(self.T)
        for i in range(T.shape[0]):
            for j in range(2):
                T[i, j] = torque_from_power(self.P[i, j], d[i, j, DIAG["slip"]],
                                            d[i, j, DIAG["v_x"]], self.p.r)
        return T

    def signals(self) -> dict[str, float]:
        q, qd = self.q, self.qd
        out = {"rover.x": -q[0], "rover.y": q[2], "rover.height": q[1],
               "rover.pitch": q[3], "rover.roll": q[4], "rover.heading": q[5],
               "rover.speed": float(np.hypot(qd[0], qd[2])),
               "rover.heading_rate": qd[5]}
        for i in range(1, self.p.n_segments):
            out[f"joint.{turning_joint_name(i)}.angle"] = q[5 + i]
            out[f"joint.{turning_joint_name(i)}.rate"] = qd[5 + i]
        n = self.p.n_segments
        for i in range(n):
            for j, side in enumerate(SIDES):
                w = f"wheel.{segment_name(i + 1, n)}_{side}"
                d = self.diag[i, j]
                out[f"{w}.sinkage"] = d[DIAG["sinkage"]]
                out[f"{w}.slip"] = d[DIAG["slip"]]
                out[f"{w}.slip_angle"] = d[DIAG["beta"]]
                out[f"{w}.force.x"] = d[DIAG["Fx"]]
                out[f"{w}.force.y"] = d[DIAG["Fy"]]
                out[f"{w}.force.z"] = d[DIAG["Fz"]]
                out[f"{w}.torque"] = self.T[i, j]
                if self.P is not None:
                    out[f"{w}.power"] = self.P[i, j]
        return out


__all__ = ["EnginePlant", "HandrolledPlant", "RoverLoop", "hub_site", "make_plant"]
