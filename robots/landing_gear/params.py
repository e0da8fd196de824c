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
from typing import ClassVar

import numpy as np

from dynval.robots import Param, front_sign, side_sign
from dynval.robots.parameters import ParameterError, param, parameter_table

# Paper frame -> engine frame: x_W = z_P (forward), y_W = x_P (left), z_W = y_P (up).
R_WP = np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])

LEGS = ("LF", "LB", "RF", "RB")
JOINTS = ("hip", "knee")
MASS_MODELS = ("as_derived", "as_built")


@dataclass(frozen=True)
class LandingGearParams:
    """Every number the landing gear model uses, in SI units (angles of the slope in
    degrees, as Table 1 gives them), each with its unit, valid range and source."""

    ROBOT: ClassVar[str] = "landing_gear"

    # Table 1
    m_U: float = param(0.10, "kg", "(0, inf)", "Table 1", "upper link mass")
    m_L: float = param(0.15, "kg", "(0, inf)", "Table 1", "lower link mass")
    m: float = param(3.5, "kg", "(0, inf)", "Table 1", "total system mass")
    l_U: float = param(0.0935, "m", "(0, inf)", "Table 1", "upper link length")
    l_L: float = param(0.1045, "m", "(0, inf)", "Table 1", "lower link length")
    D_x: float = param(0.10, "m", "(0, inf)", "Table 1", "body size along x_P (lateral)")
    D_y: float = param(0.20, "m", "(0, inf)", "Table 1", "body size along y_P (vertical)")
    D_z: float = param(0.20, "m", "(0, inf)", "Table 1", "body size along z_P (longitudinal)")
    T_max: float = param(1.76, "N m", "(0, inf)", "Table 1",
                         "motor torque limit (18 kgf cm)")
    k: float = param(1500.0, "N/m", "(0, inf)", "Table 1", "contact spring")
    b: float = param(40.0, "N s/m", "[0, inf)", "Table 1", "contact damper")
    mu_S: float = param(0.8, "-", "[0, inf)", "Table 1", "static friction coefficient")
    mu_D: float = param(0.5, "-", "[0, inf)", "Table 1", "dynamic friction coefficient")
    ydot_ref: float = param(-0.25, "m/s", "(-inf, 0)", "Table 1",
                            "descent rate (negative: down)")
    alpha_SL_deg: float = param(20.0, "deg", "[0, 90)", "Table 1", "slope inclination")
    alpha_AZ_deg: float = param(30.0, "deg", "[-180, 180]", "Table 1", "slope azimuth")
    g: float = param(9.81, "m/s^2", "(0, inf)", "standard gravity", "gravity")
    # Table 2
    K_P_joint: float = param(50.0, "N m/rad", "(-inf, inf)", "Table 2", "joint PID gain, P")
    K_I_joint: float = param(30.0, "N m/(rad s)", "(-inf, inf)", "Table 2", "joint PID gain, I")
    K_D_joint: float = param(4.5, "N m s/rad", "(-inf, inf)", "Table 2", "joint PID gain, D")
    K_P_level: float = param(0.14, "m/rad", "(-inf, inf)", "Table 2", "level PI gain, P")
    K_I_level: float = param(1.4, "m/(rad s)", "(-inf, inf)", "Table 2", "level PI gain, I")
    # ASSUMPTIONS (not in the paper)
    C_thrust: float = param(
        20.0, "N s/m", "(-inf, inf)", "assumption: the paper gives no value for C in eq. (10)",
        "thrust gain of eq. (10); m/C = 0.18 s descent time constant")
    thrust_ramp: float = param(
        0.5, "s", "(0, inf)",
        "assumption: eq. (10) would carry the weight after landing; thrust is cut",
        "thrust ramps to zero over this time after first touchdown")
    x_0: float = param(0.07, "m", "[0, inf)", "assumption: the fixed x of eq. (15) is not given",
                       "fixed horizontal hip-foot distance of eq. (15)")
    y_0: float = param(
        0.12, "m", "(0, inf)",
        "assumption: the initial leg height of eqs. (21)-(24) is not given",
        "initial leg height (hip above foot) of eqs. (21)-(24)")
    clearance: float = param(0.02, "m", "[0, inf)",
                             "assumption: initial height h_0 of Fig. 3 is not given",
                             "initial height of the lowest foot above the ground")
    dt: float = param(
        1e-4, "s", "[1e-7, inf)",
        "assumption: fixed step, stable for the Table 2 joint gains with the as-derived "
        "masses; the error budget runs at dt/2, which MuJoCo's native contact on the "
        "as-built legs needs",
        "step; the joint PD pole K_D/(m_L l_L^2) ~ 2800 1/s needs dt < 0.7 ms")
    duration: float = param(6.0, "s", "(0, inf)",
                            "assumption: long enough for every signal to settle",
                            "simulated time of a landing")
    link_radius: float = param(0.008, "m", "(0, inf)",
                               "assumption: as-built links are solid rods of this radius",
                               "radius of the as-built rod links")
    foot_radius: float = param(0.005, "m", "(0, inf)",
                               "assumption: native-contact foot sphere",
                               "radius of the foot sphere used by native contact")
    point_inertia: float = param(
        1e-14, "kg m^2", "(0, inf)",
        "engines need a positive inertia; 1e-14 kg m^2 is <1e-11 of any M(q) entry",
        "inertia given to point masses; engines reject zero")

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
