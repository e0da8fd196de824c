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
from dataclasses import dataclass, replace
from typing import ClassVar

from dynval.robots import Param
from dynval.robots.parameters import ParameterError, param, parameter_table

T1 = "Table I"
T2 = "Table II, compact clay"
T4 = "Table IV"
GAITS = ("WG", "EPHC", "EPFC", "BW", "BEPHC", "BEPFC")
SOILS = ("concrete", "wood", "gravel", "sand", "compact_clay", "loose_clay", "peat")


@dataclass(frozen=True)
class HexapodParams:
    """Every number the hexapod model uses, in SI units, each with its unit, valid range
    and source."""

    ROBOT: ClassVar[str] = "hexapod"

    # --- robot model parameters (Table I) ---------------------------------------------
    n: int = param(6, "-", "integer in [2, 1000]",
                   "Sec. II and V: a hexapod, legs equally distributed along both sides; at "
                   "most 1000 so that a mistyped count stops at once instead of filling "
                   "memory (the model's arrays grow with n)",
                   "number of legs n (n/2 stations of a left and a right leg)")
    S_P: float = param(1.0, "m", "(0, inf)", T1, "stroke pitch S_P (hip spacing along a side)")
    O_i: float = param(0.0, "m", "(-inf, inf)", T1,
                       "foot trajectory offset O_i (foot stroke centre ahead of the hip)")
    L_i1: float = param(0.5, "m", "(0, inf)", T1 + " (L_ij)", "thigh length L_i1")
    L_i2: float = param(0.5, "m", "(0, inf)", T1 + " (L_ij)", "shank length L_i2")
    M_b: float = param(88.0, "kg", "(0, inf)", T1,
                       "body mass M_b (n/2 identical segments of 2 M_b / n each)")
    M_i1: float = param(1.0, "kg", "(0, inf)", T1 + " (M_ij)", "thigh mass M_i1")
    M_i2: float = param(1.0, "kg", "(0, inf)", T1 + " (M_ij)", "shank mass M_i2")
    M_if: float = param(0.1, "kg", "(0, inf)", T1, "foot mass M_if (at the shank tip)")
    K_xH: float = param(1.0e5, "N/m", "[0, inf)", T1 + ", eq. (10a)",
                        "inter-segment horizontal stiffness K_xH")
    K_yH: float = param(1.0e4, "N/m", "[0, inf)", T1 + ", eq. (10b)",
                        "inter-segment vertical stiffness K_yH")
    B_xH: float = param(1.0e3, "N s/m", "[0, inf)", T1 + ", eq. (10a)",
                        "inter-segment horizontal damping B_xH")
    B_yH: float = param(
        1.0e2, "N s/m", "[0, inf)",
        T1 + " (printed B_vH: READING B_yH, the only B_eta H left, eta = {x, y})",
        "inter-segment vertical damping B_yH")
    J_i1m: float = param(0.00375, "kg m^2", "(0, inf)", T1, "hip motor inertia J_i1m")
    J_i2m: float = param(0.000625, "kg m^2", "(0, inf)", T1, "knee motor inertia J_i2m")
    B_ijm: float = param(10.0, "N m s/rad", "[0, inf)",
                         T1 + " (printed 'Nm rad-1s'), eqs. (8a), (9a)",
                         "motor viscous friction B_ijm")
    K_ijT: float = param(1.0e5, "N m/rad", "(0, inf)", T1 + ", eqs. (8), (9d)",
                         "transmission stiffness K_ijT")
    B_ijT: float = param(
        10.0, "N m s/rad", "[0, inf)",
        T1 + "; ASSUMPTION: eqs. (8)-(9) never use it; it is read as the viscous friction "
        "of the gear's output side (inertia J_ijT) in the backlash model",
        "transmission viscous friction B_ijT")
    h_ij: float = param(0.001, "rad", "[0, inf)", T1 + ", Sec. III.2 (Fig. 2c)",
                        "backlash h_ij (total play of the gear)")
    eps_ij: float = param(0.8, "-", "[0, 1]", T1 + ", eqs. (9b)-(9c)",
                          "restitution coefficient eps_ij of the gear impacts")
    J_i1T: float = param(0.001875, "kg m^2", "(0, inf)",
                         T1 + "; READING: the J_ij of eqs. (9b)-(9c), the gear's output side",
                         "hip transmission inertia J_i1T")
    J_i2T: float = param(0.0003125, "kg m^2", "(0, inf)",
                         T1 + "; READING: the J_ij of eqs. (9b)-(9c), the gear's output side",
                         "knee transmission inertia J_i2T")
    tau_max: float = param(400.0, "N m", "(0, inf)", "Sec. V.1, eq. (7)",
                           "actuator saturation tau_ijMax")
    # what the paper does not give about the links
    c_i1: float = param(0.5, "-", "[0, 1]",
                        "ASSUMPTION: uniform slender thigh (centre of mass at mid-length)",
                        "thigh centre of mass from the hip, as a fraction of L_i1")
    c_i2: float = param(0.5, "-", "[0, 1]",
                        "ASSUMPTION: uniform slender shank (centre of mass at mid-length)",
                        "shank centre of mass from the knee, as a fraction of L_i2")
    r_link: float = param(0.02, "m", "(0, inf)",
                          "ASSUMPTION: link radius; only the links' axial inertia and the "
                          "pictures use it (the planar motion never turns a link about its "
                          "axis)", "link radius")
    r_F: float = param(0.02, "m", "(0, inf)",
                       "ASSUMPTION: the foot is a solid sphere of this radius (MuJoCo needs "
                       "an inertia; its pitch inertia 2/5 M_if r_F^2 is in the hand model "
                       "too)", "foot radius")
    w_b: float = param(0.4, "m", "(0, inf)",
                       "ASSUMPTION: segment width; only the segments' rotational inertia "
                       "(free-base variants) uses it, the paper's segments only translate",
                       "body segment width (along y)")
    h_b: float = param(0.2, "m", "(0, inf)",
                       "ASSUMPTION: segment height; as w_b", "body segment height")
    # --- locomotion parameters (Table I) ------------------------------------------------
    beta: float = param(0.5, "-", "(0, 1)", T1, "duty factor beta")
    L_S: float = param(1.0, "m", "(0, inf)", T1, "step length L_S")
    H_B: float = param(0.9, "m", "(0, inf)", T1, "body (hip) height H_B")
    F_C: float = param(0.1, "m", "(0, inf)", T1, "maximum foot clearance F_C")
    V_F: float = param(1.0, "m/s", "(0, inf)", T1, "body forward speed V_F (T = L_S / V_F)")
    gait: str = param("WG", "-", "{" + ", ".join(GAITS) + "}", "Sec. II, Sec. V.2 (WG)",
                      "periodic gait")
    profile: str = param("cycloid", "-", "{cycloid, sine}",
                         "Sec. II.2: eq. (1a) cycloid (the paper's choice), eq. (1b) sine",
                         "foot transfer profile")
    # --- ground parameters (Tables I and II) ------------------------------------------
    K_xF: float = param(1302152.0, "N/m", "(0, inf)", T1 + ", " + T2,
                        "ground horizontal stiffness K_xF")
    K_yF: float = param(1705199.0, "N/m", "(0, inf)",
                        T1 + " (printed K_vF: READING K_yF), " + T2,
                        "ground vertical stiffness K_yF")
    B_xF: float = param(3423.0, "N s/m", "[0, inf)",
                        T2 + " (Table I lists only the non-linear B'_xF)",
                        "linear ground horizontal damping B_xF of eq. (11)")
    B_yF: float = param(3917.0, "N s/m", "[0, inf)", T2,
                        "linear ground vertical damping B_yF of eq. (11)")
    Bp_xF: float = param(
        2364932.0, "N s/m^2", "[0, inf)",
        T1 + " (row printed 'K_yF B'_xF 2364932.0': READING B'_xF, the K_yF label being "
        "the previous row's repeated); printed unit N s/m, but eq. (12) gives N s m^-(1+nu)",
        "non-linear ground horizontal damping B'_xF of eq. (12)")
    Bp_yF: float = param(2706233.0, "N s/m^1.9", "[0, inf)",
                         T1 + "; printed unit N s/m, but eq. (12) gives N s m^-(1+nu)",
                         "non-linear ground vertical damping B'_yF of eq. (12)")
    nu_x: float = param(1.0, "-", "[0, inf)",
                        "eq. (12) (printed 'nu_chi = 1.0, nu_chi = 0.9': READING nu_x = 1.0, "
                        "nu_y = 0.9, Table I's nu_y)",
                        "exponent nu_x of eq. (12)")
    nu_y: float = param(0.9, "-", "[0, inf)", T1 + " (printed v_y), eq. (12)",
                        "exponent nu_y of eq. (12)")
    soil: str = param("compact_clay", "-", "{" + ", ".join(SOILS) + "}",
                      "Sec. V: Table I's ground constants are Table II's compact clay",
                      "soil of Table II")
    mu_P: float = param(
        0.4, "-", "[0.35, 0.5]",
        "READING (Sec. IV: 0.35 to 0.5): K_yF/K_xF = beta_y / (2 (1 - mu^2) beta_x) = "
        "1.30952381 in all seven rows of Table II, i.e. 2.2 / 1.68: mu = 0.4, "
        "beta_y/beta_x = 2.2", "Poisson ratio mu of the soil")
    beta_x: float = param(1.0, "-", "(0, inf)",
                          "READING: Table II fixes beta_x sqrt(BL) only; beta_x = 1 (square "
                          "footing, L/B = 1, in the Richart-Hall-Woods chart of ref. 52)",
                          "soil coefficient beta_x")
    beta_y: float = param(2.2, "-", "(0, inf)",
                          "READING: 2.2 beta_x from the K_yF/K_xF ratio of Table II (the "
                          "chart of ref. 52 gives beta_z of about 2.2 near L/B = 1)",
                          "soil coefficient beta_y (beta_z of ref. 52)")
    A_F: float = param(0.007536, "m^2", "(0, inf)",
                       "READING: K_xF / E = 0.0868101377 m in all seven rows of Table II = "
                       "beta_x sqrt(B L), and its square is 0.007536000 m^2 (7 digits); "
                       "the paper gives no foot dimensions", "foot contact area B L")
    zeta_F: float = param(
        0.15, "-", "[0, 1)",
        "READING: Table II's dampings are B = 3.000 sqrt(K) in all 14 cells = 2 zeta "
        "sqrt(K M) with zeta sqrt(M) = 1.5 kg^0.5; Sec. IV's bound zeta < 0.15 taken at "
        "its edge", "ground damping ratio zeta")
    M_eq: float = param(
        100.0, "kg", "(0, inf)",
        "READING: with zeta = 0.15, M = 100 kg = M_b + n (M_i1 + M_i2); the printed "
        "M_b n^-1 (14.7 kg) would need zeta = 0.39, against zeta < 0.15",
        "equivalent mass M of the ground damping")
    Delta_yF_max: float = param(
        0.0007, "m", "(0, inf)",
        "READING: Table I's B'_xF and B'_yF are Table II's B_xF, B_yF divided by "
        "0.0007^0.9 (to 7 digits), eq. (13)", "largest foot penetration Delta_iyFMax")
    ground: str = param("nonlinear", "-", "{linear, nonlinear}",
                        "Sec. IV: eq. (11) linear, eq. (12) the paper's adopted model",
                        "foot-ground model")
    mu_native: float = param(1.0, "-", "[0, inf)",
                             "ASSUMPTION: eqs. (11)-(12) hold the foot tangentially by a spring "
                             "and never let it slip; an engine's native contact needs a Coulomb "
                             "coefficient, taken high enough for the stance feet to hold",
                             "friction coefficient of the engines' native contact")
    # --- controller (Table IV, eqs. 14-16) ----------------------------------------------
    K_p1: float = param(1500.0, "N m/rad", "(-inf, inf)",
                        T4 + " (printed K_n1: READING K_p1, the column reads K_p, K_alpha, "
                        "alpha as joint 2's does)", "hip proportional gain K_p1")
    K_alpha1: float = param(300.0, "N m s^0.5/rad", "(-inf, inf)",
                            T4 + " (row printed 'K_p1 K_alpha1 300': READING K_alpha1, the "
                            "K_p1 label being the previous row's repeated)",
                            "hip fractional derivative gain K_alpha1")
    alpha_1: float = param(0.5, "-", "(0, 1]", T4, "hip fractional order alpha_1")
    K_p2: float = param(4000.0, "N m/rad", "(-inf, inf)", T4, "knee proportional gain K_p2")
    K_alpha2: float = param(10.0, "N m s^0.5/rad", "(-inf, inf)", T4,
                            "knee fractional derivative gain K_alpha2")
    alpha_2: float = param(0.5, "-", "(0, 1]", T4, "knee fractional order alpha_2")
    K_c2: float = param(0.8, "-", "(-inf, inf)",
                        "ASSUMPTION: the paper gives no G_c2 (Fig. 3's P controller in "
                        "series with Table IV's G_c1); 0.8 is the value at which the wave "
                        "gait of Figs. 4-7 walks on its feet from the loaded stance (no "
                        "sample airborne in the judged cycle; 0.78 and 0.82 already leave it "
                        "airborne for 61 and 99 ms, unity, the stance force loop's stability "
                        "limit, for 816 ms: the chapter's 'Does it walk?' table)",
                        "force-loop P gain G_c2")
    control: str = param("force", "-", "{force, position}",
                         "Sec. V.1 (Fig. 3): the paper adopts the cascade G_c1 + G_c2 with "
                         "the inner force feedback loop (force); position: the "
                         "position/velocity loop alone", "joint control architecture")
    f_sc: float = param(2000.0, "Hz", "(0, inf)", "Sec. V.1", "controller sampling rate f_sc")
    f_sr: float = param(20000.0, "Hz", "(0, 1e7]", "Sec. V.1", "simulation rate f_sr")
    fo_form: str = param("pade", "-", "{pade, gl}",
                         "Sec. V.1: eq. (16) with Table III's coefficients (pade), or the "
                         "Grunwald-Letnikov sum (15b) over the whole memory from t = 0 (gl: "
                         "the error budget's reference)", "discretisation of D^alpha")
    fo_order: int = param(4, "-", "integer >= 1", "Table III: the [4/4] approximant",
                          "Pade order m of eq. (16)")
    transmission: str = param("ideal", "-", "{ideal, flexible, backlash}",
                              "Sec. III.2: Fig. 2a (7), 2b (8), 2c (9)", "joint model level")
    g: float = param(9.81, "m/s^2", "(0, inf)", "standard gravity", "gravity")

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

    def with_(self, **changes: float) -> HexapodParams:
        """A copy with some values changed (used by sweeps and the error budget)."""
        return replace(self, **changes)

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
