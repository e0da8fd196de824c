"""Must-catch variants: a correct model of a corpus robot (Pinocchio's algorithms on the
description) broken one way at a time, audited against the unbroken description.  Each
must fail, and for an inertial break the regressor must name the link and the parameter.

The breaks, on the heaviest link a revolute joint moves (``_target``, directly or through
welded links; that joint for the axis): its mass 1 % up (centre and inertia about the
centre kept), its centre of mass moved 1 mm across its joint's axis, its joint's axis
reversed, the mass of a link welded to a moving link dropped (its ``<inertial>``
removed), and the sign of C v flipped in the model.  A description without a welded link
with mass has no welded-child variant.  Each row also says how far the break moves the
terms (``effect``): a break the dynamics cannot see is no miss.
"""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from dynval.comparisons.ladder.audit import ROUND_OFF
from dynval.engines import DescriptionError
from dynval.model import ModelError

VARIANTS = ("mass +1 %", "centre of mass +1 mm", "axis reversed", "welded child's mass dropped",
            "C v sign flipped")
INERTIAL = ("mass +1 %", "centre of mass +1 mm", "welded child's mass dropped")
MOVING = ("revolute", "continuous", "prismatic")


@dataclass
class VariantRow:
    """One broken variant's audit: caught or not, by what, and the regressor's account."""

    name: str
    variant: str
    target: str = ""
    caught: bool = False
    effect: float = 0.0  # how far the break moves the terms, relative to their scale
    visible: bool = False  # the effect is above the audit's tolerance
    failed: tuple[str, ...] = ()
    named: str | None = None  # how the regressor named the link (inertial, fixed base)
    finding: str = ""
    error: str = ""
    seconds: float = 0.0


