"""The hopper as a link tree (engine frame W), in the three variants the ladder uses.

*hopper*: the body on a free joint, the hip revolute joint ``hip`` (theta_1) and the
prismatic leg joint ``leg`` (theta_2 = the leg length r, hip to foot): the robot the
scenarios simulate.
*hopper_fixed*: the body welded to the world: the two-joint manipulator of eqs. (1)-(19)
on a still base, for the kinematics and dynamics audits.
*hopper_6dof*: the body hung from the ground by the paper's six passive joints (3
prismatic, then yaw, pitch, roll): the 8-DoF serial chain of Fig. 3. Its base links are
massless, which MuJoCo rejects, so it is written as URDF only (PyBullet and Pinocchio).

The leg's frame sits at the foot and slides along -z of the hip frame, so the tip
offset l_{2,3} of eq. (14) is zero and the leg centre is r_1 above the foot.
"""

from __future__ import annotations

from dynval.robots.description import Description, Inertial, Link, Shape
from dynval.robots.hopper.params import PARAMS, HopperParams, hip_inertia

# Planar angles are counter-clockwise in the x-z plane (x right, z up): about -y.
PITCH_AXIS = (0.0, -1.0, 0.0)
LEG_AXIS = (0.0, 0.0, -1.0)  # h_2 in the hip frame: the leg lengthens downwards
BASE_JOINTS = (("base_x", "prismatic", (1.0, 0.0, 0.0)),
               ("base_y", "prismatic", (0.0, 1.0, 0.0)),
               ("base_z", "prismatic", (0.0, 0.0, 1.0)),
               ("base_yaw", "revolute", (0.0, 0.0, 1.0)),
               ("base_pitch", "revolute", PITCH_AXIS))
VARIANTS = ("hopper", "hopper_fixed", "hopper_6dof")


def _diag(a: float, b: float, c: float):
    return ((a, 0.0, 0.0), (0.0, b, 0.0), (0.0, 0.0, c))


def _body(p: HopperParams, joint: str, parent: str | None = None,
          joint_name: str = "root", axis=(1.0, 0.0, 0.0)) -> Link:
    return Link(name="body", parent=parent, joint=joint, joint_name=joint_name, axis=axis,
                inertial=Inertial(p.M, (0.0, 0.0, 0.0), _diag(p.J, p.J, p.J)),
                shapes=(Shape("cylinder", (0.15, 0, 0), (-0.3, 0.0, 0.0), (0.3, 0.0, 0.0),
                              (0.8, 0.8, 0.82, 0.9)),))


def _leg(p: HopperParams) -> list[Link]:
    I_h = hip_inertia(p)
    hip = Link(name="hip", parent="body", joint="revolute", joint_name="hip", axis=PITCH_AXIS,
               p_PJ=(0.0, 0.0, -p.r_2), inertial=Inertial(p.m_h, (0.0, 0.0, 0.0),
                                                          _diag(I_h, I_h, I_h)),
               shapes=(Shape("sphere", (p.r_h, 0, 0), rgba=(0.25, 0.45, 0.75, 1.0)),))
    leg = Link(name="leg", parent="hip", joint="prismatic", joint_name="leg", axis=LEG_AXIS,
               inertial=Inertial(p.m_l, (0.0, 0.0, p.r_1), _diag(p.J_l, p.J_l, p.J_l_axial)),
               shapes=(Shape("capsule", (0.015, 0, 0), (0.0, 0.0, 0.0), (0.0, 0.0, p.r_0),
                             (0.75, 0.35, 0.25, 1.0)),
                       Shape("sphere", (p.foot_radius, 0, 0), name="foot",
                             rgba=(0.1, 0.1, 0.1, 1.0), collision=True)),
               sites={"foot": (0.0, 0.0, 0.0)})
    return [hip, leg]


def hopper_description(variant: str = "hopper", p: HopperParams = PARAMS) -> Description:
    """One of the variants named in the module docstring."""
    if variant == "hopper":
        base = [_body(p, "free")]
    elif variant == "hopper_fixed":
        base = [_body(p, "fixed")]
    elif variant == "hopper_6dof":
        massless = Inertial(0.0, (0.0, 0.0, 0.0), _diag(0.0, 0.0, 0.0))
        base = [Link(name="ground", parent=None, joint="fixed")]
        for name, kind, axis in BASE_JOINTS:
            base.append(Link(name=name, parent=base[-1].name, joint=kind, joint_name=name,
                             axis=axis, inertial=massless))
        base.append(_body(p, "revolute", base[-1].name, "base_roll"))
    else:
        raise ValueError(f"unknown hopper variant {variant!r}; use one of {', '.join(VARIANTS)}")
    formats = ("urdf",) if variant == "hopper_6dof" else ("mjcf", "urdf")
    return Description(variant, tuple(base + _leg(p)), (0.0, 0.0, -p.g), p.dt, formats)
