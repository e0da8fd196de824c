"""The landing gear's single-leg Lagrange equations (12)-(13) through dynval's model
protocol (``dynval.model``): one leg, hip and knee, on a fixed base
(:mod:`dynval.handrolled.landing_gear.single_leg`). ``dynval audit`` audits it against
``robots/landing_gear/landing_gear_leg_as_derived.urdf`` (or .xml) as it audits a user's
own model: the corrected eq. (12) passes; the printed hip gravity term (m_U - m_L) g l_U
cos(theta_h) is the erratum the audit finds."""

from __future__ import annotations

import numpy as np

from dynval.handrolled.landing_gear import single_leg
from dynval.robots.landing_gear.params import PARAMS, LandingGearParams


class LandingGearLeg:
    """q = (hip, knee) of the left front leg; ``form``: eq. (12)'s hip gravity term as
    printed or corrected."""

    joint_names = ("LF_hip", "LF_knee")

    def __init__(self, p: LandingGearParams = PARAMS, form: str = "corrected") -> None:
        self.p, self.printed = p, single_leg.is_printed(form)
        self._masses = (p.m_U, p.m_L, p.l_U, p.l_L)

    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        return single_leg.mass_matrix(float(q[1]), *self._masses)  # eqs. (12)-(13)

    def gravity(self, q: np.ndarray) -> np.ndarray:
        return single_leg.gravity_vector(float(q[0]), float(q[1]), *self._masses, self.p.g,
                                         self.printed)

    def bias(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        p = self.p
        return single_leg.coriolis_vector(float(q[1]), float(v[0]), float(v[1]), p.m_L, p.l_U,
                                          p.l_L) + self.gravity(q)

    def inverse_dynamics(self, q: np.ndarray, v: np.ndarray, vdot: np.ndarray) -> np.ndarray:
        return single_leg.joint_torques(np.asarray(q, float), np.asarray(v, float),
                                        np.asarray(vdot, float), *self._masses, self.p.g,
                                        self.printed)
