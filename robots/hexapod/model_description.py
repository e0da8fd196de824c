"""The planar hexapod as link trees in the engine frame W (x forward, y left, z up), in the
variants the ladder can use.

*hexapod*: the paper's robot: n/2 body segments, each translating in the x-z plane on its
own slide x / slide z pair from the ground (the hip coordinates x_iH, y_iH of eq. 6 as
absolute joint coordinates; eq. (10)'s spring-dashpots act between adjacent segments as
forces on these slides), two legs per segment (left at +y, right at -y), each with a hip
and a knee revolute joint about -y and a foot mass at the shank tip. The slide-x links are
massless: the URDF keeps them as links, the MJCF (where a moving body must have mass)
folds each into its segment's body as that body's first joint, exactly the same tree.
*hexapod_leg*: one leg (LF) with its hip point of mass M_b / n on slide x / slide z: the
four coordinates Theta = [x_iH, y_iH, theta_i1, theta_i2] of eq. (6). MJCF and URDF.
*hexapod_fixed*: the segments welded to the world at the hip height H_B, the twelve leg
joints free: the legs' kinematics and dynamics audit. MJCF and URDF.
*hexapod_rigid*: the segments welded into one body on a free joint (the limit of stiff
eq. (10) springs; the free body can pitch, which the paper's translating segments
cannot). MJCF and URDF.
"""

from __future__ import annotations

import numpy as np

from dynval.robots.description import Description, Inertial, Link, Shape
from dynval.robots.hexapod.params import PARAMS, HexapodParams, leg_names, station_x

PITCH_AXIS = (0.0, -1.0, 0.0)  # planar angles: counter-clockwise in x-z (x right, z up)
VARIANTS = ("hexapod", "hexapod_leg", "hexapod_fixed", "hexapod_rigid")
MASSLESS = Inertial(0.0, (0.0, 0.0, 0.0), ((0.0, 0.0, 0.0),) * 3)


def robot_joints(p: HexapodParams = PARAMS) -> list[str]:
    """The whole robot's joints in the hand model's coordinate order (FRAMES.md)."""
    segs = [f"seg{m + 1}_{a}" for m in range(p.n_seg) for a in ("x", "z")]
    return segs + [f"{leg}_{j}" for leg in leg_names(p) for j in ("hip", "knee")]


def robot_offset(p: HexapodParams = PARAMS) -> np.ndarray:
    """Hand coordinates minus engine coordinates: the stations and H_B on the slides."""
    off = np.zeros(2 * p.n_seg + 2 * p.n)
    off[0:2 * p.n_seg:2] = station_x(p)
    off[1:2 * p.n_seg:2] = p.H_B
    return off


def _diag(a: float, b: float, c: float):
    return ((a, 0.0, 0.0), (0.0, b, 0.0), (0.0, 0.0, c))


def rod_pitch_inertia(M: float, L: float, r: float) -> float:
    """Inertia of a solid cylinder (mass M, length L, radius r) about a transverse axis
    through its centre, M (3 r^2 + L^2) / 12 [kg m^2]: the planar link inertia I_ij."""
    return M * (3.0 * r * r + L * L) / 12.0


def foot_inertia(p: HexapodParams) -> float:
    """Inertia of the solid foot sphere about its centre, 2/5 M_if r_F^2 [kg m^2]."""
    return 0.4 * p.M_if * p.r_F**2


def segment_inertia(p: HexapodParams, m: float) -> tuple[float, float, float]:
    """Principal inertias of a uniform box segment S_P x w_b x h_b of mass m [kg m^2]."""
    a, b, c = p.S_P, p.w_b, p.h_b
    return m * (b * b + c * c) / 12, m * (a * a + c * c) / 12, m * (a * a + b * b) / 12


def _leg(p: HexapodParams, name: str, parent: str, y: float) -> list[Link]:
    """Thigh, shank and foot of one leg whose hip sits at (0, y, 0) of ``parent``."""
    r = p.r_link
    I1, I2, IF = (rod_pitch_inertia(p.M_i1, p.L_i1, r), rod_pitch_inertia(p.M_i2, p.L_i2, r),
                  foot_inertia(p))
    colour = (0.25, 0.45, 0.75, 1.0) if name[0] == "L" else (0.75, 0.35, 0.25, 1.0)
    thigh = Link(name=f"{name}_thigh", parent=parent, joint="revolute",
                 joint_name=f"{name}_hip", axis=PITCH_AXIS, effort=p.tau_max,
                 p_PJ=(0.0, y, 0.0),
                 inertial=Inertial(p.M_i1, (0.0, 0.0, -p.c_i1 * p.L_i1),
                                   _diag(I1, I1, 0.5 * p.M_i1 * r * r)),
                 shapes=(Shape("capsule", (r, 0, 0), (0.0, 0.0, 0.0), (0.0, 0.0, -p.L_i1),
                               colour),))
    shank = Link(name=f"{name}_shank", parent=thigh.name, joint="revolute",
                 joint_name=f"{name}_knee", axis=PITCH_AXIS, effort=p.tau_max,
                 p_PJ=(0.0, 0.0, -p.L_i1),
                 inertial=Inertial(p.M_i2, (0.0, 0.0, -p.c_i2 * p.L_i2),
                                   _diag(I2, I2, 0.5 * p.M_i2 * r * r)),
                 shapes=(Shape("capsule", (0.8 * r, 0, 0), (0.0, 0.0, 0.0),
                               (0.0, 0.0, -p.L_i2), colour),))
    foot = Link(name=f"{name}_foot", parent=shank.name, joint="fixed",
                joint_name=f"{name}_ankle", p_PJ=(0.0, 0.0, -p.L_i2),
                inertial=Inertial(p.M_if, (0.0, 0.0, 0.0), _diag(IF, IF, IF)),
                shapes=(Shape("sphere", (p.r_F, 0, 0), name=f"{name}_foot",
                              rgba=(0.1, 0.1, 0.1, 1.0), collision=True),),
                sites={f"{name}_foot": (0.0, 0.0, 0.0)})
    return [thigh, shank, foot]


