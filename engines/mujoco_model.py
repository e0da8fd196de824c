"""MuJoCo's compiled model of a description, shared by the simulation and the terms
adapters: loading a file (its errors in one sentence), MuJoCo's warnings kept, the
quaternion helpers, and the joint and body lookups by name both adapters stand on.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import mujoco
import numpy as np

from dynval.engines import (
    DescriptionError,
    EngineRefusalError,
)
from dynval.engines.base import (
    JOINT_UNITS,
    JointLimit,
    LinkInertial,
    composite_inertial,
    inertia_from_principal,
)
from dynval.engines.mjcf_tree import unnamed_body

_J = mujoco.mjtJoint
_ONE_DOF = {int(_J.mjJNT_HINGE): "revolute", int(_J.mjJNT_SLIDE): "prismatic"}
# (qpos, qvel) sizes of each joint type
_SIZES = {int(_J.mjJNT_FREE): (7, 6), int(_J.mjJNT_BALL): (4, 3), int(_J.mjJNT_SLIDE): (1, 1),
          int(_J.mjJNT_HINGE): (1, 1)}


BADQACC = int(mujoco.mjtWarning.mjWARN_BADQACC)
WARNINGS: list[str] = []  # MuJoCo's warnings of this process, newest last


def _keep_warning(message: str) -> None:
    """MuJoCo's warnings are kept here (the adapter turns the ones that matter into errors)
    instead of going to MUJOCO_LOG.TXT in whatever folder the user is in."""
    WARNINGS.append(message)


mujoco.set_mju_user_warning(_keep_warning)


class MasslessBodyError(EngineRefusalError):
    """MuJoCo refuses a moving body without mass or inertia, such as the massless links of
    an explicit six-joint base chain (PyBullet and Pinocchio accept them)."""


FREE_ROOT = "root"  # the name of the free joint load_model gives a URDF's root link


def load_model(path: Path | str, free_root: bool = False) -> mujoco.MjModel:
    """Compile an MJCF (or URDF) file, turning MuJoCo's errors into a DescriptionError.
    A URDF keeps its fixed-joint links as bodies (MuJoCo's URDF import would fuse them into
    their parents, and a frame a model names, like a hand, would be gone); ``free_root``
    puts a URDF's root link on a free joint named FREE_ROOT (a URDF has no free joint)."""
    try:
        if Path(path).suffix.lower() == ".urdf":
            spec = mujoco.MjSpec.from_file(str(path))
            spec.compiler.fusestatic = False
            # a URDF's inertia is its <inertial>: a link without one has none, whatever
            # geometry it carries (MuJoCo would otherwise compute one from its meshes)
            spec.compiler.inertiafromgeom = mujoco.mjtInertiaFromGeom.mjINERTIAFROMGEOM_FALSE
            if free_root:
                spec.worldbody.first_body().add_freejoint(name=FREE_ROOT)
            return spec.compile()
        return mujoco.MjModel.from_xml_path(str(path))
    except (ValueError, FileNotFoundError) as exc:
        # the whole message on one line ("XML parse error 14: Error=... Line number=1: ...")
        msg = " ".join(str(exc).split()) or type(exc).__name__
        kind = "URDF" if Path(path).suffix.lower() == ".urdf" else "MJCF"
        if "mjMINVAL" in msg:
            body = re.search(r"Element name '([^']*)'", msg)
            raise MasslessBodyError(
                f"{path}: MuJoCo refuses moving bodies without mass or rotational inertia"
                f"{f' (body {body.group(1)!r})' if body else ''}, which the {kind} has"
            ) from None
        raise DescriptionError(f"{path}: MuJoCo cannot load this {kind} ({msg})") from None


def quat_to_R(q: np.ndarray) -> np.ndarray:
    R = np.zeros(9)
    mujoco.mju_quat2Mat(R, np.asarray(q, dtype=float))
    return R.reshape(3, 3)


def R_to_quat(R: np.ndarray) -> np.ndarray:
    q = np.zeros(4)
    mujoco.mju_mat2Quat(q, np.asarray(R, dtype=float).reshape(9))
    return q


