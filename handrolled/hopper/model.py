"""The simulated hopper: the planar chain (x, z, pitch, hip, leg) of
``dynval.handrolled.hopper.chain``, eq. (19) solved for the accelerations with its terms as
the paper builds them (the operator products of ``soa``), stepped by semi-implicit Euler as
MuJoCo and PyBullet step (velocity first, then position), so that the three
implementations differ in their dynamics only. The compiled recursions that step it fast
are its copy in ``handrolled/hopper/fast``."""

from __future__ import annotations

import numpy as np

from dynval.handrolled.hopper import chain, soa
from dynval.handrolled.so3 import cross
from dynval.robots.hopper.params import HopperParams

# planar coordinates: body x, body z, pitch phi, hip theta_1, leg length r
COORDS = ("x", "z", "phi", "theta_1", "r")


class PlanarHopper:
    """Eq. (19) for the planar chain on the ground: M q_dd + C + M_b (-g) + J^T F_t = tau,
    with tau = (0, 0, 0, hip torque, leg force) and F_t = -(ground force on the foot)."""

    name = "handrolled"

    def __init__(self, p: HopperParams, form: soa.Form = "corrected") -> None:
        """``form``: the bias a_k of eq. (12) "corrected" or as "printed" (soa.Form)."""
        soa.check_form(form)
        self.p = p
        self.form = form
        self.chain = chain.planar(p)
        self.Vd_base = soa.gravity_acceleration(p.g)
        self.q = np.zeros(5)
        self.qd = np.zeros(5)
        self.time = 0.0
        self._foot = self.tip(self.q, self.qd)

    def reset(self, q: np.ndarray, qd: np.ndarray) -> None:
        self.q = np.array(q, float)
        self.qd = np.array(qd, float)
        self.time = 0.0
        self._foot = self.tip(self.q, self.qd)

    def tip(self, q: np.ndarray, qd: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The foot's position and velocity, world axes: the frames outward and the link
        velocities of eq. (3), carried from the last link's origin to the tip."""
        fr = soa.frames(self.chain, q)
        V = soa.velocities(self.chain, fr, qd, np.zeros(6), "corrected")[-1]  # eq. (3)
        return fr.tip, V[3:] + cross(V[:3], fr.l_t)

    def foot(self) -> tuple[np.ndarray, np.ndarray]:
        """Foot position and velocity, world axes."""
        return self._foot

    def accelerations(self, tau_hip: float, F_leg: float, F_foot: np.ndarray) -> np.ndarray:
        """q_dd from the operator products of eq. (19) with the ground force F_foot (world,
        at the foot)."""
        tau = np.array([0.0, 0.0, 0.0, tau_hip, F_leg])
        F_t = np.zeros(6)
        F_t[3:] = -np.asarray(F_foot, float)
        t = soa.terms(self.chain, self.q, self.qd, form=self.form)  # eq. (19)
        return np.linalg.solve(t.M, tau - t.C - t.M_b @ self.Vd_base - t.J.T @ F_t)

    def step(self, tau_hip: float, F_leg: float, F_foot: np.ndarray) -> None:
        """One semi-implicit Euler step."""
        qdd = self.accelerations(tau_hip, F_leg, F_foot)
        self.qd = self.qd + self.p.dt * qdd
        self.q = self.q + self.p.dt * self.qd
        self.time += self.p.dt
        self._foot = self.tip(self.q, self.qd)

    def energy(self, q: np.ndarray, qd: np.ndarray) -> float:
        """Kinetic plus gravitational energy of the chain at (q, qd) [J] (springs apart)."""
        M = soa.terms(self.chain, q, qd).M  # eq. (19)
        fr = soa.frames(self.chain, q)
        z_c = fr.p[:, 2] + fr.l_c[:, 2]
        return 0.5 * qd @ M @ qd + self.p.g * float(self.chain.mass @ z_c)
