"""Hexapod parameters: the single source of truth for the hand-rolled Lagrange model, the
MJCF and the URDF (M. F. Silva, J. A. Tenreiro Machado, A. M. Lopes, "Modelling and
simulation of artificial locomotion systems", Robotica 23, 2005).

Table I (robot, locomotion and ground parameters), Table II (ground parameters of seven
soils) and Table IV (controller gains) are the sources; the text of the extracted PDF is
partly garbled, and each field whose cell is garbled says which reading it takes and why
(``READING``). What the paper does not give is marked ``ASSUMPTION`` with its reason.

Frames (see FRAMES.md): the paper's planar world (x forward, y up) is the engine's x-z plane
(x forward, z up); the paper's y becomes the engine's z. Planar angles are counter-clockwise
in the paper's x-y plane drawn with x to the right, i.e. about the engine's -y axis.
"""

from __future__ import annotations

import math

from dynval.robots import Param
from dynval.robots.parameters import ParameterError, parameter_class, parameter_table, spec


@parameter_class
class HexapodParams:
    """The hexapod's numbers, one field an entry of params.toml (SI units), and what Sec. II
    derives from them: the cycle, transfer and support times of the gait and the body's
    segments and masses."""

    # --- fields of params.toml, in its order (python -m dynval.robots.generate)
    n: int
    S_P: float  # [m]
    O_i: float  # [m]
    L_i1: float  # [m]
    L_i2: float  # [m]
    M_b: float  # [kg]
    M_i1: float  # [kg]
    M_i2: float  # [kg]
    M_if: float  # [kg]
    K_xH: float  # [N/m]
    K_yH: float  # [N/m]
    B_xH: float  # [N s/m]
    B_yH: float  # [N s/m]
    J_i1m: float  # [kg m^2]
    J_i2m: float  # [kg m^2]
    B_ijm: float  # [N m s/rad]
    K_ijT: float  # [N m/rad]
    B_ijT: float  # [N m s/rad]
    h_ij: float  # [rad]
    eps_ij: float
    J_i1T: float  # [kg m^2]
    J_i2T: float  # [kg m^2]
    tau_max: float  # [N m]
    c_i1: float
    c_i2: float
    r_link: float  # [m]
    r_F: float  # [m]
    w_b: float  # [m]
    h_b: float  # [m]
    beta: float
    L_S: float  # [m]
    H_B: float  # [m]
    F_C: float  # [m]
    V_F: float  # [m/s]
    gait: str
    profile: str
    K_xF: float  # [N/m]
    K_yF: float  # [N/m]
    B_xF: float  # [N s/m]
    B_yF: float  # [N s/m]
    Bp_xF: float  # [N s/m^2]
    Bp_yF: float  # [N s/m^1.9]
    nu_x: float
    nu_y: float
    soil: str
    mu_P: float
    beta_x: float
    beta_y: float
    A_F: float  # [m^2]
    zeta_F: float
    M_eq: float  # [kg]
    Delta_yF_max: float  # [m]
    ground: str
    mu_native: float
    K_p1: float  # [N m/rad]
    K_alpha1: float  # [N m s^0.5/rad]
    alpha_1: float
    K_p2: float  # [N m/rad]
    K_alpha2: float  # [N m s^0.5/rad]
    alpha_2: float
    K_c2: float
    control: str
    f_sc: float  # [Hz]
    f_sr: float  # [Hz]
    fo_form: str
    fo_order: int
    transmission: str
    g: float  # [m/s^2]
    # --- end of fields

    @property
    def T(self) -> float:
        """Cycle time T = L_S / V_F [s] (Sec. II)."""
        return self.L_S / self.V_F

    @property
    def t_T(self) -> float:
        """Transfer time t_T = (1 - beta) T [s]."""
        return (1.0 - self.beta) * self.T

    @property
    def t_S(self) -> float:
        """Support time t_S = beta T [s]."""
        return self.beta * self.T

    @property
    def n_seg(self) -> int:
        """Body segments (= leg stations): a left and a right leg share a segment."""
        return self.n // 2

    @property
    def m_seg(self) -> float:
        """Mass of one body segment, 2 M_b / n [kg] (the two legs' shares M_b / n)."""
        return self.M_b / self.n_seg

    @property
    def m_total(self) -> float:
        """Mass of the whole robot [kg]."""
        return self.M_b + self.n * (self.M_i1 + self.M_i2 + self.M_if)

    def check_relations(self) -> None:
        """The legs come in left/right pairs, the hip height is within the leg's reach, the
        foot stroke fits in it, and the simulation runs faster than the controller."""
        if self.n % 2:
            raise ParameterError(f"hexapod.n = {self.n} legs cannot be paired left and right")
        reach = self.L_i1 + self.L_i2
        half = 0.5 * self.beta * self.L_S + abs(self.O_i)
        if math.hypot(self.H_B, half) >= reach:
            raise ParameterError(
                f"hexapod.H_B = {self.H_B:g} m with a half stroke of {half:g} m is out of "
                f"the leg's reach L_i1 + L_i2 = {reach:g} m")
        if self.F_C >= self.H_B:
            raise ParameterError(f"hexapod.F_C = {self.F_C:g} m lifts the foot above the "
                                 f"hip height H_B = {self.H_B:g} m")
        if self.f_sr < self.f_sc:
            raise ParameterError(f"hexapod.f_sr = {self.f_sr:g} Hz is slower than the "
                                 f"controller f_sc = {self.f_sc:g} Hz")


PARAMS = HexapodParams()
GAITS = spec(HexapodParams, "gait").range.choices  # the paper's six gaits (Sec. IV)
SOILS = spec(HexapodParams, "soil").range.choices  # Table II's soils

# Paper leg i = 1..6 (Song and Waldron's numbering: odd left, even right, front to back)
# and the shared side-first names.
LEG_NAMES: tuple[str, ...] = ("LF", "RF", "LM", "RM", "LB", "RB")


def leg_names(p: HexapodParams = PARAMS) -> tuple[str, ...]:
    """Names of legs i = 1..n: side (L/R) first, then F, M (middle stations), B."""
    if p.n == 6:
        return LEG_NAMES
    k = p.n // 2
    return tuple(f"{s}{'F' if m == 0 else 'B' if m == k - 1 else f'M{m}'}"
                 for m in range(k) for s in "LR")


def station_x(p: HexapodParams = PARAMS) -> tuple[float, ...]:
    """Hip station m = 0 (front) .. n/2 - 1 (back) ahead of the body centre [m]."""
    k = p.n_seg
    return tuple((0.5 * (k - 1) - m) * p.S_P for m in range(k))


def table(p: HexapodParams = PARAMS) -> list[Param]:
    """The parameter table for the report appendix."""
    return parameter_table(p)
