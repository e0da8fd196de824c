"""A robot described once as a tree of rigid links, written out as MJCF and URDF.

Every robot's MJCF and URDF are generated from its parameter module through this
tree, so the two files and the hand-rolled model share one source of truth.
All quantities are SI and in the engine world frame W (z up).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.sax.saxutils import quoteattr

import numpy as np

Vec3 = tuple[float, float, float]


@dataclass(frozen=True)
class Inertial:
    """Mass [kg], CoM in the link frame [m], inertia about the CoM in link axes [kg m^2]."""

    mass: float
    com: Vec3
    inertia: tuple[Vec3, Vec3, Vec3]


@dataclass(frozen=True)
class Shape:
    """Visual (and optionally collision) geometry in the link frame."""

    # "box" (size = half extents), "sphere" (size[0] = radius), "capsule" or "cylinder"
    # (radius size[0], from pos to p1)
    kind: str
    size: Vec3 = (0.0, 0.0, 0.0)
    pos: Vec3 = (0.0, 0.0, 0.0)
    p1: Vec3 = (0.0, 0.0, 0.0)
    rgba: tuple[float, float, float, float] = (0.6, 0.6, 0.65, 1.0)
    name: str = ""
    collision: bool = False


@dataclass(frozen=True)
class Link:
    """A rigid link and the joint that connects it to its parent.

    ``joint`` is "free" for a floating root, "fixed" for a welded root, "revolute" or
    "prismatic" otherwise; ``p_PJ`` and ``R_PJ`` place the joint frame (= link frame at
    zero joint position) in the parent link frame.
    """

    name: str
    parent: str | None
    joint: str
    joint_name: str = ""
    axis: Vec3 = (0.0, 0.0, 1.0)
    limit: tuple[float, float] | None = None
    effort: float = 0.0
    p_PJ: Vec3 = (0.0, 0.0, 0.0)
    R_PJ: tuple[Vec3, Vec3, Vec3] = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
    inertial: Inertial | None = None
    shapes: tuple[Shape, ...] = ()
    sites: dict[str, Vec3] = field(default_factory=dict)


@dataclass(frozen=True)
class Description:
    """A named tree of links; the first link is the root."""

    name: str
    links: tuple[Link, ...]
    gravity: Vec3 = (0.0, 0.0, -9.81)
    timestep: float = 1e-3
    # the files written for it; a description with massless moving links (explicit base
    # joints) is URDF only, since MuJoCo rejects moving bodies without mass
    formats: tuple[str, ...] = ("mjcf", "urdf")

    def link(self, name: str) -> Link:
        for link in self.links:
            if link.name == name:
                return link
        raise KeyError(f"description {self.name!r} has no link {name!r}")

    @property
    def actuated_joints(self) -> list[str]:
        return [lk.joint_name for lk in self.links if lk.joint in ("revolute", "prismatic")]

    def children(self, name: str) -> list[Link]:
        return [lk for lk in self.links if lk.parent == name]


def _f(x: float) -> str:
    return repr(float(x))


def _v(v) -> str:
    return " ".join(_f(x) for x in v)


def rotation_to_quat_wxyz(R) -> np.ndarray:
    """Unit quaternion (w, x, y, z) of a rotation matrix (Shepperd's method)."""
    R = np.asarray(R, dtype=float)
    t = np.trace(R)
    if t > 0:
        s = 2.0 * np.sqrt(1.0 + t)
        q = [0.25 * s, (R[2, 1] - R[1, 2]) / s, (R[0, 2] - R[2, 0]) / s, (R[1, 0] - R[0, 1]) / s]
    else:
        i = int(np.argmax(np.diag(R)))
        j, k = (i + 1) % 3, (i + 2) % 3
        s = 2.0 * np.sqrt(1.0 + R[i, i] - R[j, j] - R[k, k])
        q = [0.0, 0.0, 0.0, 0.0]
        q[0] = (R[k, j] - R[j, k]) / s
        q[1 + i] = 0.25 * s
        q[1 + j] = (R[j, i] + R[i, j]) / s
        q[1 + k] = (R[k, i] + R[i, k]) / s
    q = np.array(q)
    return q / np.linalg.norm(q) * (1 if q[0] >= 0 else -1)


def rotation_to_rpy(R) -> np.ndarray:
    """URDF roll-pitch-yaw (R = Rz(yaw) Ry(pitch) Rx(roll))."""
    R = np.asarray(R, dtype=float)
    pitch = np.arctan2(-R[2, 0], np.hypot(R[0, 0], R[1, 0]))
    roll = np.arctan2(R[2, 1], R[2, 2])
    yaw = np.arctan2(R[1, 0], R[0, 0])
    return np.array([roll, pitch, yaw])


def _mj_shape(s: Shape) -> str:
    name = f' name="{s.name}"' if s.name else ""
    common = f'{name} contype="0" conaffinity="0" rgba="{_v(s.rgba)}" mass="0"'
    if s.kind == "box":
        return f'<geom{common} type="box" size="{_v(s.size)}" pos="{_v(s.pos)}"/>'
    if s.kind == "sphere":
        return f'<geom{common} type="sphere" size="{_f(s.size[0])}" pos="{_v(s.pos)}"/>'
    if s.kind in ("capsule", "cylinder"):
        return (
            f'<geom{common} type="{s.kind}" size="{_f(s.size[0])}" '
            f'fromto="{_v(s.pos)} {_v(s.p1)}"/>'
        )
    raise ValueError(f"unknown shape kind {s.kind!r}")


_IDENTITY = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))


