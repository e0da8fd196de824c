"""Quadruped parameters: the single source of truth for the hand-rolled model, the MJCF
and the URDF (Sureshkumar, Harib, Oseni, ICINCO 2025).

The paper gives the frames and the D-H table (Table 1) but no lengths, masses or
inertias.  Those come from one documented 12-joint quadruped of the same class, the
Unitree A1, as published by its maker in ``unitreerobotics/unitree_ros``,
``robots/a1_description/urdf/a1.urdf`` (commit 0cbd88e), copied here verbatim in the
A1's own link frames and mapped to the paper's D-H frames by ``dh_inertial``.

Frames (see FRAMES.md):
  W  world, z up.   B  body (trunk) frame: x forward, y left, z up.
  0  leg reference frame of section 2, fixed to the body at the HAA joint:
     x_0 = y_B, y_0 = x_B, z_0 = -z_B (the paper prints z_0 = z_B, which with the two
     swapped axes is a left-handed frame; see the erratum in FRAMES.md).
  1-4  Craig (modified) D-H frames of Table 1: HAA, HFE, KFE, foot.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dynval.robots import Param, front_sign, side_sign
from dynval.robots.parameters import ParameterError, parameter_class, parameter_table

LEGS = ("LF", "RF", "LB", "RB")  # left/right, front/back (section 4.1: i = L/R, j = F/B)
JOINTS = ("HAA", "HFE", "KFE")

# Section 2: frame 0 axes in the body frame (columns x_0, y_0, z_0).
R_B0 = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, -1.0]])
# The printed mapping (x_0, y_0, z_0) = (y_B, x_B, z_B): determinant -1, not a rotation.
R_B0_PRINTED = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])


@dataclass(frozen=True)
class Inertial:
    """Mass [kg], centre of mass [m] and inertia about it [kg m^2] in one link frame."""

    mass: float
    com: tuple[float, float, float]
    inertia: tuple[float, float, float, float, float, float]  # ixx iyy izz ixy ixz iyz

    def matrix(self) -> np.ndarray:
        xx, yy, zz, xy, xz, yz = self.inertia
        return np.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])


# The Unitree A1's bodies whose inertials params.toml holds (m_<body>, c_<body>_<axis>,
# I_<body>_<xx..yz>): the right-side (FR) values of a1.urdf, the left legs being the mirror
# image (y -> -y) as in the A1 file.
A1_BODIES = ("trunk", "imu", "hip", "thigh", "calf", "foot")
INERTIA_COMPONENTS = ("xx", "yy", "zz", "xy", "xz", "yz")  # the order of Inertial.inertia


@parameter_class
class QuadrupedParams:
    """Every number the quadruped model uses, in SI units (the standing posture in
    degrees), one field an entry of params.toml (value, unit, valid range, source). The
    A1 inertials are fields too (``m_<body>``, CoM ``c_<body>_<axis>``, inertia
    ``I_<body>_<xx..yz>`` about the CoM in the A1 link frame), so an override reaches the
    hand model and the descriptions alike."""

    # --- fields of params.toml, in its order (python -m dynval.robots.generate)
    l_2: float  # [m]
    l_3: float  # [m]
    hip_x: float  # [m]
    hip_y: float  # [m]
    g: float  # [m/s^2]
    foot_radius: float  # [m]
    theta_1_stand_deg: float  # [deg]
    theta_2_stand_deg: float  # [deg]
    theta_3_stand_deg: float  # [deg]
    K_P: float  # [N m/rad]
    K_D: float  # [N m s/rad]
    k_ground: float  # [N/m]
    b_ground: float  # [N s/m]
    mu: float
    dt: float  # [s]
    tau_max: float  # [N m]
    m_trunk: float  # [kg]
    c_trunk_x: float  # [m]
    c_trunk_y: float  # [m]
    c_trunk_z: float  # [m]
    I_trunk_xx: float  # [kg m^2]
    I_trunk_yy: float  # [kg m^2]
    I_trunk_zz: float  # [kg m^2]
    I_trunk_xy: float  # [kg m^2]
    I_trunk_xz: float  # [kg m^2]
    I_trunk_yz: float  # [kg m^2]
    m_imu: float  # [kg]
    c_imu_x: float  # [m]
    c_imu_y: float  # [m]
    c_imu_z: float  # [m]
    I_imu_xx: float  # [kg m^2]
    I_imu_yy: float  # [kg m^2]
    I_imu_zz: float  # [kg m^2]
    I_imu_xy: float  # [kg m^2]
    I_imu_xz: float  # [kg m^2]
    I_imu_yz: float  # [kg m^2]
    m_hip: float  # [kg]
    c_hip_x: float  # [m]
    c_hip_y: float  # [m]
    c_hip_z: float  # [m]
    I_hip_xx: float  # [kg m^2]
    I_hip_yy: float  # [kg m^2]
    I_hip_zz: float  # [kg m^2]
    I_hip_xy: float  # [kg m^2]
    I_hip_xz: float  # [kg m^2]
    I_hip_yz: float  # [kg m^2]
    m_thigh: float  # [kg]
    c_thigh_x: float  # [m]
    c_thigh_y: float  # [m]
    c_thigh_z: float  # [m]
    I_thigh_xx: float  # [kg m^2]
    I_thigh_yy: float  # [kg m^2]
    I_thigh_zz: float  # [kg m^2]
    I_thigh_xy: float  # [kg m^2]
    I_thigh_xz: float  # [kg m^2]
    I_thigh_yz: float  # [kg m^2]
    m_calf: float  # [kg]
    c_calf_x: float  # [m]
    c_calf_y: float  # [m]
    c_calf_z: float  # [m]
    I_calf_xx: float  # [kg m^2]
    I_calf_yy: float  # [kg m^2]
    I_calf_zz: float  # [kg m^2]
    I_calf_xy: float  # [kg m^2]
    I_calf_xz: float  # [kg m^2]
    I_calf_yz: float  # [kg m^2]
    m_foot: float  # [kg]
    c_foot_x: float  # [m]
    c_foot_y: float  # [m]
    c_foot_z: float  # [m]
    I_foot_xx: float  # [kg m^2]
    I_foot_yy: float  # [kg m^2]
    I_foot_zz: float  # [kg m^2]
    I_foot_xy: float  # [kg m^2]
    I_foot_xz: float  # [kg m^2]
    I_foot_yz: float  # [kg m^2]
    # --- end of fields

    @property
    def theta_stand(self) -> np.ndarray:
        """Joint angles (theta_1, theta_2, theta_3) of the standing posture [rad]."""
        return np.radians([self.theta_1_stand_deg, self.theta_2_stand_deg,
                           self.theta_3_stand_deg])

    def check_relations(self) -> None:
        """Each A1 inertia describes a rigid body: positive principal moments that obey
        the triangle inequality."""
        for body in A1_BODIES:
            moments = np.linalg.eigvalsh(a1_inertial(body, self).matrix())
            if moments[0] <= 0.0 or moments[2] > (moments[0] + moments[1]) * (1.0 + 1e-9):
                raise ParameterError(
                    f"quadruped.I_{body}_xx..I_{body}_yz describe no rigid body: the "
                    f"principal moments {', '.join(f'{x:.4g}' for x in moments)} kg m^2 "
                    "must be positive and each at most the sum of the other two")


PARAMS = QuadrupedParams()


def table(p: QuadrupedParams = PARAMS) -> list[Param]:
    """The parameter table for the report appendix."""
    return parameter_table(p)


def a1_inertial(body: str, p: QuadrupedParams = PARAMS) -> Inertial:
    """One A1 inertial (``A1_BODIES``) from the parameters, in its A1 link frame (for the
    legs, the right-side one)."""
    return Inertial(getattr(p, f"m_{body}"),
                    tuple(getattr(p, f"c_{body}_{a}") for a in "xyz"),
                    tuple(getattr(p, f"I_{body}_{c}") for c in INERTIA_COMPONENTS))


def p_B0(leg: str, p: QuadrupedParams = PARAMS) -> np.ndarray:
    """Origin of the leg's frame 0 (the HAA joint) in the body frame [m]."""
    return np.array([front_sign(leg) * p.hip_x, side_sign(leg) * p.hip_y, 0.0])


