"""The simulated hopper: the planar chain (x, z, pitch, hip, leg) of
``dynval.handrolled.hopper.chain``, eq. (19) solved for the accelerations with the recursive terms,
stepped by semi-implicit Euler as MuJoCo and PyBullet step (velocity first, then position),
so that the three implementations differ in their dynamics only."""

from __future__ import annotations

import numpy as np

from dynval.handrolled.hopper import chain, soa
from dynval.handrolled.hopper.recursive import Recursive
from dynval.robots.hopper.params import HopperParams

# planar coordinates: body x, body z, pitch phi, hip theta_1, leg length r
COORDS = ("x", "z", "phi", "theta_1", "r")


class PlanarHopper:
    """Eq. (19) for the planar chain on the ground: M q_dd + C + M_b (-g) + J^T F_t = tau,
    with tau = (0, 0, 0, hip torque, leg force) and F_t = -(ground force on the foot)."""

    name = "handrolled"

    def __init__(self, p: HopperParams, form: soa.Form = "corrected",
                 terms: str = "recursive") -> None:
        """``form``: the bias a_k of eq. (12) "corrected" or as "printed" (soa.Form);
        ``terms``: "recursive" (the compiled recursions, the default) or "operator" (the
        literal products of eq. 19, the paper's method, 60 times slower)."""
        if form not in soa.FORMS:
            raise ValueError(f"unknown form {form!r}; use printed or corrected")
        if terms not in ("recursive", "operator"):
            raise ValueError(f"unknown terms {terms!r}; use recursive or operator")
        self.p = p
        self.form = form
        self.operator = terms == "operator"
        self.terms = Recursive(chain.planar(p))
        self.Vd_base = soa.gravity_acceleration(p.g)
        self.q = np.zeros(5)
        self.qd = np.zeros(5)
        self.time = 0.0
        self._foot = self.terms.tip(self.q, self.qd)

    def reset(self, q: np.ndarray, qd: np.ndarray) -> None:
        self.q = np.array(q, float)
        self.qd = np.array(qd, float)
        self.time = 0.0
        self._foot = self.terms.tip(self.q, self.qd)

    def foot(self) -> tuple[np.ndarray, np.ndarray]:
        """Foot position and velocity, world axes."""
        return self._foot

    def accelerations(self, tau_hip: float, F_leg: float, F_foot: np.ndarray) -> np.ndarray:
        """q_dd from the operator products of eq. (19) with the ground force F_foot (world,
        at the foot)."""
        tau = np.array([0.0, 0.0, 0.0, tau_hip, F_leg])
        F_t = np.zeros(6)
        F_t[3:] = -np.asarray(F_foot, float)
        t = soa.terms(self.terms.chain, self.q, self.qd, form=self.form)  # eq. (19)
        return np.linalg.solve(t.M, tau - t.C - t.M_b @ self.Vd_base - t.J.T @ F_t)

    def step(self, tau_hip: float, F_leg: float, F_foot: np.ndarray) -> None:
        """One semi-implicit Euler step (one compiled call for the recursive terms)."""
        if self.operator:
            qdd = self.accelerations(tau_hip, F_leg, F_foot)
            self.qd = self.qd + self.p.dt * qdd
            self.q = self.q + self.p.dt * self.qd
            self.time += self.p.dt
            self._foot = self.terms.tip(self.q, self.qd)
            return
        F_t = np.zeros(6)
        F_t[3:] = -np.asarray(F_foot, float)
        self.q, self.qd, *self._foot = self.terms.euler_step(
            self.q, self.qd, np.array([0.0, 0.0, 0.0, tau_hip, F_leg]), self.Vd_base, F_t,
            self.p.dt, self.form == "printed")
        self.time += self.p.dt

    def energy(self, q: np.ndarray, qd: np.ndarray) -> float:
        """Kinetic plus gravitational energy of the chain at (q, qd) [J] (springs apart)."""
        M, _ = self.terms.mass_and_jacobian(q)
        fr = soa.frames(self.terms.chain, q)
        z_c = fr.p[:, 2] + fr.l_c[:, 2]
        return 0.5 * qd @ M @ qd + self.p.g * float(self.terms.chain.mass @ z_c)
