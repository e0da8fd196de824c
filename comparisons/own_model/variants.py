"""Must-catch mutants: a correct model of a corpus robot (Pinocchio's algorithms on the
description) broken one way at a time, audited against the unbroken description.  Each
must fail, and for an inertial break the regressor must name the link and the parameter.

The library holds the errors that fill engines' and robot packages' trackers:

- on the heaviest link a revolute joint moves (``_target``, directly or through welded
  links; that joint for the axis): its mass 1 % up (centre and inertia about the centre
  kept), its centre of mass moved 1 mm across its joint's axis, its joint's axis
  reversed;
- the mass of a link welded to a moving link dropped (its ``<inertial>`` removed), and a
  welded child's inertia left in its own axes when merged into its parent (an importer
  that lumps fixed joints without rotating the child's inertia);
- an ``<inertial><origin rpy>`` rotation lost by an importer (the heaviest moved link
  whose inertia is turned and not a sphere's);
- the root link's mass lost (as a URDF-to-MJCF conversion that drops the base's
  ``<inertial>`` does);
- in the model, not the file: the sign of C v flipped, a joint armature of 0.01 kg m^2
  that the file does not have (as an MJCF ``armature`` one engine keeps and another
  drops), and a joint damping of 0.1 N m s/rad the file does not have.

A description that has nothing to break one way has no such mutant. Each row also says
how far the break moves the terms (``effect``): a break the dynamics cannot see (a root
mass on a fixed base) is no miss. A default-class mass ignored by a reader is an MJCF
error; the corpus's URDFs cannot carry it (the MJCF readers' findings cover it).
"""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from dynval.comparisons.ladder.audit import ROUND_OFF
from dynval.comparisons.own_model.parity import EngineModel
from dynval.engines import DescriptionError
from dynval.model import ModelError

VARIANTS = ("mass +1 %", "centre of mass +1 mm", "axis reversed", "welded child's mass dropped",
            "C v sign flipped", "inertia's rotation lost", "welded child's inertia unrotated",
            "root link's mass lost", "armature added", "joint damping added")
INERTIAL = ("mass +1 %", "centre of mass +1 mm", "welded child's mass dropped",
            "inertia's rotation lost", "welded child's inertia unrotated")
MODEL_ONLY = ("C v sign flipped", "armature added", "joint damping added")  # the file kept
ARMATURE = 0.01  # [kg m^2] a typical MJCF joint armature (a small geared motor's rotor)
DAMPING = 0.1  # [N m s/rad] a typical joint damping of a description
ISOTROPIC = 1e-9  # relative spread of principal moments below which turning changes nothing
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


