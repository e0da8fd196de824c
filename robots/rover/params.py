"""Segmented-body rover parameters: the single source of truth for the hand-rolled model,
the MJCF and the URDF (Wasserman, MSc thesis 2007: Table 3.1, eqs. 3.1-3.4, Table 4.5,
section 4.2.2, Appendix A simcore.m).

Values the thesis does not state are marked ASSUMPTION with the reason.

Frames (see FRAMES.md):
  0  the thesis' base frame (Table 3.1): x0 vertical UP (gravity is -g x0, Appendix B
     sets vdot_0 = (g, 0, 0)), y0 to the left, z0 backward (the rover drives along -z0).
  6  rear segment frame: x6 forward, y6 left, z6 up (at zero joint values); origin at the
     rear axle centre in the joint plane (the wheel hubs sit h_w below it).
  7  front segment frame: origin at the turning joint, L ahead of frame 6 along x6,
     rotated by q7 about z6.
  W  engine world frame: x forward, y left, z up.  v_W = R_W0 v_0.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from dynval.robots import Param
from dynval.robots.parameters import ParameterError, parameter_class, parameter_table

# Thesis base frame -> engine frame: x_W = -z_0 (forward), y_W = y_0, z_W = x_0 (up).
R_W0 = np.array([[0.0, 0.0, -1.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])

SIDES = ("left", "right")  # wheel j = 1, 2 of simcore.m: +w then -w


@parameter_class
class RoverParams:
    """The rover's numbers, one field an entry of params.toml (SI units), with the segment
    inertia of eq. (3.4), the joint count of Table 3.1 and the rovers A-C of Table 4.5
    (``with_rover``)."""

    # --- fields of params.toml, in its order (python -m dynval.robots.generate)
    rover: str
    n_segments: int
    l: float  # [m]
    w: float  # [m]
    h_w: float  # [m]
    h_cg: float  # [m]
    m_seg: float  # [kg]
    r: float  # [m]
    b: float  # [m]
    D: float  # [N s/m]
    g: float  # [m/s^2]
    dt: float  # [s]
    control_period: float  # [s]
    K_p: float  # [W/rad]
    K_d: float  # [W s/rad]
    soil: str
    chain_link_mass: float  # [kg]
    # --- end of fields

    @property
    def I_seg(self) -> float:
        """Segment inertia about each CG axis: a sphere of radius w/2, eq. (3.4) [kg m^2]."""
        return self.m_seg * self.w**2 / 10.0

    @property
    def n_joints(self) -> int:
        """3 prismatic + 3 revolute base joints and n - 1 turning joints (Table 3.1)."""
        return self.n_segments + 5

    def check_relations(self) -> None:
        """The soil exists and reads as a soil; the steering updates at least once per
        step."""
        from dynval.robots.rover.soil import SoilFileError, load_soil

        try:
            load_soil(self.soil)
        except SoilFileError as exc:
            raise ParameterError(f"rover.soil = {self.soil!r}: {exc}") from None
        if self.control_period < self.dt:
            raise ParameterError(
                f"rover.control_period (PD steering update period) = {self.control_period:g} s "
                f"is shorter than the step dt = {self.dt:g} s")

    def with_rover(self, name: str) -> RoverParams:
        """These parameters with the segment mass and wheel of rover A, B or C (Table 4.5);
        unchanged when they already describe that rover."""
        if name not in ROVERS:
            raise ValueError(f"unknown rover {name!r}; Table 4.5 lists {', '.join(ROVERS)}")
        if name == self.rover:
            return self  # keep any overrides of this rover's values
        m_seg, r, b = ROVERS[name]
        return replace(self, rover=name, m_seg=m_seg, r=r, b=b)


# Table 4.5: segment mass [kg], wheel radius [m], wheel width [m].
ROVERS: dict[str, tuple[float, float, float]] = {
    "A": (200.0, 0.5, 0.2),
    "B": (100.0, 0.4, 0.15),
    "C": (25.0, 0.15, 0.08),
}

# Table 4.6: steady-state speed of each test rover [m/s].
ROVER_SPEEDS: dict[str, float] = {"A": 3.0, "B": 1.0, "C": 0.5}

# Section 4.2.2: the two rovers the thesis estimates with constvel: wheel radius [m], width
# [m], load per wheel [N], and what it compares with.
SSL_ROVER = {"r": 0.133 / 2, "b": 0.089, "W": 20.8, "speed": 0.20, "power": 1.55,
             "efficiency": 0.8, "g": 9.81}
# The LRV of section 4.2.2: wheel radius and width [m], mass [kg], wheel count, motor power
# per wheel [W] ("0.25 hp (186 W) drive motors at each wheel"). Its soil and gravity are not
# printed; see LRV_READINGS.
LRV = {"r": 0.41, "b": 0.23, "mass": 700.0, "wheels": 4, "motor_power": 186.0}

# Surface gravity [m/s^2]: Earth (simcore.m's g = 9.81) and the Moon (1.62, the mean lunar
# surface gravity), and the gravity each soil of Appendix C belongs to: dry sand is the
# terrestrial soil of chapter 5 ("All simulations occur under Earth gravity conditions and in
# uniform dry sand"); the lunar soil simulant stands for the Moon's regolith.
G_EARTH = 9.81
G_MOON = 1.62
SOIL_GRAVITY: dict[str, float] = {"dry_sand": G_EARTH, "lunar_soil_simulant": G_MOON}

# The (soil, gravity) readings of the LRV estimate, first the author's (see
# dynval.comparisons.rover.estimates for the evidence): the lunar soil simulant in lunar gravity;
# dry sand in lunar gravity (constvel.m as printed, which always loads drysand2.soil, with
# the Moon's g: this chapter's earlier reading); each soil in the other gravity.
LRV_READINGS: tuple[tuple[str, float], ...] = (
    ("lunar_soil_simulant", G_MOON), ("dry_sand", G_MOON), ("dry_sand", G_EARTH),
    ("lunar_soil_simulant", G_EARTH))
LRV_AUTHOR = LRV_READINGS[0]

# The LRV's design top speed on flat ground, which section 4.2.2 says the estimate is "near":
# 8 mph = 3.58 m/s (NASA: "designed for a top speed of 8 miles per hour"; MSFC quotes a
# speed limit of "about 9 miles (14 kilometers) per hour"). Not a number of the thesis.
LRV_DESIGN_SPEED = 8 * 0.44704  # [m/s]

# Section 5.3: the two PD gain sets (K_p, K_d).
GAIN_SETS: dict[str, tuple[float, float]] = {"initial": (100.0, 100.0), "alternate": (300.0, 300.0)}

PARAMS = RoverParams()

ASSUMPTIONS: dict[str, str] = {
    "w": "the thesis' value for the half track did not survive; 0.75 m (= l/2) is assumed",
    "m_seg, r, b": "chapter 5 does not name its rover; simcore.m sets mseg = 200 kg, so "
    "rover A's wheel (r = 0.5 m, b = 0.2 m) is taken",
    "LRV soil and gravity": "section 4.2.2 does not print the soil or gravity of its LRV "
    "estimate; it is read as the lunar soil simulant of Appendix C in lunar gravity (1.62 "
    "m/s^2): the pairing with a zero drawbar pull in constvel's slip bracket [0, 1] whose top "
    "speed is near the LRV's design speed, as the text says (evidence in the 4.2.2 table)",
    "wheels": "wheels are massless (Appendix B puts mass on the segments only); their "
    "spin is not a state: the commanded torque fixes the slip ratio (section 3.2.3)",
}


def hub_positions(p: RoverParams, segment: int) -> dict[str, np.ndarray]:
    """Wheel hub positions in the segment frame, eq. (3.1) (segment 1 is the rear)."""
    x = 0.0 if segment == 1 else p.l
    return {"left": np.array([x, p.w, p.h_w]), "right": np.array([x, -p.w, p.h_w])}


def cg_position(p: RoverParams, segment: int) -> np.ndarray:
    """Segment CG in the segment frame, eq. (3.2)."""
    return np.array([0.0 if segment == 1 else p.l, 0.0, p.h_cg])


def table(p: RoverParams = PARAMS) -> list[Param]:
    """The parameter table for the report appendix."""
    rows = parameter_table(p)
    rows.append(Param("I_seg", p.I_seg, "kg m^2", "eq. (3.4): m_seg w^2 / 10"))
    return rows
