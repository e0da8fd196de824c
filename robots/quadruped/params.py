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
from dataclasses import dataclass, replace
from typing import ClassVar

import numpy as np

from dynval.robots import Param, front_sign, side_sign
from dynval.robots.parameters import ParameterError, param, parameter_table

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


# The Unitree A1's inertials, a1.urdf (unitree_ros commit 0cbd88e): the right-side (FR)
# values, the left legs being the mirror image (y -> -y) as in the A1 file. A1 link frames:
# origin at the joint, axes parallel to the trunk's with the leg hanging straight down.
_A1 = "Unitree A1 a1.urdf: "
_A1_TRUNK = _A1 + "trunk inertial"
_A1_IMU = _A1 + "imu_link inertial (at the trunk origin)"
_A1_HIP = _A1 + "FR_hip inertial"
_A1_THIGH = _A1 + "FR_thigh inertial"
_A1_CALF = _A1 + "FR_calf inertial"
_A1_FOOT = _A1 + "FR_foot inertial"
A1_BODIES = ("trunk", "imu", "hip", "thigh", "calf", "foot")
INERTIA_COMPONENTS = ("xx", "yy", "zz", "xy", "xz", "yz")  # the order of Inertial.inertia


@dataclass(frozen=True)
class QuadrupedParams:
    """Every number the quadruped model uses, in SI units (the standing posture in
    degrees), each with its unit, valid range and source. The A1 inertials are fields too
    (``m_<body>``, CoM ``c_<body>_<axis>``, inertia ``I_<body>_<xx..yz>`` about the CoM in
    the A1 link frame), so an override reaches the hand model and the descriptions alike."""

    ROBOT: ClassVar[str] = "quadruped"

    l_2: float = param(0.2, "m", "(0, inf)", "Unitree A1 a1.urdf: FR_calf_joint origin z = -0.2",
                       "thigh length a_2 of Table 1")
    l_3: float = param(0.2, "m", "(0, inf)", "Unitree A1 a1.urdf: FR_foot_fixed origin z = -0.2",
                       "shank length a_3 of Table 1")
    hip_x: float = param(0.1805, "m", "[0, inf)", "Unitree A1 a1.urdf: FR_hip_joint origin x",
                         "HAA joint, forward of the trunk origin")
    hip_y: float = param(
        0.047, "m", "[0, inf)",
        "Unitree A1 a1.urdf: FR_hip_joint origin y; the A1's 0.0838 m HAA-HFE offset "
        "is dropped, Table 1 has a_1 = d_2 = 0",
        "HAA joint, beside the trunk origin")
    g: float = param(9.81, "m/s^2", "(0, inf)", "standard gravity", "gravity")
    foot_radius: float = param(0.02, "m", "(0, inf)",
                               "Unitree A1 a1.urdf: FR_foot collision sphere",
                               "foot sphere for native contact")
    # standing posture of Fig. 1.d; see FRAMES.md for the reading of section 2
    theta_1_stand_deg: float = param(
        90.0, "deg", "[-180, 180]",
        "section 2, Fig. 1.b: links 2 and 3 turned 90 deg about HAA",
        "standing posture, HAA angle")
    theta_2_stand_deg: float = param(45.0, "deg", "[-180, 180]",
                                     "section 2, Fig. 1.c: link 2 turned 45 deg",
                                     "standing posture, HFE angle")
    theta_3_stand_deg: float = param(
        -90.0, "deg", "[-180, 180]",
        "section 2, Fig. 1.d: link 3 at 45 deg the other way, i.e. "
        "-90 deg from link 2, which puts the foot under the hip (interpretation)",
        "standing posture, KFE angle")
    # ASSUMPTIONS for the scenarios (the paper's simulations are open loop, without contact)
    K_P: float = param(
        80.0, "N m/rad", "(-inf, inf)",
        "assumption: joint PD for the closed-loop scenarios (L4); the section-6 round "
        "trip is open loop",
        "joint PD stiffness on top of the feedforward")
    K_D: float = param(
        2.0, "N m s/rad", "(-inf, inf)",
        "assumption: K_D / (shank inertia about the knee) ~ 400 1/s, stable at dt",
        "joint PD damping")
    k_ground: float = param(5.0e4, "N/m", "(0, inf)",
                            "assumption: stiff native contact, 2.5 mm sinkage per foot at rest",
                            "native contact stiffness")
    b_ground: float = param(
        1000.0, "N s/m", "[0, inf)",
        "assumption: about critical damping for a quarter of the mass; at 0.6 of "
        "critical MuJoCo's feet kept a 20 Hz, +-8 N force oscillation with the joint PD",
        "native contact damping")
    mu: float = param(0.6, "-", "[0, inf)", "Unitree A1 a1.urdf: foot mu1 = mu2 = 0.6",
                      "foot friction")
    dt: float = param(1e-3, "s", "[1e-7, inf)",
                      "assumption: 1 kHz, the rate of the A1's joint controllers",
                      "step of every implementation in the scenarios")
    tau_max: float = param(33.5, "N m", "(0, inf)",
                           "Unitree A1 a1.urdf: joint effort limit",
                           "joint torque limit (the descriptions' effort)")
    m_trunk: float = param(6.0, "kg", "(0, inf)", _A1_TRUNK, "trunk mass")
    c_trunk_x: float = param(0.0, "m", "(-inf, inf)", _A1_TRUNK, "trunk CoM x")
    c_trunk_y: float = param(0.0041, "m", "(-inf, inf)", _A1_TRUNK, "trunk CoM y")
    c_trunk_z: float = param(-0.0005, "m", "(-inf, inf)", _A1_TRUNK, "trunk CoM z")
    I_trunk_xx: float = param(0.0158533, "kg m^2", "(0, inf)", _A1_TRUNK, "trunk inertia xx")
    I_trunk_yy: float = param(0.0377999, "kg m^2", "(0, inf)", _A1_TRUNK, "trunk inertia yy")
    I_trunk_zz: float = param(0.0456542, "kg m^2", "(0, inf)", _A1_TRUNK, "trunk inertia zz")
    I_trunk_xy: float = param(-3.66e-05, "kg m^2", "(-inf, inf)", _A1_TRUNK, "trunk inertia xy")
    I_trunk_xz: float = param(-6.11e-05, "kg m^2", "(-inf, inf)", _A1_TRUNK, "trunk inertia xz")
    I_trunk_yz: float = param(-2.75e-05, "kg m^2", "(-inf, inf)", _A1_TRUNK, "trunk inertia yz")
    m_imu: float = param(0.001, "kg", "(0, inf)", _A1_IMU, "imu mass")
    c_imu_x: float = param(0.0, "m", "(-inf, inf)", _A1_IMU, "imu CoM x")
    c_imu_y: float = param(0.0, "m", "(-inf, inf)", _A1_IMU, "imu CoM y")
    c_imu_z: float = param(0.0, "m", "(-inf, inf)", _A1_IMU, "imu CoM z")
    I_imu_xx: float = param(1e-4, "kg m^2", "(0, inf)", _A1_IMU, "imu inertia xx")
    I_imu_yy: float = param(1e-4, "kg m^2", "(0, inf)", _A1_IMU, "imu inertia yy")
    I_imu_zz: float = param(1e-4, "kg m^2", "(0, inf)", _A1_IMU, "imu inertia zz")
    I_imu_xy: float = param(0.0, "kg m^2", "(-inf, inf)", _A1_IMU, "imu inertia xy")
    I_imu_xz: float = param(0.0, "kg m^2", "(-inf, inf)", _A1_IMU, "imu inertia xz")
    I_imu_yz: float = param(0.0, "kg m^2", "(-inf, inf)", _A1_IMU, "imu inertia yz")
    m_hip: float = param(0.696, "kg", "(0, inf)", _A1_HIP, "hip mass")
    c_hip_x: float = param(-0.003311, "m", "(-inf, inf)", _A1_HIP, "hip CoM x")
    c_hip_y: float = param(-0.000635, "m", "(-inf, inf)", _A1_HIP, "hip CoM y")
    c_hip_z: float = param(3.1e-05, "m", "(-inf, inf)", _A1_HIP, "hip CoM z")
    I_hip_xx: float = param(0.000469246, "kg m^2", "(0, inf)", _A1_HIP, "hip inertia xx")
    I_hip_yy: float = param(0.00080749, "kg m^2", "(0, inf)", _A1_HIP, "hip inertia yy")
    I_hip_zz: float = param(0.000552929, "kg m^2", "(0, inf)", _A1_HIP, "hip inertia zz")
    I_hip_xy: float = param(9.409e-06, "kg m^2", "(-inf, inf)", _A1_HIP, "hip inertia xy")
    I_hip_xz: float = param(-3.42e-07, "kg m^2", "(-inf, inf)", _A1_HIP, "hip inertia xz")
    I_hip_yz: float = param(4.66e-07, "kg m^2", "(-inf, inf)", _A1_HIP, "hip inertia yz")
    m_thigh: float = param(1.013, "kg", "(0, inf)", _A1_THIGH, "thigh mass")
    c_thigh_x: float = param(-0.003237, "m", "(-inf, inf)", _A1_THIGH, "thigh CoM x")
    c_thigh_y: float = param(0.022327, "m", "(-inf, inf)", _A1_THIGH, "thigh CoM y")
    c_thigh_z: float = param(-0.027326, "m", "(-inf, inf)", _A1_THIGH, "thigh CoM z")
    I_thigh_xx: float = param(0.005529065, "kg m^2", "(0, inf)", _A1_THIGH, "thigh inertia xx")
    I_thigh_yy: float = param(0.005139339, "kg m^2", "(0, inf)", _A1_THIGH, "thigh inertia yy")
    I_thigh_zz: float = param(0.001367788, "kg m^2", "(0, inf)", _A1_THIGH, "thigh inertia zz")
    I_thigh_xy: float = param(-4.825e-06, "kg m^2", "(-inf, inf)", _A1_THIGH, "thigh inertia xy")
    I_thigh_xz: float = param(0.000343869, "kg m^2", "(-inf, inf)", _A1_THIGH, "thigh inertia xz")
    I_thigh_yz: float = param(-2.2448e-05, "kg m^2", "(-inf, inf)", _A1_THIGH, "thigh inertia yz")
    m_calf: float = param(0.166, "kg", "(0, inf)", _A1_CALF, "calf mass")
    c_calf_x: float = param(0.006435, "m", "(-inf, inf)", _A1_CALF, "calf CoM x")
    c_calf_y: float = param(0.0, "m", "(-inf, inf)", _A1_CALF, "calf CoM y")
    c_calf_z: float = param(-0.107388, "m", "(-inf, inf)", _A1_CALF, "calf CoM z")
    I_calf_xx: float = param(0.002997972, "kg m^2", "(0, inf)", _A1_CALF, "calf inertia xx")
    I_calf_yy: float = param(0.003014022, "kg m^2", "(0, inf)", _A1_CALF, "calf inertia yy")
    I_calf_zz: float = param(3.2426e-05, "kg m^2", "(0, inf)", _A1_CALF, "calf inertia zz")
    I_calf_xy: float = param(0.0, "kg m^2", "(-inf, inf)", _A1_CALF, "calf inertia xy")
    I_calf_xz: float = param(-0.000141163, "kg m^2", "(-inf, inf)", _A1_CALF, "calf inertia xz")
    I_calf_yz: float = param(0.0, "kg m^2", "(-inf, inf)", _A1_CALF, "calf inertia yz")
    m_foot: float = param(0.06, "kg", "(0, inf)", _A1_FOOT, "foot mass")
    c_foot_x: float = param(0.0, "m", "(-inf, inf)", _A1_FOOT, "foot CoM x")
    c_foot_y: float = param(0.0, "m", "(-inf, inf)", _A1_FOOT, "foot CoM y")
    c_foot_z: float = param(-0.2, "m", "(-inf, inf)", _A1_FOOT, "foot CoM z")
    I_foot_xx: float = param(9.6e-06, "kg m^2", "(0, inf)", _A1_FOOT, "foot inertia xx")
    I_foot_yy: float = param(9.6e-06, "kg m^2", "(0, inf)", _A1_FOOT, "foot inertia yy")
    I_foot_zz: float = param(9.6e-06, "kg m^2", "(0, inf)", _A1_FOOT, "foot inertia zz")
    I_foot_xy: float = param(0.0, "kg m^2", "(-inf, inf)", _A1_FOOT, "foot inertia xy")
    I_foot_xz: float = param(0.0, "kg m^2", "(-inf, inf)", _A1_FOOT, "foot inertia xz")
    I_foot_yz: float = param(0.0, "kg m^2", "(-inf, inf)", _A1_FOOT, "foot inertia yz")

    @property
    def theta_stand(self) -> np.ndarray:
        """Joint angles (theta_1, theta_2, theta_3) of the standing posture [rad]."""
        return np.radians([self.theta_1_stand_deg, self.theta_2_stand_deg,
                           self.theta_3_stand_deg])

    def with_(self, **changes: float) -> QuadrupedParams:
        return replace(self, **changes)

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