def _inertia(inertial: ET.Element) -> np.ndarray:
    """The ``<inertia>`` of an ``<inertial>`` as a matrix, in its own (origin rpy) axes."""
    el = inertial.find("inertia")
    g = {k: float(el.get(k, "0")) for k in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")}
    return np.array([[g["ixx"], g["ixy"], g["ixz"]], [g["ixy"], g["iyy"], g["iyz"]],
                     [g["ixz"], g["iyz"], g["izz"]]])


def _turned(inertial: ET.Element | None) -> bool:
    """The inertia's axes turn (a non-zero origin rpy) and its moments differ: losing the
    rotation changes it."""
    if inertial is None or inertial.find("inertia") is None:
        return False
    origin = inertial.find("origin")
    rpy = np.array([float(x) for x in (origin.get("rpy", "0 0 0") if origin is not None
                                       else "0 0 0").split()])
    moments = np.linalg.eigvalsh(_inertia(inertial))
    return bool(np.any(rpy != 0.0)) and np.ptp(moments) > ISOTROPIC * max(moments.max(), 1e-300)


def _set_inertia(inertial: ET.Element, inertia: np.ndarray) -> None:
    """Write ``inertia`` (link axes) as the ``<inertia>``, its origin's rpy cleared."""
    origin = inertial.find("origin")
    if origin is not None:
        origin.set("rpy", "0 0 0")
    el = inertial.find("inertia")
    for key, (i, j) in {"ixx": (0, 0), "ixy": (0, 1), "ixz": (0, 2), "iyy": (1, 1),
                        "iyz": (1, 2), "izz": (2, 2)}.items():
        el.set(key, repr(float(inertia[i, j])))


def _rotation_lost(robot: ET.Element) -> str | None:
    """The heaviest link a joint moves whose inertia is turned: its rpy dropped."""
    moved = {j.find("child").get("link") for j in robot.findall("joint")
             if j.find("child") is not None}
    turned = [lk for lk in robot.findall("link")
              if lk.get("name") in moved and _turned(lk.find("inertial"))]
    if not turned:
        return None
    link = max(turned, key=lambda lk: float(lk.find("inertial/mass").get("value")))
    link.find("inertial/origin").set("rpy", "0 0 0")
    return link.get("name")


def _merged_unrotated(robot: ET.Element) -> str | None:
    """A link welded to a moving link by a turned joint, its inertia expressed as if the
    weld did not turn it: I' = R^T I R in its own axes, so that the parent receives I
    (unrotated) where R I R^T belongs."""
    links = {lk.get("name"): lk for lk in robot.findall("link")}
    moved = {j.find("child").get("link") for j in robot.findall("joint")
             if j.get("type") in MOVING}
    for joint in robot.findall("joint"):
        origin = joint.find("origin")
        if (joint.get("type") != "fixed" or joint.find("parent").get("link") not in moved
                or origin is None):
            continue
        R = _rpy(origin.get("rpy", "0 0 0"))
        child = links.get(joint.find("child").get("link"))
        inertial = child.find("inertial") if child is not None else None
        if np.allclose(R, np.eye(3)) or inertial is None or inertial.find("inertia") is None:
            continue
        own = inertial.find("origin")
        R_c = _rpy(own.get("rpy", "0 0 0")) if own is not None else np.eye(3)
        inertia = R_c @ _inertia(inertial) @ R_c.T  # in the child link's axes
        wrong = R.T @ inertia @ R
        if np.allclose(wrong, inertia, rtol=0.0, atol=ISOTROPIC * np.abs(inertia).max()):
            continue  # the turn leaves it (a sphere's inertia, a half turn about an axis)
        _set_inertia(inertial, wrong)
        return child.get("name")
    return None


def _root_mass_lost(robot: ET.Element) -> str | None:
    """The root link's ``<inertial>`` removed, where it has mass."""
    children = {j.find("child").get("link") for j in robot.findall("joint")
                if j.find("child") is not None}
    roots = [lk for lk in robot.findall("link") if lk.get("name") not in children]
    if len(roots) != 1:
        return None
    mass = roots[0].find("inertial/mass")
    if mass is None or float(mass.get("value")) <= 0.0:
        return None
    roots[0].remove(roots[0].find("inertial"))
    return roots[0].get("name")


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
    if variant == "inertia's rotation lost":
        return _rotation_lost(robot)
    if variant == "welded child's inertia unrotated":
        return _merged_unrotated(robot)
    if variant == "root link's mass lost":
        return _root_mass_lost(robot)
    if variant in ("armature added", "joint damping added"):
        return "every joint"  # the model, not the file
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
    return link.get("name")  # the model, not the description, is broken (MODEL_ONLY)


@dataclass
class BrokenAudit:
    """A broken variant's audit against its description: what was broken (``target``),
    the broken file, whether its base is free, and the audit (L0-L2) of Pinocchio's
    reading of that file."""

    target: str
    broken: Path
    free: bool
    audit: Any


def broken_audit(path: str, base: str, variant: str, samples: int, seed: int
                 ) -> BrokenAudit | str:
    """One broken variant of one description audited (L0-L2) against the description, or
    why there is nothing to break this way (one sentence)."""
    from dynval.comparisons.own_model import loading
    from dynval.comparisons.own_model.audit import audit_model
    from dynval.engines.pinocchio_engine import PinocchioFreeRoot, PinocchioTerms
    from dynval.engines.urdf_from_mujoco import compiled_urdf

    prepared = loading.prepare(Path(path))
    joints, own_free = loading.description_joints(prepared.path)
    mjcf = prepared.path.suffix.lower() == ".xml"
    free = own_free if mjcf else base == "free"
    if not joints and not free:  # as the description's own audit says
        return "no joint moves on a fixed base: nothing to break"
    # an MJCF is broken as the URDF of MuJoCo's compiled model of it (its masses,
    # inertias and joints as MuJoCo reads them), then audited against the MJCF itself
    robot = (ET.fromstring(compiled_urdf(str(prepared.path), joints, free)) if mjcf
             else ET.parse(str(prepared.path)).getroot())
    target = break_description(robot, variant)
    if target is None:
        return "nothing to break this way"
    broken = _broken_copy(robot, prepared.path, variant)
    gravity = prepared.gravity or loading.STANDARD_GRAVITY
    terms = (PinocchioFreeRoot(broken, gravity, joint_names=joints) if free
             else PinocchioTerms(broken, gravity, joint_names=joints, rigid_body=True))
    model = _model(variant, terms, joints, "free" if free else "fixed")
    return BrokenAudit(target, broken, free, audit_model(model, Path(path), samples, seed,
                                                         label=variant, l3=False))


def variant_entry(name: str, path: str, base: str, variant: str, samples: int,
                  seed: int) -> VariantRow:
    """One broken variant of one corpus description, audited (L0-L2) against the
    description (the task the corpus's variants run)."""
    start = time.perf_counter()
    row = VariantRow(name, variant)
    try:
        found = broken_audit(path, base, variant, samples, seed)
    except (DescriptionError, ModelError) as exc:
        row.error = str(exc).replace(str(Path(path).parent) + "/", "")
        return row
    finally:
        row.seconds = time.perf_counter() - start
    if isinstance(found, str):
        row.error = found
        return row
    row.target, audit = found.target, found.audit
    row.caught = not audit.passed
    # the break's own size: the model against Pinocchio on the unbroken file, the largest
    # error of any term (a break the dynamics cannot see has none)
    row.effect = max((r.max_rel_error for r in audit.results if r.reference == "pinocchio"),
                     default=0.0)
    row.visible = row.effect > ROUND_OFF
    row.failed = tuple(sorted({r.term for r in audit.failures}
                              | {r["quantity"] for r in audit.l0_failures}))
    row.finding = "; ".join(audit.findings)
    if variant in INERTIAL and not found.free:  # the regressor answers on a fixed base
        row.named = _named(audit.implied, found.target)
    return row


def _broken_copy(robot: ET.Element, prepared: Path, variant: str) -> Path:
    """The broken description written as a URDF of its own, in the temporary folder by
    its content (the description's own folder may not be writable; it names no other
    file: a prepared URDF has no geometry, the URDF of an MJCF's compiled model none)."""
    from dynval.engines.description_files import _write_copy

    return _write_copy(f"broken-{VARIANTS.index(variant)}-{prepared.stem}.urdf",
                       ET.tostring(robot, encoding="utf-8"))


class _Flipped(EngineModel):
    """C v with the wrong sign."""

    def bias(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        return 2.0 * self.gravity(q) - super().bias(q, v)


class _Joints(EngineModel):
    """An armature and a damping on every joint that the file does not have (the model's
    M, bias, inverse and forward dynamics all carry them); a free root's six are left
    alone."""

    armature = damping = 0.0

    def _per_dof(self, n: int, value: float) -> np.ndarray:
        out = np.zeros(n)
        out[n - len(self.joint_names):] = value
        return out

    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        M = super().mass_matrix(q)
        return M + np.diag(self._per_dof(len(M), self.armature))

    def bias(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        return super().bias(q, v) + self._per_dof(len(v), self.damping) * v

    def inverse_dynamics(self, q: np.ndarray, v: np.ndarray, vdot: np.ndarray) -> np.ndarray:
        return (super().inverse_dynamics(q, v, vdot)
                + self._per_dof(len(v), self.armature) * vdot
                + self._per_dof(len(v), self.damping) * v)

    def forward_dynamics(self, q: np.ndarray, v: np.ndarray, tau: np.ndarray) -> np.ndarray:
        return np.linalg.solve(self.mass_matrix(q), tau - self.bias(q, v))


class _Armature(_Joints):
    armature = ARMATURE


class _Damping(_Joints):
    damping = DAMPING


def _model(variant: str, terms: object, joints: list[str], base: str) -> EngineModel:
    """The correct model (Pinocchio on the file as given to it), or its model mutant."""
    make = {"C v sign flipped": _Flipped, "armature added": _Armature,
            "joint damping added": _Damping}.get(variant, EngineModel)
    return make(terms, joints, [], base)


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
    """Every variant of every chosen description, one task each."""
    from dynval.comparisons.run.tasks import Task, execute

    todo = [(e, v) for e in chosen for v in VARIANTS]
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
