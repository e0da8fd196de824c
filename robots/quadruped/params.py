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

import numpy as np

from robots import Param, front_sign, side_sign

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


# --- Unitree A1, a1.urdf (unitree_ros commit 0cbd88e), the right-side (FR) values; the
# left legs are the mirror image (y -> -y), as in the A1 file.  A1 link frames: origin at
# the joint, axes parallel to the trunk's with the leg hanging straight down.
A1_TRUNK = Inertial(6.0, (0.0, 0.0041, -0.0005),
                    (0.0158533, 0.0377999, 0.0456542, -3.66e-05, -6.11e-05, -2.75e-05))
A1_IMU = Inertial(0.001, (0.0, 0.0, 0.0), (1e-4, 1e-4, 1e-4, 0.0, 0.0, 0.0))  # at trunk origin
A1_HIP_FR = Inertial(0.696, (-0.003311, -0.000635, 3.1e-05),
                     (0.000469246, 0.00080749, 0.000552929, 9.409e-06, -3.42e-07, 4.66e-07))
A1_THIGH_FR = Inertial(1.013, (-0.003237, 0.022327, -0.027326),
                       (0.005529065, 0.005139339, 0.001367788, -4.825e-06, 0.000343869,
                        -2.2448e-05))
A1_CALF = Inertial(0.166, (0.006435, 0.0, -0.107388),
                   (0.002997972, 0.003014022, 3.2426e-05, 0.0, -0.000141163, 0.0))
A1_FOOT = Inertial(0.06, (0.0, 0.0, -0.2), (9.6e-06, 9.6e-06, 9.6e-06, 0.0, 0.0, 0.0))


@dataclass(frozen=True)
class QuadrupedParams:
    """Every scalar the quadruped model uses, in SI units."""

    l_2: float = 0.2  # thigh length a_2 of Table 1 [m] (A1 FR_calf_joint z offset)
    l_3: float = 0.2  # shank length a_3 of Table 1 [m] (A1 FR_foot_fixed z offset)
    hip_x: float = 0.1805  # HAA joint, forward of the trunk origin [m] (A1 FR_hip_joint)
    hip_y: float = 0.047  # HAA joint, beside the trunk origin [m] (A1 FR_hip_joint)
    g: float = 9.81  # gravity [m/s^2]
    foot_radius: float = 0.02  # foot sphere for native contact [m] (A1 FR_foot collision)
    # standing posture of Fig. 1.d [deg]; see FRAMES.md for the reading of section 2
    theta_1_stand_deg: float = 90.0
    theta_2_stand_deg: float = 45.0
    theta_3_stand_deg: float = -90.0
    # ASSUMPTIONS for the scenarios (the paper's simulations are open loop, without contact)
    K_P: float = 80.0  # joint PD stiffness on top of the feedforward [N m/rad]
    K_D: float = 2.0  # joint PD damping [N m s/rad]
    k_ground: float = 5.0e4  # native contact stiffness [N/m]
    b_ground: float = 1000.0  # native contact damping [N s/m]
    mu: float = 0.6  # foot friction (A1 a1.urdf gazebo foot mu1)
    dt: float = 1e-3  # step of every implementation in the scenarios [s]

    @property
    def theta_stand(self) -> np.ndarray:
        """Joint angles (theta_1, theta_2, theta_3) of the standing posture [rad]."""
        return np.radians([self.theta_1_stand_deg, self.theta_2_stand_deg,
                           self.theta_3_stand_deg])

    def with_(self, **changes: float) -> QuadrupedParams:
        return replace(self, **changes)


PARAMS = QuadrupedParams()

SOURCES: dict[str, str] = {
    "l_2": "Unitree A1 a1.urdf: FR_calf_joint origin z = -0.2",
    "l_3": "Unitree A1 a1.urdf: FR_foot_fixed origin z = -0.2",
    "hip_x": "Unitree A1 a1.urdf: FR_hip_joint origin x",
    "hip_y": "Unitree A1 a1.urdf: FR_hip_joint origin y; the A1's 0.0838 m HAA-HFE offset "
    "is dropped, Table 1 has a_1 = d_2 = 0",
    "g": "standard gravity",
    "foot_radius": "Unitree A1 a1.urdf: FR_foot collision sphere",
    "theta_1_stand_deg": "section 2, Fig. 1.b: links 2 and 3 turned 90 deg about HAA",
    "theta_2_stand_deg": "section 2, Fig. 1.c: link 2 turned 45 deg",
    "theta_3_stand_deg": "section 2, Fig. 1.d: link 3 at 45 deg the other way, i.e. "
    "-90 deg from link 2, which puts the foot under the hip (interpretation)",
    "K_P": "assumption: joint PD for the closed-loop scenarios (L4); the section-6 round "
    "trip is open loop",
    "K_D": "assumption: K_D / (shank inertia about the knee) ~ 400 1/s, stable at dt",
    "k_ground": "assumption: stiff native contact, 2.5 mm sinkage per foot at rest",
    "b_ground": "assumption: about critical damping for a quarter of the mass; at 0.6 of "
    "critical MuJoCo's feet kept a 20 Hz, +-8 N force oscillation with the joint PD",
    "mu": "Unitree A1 a1.urdf: foot mu1 = mu2 = 0.6",
    "dt": "assumption: 1 kHz, the rate of the A1's joint controllers",
}

UNITS: dict[str, str] = {
    "l_2": "m", "l_3": "m", "hip_x": "m", "hip_y": "m", "g": "m/s^2", "foot_radius": "m",
    "theta_1_stand_deg": "deg", "theta_2_stand_deg": "deg", "theta_3_stand_deg": "deg",
    "K_P": "N m/rad", "K_D": "N m s/rad", "k_ground": "N/m", "b_ground": "N s/m", "mu": "-",
    "dt": "s",
}


def table(p: QuadrupedParams = PARAMS) -> list[Param]:
    """The parameter table for the report appendix (the A1 inertials are listed by
    ``inertial_table``)."""
    return [Param(k, float(getattr(p, k)), UNITS[k], SOURCES[k]) for k in SOURCES]



def p_B0(leg: str, p: QuadrupedParams = PARAMS) -> np.ndarray:
    """Origin of the leg's frame 0 (the HAA joint) in the body frame [m]."""
    return np.array([front_sign(leg) * p.hip_x, side_sign(leg) * p.hip_y, 0.0])


def rot_x(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def rot_z(a: float) -> np.ndarray:
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


def body_inertial() -> Inertial:
    """Trunk with the IMU lumped in, in the body frame B."""
    return _lump(A1_TRUNK, A1_IMU)


def leg_inertials(leg: str) -> list[Inertial]:
    """Inertials of links 1 (hip), 2 (thigh), 3 (shank + foot) of ``leg`` in D-H frames
    1, 2, 3.  The A1 thigh's frame sits 0.0838 m outboard of the HAA axis; Table 1 puts
    the HFE origin on it, so the thigh and shank keep their inertials about their own
    joints and move inboard with them."""
    hip, thigh, calf = A1_HIP_FR, A1_THIGH_FR, _lump(A1_CALF, A1_FOOT)
    if side_sign(leg) > 0:
        hip, thigh, calf = _mirror(hip), _mirror(thigh), _mirror(calf)
    return [_rotated(i, R) for i, R in zip((hip, thigh, calf), R_B_dh_hanging(), strict=True)]


def total_mass() -> float:
    return body_inertial().mass + sum(i.mass for leg in LEGS for i in leg_inertials(leg))
