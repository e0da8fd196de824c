"""A URDF written from MuJoCo's compiled model of an MJCF, so that PyBullet's algorithms
are compared on MuJoCo's numbers (PyBullet's own ``loadMJCF`` reads otherwise and is
asked separately: :mod:`dynval.engines.mjcf_readers`).

One link per MuJoCo body (its name, its frame, MuJoCo's mass, centre of mass and principal
inertia), one massless link per hinge or slide at the joint's anchor; a body with several
joints is a chain of them.  A joint's ``ref`` is built into its origin (a hinge's origin
turned by -ref about its axis, a slide's moved by -ref along it), so that the URDF's joint
coordinate is MuJoCo's qpos (and a limited joint's range is the file's).  The robot is
the tree of the audited joints: on a free joint its body is the root link (a floating
base), else a massless ``world`` link is.  Bodies of other trees (a ball beside the robot)
are left out: they share no term with the robot.
A ball joint in the robot's tree has no URDF counterpart here: an EngineRefusalError that
says dynval does not write it.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence

import mujoco
import numpy as np

from dynval.engines import EngineRefusalError
from dynval.engines.mujoco_tree import Pose, Segment, rotation, segments, site_places

WORLD_LINK = "world"


def _rpy(R: np.ndarray) -> str:
    """URDF's roll, pitch, yaw of R = Rz(yaw) Ry(pitch) Rx(roll), each an atan2: the pitch
    of its sine and cosine (asin(-R[2, 0]) near +-90 deg loses half the digits: a body
    turned so read 5e-9 m off in PyBullet and Drake), the roll of what Rz(yaw) Ry(pitch)
    leaves, so that near gimbal lock, where yaw and roll are each ill-determined, the
    three still compose R to round-off."""
    pitch = math.atan2(-R[2, 0], math.hypot(R[0, 0], R[1, 0]))
    yaw = math.atan2(R[1, 0], R[0, 0])  # 0 at gimbal lock (atan2(0, 0)): the roll takes it
    cy, sy, cp, sp = math.cos(yaw), math.sin(yaw), math.cos(pitch), math.sin(pitch)
    Rzy = np.array([[cy * cp, -sy, cy * sp], [sy * cp, cy, sy * sp], [-sp, 0.0, cp]])
    M = Rzy.T @ R  # Rx(roll)
    roll = math.atan2(M[2, 1], M[1, 1])
    return f"{roll!r} {pitch!r} {yaw!r}"


def _origin(parent: ET.Element, pose: Pose) -> None:
    ET.SubElement(parent, "origin", xyz=" ".join(repr(float(x)) for x in pose.p),
                  rpy=_rpy(pose.R))


def _link(robot: ET.Element, name: str, mass: float = 0.0, inertial: Pose | None = None,
          moments: np.ndarray | None = None) -> None:
    link = ET.SubElement(robot, "link", name=name)
    if mass > 0 and inertial is not None and moments is not None:
        el = ET.SubElement(link, "inertial")
        _origin(el, inertial)
        ET.SubElement(el, "mass", value=repr(float(mass)))
        ET.SubElement(el, "inertia", ixx=repr(float(moments[0])), ixy="0", ixz="0",
                      iyy=repr(float(moments[1])), iyz="0", izz=repr(float(moments[2])))


def _joint(robot: ET.Element, name: str, kind: str, parent: str, child: str, pose: Pose,
           axis: np.ndarray | None = None, limit: Sequence[float] = (-1e6, 1e6)) -> None:
    joint = ET.SubElement(robot, "joint", name=name, type=kind)
    ET.SubElement(joint, "parent", link=parent)
    ET.SubElement(joint, "child", link=child)
    _origin(joint, pose)
    if axis is not None:
        ET.SubElement(joint, "axis", xyz=" ".join(repr(float(a)) for a in axis))
    if kind in ("prismatic", "revolute"):  # the file's range, in MuJoCo's qpos
        ET.SubElement(joint, "limit", lower=repr(float(limit[0])), upper=repr(float(limit[1])),
                      effort="0", velocity="0")


def _with_ref(seg: Segment) -> Pose:
    """The joint's origin with its ref built in (module docstring)."""
    axis = np.asarray(seg.axis, float) / np.linalg.norm(seg.axis)
    if seg.kind == "hinge":
        half = -seg.ref / 2
        turn = rotation(np.r_[math.cos(half), math.sin(half) * axis])
        return seg.placement * Pose(turn, np.zeros(3))
    return seg.placement * Pose(np.eye(3), -seg.ref * axis)


def body_link(body: str, sites: set[str]) -> str:
    """A body's link: its name, unless a site has it (a frame looked up by that name is
    the site's, in MuJoCo as here)."""
    return f"{body} (body)" if body in sites else body