def _carrier_slide(desc: Description, link: Link) -> Link | None:
    """The only child of ``link`` when ``link`` is a massless slide that MJCF can fold into
    that child as its first joint, else None.

    MuJoCo rejects a moving body without mass, but an MJCF body may carry several joints,
    applied in order from its parent: a massless link on a prismatic joint, without
    rotation, shapes or sites, whose one child moves on its own joint without rotation, is
    exactly that child's body with the slide as its first joint (a translation along a
    fixed axis commutes with the child's own; the two joints' axes stay in the same frame).
    The URDF keeps the two links; the MJCF has one body named after the child."""
    if (link.joint != "prismatic" or link.shapes or link.sites or link.R_PJ != _IDENTITY
            or (link.inertial is not None and link.inertial.mass != 0.0)):
        return None
    kids = desc.children(link.name)
    if (len(kids) != 1 or kids[0].joint not in ("revolute", "prismatic")
            or kids[0].R_PJ != _IDENTITY):
        return None
    return kids[0]


def to_mjcf(desc: Description) -> str:
    """MJCF text: explicit inertials, collision-free geometry (engines switch on foot
    contact themselves when a scenario asks for native contact). A massless slide link
    becomes the first joint of its child's body (:func:`_carrier_slide`)."""
    lines = [
        f'<mujoco model="{desc.name}">',
        '  <compiler angle="radian" autolimits="true"/>',
        f'  <option timestep="{_f(desc.timestep)}" gravity="{_v(desc.gravity)}" '
        'integrator="Euler"/>',
        "  <worldbody>",
    ]

    def joint(link: Link, ind: str) -> None:
        kind = "hinge" if link.joint == "revolute" else "slide"
        rng = f' range="{_v(link.limit)}"' if link.limit else ""
        lines.append(
            f'{ind}  <joint name="{link.joint_name}" type="{kind}" axis="{_v(link.axis)}"'
            f'{rng} damping="0" armature="0" frictionloss="0"/>'
        )

    def body(link: Link, depth: int) -> None:
        ind = "  " * depth
        carried = _carrier_slide(desc, link)
        if carried is not None:  # a massless slide link: its joint goes into its child
            slide, link = link, carried
            pos = np.asarray(slide.p_PJ) + np.asarray(link.p_PJ)
        else:
            slide, pos = None, np.asarray(link.p_PJ)
        quat = rotation_to_quat_wxyz(link.R_PJ)
        lines.append(f'{ind}<body name="{link.name}" pos="{_v(pos)}" quat="{_v(quat)}">')
        if slide is not None:
            joint(slide, ind)
        if link.joint == "free":
            lines.append(f'{ind}  <freejoint name="{link.joint_name or link.name}"/>')
        elif link.joint in ("revolute", "prismatic"):
            joint(link, ind)
        if link.inertial is not None:
            I = np.asarray(link.inertial.inertia)
            order = ((0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2))
            full = " ".join(_f(I[i, j]) for i, j in order)
            lines.append(
                f'{ind}  <inertial pos="{_v(link.inertial.com)}" mass="{_f(link.inertial.mass)}" '
                f'fullinertia="{full}"/>'
            )
        for s in link.shapes:
            lines.append(f"{ind}  " + _mj_shape(s))
        for site, p in link.sites.items():
            lines.append(f'{ind}  <site name="{site}" pos="{_v(p)}" size="0.004"/>')
        for child in desc.children(link.name):
            body(child, depth + 1)
        lines.append(f"{ind}</body>")

    root = desc.links[0]
    body(root, 2)
    lines += ["  </worldbody>", "</mujoco>", ""]
    return "\n".join(lines)


