"""Hopper parameters: the single source of truth for the hand-rolled spatial-operator
model, the MJCF and the URDF (Bamyaci, Yazar, Yesiloglu, "Modelling and Control of Single
Legged Hopping Robot").

The paper prints no masses, lengths, gains or ground constants. It says the robot follows
Raibert's planar one-legged hopper ([5] in the paper), so the body, leg, spring and leg-stop
numbers are those of that model (M. H. Raibert, "Hopping in legged systems: modeling and
simulation for the two-dimensional one-legged case", IEEE Trans. SMC 14(3), 1984; also
Legged Robots That Balance, MIT Press 1986, ch. 2). Every value is marked ASSUMPTION in its
source with where it comes from; the report's parameter appendix prints this table.

Frames (see FRAMES.md): world W with x forward, y left, z up. The simulation is planar in
x-z, as the paper's; the body pitch phi, the hip angle theta_1 and the leg angle are
measured counter-clockwise in the x-z plane drawn with x to the right and z up, i.e. about
-y, so that a positive leg angle puts the foot ahead of the hip (eq. 21).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from dynval.robots import Param
from dynval.robots.parameters import ParameterError, param, parameter_table

RAIBERT = "ASSUMPTION from Raibert 1984 (IEEE SMC 14(3)) planar hopper"


@dataclass(frozen=True)
class HopperParams:
    """Every number the hopper model uses, in SI units, each with its unit, valid range
    and source."""

    ROBOT: ClassVar[str] = "hopper"

    # Raibert's planar one-legged hopper (the paper's [5])
    M: float = param(10.0, "kg", "(0, inf)", RAIBERT, "body (base) mass")
    J: float = param(10.0, "kg m^2", "(0, inf)", RAIBERT,
                     "body moment of inertia about its centre (all three axes: the paper's "
                     "base is a cylinder, Raibert gives the pitch value only)")
    m_l: float = param(1.0, "kg", "(0, inf)", RAIBERT, "leg mass (below the spring)")
    J_l: float = param(1.0, "kg m^2", "(0, inf)", RAIBERT,
                       "leg moment of inertia about its centre, pitch and roll")
    r_1: float = param(0.5, "m", "(0, inf)", RAIBERT, "distance from the foot to the leg centre")
    r_2: float = param(0.4, "m", "(0, inf)", RAIBERT,
                       "distance from the hip down from the body centre")
    r_0: float = param(1.0, "m", "(0, inf)", RAIBERT,
                       "leg length at which the spring is relaxed and the leg stop engages")
    k_L: float = param(1.0e3, "N/m", "(0, inf)", RAIBERT, "leg spring stiffness K_L")
    k_stop: float = param(1.0e5, "N/m", "[0, inf)", RAIBERT,
                          "leg stop stiffness K_L2 (leg longer than r_0)")
    b_stop: float = param(125.0, "N s/m", "[0, inf)", RAIBERT,
                          "leg stop damping B_L2 (leg longer than r_0)")
    # The paper's three parts: base, spherical hip, cylindrical leg (Sec. 2)
    m_h: float = param(0.1, "kg", "(0, inf)",
                       "ASSUMPTION: the paper's hip is a sphere with no mass given; small so "
                       "that Raibert's two-body mass distribution is kept",
                       "hip (sphere) mass")
    r_h: float = param(0.05, "m", "(0, inf)", "ASSUMPTION: hip sphere radius",
                       "hip sphere radius (its inertia 2/5 m_h r_h^2)")
    J_l_axial: float = param(0.01, "kg m^2", "(0, inf)",
                             "ASSUMPTION: a slender cylinder; the planar motion never turns "
                             "the leg about its axis", "leg inertia about its own axis")
    foot_radius: float = param(0.02, "m", "(0, inf)", "ASSUMPTION: native-contact foot sphere",
                               "radius of the foot sphere used by native contact")
    # Ground contact, eq. (24)-(25): not given in the paper
    k_c: float = param(
        1.0e6, "N/m^e", "(0, inf)",
        "ASSUMPTION: 2.3 mm static penetration under the robot's weight",
        "ground stiffness k of eq. (24)")
    e: float = param(1.5, "-", "[1, inf)",
                     "ASSUMPTION: Hertzian exponent of a round foot on a flat ground",
                     "force exponent e of eq. (24)")
    c_max: float = param(
        500.0, "N s/m", "[0, inf)",
        "ASSUMPTION: about critical for the 1.1 kg unsprung foot on the ground stiffness at "
        "the operating penetration (2 sqrt(e k delta^(e-1) m) ~ 560 N s/m)",
        "maximum ground damping c_max of eq. (24)")
    d: float = param(1.0e-3, "m", "(0, inf)",
                     "ASSUMPTION: full damping reached at 1 mm, under half the static "
                     "penetration (the ADAMS IMPACT default is 0.1 mm for metal)",
                     "penetration depth d of eq. (24)")
    x_1: float = param(0.0, "m", "(-inf, inf)",
                       "ASSUMPTION: contact begins when the foot point reaches the ground",
                       "foot height x_1 at which eq. (24) switches on")
    contact_law: str = param(
        "printed", "-", "{printed, clipped}",
        "the paper's eq. (24) as printed (its damping term pulls the foot down near lift-off); "
        "'clipped' is the ADAMS IMPACT law the paper cites ([8]), max(F, 0): the ground "
        "never pulls (erratum; the error budget toggles it)",
        "form of the normal-force law (24)")
    mu: float = param(0.8, "-", "[0, inf)", "ASSUMPTION: rubber foot on a hard floor",
                      "Coulomb friction coefficient of eq. (25)")
    v_eps: float = param(
        0.03, "m/s", "(0, inf)",
        "ASSUMPTION: eq. (25)'s sign(v) is regularised as v/v_eps within +-v_eps so that a "
        "time-stepped foot can stand still; its damping mu m g / (v_eps m_l) on the 1 kg foot "
        "takes 0.6 of the explicit step's limit 2/dt (0.01 m/s would take 1.8 and amplify "
        "round-off); the error budget halves it",
        "friction regularisation speed")
    g: float = param(9.81, "m/s^2", "(0, inf)", "standard gravity", "gravity")
    # Controller, eqs. (20)-(23): no gains in the paper
    k_h: float = param(0.5, "-", "(-inf, inf)",
                       "ASSUMPTION: corrects half the apex-height error per hop",
                       "hopping-height gain k_p of eq. (20)")
    dl_0: float = param(0.03, "m", "[0, inf)",
                        "ASSUMPTION: about the energy the ground damping takes per hop",
                        "initial spring compression Delta l_old of eq. (20)")
    dl_min: float = param(
        0.0, "m", "(-inf, inf)",
        "ASSUMPTION, not in the paper: eq. (20) is clamped at zero thrust, so the thrust never "
        "lengthens the spring to take energy out; the error budget lowers it to -dl_max",
        "least spring compression eq. (20) may command")
    dl_max: float = param(0.2, "m", "(0, inf)",
                          "ASSUMPTION: the thrust cannot push the leg past its stop",
                          "largest spring compression eq. (20) may command")
    k_x: float = param(0.05, "s", "(-inf, inf)",
                       "ASSUMPTION: Raibert's foot-placement gain (Legged Robots That "
                       "Balance, ch. 2: 0.01-0.1 s)", "velocity gain k_x of eq. (21)")
    T_s: float = param(
        0.4, "s", "(0, inf)",
        "ASSUMPTION: stance time as measured on the height scenario (0.37-0.43 s; pi "
        "sqrt((M+m)/k_L) = 0.33 s for the spring alone, the thrust lengthens it)",
        "stance time T_s of eq. (21)")
    k_p_f: float = param(600.0, "N m/rad", "(-inf, inf)",
                         "ASSUMPTION: the leg (1.25 kg m^2 about the hip) reaches its "
                         "touchdown angle within the 0.35 s flight (settling about 0.2 s)",
                         "flight hip gain k_p of eq. (22)")
    k_v_f: float = param(50.0, "N m s/rad", "(-inf, inf)", "ASSUMPTION: damping ratio 0.9",
                         "flight hip gain k_v of eq. (22)")
    k_p_s: float = param(300.0, "N m/rad", "(-inf, inf)",
                         "ASSUMPTION: attitude corrected within a stance",
                         "stance attitude gain k_p of eq. (23)")
    k_v_s: float = param(30.0, "N m s/rad", "(-inf, inf)",
                         "ASSUMPTION: body-attitude damping ratio about 0.9",
                         "stance attitude gain k_v of eq. (23)")
    tau_max: float = param(200.0, "N m", "(0, inf)",
                           "ASSUMPTION: keeps the stance torque below what friction holds",
                           "hip torque limit")
    # Simulation
    dt: float = param(2.0e-4, "s", "[1e-7, inf)",
                      "ASSUMPTION: 20 steps per period of the stiffest mode (leg stop, "
                      "sqrt(k_stop/m_l) = 316 rad/s); the error budget halves it",
                      "integration step")
    control_every: int = param(1, "-", "integer >= 1",
                               "ASSUMPTION: the controller runs at every step; the error "
                               "budget samples it at 1 kHz (every 5 steps)",
                               "controller sampling: once every this many steps")
    z_0: float = param(1.6, "m", "(0, inf)",
                       "ASSUMPTION: the foot starts 0.2 m above the ground",
                       "initial body-centre height")

    @property
    def m_total(self) -> float:
        """Mass of the whole robot [kg]."""
        return self.M + self.m_h + self.m_l

    @property
    def pull_clipped(self) -> float:
        """1.0 where eq. (24) is clipped at zero (``contact_law`` 'clipped'), else 0.0: the
        flag as the compiled laws read it (handrolled/hopper/fastloop.Laws)."""
        return 1.0 if self.contact_law == "clipped" else 0.0

    def with_(self, **changes: float) -> HopperParams:
        """A copy with some values changed (used by sweeps and the error budget)."""
        return replace(self, **changes)

    def check_relations(self) -> None:
        """The leg's centre must lie between the foot and the hip of a relaxed leg, and the
        body must start with its foot clear of the ground."""
        if self.r_1 >= self.r_0:
            raise ParameterError(
                f"hopper.r_1 = {self.r_1:g} m puts the leg centre above the hip of the "
                f"relaxed leg r_0 = {self.r_0:g} m")
        if self.dl_min > self.dl_max:
            raise ParameterError(
                f"hopper.dl_min = {self.dl_min:g} m exceeds hopper.dl_max = {self.dl_max:g} m: "
                "eq. (20) would have no thrust to command")
        if self.z_0 - self.r_2 - self.r_0 <= self.x_1:
            raise ParameterError(
                f"hopper.z_0 = {self.z_0:g} m starts the foot in the ground: it must exceed "
                f"r_2 + r_0 + x_1 = {self.r_2 + self.r_0 + self.x_1:g} m")


PARAMS = HopperParams()


def table(p: HopperParams = PARAMS) -> list[Param]:
    """The parameter table for the report appendix."""
    return parameter_table(p)


def hip_inertia(p: HopperParams = PARAMS) -> float:
    """Moment of inertia of the solid hip sphere about its centre [kg m^2]."""
    return 0.4 * p.m_h * p.r_h**2