def _rpy(rpy: str) -> np.ndarray:
    """URDF's roll-pitch-yaw as a rotation matrix, Rz(yaw) Ry(pitch) Rx(roll)."""
    r, p, y = (float(x) for x in rpy.split())
    cr, sr, cp, sp, cy, sy = np.cos(r), np.sin(r), np.cos(p), np.sin(p), np.cos(y), np.sin(y)
    return np.array([[cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
                     [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
                     [-sp, cp * sr, cp * cr]])


def _target(robot: ET.Element) -> tuple[str, ET.Element, np.ndarray] | None:
    """(joint name, link element, joint axis in that link's frame) of the link the breaks
    go to: the heaviest link a revolute joint moves (itself or through links welded to the
    one it moves), preferring one with a moving joint above that joint too (a first link
    on a vertical axis leaves its mass unidentifiable); else the heaviest moved link."""
    links = {lk.get("name"): lk for lk in robot.findall("link")}
    by_child = {j.find("child").get("link"): j for j in robot.findall("joint")
                if j.find("child") is not None}
    best = None
    for name, link in links.items():
        mass = link.find("inertial/mass")
        if mass is None or name not in by_child:
            continue
        R = np.eye(3)  # the moving link's axes into this link's, through the welds
        joint = by_child[name]
        while joint.get("type") == "fixed" and joint.find("parent").get("link") in by_child:
            origin = joint.find("origin")
            R = R @ (_rpy(origin.get("rpy", "0 0 0")) if origin is not None else np.eye(3)).T
            joint = by_child[joint.find("parent").get("link")]
        if joint.get("type") not in MOVING:
            continue  # welded to the root
        above = by_child.get(joint.find("parent").get("link"))
        while above is not None and above.get("type") == "fixed":
            above = by_child.get(above.find("parent").get("link"))
        rank = (joint.get("type") != "prismatic", above is not None,
                float(mass.get("value")))
        if best is None or rank > best[0]:
            axis = joint.find("axis")
            xyz = np.array([float(x) for x in (axis.get("xyz") if axis is not None
                                               else "1 0 0").split()])
            best = (rank, joint.get("name"), link, R @ (xyz / np.linalg.norm(xyz)))
    return None if best is None else best[1:]


def _welded_child(robot: ET.Element) -> ET.Element | None:
    """A link with mass welded by a fixed joint to a link a joint moves (first in file)."""
    links = {lk.get("name"): lk for lk in robot.findall("link")}
    moved = {j.find("child").get("link") for j in robot.findall("joint")
             if j.get("type") in MOVING}
    for joint in robot.findall("joint"):
        if joint.get("type") == "fixed" and joint.find("parent").get("link") in moved:
            child = links.get(joint.find("child").get("link"))
            mass = child.find("inertial/mass") if child is not None else None
            if mass is not None and float(mass.get("value")) > 0.0:
                return child
    return None


def break_description(robot: ET.Element, variant: str) -> str | None:
    """Apply one break to the parsed description in place; what it broke (a link or joint
    name), or None where the description has nothing to break that way."""
    target = _target(robot)
    if variant == "welded child's mass dropped":
        child = _welded_child(robot)
        if child is None:
            return None
        child.remove(child.find("inertial"))
        return child.get("name")
    if target is None:
        return None
    joint_name, link, axis = target
    inertial = link.find("inertial")
    if variant == "mass +1 %":
        mass = inertial.find("mass")
        mass.set("value", repr(float(mass.get("value")) * 1.01))
        return link.get("name")
    if variant == "centre of mass +1 mm":
        origin = inertial.find("origin")
        if origin is None:
            origin = ET.SubElement(inertial, "origin")
        # 1 mm across the joint's axis (along it a revolute joint cannot tell), in the link
        # frame, where the origin's xyz is given (its rpy turns only the inertia's axes)
        across = np.cross(axis, [1.0, 0.0, 0.0])
        if np.linalg.norm(across) < 0.5:
            across = np.cross(axis, [0.0, 1.0, 0.0])
        xyz = np.array([float(x) for x in origin.get("xyz", "0 0 0").split()])
        xyz += 1e-3 * across / np.linalg.norm(across)
        origin.set("xyz", " ".join(repr(float(x)) for x in xyz))
        return link.get("name")
    if variant == "axis reversed":
        joint = next(j for j in robot.findall("joint") if j.get("name") == joint_name)
        axis = joint.find("axis")
        if axis is None:
            axis = ET.SubElement(joint, "axis", xyz="1 0 0")
        axis.set("xyz", " ".join(repr(-float(x)) for x in axis.get("xyz").split()))
        return joint_name
    return link.get("name")  # the model's C v, not the description, is broken


def variant_entry(name: str, path: str, base: str, variant: str, samples: int,
                  seed: int) -> VariantRow:
    """One broken variant of one corpus description, audited (L0-L2) against the
    description (the task the corpus's variants run)."""
    from dynval.comparisons.own_model import loading
    from dynval.comparisons.own_model.audit import audit_model
    from dynval.comparisons.own_model.parity import EngineModel
    from dynval.engines.pinocchio_engine import PinocchioFreeRoot, PinocchioTerms

    start = time.perf_counter()
    row = VariantRow(name, variant)
    try:
        prepared = loading.prepare(Path(path))
        robot = ET.parse(str(prepared.path)).getroot()
        target = break_description(robot, variant)
        if target is None:
            row.error = "nothing to break this way"
            return row
        row.target = target
        broken = prepared.path.with_name(f"broken-{VARIANTS.index(variant)}-{prepared.path.name}")
        ET.ElementTree(robot).write(broken, encoding="utf-8", xml_declaration=True)
        joints, _ = loading.description_joints(prepared.path)
        free = base == "free"
        terms = (PinocchioFreeRoot(broken, joint_names=joints) if free
                 else PinocchioTerms(broken, joint_names=joints, rigid_body=True))

        class Flipped(EngineModel):
            def bias(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
                return 2.0 * self.gravity(q) - super().bias(q, v)

        make = Flipped if variant == "C v sign flipped" else EngineModel
        model = make(terms, joints, [], base)
        audit = audit_model(model, Path(path), samples, seed, label=variant, l3=False)
    except (DescriptionError, ModelError) as exc:
        row.error = str(exc).replace(str(Path(path).parent) + "/", "")
        return row
    finally:
        row.seconds = time.perf_counter() - start
    row.caught = not audit.passed
    # the break's own size: the model against Pinocchio on the unbroken file, the largest
    # error of any term (a break the dynamics cannot see has none)
    row.effect = max((r.max_rel_error for r in audit.results if r.reference == "pinocchio"),
                     default=0.0)
    row.visible = row.effect > ROUND_OFF
    row.failed = tuple(sorted({r.term for r in audit.failures}
                              | {r["quantity"] for r in audit.l0_failures}))
    row.finding = "; ".join(audit.findings)
    if variant in INERTIAL and not free:  # the regressor answers on a fixed base
        row.named = _named(audit.implied, target)
    return row


def _named(found: object, target: str) -> str:
    """How the regressor's account names the broken link: "named" (it alone, with what
    changed in its determined parameters), "among candidates" (the torques cannot tell it
    from other links) or "not named"."""
    from dynval.comparisons.own_model.regressor import Ambiguous, LinkFinding

    def names(f: object) -> bool:
        return (isinstance(f, LinkFinding) and bool(f.changes)
                and target in (f.link, *f.fixed_links))
    if names(found):
        return "named"
    if isinstance(found, Ambiguous) and any(names(c) for c in found.candidates):
        return "among candidates"
    return "not named"


def run(chosen: list, samples: int, seed: int, workers: int, cache_dir: Path | None,
        report=None) -> list[VariantRow]:
    """Every variant of every chosen URDF (an MJCF is not broken here), one task each."""
    from dynval.comparisons.run.tasks import Task, execute

    todo = [(e, v) for e in chosen if e.path.suffix == ".urdf" for v in VARIANTS]
    tasks = [Task(f"{e.name} [{v}]", "corpus", variant_entry,
                  (e.name, str(e.path), e.base, v, samples, seed), inputs=(e.path,))
             for e, v in todo]
    outcomes = execute(tasks, workers, cache_dir=cache_dir, report=report)
    rows = []
    for t, (e, v) in zip(tasks, todo, strict=True):
        o = outcomes[t.key]
        rows.append(o.value if o.error is None else VariantRow(
            e.name, v, error=f"dynval failed on it ({type(o.error).__name__}: {o.error})"))
    return rows
