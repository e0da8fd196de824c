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

import numpy as np

from dynval.robots import Param, front_sign, side_sign
from dynval.robots.parameters import ParameterError, parameter_class, parameter_table

# Paper frame -> engine frame: x_W = z_P (forward), y_W = x_P (left), z_W = y_P (up).
R_WP = np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])

LEGS = ("LF", "LB", "RF", "RB")
JOINTS = ("hip", "knee")


@parameter_class
class LandingGearParams:
    """Every number the landing gear model uses, in SI units (angles of the slope in
    degrees, as Table 1 gives them), one field an entry of params.toml (value, unit,
    valid range, source)."""

    # --- fields of params.toml, in its order (python -m dynval.robots.generate)
    m_U: float  # [kg]
    m_L: float  # [kg]
    m: float  # [kg]
    l_U: float  # [m]
    l_L: float  # [m]
    D_x: float  # [m]
    D_y: float  # [m]
    D_z: float  # [m]
    T_max: float  # [N m]
    k: float  # [N/m]
    b: float  # [N s/m]
    mu_S: float
    mu_D: float
    ydot_ref: float  # [m/s]
    alpha_SL_deg: float  # [deg]
    alpha_AZ_deg: float  # [deg]
    g: float  # [m/s^2]
    K_P_joint: float  # [N m/rad]
    K_I_joint: float  # [N m/(rad s)]
    K_D_joint: float  # [N m s/rad]
    K_P_level: float  # [m/rad]
    K_I_level: float  # [m/(rad s)]
    C_thrust: float  # [N s/m]
    thrust_ramp: float  # [s]
    x_0: float  # [m]
    y_0: float  # [m]
    clearance: float  # [m]
    dt: float  # [s]
    duration: float  # [s]
    link_radius: float  # [m]
    foot_radius: float  # [m]
    point_inertia: float  # [kg m^2]
    # --- end of fields

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

    def check_relations(self) -> None:
        """The relations between parameters the model needs: a body left with positive
        mass and the initial foot position (x_0, y_0) within the leg's reach."""
        if self.m_B <= 0.0:
            raise ParameterError(
                f"landing_gear.m (total system mass) = {self.m:g} kg leaves the body no mass: "
                f"it must exceed the four legs' 4 (m_U + m_L) = "
                f"{4.0 * (self.m_U + self.m_L):g} kg")
        reach = math.hypot(self.x_0, self.y_0)
        if reach >= self.l_U + self.l_L:
            raise ParameterError(
                f"landing_gear.x_0, y_0 = {self.x_0:g} m, {self.y_0:g} m put the foot "
                f"{reach:g} m from the hip, out of the leg's reach l_U + l_L = "
                f"{self.l_U + self.l_L:g} m")


PARAMS = LandingGearParams()


def table(p: LandingGearParams = PARAMS) -> list[Param]:
    """The parameter table for the report appendix."""
    return parameter_table(p)


def body_inertia_P(p: LandingGearParams = PARAMS) -> np.ndarray:
    """Body-box inertia about its centre in paper axes [kg m^2]: a solid D_x x D_y x D_z
    box of the body mass m_B."""
    a, b, c = p.D_x, p.D_y, p.D_z
    return p.m_B / 12.0 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b])


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