def rot_x(a: float) -> np.ndarray:
    """Rotation about x by a [rad] (the description layer keeps its own; see handrolled/so3)."""
    c, s = math.cos(a), math.sin(a)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def rot_z(a: float) -> np.ndarray:
    """Rotation about z by a [rad]."""
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


# Table 1 (Craig's convention): alpha_{i-1} [rad], a_{i-1} [m] as a function of the
# parameters, d_i = 0 for every row, theta_4 = 0.
ALPHA = (math.pi / 2, -math.pi / 2, 0.0, 0.0)


def dh_a(p: QuadrupedParams = PARAMS) -> tuple[float, float, float, float]:
    """a_{i-1} of Table 1's rows i = 1..4 [m]."""
    return (0.0, 0.0, p.l_2, p.l_3)


def R_B_dh_hanging() -> list[np.ndarray]:
    """Attitude of the D-H frames 1, 2, 3 in B when the leg hangs straight down
    (theta = (90, 0, 0) deg), the A1's zero posture, used to carry its inertials over."""
    R1 = np.round(R_B0 @ rot_x(ALPHA[0]) @ rot_z(math.pi / 2))  # exact: axes permuted
    R2 = np.round(R1 @ rot_x(ALPHA[1]))
    return [R1, R2, R2]


def _mirror(i: Inertial) -> Inertial:
    """The left-side twin of a right-side A1 inertial (reflection y -> -y)."""
    xx, yy, zz, xy, xz, yz = i.inertia
    c = i.com
    return Inertial(i.mass, (c[0], -c[1], c[2]), (xx, yy, zz, -xy, xz, -yz))


