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

from dynval.robots import Param
from dynval.robots.parameters import ParameterError, parameter_class, parameter_table


@parameter_class
class HopperParams:
    """The hopper's numbers, one field an entry of params.toml (SI units), with the
    robot's total mass and the contact law's form as the compiled laws read it."""

    # --- fields of params.toml, in its order (python -m dynval.robots.generate)
    M: float  # [kg]
    J: float  # [kg m^2]
    m_l: float  # [kg]
    J_l: float  # [kg m^2]
    r_1: float  # [m]
    r_2: float  # [m]
    r_0: float  # [m]
    k_L: float  # [N/m]
    k_stop: float  # [N/m]
    b_stop: float  # [N s/m]
    m_h: float  # [kg]
    r_h: float  # [m]
    J_l_axial: float  # [kg m^2]
    foot_radius: float  # [m]
    k_c: float  # [N/m^e]
    e: float
    c_max: float  # [N s/m]
    d: float  # [m]
    x_1: float  # [m]
    contact_law: str
    mu: float
    v_eps: float  # [m/s]
    g: float  # [m/s^2]
    k_h: float
    dl_0: float  # [m]
    dl_min: float  # [m]
    dl_max: float  # [m]
    k_x: float  # [s]
    T_s: float  # [s]
    k_p_f: float  # [N m/rad]
    k_v_f: float  # [N m s/rad]
    k_p_s: float  # [N m/rad]
    k_v_s: float  # [N m s/rad]
    tau_max: float  # [N m]
    dt: float  # [s]
    control_every: int
    z_0: float  # [m]
    # --- end of fields

    @property
    def m_total(self) -> float:
        """Mass of the whole robot [kg]."""
        return self.M + self.m_h + self.m_l

    @property
    def pull_clipped(self) -> float:
        """1.0 where eq. (24) is clipped at zero (``contact_law`` 'clipped'), else 0.0: the
        flag as the compiled laws read it (handrolled/hopper/fast/loop.Laws)."""
        return 1.0 if self.contact_law == "clipped" else 0.0

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
