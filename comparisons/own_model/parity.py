"""Engine parity without a hand model: ``dynval audit --description FILE``.

Most users come with a description and no equations.  Its audit is the model audit with
one engine standing in for the model: Pinocchio (it reads the URDF without converting an
inertia or merging anything it cannot undo), else MuJoCo.  The others are compared with
it rung by rung, L0-L3, on every moving joint and at every leaf link's frame (the feet,
hands and tool points); a fixed base, or a free one (an MJCF's own free joint, or
``--base free`` on a URDF).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from dynval.comparisons.own_model import loading
from dynval.comparisons.own_model.audit import OwnAudit, audit_model
from dynval.engines import DescriptionError

PREFERENCE = ("pinocchio", "mujoco", "pybullet", "drake")


class EngineModel:
    """An engine's terms in ``dynval.model``'s protocol, the reference of an audit without
    a hand model."""

    def __init__(self, engine: Any, joint_names: Sequence[str], frames: Sequence[str],
                 base: str) -> None:
        self.engine, self.joint_names, self.base = engine, tuple(joint_names), base
        self.frames = tuple(frames) if callable(getattr(engine, "frame_position", None)) \
            else ()

    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        return self.engine.mass_matrix(q)

    def bias(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        return self.engine.bias(q, v)

    def gravity(self, q: np.ndarray) -> np.ndarray:
        return self.engine.gravity(q)

    def inverse_dynamics(self, q: np.ndarray, v: np.ndarray, vdot: np.ndarray) -> np.ndarray:
        return self.engine.inverse_dynamics(q, v, vdot)

    def forward_dynamics(self, q: np.ndarray, v: np.ndarray, tau: np.ndarray) -> np.ndarray:
        """The engine's own forward dynamics where it has one (Pinocchio's articulated-body
        algorithm), else M \\ (tau - bias)."""
        if callable(getattr(self.engine, "forward_dynamics", None)):
            return self.engine.forward_dynamics(q, v, tau)
        return np.linalg.solve(self.mass_matrix(q), tau - self.bias(q, v))

    def frame_position(self, name: str, q: np.ndarray) -> np.ndarray:
        return self.engine.frame_position(name, q)

    def frame_jacobian(self, name: str, q: np.ndarray) -> np.ndarray:
        return self.engine.frame_jacobian(name, q)


def leaf_links(path: Path) -> list[str]:
    """The links no joint leaves from (URDF), or the bodies with no child (MJCF, an unnamed
    one by the name every engine here gives it): the robot's extremities, where kinematic
    errors add up."""
    import xml.etree.ElementTree as ET

    from dynval.engines.mjcf_tree import leaf_bodies

    root = ET.parse(str(path)).getroot()
    if root.tag != "robot":
        return leaf_bodies(path)
    parents = {j.find("parent").get("link") for j in root.iter("joint")
               if j.find("parent") is not None}
    children = {j.find("child").get("link") for j in root.iter("joint")
                if j.find("child") is not None}
    return [lk.get("name") for lk in root.iter("link")
            if lk.get("name") in children and lk.get("name") not in parents]


def parity_audit(description: Path | str, samples: int = 200, seed: int = 0,
                 gravity: Sequence[float] = (0.0, 0.0, -9.81), base: str | None = None,
                 package_paths: Sequence[Path] = (), l3: bool = True) -> OwnAudit:
    """The engines against each other on one description, the first of PREFERENCE that
    loads it standing for the model.  ``base``: "fixed" or "free"; by default an MJCF's own
    free joint makes it free and a URDF is fixed; ``l3`` False stops after L2."""
    prepared = loading.prepare(Path(description), package_paths)
    description = prepared.source  # the file a name stands for
    joints, own_free = loading.description_joints(prepared.path)
    if base not in (None, "fixed", "free"):
        raise DescriptionError(f"--base {base!r}: it is 'fixed' or 'free'")
    if own_free and base == "fixed":
        raise DescriptionError(f"{description}: its root moves on a free joint; audit it "
                               "with base 'free'")
    free = own_free or base == "free"
    if free and prepared.root_link == "world":
        raise DescriptionError(f"{description}: its root link is 'world', the URDF convention "
                               "for a robot fixed to the world (MuJoCo reads it as the world "
                               "itself): audit it with a fixed base")
    if not joints and not free:
        raise DescriptionError(f"{description}: no joint moves on a fixed base; audit its "
                               "free motion with base 'free'")
    loaded = loading.load(prepared, joints, gravity, free)
    reference = next(e for e in PREFERENCE if e in loaded.engines)
    left_out = {b for e in loaded.engines.values() for b in getattr(e, "left_out", ())}
    frames = [f for f in leaf_links(prepared.path) if f not in left_out]
    if left_out:  # another tree's bodies: no audited joint moves them
        loaded.notes.append(f"bodies of trees no audited joint moves ("
                            f"{', '.join(sorted(left_out))}) are not compared as frames")
    model = EngineModel(loaded.engines[reference], joints, frames,
                        "free" if free else "fixed")
    audit = audit_model(model, description, samples, seed, gravity, label=reference,
                        reference=reference, loaded=loaded, l3=l3)
    if len(loaded.engines) == 1:
        audit.unchecked.append(f"only {loading.ENGINE_LABELS[reference]} loads "
                               f"{description.name}: nothing to compare it with")
    return audit