class _MujocoModel:
    """A compiled MJCF model: names to ids, and what MuJoCo made of the description
    (shared by the simulation and the terms)."""

    def __init__(self, path: Path | str, free_root: bool = False) -> None:
        self.model = load_model(path, free_root)
        self._body_ids: dict[str, int] = {}

    def _id(self, kind: mujoco.mjtObj, name: str) -> int:
        """The id of a named object (an unnamed body by the name :meth:`_name` gives it),
        or -1."""
        if not isinstance(name, str):  # MuJoCo's lookup crashes the process on None
            return -1
        i = mujoco.mj_name2id(self.model, kind, name)
        if i < 0 and kind == mujoco.mjtObj.mjOBJ_BODY and name.startswith("#"):
            return next((b for b in range(1, self.model.nbody) if self._name(kind, b) == name),
                        -1)
        return i

    def _name(self, kind: mujoco.mjtObj, i: int) -> str:
        """The object's name; an unnamed body's is its id and its parent
        (``mjcf_tree.unnamed_body``), as every engine here names it."""
        name = mujoco.mj_id2name(self.model, kind, i)
        if name is None and kind == mujoco.mjtObj.mjOBJ_BODY:
            parent = int(self.model.body_parentid[i])
            return unnamed_body(i, parent, mujoco.mj_id2name(self.model, kind, parent))
        return name

    def joint_id(self, name: str) -> int:
        j = self._id(mujoco.mjtObj.mjOBJ_JOINT, name)
        if j < 0:
            raise DescriptionError(f"MJCF model has no joint named {name!r}")
        return j

    def body_id(self, link: str) -> int:
        if link not in self._body_ids:
            b = self._id(mujoco.mjtObj.mjOBJ_BODY, link)
            if b < 0:
                raise DescriptionError(f"MJCF model has no body named {link!r}")
            self._body_ids[link] = b
        return self._body_ids[link]

    def _one_dof_joints(self) -> list[tuple[int, str, str]]:
        """(id, name, "revolute" or "prismatic") of every hinge and slide joint."""
        m = self.model
        return [(j, self._name(mujoco.mjtObj.mjOBJ_JOINT, j), _ONE_DOF[int(m.jnt_type[j])])
                for j in range(m.njnt) if int(m.jnt_type[j]) in _ONE_DOF]

    def link_inertials(self) -> dict[str, LinkInertial]:
        """Every body's mass, CoM and inertia in body axes (MuJoCo keeps principal moments
        and their frame; they are turned back into a full inertia here)."""
        m = self.model
        return {self._name(mujoco.mjtObj.mjOBJ_BODY, b): LinkInertial(
                    float(m.body_mass[b]), m.body_ipos[b].copy(),
                    inertia_from_principal(m.body_inertia[b], quat_to_R(m.body_iquat[b])))
                for b in range(1, m.nbody)}

    def joint_axes(self) -> dict[str, np.ndarray]:
        """Axis of every hinge and slide joint in its body's frame."""
        return {name: self.model.jnt_axis[j].copy() for j, name, _ in self._one_dof_joints()}

    def free_joint(self, names: Sequence[str] = ()) -> int | None:
        """The id of the free joint of a body attached to the world (a URDF's added one,
        or an MJCF's own), or None; with joint ``names``, the one at the root of their tree
        (an MJCF may hold free objects beside the robot), None when that tree has none."""
        m = self.model
        roots = {int(m.body_rootid[m.jnt_bodyid[self.joint_id(n)]]) for n in names}
        for j in range(m.njnt):
            if (int(m.jnt_type[j]) == int(_J.mjJNT_FREE)
                    and m.body_parentid[m.jnt_bodyid[j]] == 0
                    and (not roots or int(m.jnt_bodyid[j]) in roots)):
                return j
        return None

    def moving_body(self, b: int) -> int:
        """The body that body ``b`` moves with: itself if a joint moves it, else its parent's
        moving body; 0 (the world) for bodies welded to the world."""
        m = self.model
        while b != 0 and m.body_jntnum[b] == 0:
            b = int(m.body_parentid[b])
        return b

    def body_inertials(self) -> dict[str, LinkInertial]:
        """Every moving body with the bodies welded to it, merged in its frame at qpos0
        (DescriptionFacts.body_inertials)."""
        m = self.model
        d = mujoco.MjData(m)
        mujoco.mj_kinematics(m, d)
        parts: dict[int, list] = {}
        for b in range(1, m.nbody):
            R_WI = d.ximat[b].reshape(3, 3)
            parts.setdefault(self.moving_body(b), []).append(
                (float(m.body_mass[b]), d.xipos[b].copy(),
                 inertia_from_principal(m.body_inertia[b], R_WI)))
        return {self._name(mujoco.mjtObj.mjOBJ_BODY, b): composite_inertial(
                    group, d.xpos[b].copy(), d.xmat[b].reshape(3, 3).copy())
                for b, group in parts.items() if b != 0}

    def joint_limits(self) -> dict[str, JointLimit]:
        """Range of every hinge [rad] and slide [m] joint; (-inf, inf) where unlimited."""
        m = self.model
        out = {}
        for j, name, kind in self._one_dof_joints():
            lo, hi = m.jnt_range[j] if m.jnt_limited[j] else (-np.inf, np.inf)
            out[name] = JointLimit(float(lo), float(hi), JOINT_UNITS[kind])
        return out

    def total_mass(self) -> float:
        """Sum of MuJoCo's body masses, world body included [kg]."""
        return float(np.sum(self.model.body_mass))

    def _joint_addresses(self, names: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """qpos and qvel indices of the named joints, in the order given."""
        m = self.model
        iq, iv = [], []
        for name in names:
            j = self.joint_id(name)
            nq, nv = _SIZES[int(m.jnt_type[j])]
            iq += range(m.jnt_qposadr[j], m.jnt_qposadr[j] + nq)
            iv += range(m.jnt_dofadr[j], m.jnt_dofadr[j] + nv)
        return np.array(iq, dtype=int), np.array(iv, dtype=int)
