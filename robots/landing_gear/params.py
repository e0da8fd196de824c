"""Landing gear parameters: the single source of truth for the hand-rolled model,
the MJCF and the URDF (Melia Boix, Goh, McWhinnie; Tables 1 and 2).

Values the paper does not state are marked ASSUMPTION with the reason; the report's
parameter appendix prints this module's table.

Frames (see FRAMES.md):
  P  paper world frame, y up (eqs. 1-3); x to the robot's left, z forward.
  B  body frame, same axes as P when the body is level (roll = theta_z, pitch = theta_x).
  L_i leg frame of leg i: x_L outward, y_L = y_B, z_L = x_L x y_L, the joint axis; the
     paper's single-leg model (eqs. 12-19) lives in this plane.
  W  engine world frame, z up, x forward, y left.  v_W = R_WP v_P.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from robots import Param, front_sign, side_sign

# Paper frame -> engine frame: x_W = z_P (forward), y_W = x_P (left), z_W = y_P (up).
R_WP = np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])

LEGS = ("LF", "LB", "RF", "RB")
JOINTS = ("hip", "knee")
MASS_MODELS = ("as_derived", "as_built")


@dataclass(frozen=True)
class LandingGearParams:
    """Every number the landing gear model uses, in SI units."""

    # Table 1
    m_U: float = 0.10  # upper link mass [kg]
    m_L: float = 0.15  # lower link mass [kg]
    m: float = 3.5  # total system mass [kg]
    l_U: float = 0.0935  # upper link length [m]
    l_L: float = 0.1045  # lower link length [m]
    D_x: float = 0.10  # body size along x_P (lateral) [m]
    D_y: float = 0.20  # body size along y_P (vertical) [m]
    D_z: float = 0.20  # body size along z_P (longitudinal) [m]
    T_max: float = 1.76  # motor torque limit [N m] (18 kgf cm)
    k: float = 1500.0  # contact spring [N/m]
    b: float = 40.0  # contact damper [N s/m]
    mu_S: float = 0.8  # static friction coefficient [-]
    mu_D: float = 0.5  # dynamic friction coefficient [-]
    ydot_ref: float = -0.25  # descent rate [m/s]
    alpha_SL_deg: float = 20.0  # slope inclination [deg]
    alpha_AZ_deg: float = 30.0  # slope azimuth [deg]
    g: float = 9.81  # gravity [m/s^2]
    # Table 2
    K_P_joint: float = 50.0  # [N m/rad]
    K_I_joint: float = 30.0  # [N m/(rad s)]
    K_D_joint: float = 4.5  # [N m s/rad]
    K_P_level: float = 0.14  # [m/rad]
    K_I_level: float = 1.4  # [m/(rad s)]
    # ASSUMPTIONS (not in the paper)
    C_thrust: float = 20.0  # thrust gain of eq. (10) [N s/m]; m/C = 0.18 s descent time constant
    thrust_ramp: float = 0.5  # thrust ramps to zero over this time after first touchdown [s]
    x_0: float = 0.07  # fixed horizontal hip-foot distance of eq. (15) [m]
    y_0: float = 0.12  # initial leg height (hip above foot) of eqs. (21)-(24) [m]
    clearance: float = 0.02  # initial height of the lowest foot above the ground [m]
    dt: float = 1e-4  # step [s]: the joint PD pole K_D/(m_L l_L^2) ~ 2800 1/s needs dt < 0.7 ms
    duration: float = 6.0  # simulated time of a landing [s]
    link_radius: float = 0.008  # radius of the as-built rod links [m]
    foot_radius: float = 0.005  # radius of the foot sphere used by native contact [m]
    point_inertia: float = 1e-14  # inertia given to point masses; engines reject zero [kg m^2]

    @property
    def m_B(self) -> float:
        """Body mass: the total mass less four legs [kg]."""
        return self.m - 4.0 * (self.m_U + self.m_L)

    @property
    def alpha_SL(self) -> float:
        return math.radians(self.alpha_SL_deg)

    @property
    def alpha_AZ(self) -> float:
        return math.radians(self.alpha_AZ_deg)

    def with_(self, **changes: float) -> LandingGearParams:
        """A copy with some values changed (used by sweeps and the regression test)."""
        return replace(self, **changes)


PARAMS = LandingGearParams()

SOURCES: dict[str, str] = {
    "m_U": "Table 1",
    "m_L": "Table 1",
    "m": "Table 1",
    "l_U": "Table 1",
    "l_L": "Table 1",
    "D_x": "Table 1",
    "D_y": "Table 1",
    "D_z": "Table 1",
    "T_max": "Table 1",
    "k": "Table 1",
    "b": "Table 1",
    "mu_S": "Table 1",
    "mu_D": "Table 1",
    "ydot_ref": "Table 1",
    "alpha_SL_deg": "Table 1",
    "alpha_AZ_deg": "Table 1",
    "g": "standard gravity",
    "K_P_joint": "Table 2",
    "K_I_joint": "Table 2",
    "K_D_joint": "Table 2",
    "K_P_level": "Table 2",
    "K_I_level": "Table 2",
    "C_thrust": "assumption: the paper gives no value for C in eq. (10)",
    "thrust_ramp": "assumption: eq. (10) would carry the weight after landing; thrust is cut",
    "x_0": "assumption: the fixed x of eq. (15) is not given",
    "y_0": "assumption: the initial leg height of eqs. (21)-(24) is not given",
    "clearance": "assumption: initial height h_0 of Fig. 3 is not given",
    "dt": "assumption: fixed step, stable for the Table 2 joint gains with the as-derived "
    "masses; the error budget runs at dt/2, which MuJoCo's native contact on the as-built "
    "legs needs",
    "duration": "assumption: long enough for every signal to settle",
    "link_radius": "assumption: as-built links are solid rods of this radius",
    "foot_radius": "assumption: native-contact foot sphere",
    "point_inertia": "engines need a positive inertia; 1e-14 kg m^2 is <1e-11 of any M(q) entry",
}

UNITS: dict[str, str] = {
    "m_U": "kg", "m_L": "kg", "m": "kg", "l_U": "m", "l_L": "m", "D_x": "m", "D_y": "m",
    "D_z": "m", "T_max": "N m", "k": "N/m", "b": "N s/m", "mu_S": "-", "mu_D": "-",
    "ydot_ref": "m/s", "alpha_SL_deg": "deg", "alpha_AZ_deg": "deg", "g": "m/s^2",
    "K_P_joint": "N m/rad", "K_I_joint": "N m/(rad s)", "K_D_joint": "N m s/rad",
    "K_P_level": "m/rad", "K_I_level": "m/(rad s)", "C_thrust": "N s/m", "thrust_ramp": "s",
    "x_0": "m", "y_0": "m", "clearance": "m", "dt": "s", "duration": "s", "link_radius": "m",
    "foot_radius": "m", "point_inertia": "kg m^2",
}


def table(p: LandingGearParams = PARAMS) -> list[Param]:
    """The parameter table for the report appendix."""
    return [Param(k, float(getattr(p, k)), UNITS[k], SOURCES[k]) for k in SOURCES]



def p_BH(leg: str, p: LandingGearParams = PARAMS) -> np.ndarray:
    """Hip position in the body frame, paper axes [m].

    ASSUMPTION: the hips sit on the side faces of the D_x x D_y x D_z body box at the
    height of the body centre, D_z apart fore and aft.
    """
    return np.array([side_sign(leg) * p.D_x / 2, 0.0, front_sign(leg) * p.D_z / 2])


def R_BL(leg: str) -> np.ndarray:
    """Leg frame in the body frame (paper axes): identity for left legs, a half turn
    about y_B for right legs, so every leg's eqs. (12)-(19) read the same."""
    s = side_sign(leg)
    return np.diag([s, 1.0, s])