def urdf_text(m: mujoco.MjModel, joints: Sequence[str], free: bool) -> str:
    """The URDF of the tree of ``joints`` in MuJoCo's compiled model (module docstring);
    ``free``: the tree's root moves on its free joint."""
    segs, bodies = segments(m)
    root_of = {}
    for k, s in enumerate(segs):
        root_of[k] = k if s.parent < 0 else root_of[s.parent]
    named = [k for k, s in enumerate(segs) if s.name in joints]
    frees = {root_of[k] for k in named if segs[root_of[k]].kind == "free"}
    if not named:  # a free body alone: the first free root, as MuJoCo's terms take it
        frees = {next((k for k, s in enumerate(segs) if s.kind == "free"), -1)} - {-1}
    if free and len(frees) != 1:
        raise EngineRefusalError("dynval writes a URDF of one tree on one free joint")
    root = next(iter(frees)) if free else -1
    keep = {k for k in range(len(segs)) if root_of[k] == root} if free else \
        {k for k in range(len(segs)) if segs[root_of[k]].kind != "free"}
    balls = [segs[k].name for k in keep if segs[k].kind == "ball"]
    if balls:
        raise EngineRefusalError(f"dynval writes no URDF of ball joint {balls[0]!r} for "
                                 "PyBullet")
    robot = ET.Element("robot", name=mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_MODEL, 0)
                       or "mjcf")
    link_of = {root: WORLD_LINK} if not free else {}
    if not free:
        _link(robot, WORLD_LINK)
    sites = {name for name, _, _ in site_places(m, bodies)}
    for place in bodies:  # the free root's body is the URDF's root link
        if free and place.segment == root and int(m.jnt_bodyid[segs[root].joint]) == place.body:
            link_of[root] = body_link(place.name, sites)
    for k in sorted(keep):
        seg = segs[k]
        if seg.kind == "free":
            continue
        link_of[k] = f"{seg.name} (joint frame)"
        _link(robot, link_of[k])
        limited = bool(m.jnt_limited[seg.joint])
        kind = "prismatic" if seg.kind == "slide" else "revolute" if limited else "continuous"
        _joint(robot, seg.name, kind, link_of[seg.parent], link_of[k], _with_ref(seg),
               seg.axis, m.jnt_range[seg.joint] if limited else (-1e6, 1e6))
    for place in bodies:
        if place.segment not in link_of:
            continue
        inertial = Pose.of(m.body_ipos[place.body], m.body_iquat[place.body])
        link = body_link(place.name, sites)
        _link(robot, link, place.mass, inertial, m.body_inertia[place.body])
        if not (free and link == link_of[root]):  # the free root is no joint's child
            _joint(robot, f"{place.name} (weld)", "fixed", link_of[place.segment], link,
                   place.frame)
    for name, seg, pose in site_places(m, bodies):
        if seg in link_of:
            _link(robot, name)
            _joint(robot, f"{name} (site)", "fixed", link_of[seg], name, pose)
    ET.indent(robot)  # Bullet's XML parser fails on a long line (a robot of 50 bodies)
    return ET.tostring(robot, encoding="unicode")



def body_links(m: mujoco.MjModel, joints: Sequence[str], free: bool
               ) -> tuple[dict[str, tuple[str, Pose]], list[str]]:
    """For :func:`urdf_text`'s URDF: each moving link a body's last joint moves (``<joint>
    (joint frame)``, or the free root's body) mapped to the MuJoCo body and the body's
    frame in the link's frame; and the bodies of MuJoCo's model the URDF leaves out (other
    trees)."""
    segs, bodies = segments(m)
    text = urdf_text(m, joints, free)
    kept = {el.get("name") for el in ET.fromstring(text).iter("link")}
    sites = {name for name, _, _ in site_places(m, bodies)}
    out: dict[str, tuple[str, Pose]] = {}
    for place in bodies:
        if place.segment < 0 or body_link(place.name, sites) not in kept:
            continue
        seg = segs[place.segment]
        if int(m.jnt_bodyid[seg.joint]) != place.body:
            continue  # welded to a moving body
        link = body_link(place.name, sites) if seg.kind == "free" else \
            f"{seg.name} (joint frame)"
        out[link] = (place.name, place.frame)
    return out, [p.name for p in bodies if body_link(p.name, sites) not in kept]


def compiled_urdf(path: str, joints: Sequence[str], free: bool) -> str:
    """:func:`urdf_text` of the MJCF at ``path`` as MuJoCo compiles it (a correct model of
    the file that a URDF's tools can break one way at a time)."""
    from dynval.engines.mujoco_engine import load_model

    return urdf_text(load_model(path), joints, free)