def _segment(p: HexapodParams, m: int, parent: str | None, joint: str, p_PJ,
             mass: float, joint_name: str = "", axis=(0.0, 0.0, 1.0)) -> Link:
    Ix, Iy, Iz = segment_inertia(p, mass)
    return Link(name=f"seg{m + 1}", parent=parent, joint=joint,
                joint_name=joint_name or f"seg{m + 1}", axis=axis, p_PJ=p_PJ,
                inertial=Inertial(mass, (0.0, 0.0, 0.0), _diag(Ix, Iy, Iz)),
                shapes=(Shape("box", (0.45 * p.S_P, 0.5 * p.w_b, 0.5 * p.h_b),
                              rgba=(0.8, 0.8, 0.82, 0.9)),))


def _legs_of(p: HexapodParams, m: int, parent: str) -> list[Link]:
    names = leg_names(p)
    out = []
    for name in names[2 * m: 2 * m + 2]:
        out += _leg(p, name, parent, 0.5 * p.w_b if name[0] == "L" else -0.5 * p.w_b)
    return out


def hexapod_description(variant: str = "hexapod", p: HexapodParams = PARAMS) -> Description:
    """One of the variants named in the module docstring."""
    xs = station_x(p)
    ground = Link(name="ground", parent=None, joint="fixed")
    links: list[Link] = []
    if variant == "hexapod":
        links.append(ground)
        for m, x in enumerate(xs):
            slide_x = Link(name=f"seg{m + 1}_x", parent="ground", joint="prismatic",
                           joint_name=f"seg{m + 1}_x", axis=(1.0, 0.0, 0.0),
                           p_PJ=(x, 0.0, 0.0), inertial=MASSLESS)
            links += [slide_x, _segment(p, m, slide_x.name, "prismatic", (0.0, 0.0, p.H_B),
                                        p.m_seg, f"seg{m + 1}_z")]
            links += _legs_of(p, m, f"seg{m + 1}")
    elif variant == "hexapod_leg":
        slide_x = Link(name="hip_x", parent="ground", joint="prismatic", joint_name="hip_x",
                       axis=(1.0, 0.0, 0.0), inertial=MASSLESS)
        m_H = p.M_b / p.n
        hip = Link(name="hip", parent="hip_x", joint="prismatic", joint_name="hip_z",
                   axis=(0.0, 0.0, 1.0), p_PJ=(0.0, 0.0, p.H_B),
                   inertial=Inertial(m_H, (0.0, 0.0, 0.0), _diag(*[1e-3 * m_H] * 3)),
                   shapes=(Shape("sphere", (0.05, 0, 0), rgba=(0.8, 0.8, 0.82, 0.9)),))
        links += [ground, slide_x, hip] + _leg(p, leg_names(p)[0], "hip", 0.0)
    elif variant == "hexapod_fixed":
        links.append(ground)
        for m, x in enumerate(xs):
            links.append(_segment(p, m, "ground", "fixed", (x, 0.0, p.H_B), p.m_seg))
            links += _legs_of(p, m, f"seg{m + 1}")
    elif variant == "hexapod_rigid":
        mid = len(xs) // 2
        root = _segment(p, mid, None, "free", (xs[mid], 0.0, p.H_B), p.m_seg, "root")
        links.append(root)
        for m, x in enumerate(xs):
            if m != mid:
                links.append(_segment(p, m, root.name, "fixed", (x - xs[mid], 0.0, 0.0),
                                      p.m_seg))
            links += _legs_of(p, m, f"seg{m + 1}")
    else:
        raise ValueError(f"unknown hexapod variant {variant!r}; use one of "
                         f"{', '.join(VARIANTS)}")
    # MJCF folds each massless slide-x link into its segment as the body's first joint
    # (dynval.robots.description._carrier_slide), so every variant has both files
    return Description(variant, tuple(links), (0.0, 0.0, -p.g), 1.0 / p.f_sr)
