"""A URDF written from Drake's reading of an SDF, so that MuJoCo, PyBullet and Pinocchio
(none of which reads SDF here: MuJoCo has no SDF reader, this Pinocchio is built without
SDFormat, and PyBullet's ``loadSDF`` wants a world and joint limits) are compared with
Drake on Drake's numbers: the algorithms, not the readers.

One link per Drake body, in the body's own frame, with its mass, centre of mass and
rotational inertia about the centre in body axes; one joint per Drake revolute,
prismatic or weld joint, whose origin is the child body's pose in the parent's at zero
joint coordinate (X_PF X_CM^-1) and whose axis is Drake's, expressed in the child's
frame.  Bodies that no joint moves are welded to a massless ``world`` link; with
``free`` the one root body is the URDF's root link (a floating base).  Any other joint
type has no URDF counterpart: an EngineRefusalError that says dynval does not write it.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import numpy as np

from dynval.engines import EngineRefusalError
from dynval.engines.mujoco_tree import Pose
from dynval.engines.urdf_from_mujoco import WORLD_LINK, _joint, _origin

KINDS = {"revolute": "continuous", "prismatic": "prismatic", "weld": "fixed"}
FREE = ("quaternion_floating", "rpy_floating")


def _pose(X: Any) -> Pose:
    return Pose(np.asarray(X.rotation().matrix(), float), np.asarray(X.translation(), float))


def _inverse(P: Pose) -> Pose:
    return Pose(P.R.T, -P.R.T @ P.p)


def _link(robot: ET.Element, body: Any) -> None:
    from dynval.engines.drake_engine import body_inertial

    link = ET.SubElement(robot, "link", name=body.name())
    y = body_inertial(body)
    if y.mass <= 0.0:
        return
    el = ET.SubElement(link, "inertial")
    _origin(el, Pose(np.eye(3), y.com))
    ET.SubElement(el, "mass", value=repr(y.mass))
    ET.SubElement(el, "inertia", **{k: repr(float(y.inertia[i, j])) for k, (i, j) in (
        ("ixx", (0, 0)), ("ixy", (0, 1)), ("ixz", (0, 2)), ("iyy", (1, 1)), ("iyz", (1, 2)),
        ("izz", (2, 2)))})


def sdf_urdf(path: Path | str, free: bool) -> str:
    """The URDF of Drake's reading of the SDF at ``path`` (module docstring)."""
    from dynval.engines.drake_engine import _read, bodies

    plant, _, _ = _read(Path(path), free_root=False)
    world = plant.world_body().index()
    robot = ET.Element("robot", name=Path(path).stem)
    joints = [plant.get_joint(j) for j in plant.GetJointIndices()]
    welded_to_world = [j for j in joints if j.parent_body().index() == world]
    roots = [j.child_body() for j in welded_to_world if j.type_name() == "weld"]
    if free and len(roots) != 1:
        raise EngineRefusalError(f"{path}: dynval writes a URDF of one tree on one free root, "
                                 f"and Drake reads {len(roots)} root bodies")
    if not free:
        ET.SubElement(robot, "link", name=WORLD_LINK)
    for body in bodies(plant):
        _link(robot, body)
    for j in joints:
        kind = j.type_name()
        if kind in FREE:
            continue
        if kind not in KINDS:
            raise EngineRefusalError(f"{path}: dynval writes no URDF of Drake's {kind} joint "
                                     f"{j.name()!r}")
        parent = j.parent_body()
        if parent.index() == world and free:
            continue  # the free root is no joint's child
        X_CM = _pose(j.frame_on_child().GetFixedPoseInBodyFrame())
        origin = _pose(j.frame_on_parent().GetFixedPoseInBodyFrame()) * _inverse(X_CM)
        axis = None if kind == "weld" else X_CM.R @ np.asarray(
            j.revolute_axis() if kind == "revolute" else j.translation_axis(), float)
        _joint(robot, j.name(), KINDS[kind], WORLD_LINK if parent.index() == world
               else parent.name(), j.child_body().name(), origin, axis)
    ET.indent(robot)
    return ET.tostring(robot, encoding="unicode")

