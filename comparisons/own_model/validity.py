"""A description's values checked before any engine is given the file.

Given a value no body can have, the engines do not say which: Pinocchio stops on an
assertion about symmetry for a zero joint axis or a NaN mass, PyBullet raises a
SystemError for a negative mass, MuJoCo computes terms that are NaN.  So the file is read
once here, and the first such value is a DescriptionError in one sentence naming the file,
the element and the value as written: a moving joint's axis that is zero or not finite, a
mass that is negative or not finite, an inertia entry, a position or an orientation that
is not finite, an MJCF ``<include>`` of a file that is not there, and a file that is not
UTF-8 or not well-formed XML (:func:`dynval.engines.description_files.read_xml`).

An inertia that is finite but impossible (a negative principal moment, a broken triangle
inequality) is not stopped here: real descriptions carry such links (tiago's antennas,
romeo_laas_small's body), one engine refuses them and the others go on, and the audit
names the link as a finding about the file (``Prepared.findings``)."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

from dynval.engines import DescriptionError
from dynval.engines.description_files import read_xml
from dynval.engines.mjcf_tree import Placed, assembled

URDF_MOVING = ("revolute", "continuous", "prismatic")  # the URDF joints an axis moves
URDF_INERTIA = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
MJCF_FINITE = ("pos", "quat", "euler", "axis", "axisangle", "xyaxes", "zaxis", "fromto",
               "mass", "diaginertia", "fullinertia")
MJCF_AXISLESS = ("ball", "free")  # MJCF joints that read no axis


def check(path: Path) -> None:
    """Raise a DescriptionError naming the first value in the file (or an MJCF's included
    files) that no engine should be given; nothing when there is none, or when the root
    element is neither ``<robot>`` nor ``<mujoco>`` (preparing the file says so)."""
    kind = "URDF" if path.suffix.lower() == ".urdf" else "MJCF"
    root = read_xml(path, kind)
    if root.tag.rpartition("}")[2] == "robot":
        problems = [(path, p) for p in urdf_problems(root)]
    elif root.tag == "mujoco":
        problems = mjcf_problems(path, root)
    else:
        return
    if problems:
        where, first = problems[0]
        more = len(problems) - 1
        raise DescriptionError(f"{where}: {first}" + (f" (and {more} more such "
                                                       f"{'value' if more == 1 else 'values'})"
                                                       if more else ""))


# --- one value --------------------------------------------------------------------------------

def _numbers(raw: str | None) -> list[float] | None:
    """The numbers an attribute holds, or None when it is absent or holds something else
    (which the engines' own readers name)."""
    try:
        return [float(x) for x in raw.split()] if raw else None
    except ValueError:
        return None


def _said(label: str, attr: str, raw: str | None, why: str) -> str:
    return f"{label} {attr} is '{raw}': {why}"


def _not_finite(label: str, element: ET.Element | None, attrs: Sequence[str]) -> list[str]:
    """A sentence for each of ``attrs`` of ``element`` that holds a NaN or an infinity."""
    if element is None:
        return []
    return [_said(label, attr, element.get(attr), "it must be finite")
            for attr in attrs
            if (values := _numbers(element.get(attr))) and not all(map(math.isfinite, values))]


def _zero_axis(label: str, attr: str, raw: str | None) -> list[str]:
    """A sentence when a finite axis is zero: the joint would move along nothing."""
    values = _numbers(raw)
    if values and all(map(math.isfinite, values)) and not any(values):
        return [_said(label, attr, raw, "a moving joint's axis must not be zero")]
    return []


def _negative(label: str, element: ET.Element, attr: str, what: str) -> list[str]:
    """A sentence when ``attr`` holds a negative number (NaN and infinities are named by
    :func:`_not_finite`)."""
    values = _numbers(element.get(attr))
    if values and any(v < 0 for v in values):
        return [_said(label, attr, element.get(attr), f"{what} must not be negative")]
    return []


# --- URDF ---------------------------------------------------------------------------------------

def urdf_problems(robot: ET.Element) -> list[str]:
    """One sentence per bad value of a URDF's joints and inertials."""
    out: list[str] = []
    for joint in robot.findall("joint"):
        label = f"joint '{joint.get('name', '?')}'"
        out += _not_finite(f"{label} <origin>", joint.find("origin"), ("xyz", "rpy"))
        if joint.get("type") in URDF_MOVING:
            axis = joint.find("axis")
            out += _not_finite(f"{label} <axis>", axis, ("xyz",))
            out += _zero_axis(f"{label} <axis>", "xyz",
                              "1 0 0" if axis is None else axis.get("xyz", "1 0 0"))
    for link in robot.findall("link"):
        inertial = link.find("inertial")
        if inertial is not None:
            out += _urdf_inertial(f"link '{link.get('name', '?')}' <inertial>", inertial)
    return out


def _urdf_inertial(label: str, inertial: ET.Element) -> list[str]:
    """The bad values of one ``<inertial>``: its origin, mass and inertia."""
    mass, inertia = inertial.find("mass"), inertial.find("inertia")
    out = _not_finite(f"{label}<origin>", inertial.find("origin"), ("xyz", "rpy"))
    if mass is not None:
        out += _not_finite(f"{label}<mass>", mass, ("value",))
        out += _negative(f"{label}<mass>", mass, "value", "a mass")
    out += _not_finite(f"{label}<inertia>", inertia, URDF_INERTIA)
    return out


# --- MJCF ---------------------------------------------------------------------------------------

def mjcf_problems(path: Path, root: ET.Element) -> list[tuple[Path, str]]:
    """(file, sentence) per bad value of an MJCF and the files it includes; an include of
    a file that is not there is a DescriptionError at once."""
    return [(placed.source, said) for placed in assembled(path, root)
            for said in _mjcf_element(placed)]


def _mjcf_label(placed: Placed) -> str:
    """How a sentence names an element: by its name, else by its body (or section) and
    tag, e.g. ``joint 'hip'``, ``body #3 (child of 'torso') <inertial>``, ``<default>
    <joint>``."""
    element, body = placed.element, placed.body
    if element.get("name"):
        return f"{element.tag} '{element.get('name')}'"
    if element.tag == "body" and body is not None:
        return f"body {body.name}"
    owner = (f"body '{body.name}'" if body.named else f"body {body.name}") if body else \
        f"<{placed.section}>"
    return f"{owner} <{element.tag}>"


def _mjcf_element(placed: Placed) -> list[str]:
    """The bad values of one MJCF element: any position, orientation, axis, mass or
    inertia that is not finite, a hinge or slide axis that is zero, a negative mass."""
    element = placed.element
    label = _mjcf_label(placed)
    out = _not_finite(label, element, MJCF_FINITE)
    if element.tag == "joint" and placed.section == "worldbody" and \
            element.get("type", "hinge") not in MJCF_AXISLESS:
        out += _zero_axis(label, "axis", element.get("axis"))
        if not element.get("name"):  # MuJoCo itself crashes on looking up a nameless one
            out.append(f"{label} (a {element.get('type', 'hinge')}) has no name, and dynval "
                       "matches a joint across the engines by its name: name it")
    return out + _negative(label, element, "mass", "a mass")
