"""A description as it comes, loaded in every term engine that can read it.

The file's values are checked first (``validity``: a NaN, a zero axis, a negative mass or
a missing include is named before any engine is given it), then the file is prepared
once (``dynval.engines.description_files``: ``package://`` paths
looked up, geometry left out since a dynamics audit uses none, mimic couplings dropped,
each link's inertia checked) and each engine loads the prepared copy with what it adds
beyond rigid-body dynamics switched off (joint limits, contacts, damping, friction loss,
armature, actuators), said in the report.  An engine that refuses the file does not stop
the others: its refusal is recorded with the reason, as a finding about the file when the
file is at fault (an impossible inertia), or as a limitation of the engine when it is not.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from dynval.comparisons.own_model import validity
from dynval.engines import DescriptionError, EngineRefusalError
from dynval.model import ModelError

if TYPE_CHECKING:
    from dynval.engines.description_files import Prepared

ENGINE_LABELS = {"mujoco": "MuJoCo", "pybullet": "PyBullet", "pinocchio": "Pinocchio",
                 "drake": "Drake"}


@dataclass
class Loaded:
    """The term engines that loaded a description, and what the report says about it."""

    source: Path
    path: Path  # the prepared copy the engines read
    kind: str  # "URDF" or "MJCF"
    engines: dict[str, Any] = field(default_factory=dict)
    refused: dict[str, str] = field(default_factory=dict)  # engine -> why, one sentence
    findings: list[str] = field(default_factory=list)  # about the file
    notes: list[str] = field(default_factory=list)
    switched_off: dict[str, list[str]] = field(default_factory=dict)
    faulted: set[str] = field(default_factory=set)  # engines that refused a fault of the file
    decided: set[str] = field(default_factory=set)  # engines dynval chose not to run, not refusals
    readers: list[str] = field(default_factory=list)  # a reader that reads the file otherwise


def prepare(description: Path, package_paths: Sequence[Path] = ()) -> Prepared:
    """The prepared description (URDF: a copy without geometry; MJCF: the file itself).
    A name instead of a file is looked up in example-robot-data (``description_names``):
    ``source`` is then the file found, and the first note says so."""
    from dynval.engines.description_files import (
        Prepared,
        prepare_mjcf,
        prepare_urdf,
        read_xml,
    )
    from dynval.engines.description_names import find_description

    description, found = find_description(description)
    if not description.is_file():
        raise DescriptionError(f"{description}: no such description file")
    kind = description.suffix.lower()
    if kind not in (".urdf", ".xml", ".sdf"):
        raise DescriptionError(f"{description}: a description is a .urdf, an MJCF .xml or "
                               "an .sdf")
    if kind == ".sdf":  # read by Drake alone (own_model.sdf_engines), which checks it
        read_xml(description, "SDF")  # unreadable, not UTF-8 or cut short: one sentence
        return Prepared(description, description)
    validity.check(description)  # a value no engine should be given, named before any is
    prepared = (prepare_urdf if kind == ".urdf" else prepare_mjcf)(description, package_paths)
    return prepared if found is None else replace(prepared, notes=(found, *prepared.notes))


def description_joints(path: Path) -> tuple[list[str], bool]:
    """The description's one-degree-of-freedom joints, read by whichever engine loads it
    (MuJoCo, else Pinocchio), and whether its root moves on a free joint of its own (an
    MJCF's)."""
    from dynval.engines.mujoco_engine import MujocoTerms
    from dynval.engines.pinocchio_engine import PinocchioTerms

    if path.suffix.lower() == ".sdf":  # Drake alone reads an SDF
        from dynval.engines.drake_engine import DrakeTerms

        return list(DrakeTerms(path).joint_axes()), False
    reasons = []
    try:
        mj = MujocoTerms(path)
        joints = list(mj.joint_axes())
        return joints, mj.free_joint(joints) is not None
    except DescriptionError as exc:
        reasons.append(f"MuJoCo: {str(exc).split(': ', 1)[-1]}")
    try:
        return list(PinocchioTerms(path).joint_axes()), False
    except DescriptionError as exc:
        reasons.append(f"Pinocchio: {str(exc).split(': ', 1)[-1]}")
    raise DescriptionError(f"no engine loads {path.name}: {'; '.join(reasons)}")


def match_joints(joints: Sequence[str], source: Path, label: str,
                 names: Sequence[str]) -> None:
    """The model's joint names must be the description's moving joints, each once."""
    unknown = [n for n in names if n not in joints]
    if unknown:
        raise ModelError(f"{label}.joint_names names {unknown[0]!r}, which {source.name} "
                         f"does not have (its joints: {', '.join(joints)})")
    if len(set(names)) != len(names):
        raise ModelError(f"{label}.joint_names repeats a joint")
    missing = [j for j in joints if j not in names]
    if missing:
        raise ModelError(f"{label}.joint_names leaves out {missing[0]!r} of "
                         f"{source.name}: the model's q must cover every joint")


def _refusal(exc: DescriptionError, findings: Sequence[str]) -> tuple[str, bool]:
    """An engine's refusal in words, and whether the file is at fault: the file's own
    findings when they explain it (MuJoCo names a body, not the condition), else the
    engine's message (a limitation of the engine when it says so)."""
    named = re.search(r"(?:body|Element name) '([^']*)'", str(exc))
    relevant = [f for f in findings if named and f"link '{named.group(1)}'" in f]
    if not relevant and "inertia" in str(exc).lower():
        relevant = [f for f in findings if f.startswith("link '")]
    if relevant:
        return "; ".join(relevant), True
    return str(exc).split(": ", 1)[-1], not isinstance(exc, EngineRefusalError)


STANDARD_GRAVITY = (0.0, 0.0, -9.81)  # [m/s^2]: the audit's gravity unless a file says


def load(prepared: Prepared, joint_names: Sequence[str], gravity: Sequence[float],
         free: bool, damping: bool = False, limits: bool = False) -> Loaded:
    """Every term engine that reads the description, each with rigid-body dynamics only;
    a refusal is recorded and the others go on.  A free root is MuJoCo's free joint,
    PyBullet's floating base and Pinocchio's free flyer, the last two converted to MuJoCo's
    convention; Drake's quaternion floating joint too, the fourth reading.  ``prepared`` is
    ``prepare``'s; ``damping`` keeps the file's joint damping
    in MuJoCo, the one engine whose terms and steps include it; ``limits`` keeps the joint
    limits in MuJoCo's and PyBullet's steps.  No engine at all loading the file is a
    DescriptionError."""
    from dynval.engines import drake_engine
    from dynval.engines.mujoco_engine import MujocoTerms
    from dynval.engines.pinocchio_engine import PinocchioFreeRoot, PinocchioTerms
    from dynval.engines.pybullet_engine import PybulletFreeRoot, PybulletTerms

    description = prepared.source
    kind = {".urdf": "URDF", ".sdf": "SDF"}.get(description.suffix.lower(), "MJCF")
    root_note = f"root link '{prepared.root_link}' has no <inertial>"
    loaded = Loaded(description, prepared.path, kind,  # the root's mass matters when free
                    notes=[n for n in prepared.notes if free or not n.startswith(root_note)],
                    findings=list(prepared.findings))
    if prepared.gravity is not None and tuple(gravity) == STANDARD_GRAVITY:
        gravity = prepared.gravity  # the file's own physics, honoured in every engine
        loaded.notes.append(f"the file sets its own gravity, {prepared.gravity_said}: every "
                            f"engine is audited with g = {tuple(gravity)} m/s^2")
    names = list(joint_names)
    makers: dict[str, Any] = {
        "mujoco": lambda: MujocoTerms(prepared.path, gravity, joint_names=names,
                                      free_root=free, rigid_body=True, damping=damping,
                                      limits=limits),
        "pybullet": (lambda: PybulletFreeRoot(prepared.path, gravity, joint_names=names,
                                              limits=limits))
        if free else (lambda: PybulletTerms(prepared.path, gravity, joint_names=names,
                                            rigid_body=True, limits=limits)),
        "pinocchio": (lambda: PinocchioFreeRoot(prepared.path, gravity, joint_names=names))
        if free else (lambda: PinocchioTerms(prepared.path, gravity, joint_names=names,
                                             rigid_body=True)),
        "drake": lambda: drake_engine.DrakeTerms(prepared.path, gravity, joint_names=names,
                                                 free_root=free),
    }
    if not drake_engine.available():
        loaded.refused["drake"] = "pydrake is not installed (pip install drake)"
        loaded.decided.add("drake")
        del makers["drake"]
    if kind == "MJCF":  # the others given MuJoCo's compiled model; their readers asked
        from dynval.comparisons.own_model.mjcf_engines import mjcf_makers

        mjcf_makers(prepared.path, names, gravity, free, limits, makers, loaded)
    if kind == "SDF":  # the others given Drake's reading of it
        from dynval.comparisons.own_model.sdf_engines import sdf_makers

        sdf_makers(prepared.path, names, gravity, free, limits, makers, loaded)
    for name, make in makers.items():
        try:
            engine = make()
        except DescriptionError as exc:
            loaded.refused[name], fault = _refusal(exc, prepared.findings)
            if fault:
                loaded.faulted.add(name)
            continue
        loaded.engines[name] = engine
        loaded.findings += getattr(engine, "findings", [])  # what its reader warns of
        loaded.notes += getattr(engine, "notes", [])
        if engine.switched_off:
            loaded.switched_off[name] = list(engine.switched_off)
    if not loaded.engines:
        reasons = "; ".join(f"{ENGINE_LABELS[e]}: {why}" for e, why in loaded.refused.items())
        raise DescriptionError(f"no engine loads {description}: {reasons}")
    return loaded


def joint_ranges(loaded: Loaded, names: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """The lower and upper limits of the named joints as the file gives them (read by
    MuJoCo, else Pinocchio); -inf and inf where a joint is unlimited."""
    engine = loaded.engines.get("mujoco") or loaded.engines.get("pinocchio")
    limits = engine.joint_limits() if engine is not None else {}
    lo = np.array([limits[n].lower if n in limits else -np.inf for n in names])
    hi = np.array([limits[n].upper if n in limits else np.inf for n in names])
    unlimited = ~(np.isfinite(lo) & np.isfinite(hi) & (lo < hi) & (hi - lo < UNLIMITED))
    lo[unlimited], hi[unlimited] = -np.inf, np.inf
    return lo, hi


UNLIMITED = 1e6  # [rad or m]: a wider range is a file's way of saying "no limit"


def not_checked(loaded: Loaded) -> list[str]:
    """One sentence per engine that was not checked, with the reason and whose decision
    it was: the engine's refusal, or dynval's choice not to run it."""
    return [not_run(e, why, e in loaded.decided, loaded.source.name)
            for e, why in loaded.refused.items()]


def not_run(engine: str, why: str, decided: bool, name: str = "it") -> str:
    """Why an engine was not checked, naming the party: "MuJoCo refuses it: ..." where the
    engine refused, "dynval does not run PyBullet on it: ..." where dynval chose."""
    label = ENGINE_LABELS[engine]
    return (f"dynval does not run {label} on {name}: {why}" if decided
            else f"{label} refuses {name}: {why}")


def switched_off_sentence(loaded: Loaded) -> list[str]:
    """What each engine had on beyond rigid-body dynamics and the audit switched off."""
    return [f"{ENGINE_LABELS[e]}: switched off for a term audit: {', '.join(items)}"
            for e, items in loaded.switched_off.items()]
