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