def _urdf_geometry(s: Shape) -> tuple[str, np.ndarray, np.ndarray]:
    if s.kind == "box":
        return f'<box size="{_v(2 * np.asarray(s.size))}"/>', np.asarray(s.pos), np.eye(3)
    if s.kind == "sphere":
        return f'<sphere radius="{_f(s.size[0])}"/>', np.asarray(s.pos), np.eye(3)
    if s.kind in ("capsule", "cylinder"):
        p0, p1 = np.asarray(s.pos, float), np.asarray(s.p1, float)
        d = p1 - p0
        length = float(np.linalg.norm(d))
        z = d / length
        x = np.cross(z, [1.0, 0, 0]) if abs(z[0]) < 0.9 else np.cross(z, [0, 1.0, 0])
        x /= np.linalg.norm(x)
        R = np.column_stack([x, np.cross(z, x), z])
        return (
            f'<cylinder radius="{_f(s.size[0])}" length="{_f(length)}"/>',
            0.5 * (p0 + p1),
            R,
        )
    raise ValueError(f"unknown shape kind {s.kind!r}")


def to_urdf(desc: Description) -> str:
    """URDF text. Sites are left out: PyBullet gives an inertia-less link 1 kg, so
    points such as feet are passed to the engines as (link, offset) instead. Only
    shapes marked ``collision`` get a collision element."""
    out = [f'<robot name="{desc.name}">']
    for link in desc.links:
        out.append(f'  <link name="{link.name}">')
        if link.inertial is not None:
            I = np.asarray(link.inertial.inertia)
            out += [
                "    <inertial>",
                f'      <origin xyz="{_v(link.inertial.com)}" rpy="0 0 0"/>',
                f'      <mass value="{_f(link.inertial.mass)}"/>',
                f'      <inertia ixx="{_f(I[0, 0])}" ixy="{_f(I[0, 1])}" ixz="{_f(I[0, 2])}" '
                f'iyy="{_f(I[1, 1])}" iyz="{_f(I[1, 2])}" izz="{_f(I[2, 2])}"/>',
                "    </inertial>",
            ]
        for s in link.shapes:
            geom, pos, R = _urdf_geometry(s)
            origin = f'<origin xyz="{_v(pos)}" rpy="{_v(rotation_to_rpy(R))}"/>'
            rgba = _v(s.rgba)
            out.append(
                f"    <visual>{origin}<geometry>{geom}</geometry>"
                f'<material name="m_{link.name}"><color rgba="{rgba}"/></material></visual>'
            )
            if s.collision:
                out.append(f"    <collision>{origin}<geometry>{geom}</geometry></collision>")
        out.append("  </link>")
        if link.parent is not None:
            jtype = {"revolute": "revolute", "prismatic": "prismatic", "fixed": "fixed"}[link.joint]
            out.append(f'  <joint name={quoteattr(link.joint_name or link.name)} type="{jtype}">')
            out.append(f'    <parent link="{link.parent}"/><child link="{link.name}"/>')
            out.append(
                f'    <origin xyz="{_v(link.p_PJ)}" rpy="{_v(rotation_to_rpy(link.R_PJ))}"/>'
            )
            if jtype != "fixed":
                lo, hi = link.limit if link.limit else (-1e3, 1e3)
                out.append(f'    <axis xyz="{_v(link.axis)}"/>')
                out.append(
                    f'    <limit lower="{_f(lo)}" upper="{_f(hi)}" effort="{_f(link.effort)}" '
                    'velocity="100.0"/>'
                )
                out.append('    <dynamics damping="0" friction="0"/>')
            out.append("  </joint>")
    out += ["</robot>", ""]
    return "\n".join(out)
