"""The paper's decoupled landing gear with each leg's dynamics from an engine: the
reference the hand-rolled scenario runs are judged against over the touchdown.

The hand-rolled model is the paper's decoupled model (a point mass m with inertia I at
the body centre, eqs. 1-9, and four fixed-base two-link legs, eqs. 12-14, whose foot
forces reach the body only through the ground); MuJoCo and PyBullet integrate the full
multibody, which differs from it by design (the legs' reaction on the body, their weight
in free fall) far beyond round-off. This plant is the same decoupled model written apart
from the hand-rolled code: each leg's mass matrix and bias (Coriolis and gravity) are an
engine's, read from the as-derived fixed-base leg description (the terms L2 audits), the
body's Newton-Euler equations are written here as r x F and I w' + w x I w, and the
attitude is turned by the rotation vector; the feet's kinematics (18)-(19), audited at
L1, and the closed loop (controller, the paper's contact law, thrust) are the shared
ones. It steps by the declared scheme (semi-implicit Euler) at the declared step, with
the declared parameters, so a wrong gain, contact constant, gravity form or step of the
hand-rolled model shows as a difference while the two implementations of the correct
model differ by round-off only."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.spatial.transform import Rotation

from dynval.comparisons.ladder import harness
from dynval.comparisons.landing_gear.audit import leg_engines
from dynval.comparisons.landing_gear.loop import (
    InitialState,
    LandingGearLoop,
    PaperFramePlant,
    forces_P,
    initial_state,
)
from dynval.comparisons.landing_gear.scenarios import WORKSPACE, Scenario
from dynval.engines import TERM_ENGINES
from dynval.handrolled.landing_gear import single_leg
from dynval.handrolled.landing_gear.model import Forms, standing_angles, system_inertia
from dynval.handrolled.landing_gear.state import Observation
from dynval.robots.landing_gear.params import LEGS, R_BL, LandingGearParams, p_BH

ENGINES = ("mujoco", "pybullet")  # the engines whose leg terms can drive the reference


class EngineLegsGear(PaperFramePlant):
    """The decoupled model stepped with an engine's fixed-base leg terms (module
    docstring), on the plant contract."""

    def __init__(self, p: LandingGearParams, desc_dir: Path, engine: str = "mujoco",
                 perturb: float = 0.0) -> None:
        terms = {t.name: t for t in leg_engines(desc_dir, p, (engine,))}  # that one only
        if engine not in terms:
            raise ValueError(f"no {engine} leg terms; use one of {', '.join(TERM_ENGINES)}")
        self.leg = terms[engine]
        self.name = self.implementation = f"{engine} leg terms"
        self.p, self.dt = p, p.dt
        self.p_BH = np.array([p_BH(leg, p) for leg in LEGS])
        self.R_BL = np.array([R_BL(leg) for leg in LEGS])
        self.I = np.diag(system_inertia(p, standing_angles(p)))
        self.perturb = perturb  # the start's relative change (a perturbed run)
        self.t = 0.0

    def reset(self, s: InitialState) -> None:
        self.t, k = 0.0, 1.0 + self.perturb
        self.p_PB = np.array(s.p_PB, dtype=float) * k
        self.R_PB = np.array(s.R_PB, dtype=float)
        self.v_PB = np.array(s.v_PB, dtype=float) * k
        self.omega_B = np.array(s.omega_B, dtype=float)
        self.theta = np.array(s.theta, dtype=float) * k
        self.thetad = np.zeros_like(self.theta)

    def _feet(self) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
        """The feet relative to the body and their rates (body axes), and each leg's
        foot Jacobian in its plane (eqs. 18-19)."""
        p = self.p
        r_B, rd_B, jacobians = [], [], []
        for i in range(len(LEGS)):
            h, k = self.theta[i]
            J = single_leg.jacobian(h, k, p.l_U, p.l_L)
            x, y = single_leg.forward_kinematics(h, k, p.l_U, p.l_L)
            r_B.append(self.p_BH[i] + self.R_BL[i] @ np.array([x, y, 0.0]))
            rd_B.append(self.R_BL[i] @ np.append(J @ self.thetad[i], 0.0))
            jacobians.append(J)
        return np.array(r_B), np.array(rd_B), jacobians

    def observe(self) -> Observation:
        r_B, rd_B, _ = self._feet()
        p_PF = self.p_PB + r_B @ self.R_PB.T
        v_PF = self.v_PB + (np.cross(self.omega_B, r_B) + rd_B) @ self.R_PB.T
        return Observation(self.t, self.p_PB.copy(), self.R_PB.copy(), self.v_PB.copy(),
                           self.omega_B.copy(), self.theta.copy(), self.thetad.copy(),
                           p_PF, v_PF)

    def step(self, tau: np.ndarray, F: np.ndarray | None) -> None:
        """One step under the joint torques tau (leg by leg) and the world forces F on
        the body and the feet (loop.contact_points)."""
        F_PF, F_th = forces_P(F)
        tau = np.reshape(tau, (4, 2))
        p, dt = self.p, self.dt
        r_B, _, jacobians = self._feet()
        F_B = F_PF @ self.R_PB  # each foot force in body axes
        a = (F_PF.sum(axis=0) + np.array([0.0, F_th - p.m * p.g, 0.0])) / p.m
        M = np.cross(r_B, F_B).sum(axis=0)
        w = self.omega_B
        wd = np.linalg.solve(self.I, M - np.cross(w, self.I @ w))
        thetadd = np.empty_like(self.theta)
        for i in range(len(LEGS)):
            F_L = (self.R_BL[i].T @ F_B[i])[:2]  # the foot force in the leg's plane
            rhs = tau[i] + jacobians[i].T @ F_L - self.leg.bias(self.theta[i], self.thetad[i])
            thetadd[i] = np.linalg.solve(self.leg.mass_matrix(self.theta[i]), rhs)
        self.v_PB = self.v_PB + a * dt
        self.omega_B = w + wd * dt
        self.thetad = self.thetad + thetadd * dt
        self.p_PB = self.p_PB + self.v_PB * dt
        self.R_PB = self.R_PB @ Rotation.from_rotvec(self.omega_B * dt).as_matrix()
        self.theta = self.theta + self.thetad * dt
        self.t += dt


def run_reference(p: LandingGearParams, sc: Scenario, desc_dir: Path, until: float,
                  engine: str = "mujoco", perturb: float = 0.0) -> pd.DataFrame:
    """Wide trace of the reference in one scenario over its first ``until`` seconds, with
    the paper's contact law and the corrected equations (1 kHz, as the scenario runs);
    ``perturb``: the start's height, descent rate and leg angles moved by that fraction of
    themselves."""
    aSL, aAZ = math.radians(sc.alpha_SL_deg), math.radians(sc.alpha_AZ_deg)
    plant = EngineLegsGear(p, desc_dir, engine, perturb)
    plant.reset(initial_state(p, aSL, aAZ))
    loop = LandingGearLoop(plant, p, aSL, aAZ, sc.level_controller, "shared", Forms(),
                           fast=False)
    record_every = max(1, int(round(1e-3 / p.dt)))
    return harness.run(loop, harness.run_length(until, None), p.dt, record_every,
                       workspace=WORKSPACE)