def _lump(a: Inertial, b: Inertial) -> Inertial:
    """One rigid body of two, in their common frame (parallel-axis theorem)."""
    m = a.mass + b.mass
    ca, cb = np.array(a.com), np.array(b.com)
    c = (a.mass * ca + b.mass * cb) / m

    def shifted(i: Inertial, ci: np.ndarray) -> np.ndarray:
        d = ci - c
        return i.matrix() + i.mass * (d @ d * np.eye(3) - np.outer(d, d))

    I = shifted(a, ca) + shifted(b, cb)
    return Inertial(m, tuple(c), (I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[0, 2], I[1, 2]))


def _rotated(i: Inertial, R_AB: np.ndarray) -> Inertial:
    """An inertial given in frame A re-expressed in frame B (same origin)."""
    c = R_AB.T @ np.array(i.com)
    I = R_AB.T @ i.matrix() @ R_AB
    return Inertial(i.mass, tuple(c), (I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[0, 2], I[1, 2]))


def body_inertial(p: QuadrupedParams = PARAMS) -> Inertial:
    """Trunk with the IMU lumped in, in the body frame B."""
    return _lump(a1_inertial("trunk", p), a1_inertial("imu", p))


def leg_inertials(leg: str, p: QuadrupedParams = PARAMS) -> list[Inertial]:
    """Inertials of links 1 (hip), 2 (thigh), 3 (shank + foot) of ``leg`` in D-H frames
    1, 2, 3.  The A1 thigh's frame sits 0.0838 m outboard of the HAA axis; Table 1 puts
    the HFE origin on it, so the thigh and shank keep their inertials about their own
    joints and move inboard with them."""
    hip, thigh = a1_inertial("hip", p), a1_inertial("thigh", p)
    calf = _lump(a1_inertial("calf", p), a1_inertial("foot", p))
    if side_sign(leg) > 0:
        hip, thigh, calf = _mirror(hip), _mirror(thigh), _mirror(calf)
    return [_rotated(i, R) for i, R in zip((hip, thigh, calf), R_B_dh_hanging(), strict=True)]


def total_mass(p: QuadrupedParams = PARAMS) -> float:
    """The robot's mass [kg]: body and four legs."""
    return body_inertial(p).mass + sum(i.mass for leg in LEGS for i in leg_inertials(leg, p))
