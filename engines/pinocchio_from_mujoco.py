"""A Pinocchio model built from MuJoCo's compiled model of an MJCF, not from the file.

Pinocchio's own MJCF reader reads some files otherwise than MuJoCo (it ignores
``<default>`` class masses, ``settotalmass`` and the mass of geoms that do not collide;
it keeps one tree where the file has several).  MuJoCo defines what an MJCF means, so to
compare the *algorithms* (crba and rnea against mj_fullM and qfrc_bias) both must read
the same numbers: this module builds a ``pinocchio.Model`` joint by joint from
``mujoco.MjModel`` (:mod:`dynval.engines.mujoco_tree`).  A body with several joints is a
chain of massless segments; free bodies beside the robot are trees of their own; an
unnamed body keeps the name every engine here gives it.  The reader's differences are
told apart elsewhere (:mod:`dynval.engines.mjcf_readers`).

q and v are MuJoCo's: a hinge's or slide's coordinate is its qpos (Pinocchio's is qpos
less the joint's ``ref``, MuJoCo's qpos0), a free root is handled by
``PinocchioFreeRoot`` in MuJoCo's convention.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import mujoco
import numpy as np
import pinocchio as pin

from dynval.engines import DescriptionError
from dynval.engines.base import JOINT_UNITS, JointLimit, LinkInertial
from dynval.engines.mujoco_tree import BodyPlace, Pose, Segment, segments, site_places
from dynval.engines.pinocchio_engine import PinocchioFreeRoot, PinocchioTerms


def _se3(pose: Pose) -> pin.SE3:
    return pin.SE3(np.array(pose.R), np.array(pose.p))


def _joint_model(seg: Segment) -> pin.JointModel:
    axis = np.asarray(seg.axis, dtype=float)
    if seg.kind == "hinge":
        return pin.JointModelRevoluteUnaligned(axis)
    if seg.kind == "slide":
        return pin.JointModelPrismaticUnaligned(axis)
    return pin.JointModelSpherical() if seg.kind == "ball" else pin.JointModelFreeFlyer()


def build_model(m: mujoco.MjModel) -> tuple[pin.Model, list[Segment], list[BodyPlace]]:
    """The Pinocchio model of MuJoCo's compiled model: one Pinocchio joint per MuJoCo
    joint (same name), each body's inertia on the joint it moves with, and a body frame
    per body (a JOINT frame per joint, an OP_FRAME per named site)."""
    model = pin.Model()
    segs, bodies = segments(m)
    ids = [0] * len(segs)  # Pinocchio's joint id of each segment
    frames = {-1: 0}  # the frame of each segment's joint (-1: universe)
    for k, seg in enumerate(segs):
        parent = 0 if seg.parent < 0 else ids[seg.parent]
        ids[k] = model.addJoint(parent, _joint_model(seg), _se3(seg.placement), seg.name)
        frames[k] = model.addJointFrame(ids[k], frames[seg.parent])
    body_frames = {0: 0}  # MuJoCo body id -> its frame (the world: universe)
    for place in bodies:
        joint = 0 if place.segment < 0 else ids[place.segment]
        if place.segment >= 0:
            model.appendBodyToJoint(joint, pin.Inertia(place.mass, place.com, place.inertia),
                                    pin.SE3.Identity())
        moved = place.segment >= 0 and int(m.jnt_bodyid[segs[place.segment].joint]) == place.body
        previous = frames[place.segment] if moved else \
            body_frames[int(m.body_parentid[place.body])]  # welded: after the body it is on
        body_frames[place.body] = model.addBodyFrame(place.name, joint, _se3(place.frame),
                                                     previous)
    for name, seg, pose in site_places(m, bodies):
        joint = 0 if seg < 0 else ids[seg]
        model.addFrame(pin.Frame(name, joint, frames[seg], _se3(pose),
                                 pin.FrameType.OP_FRAME))
    return model, segs, bodies


class PinocchioCompiled(PinocchioTerms):
    """Pinocchio's terms on MuJoCo's compiled model of an MJCF (``build_model``), read and
    returned in MuJoCo's coordinates: hinge and slide q are MuJoCo's qpos, every joint not
    named stays at MuJoCo's qpos0.  ``floating`` puts the free joint of the named joints'
    tree first (for ``PinocchioFreeRoot``)."""

    name = "pinocchio"

    def __init__(self, path: Path | str, gravity: Sequence[float] = (0.0, 0.0, -9.81), *,
                 joint_names: Sequence[str] | None = None, floating: bool = False,
                 rigid_body: bool = True, mj_model: mujoco.MjModel | None = None) -> None:
        from dynval.engines.mujoco_engine import load_model

        self.path = Path(path)
        m = load_model(path) if mj_model is None else mj_model
        self.model, self.segments, self.bodies = build_model(m)
        self.switched_off = []  # the build carries rigid-body dynamics only
        self.model.gravity.linear = np.asarray(gravity, dtype=float)
        self.data = self.model.createData()
        self._q0, self._ref = self._reference(m)
        names = [s.name for s in self.segments if s.kind in ("hinge", "slide")] \
            if joint_names is None else list(joint_names)
        missing = [n for n in names if not self.model.existJointName(n)]
        if missing:
            raise DescriptionError(f"{path}: MuJoCo's model of it has no joint named "
                                   f"{missing[0]!r}")
        joints = [self.model.joints[self.model.getJointId(n)] for n in names]
        if any(j.nq != 1 for j in joints):
            raise DescriptionError(f"{path}: a model's joint_names are one-degree-of-"
                                   "freedom joints")
        iq, iv = [j.idx_q for j in joints], [j.idx_v for j in joints]
        if floating:
            root = self.free_root(names)
            iq = [*range(root.idx_q, root.idx_q + 7), *iq]
            iv = [*range(root.idx_v, root.idx_v + 6), *iv]
        self._iq, self._iv = np.array(iq, dtype=int), np.array(iv, dtype=int)

    def _reference(self, m: mujoco.MjModel) -> tuple[np.ndarray, np.ndarray]:
        """Pinocchio's q at MuJoCo's qpos0, and the offset (each joint's ref) that turns
        a hinge's or slide's qpos into Pinocchio's coordinate."""
        q0, ref = pin.neutral(self.model), np.zeros(self.model.nq)
        for seg in self.segments:
            j = self.model.joints[self.model.getJointId(seg.name)]
            qpos = m.qpos0[m.jnt_qposadr[seg.joint]:]
            if seg.kind in ("hinge", "slide"):
                ref[j.idx_q] = seg.ref
            elif seg.kind == "ball":
                q0[j.idx_q:j.idx_q + 4] = np.r_[qpos[1:4], qpos[0]]
            else:
                q0[j.idx_q:j.idx_q + 7] = np.r_[qpos[0:3], qpos[4:7], qpos[3]]
        return q0, ref

    def free_root(self, names: Sequence[str]) -> pin.JointModel:
        """The free joint at the root of the named joints' tree (the only free root when no
        joint is named); a DescriptionError when there is none."""
        free = [k for k, s in enumerate(self.segments) if s.kind == "free"]
        by_name = {s.name: k for k, s in enumerate(self.segments)}
        for k in free:
            if not names or any(self._root(by_name[n]) == k for n in names):
                return self.model.joints[self.model.getJointId(self.segments[k].name)]
        raise DescriptionError(f"{self.path}: no free joint at the root")

    def _root(self, k: int) -> int:
        while self.segments[k].parent >= 0:
            k = self.segments[k].parent
        return k

    def _q(self, q) -> np.ndarray:
        out = self._q0.copy()
        out[self._iq] = q
        return out - self._ref

    def _frame(self, name: str) -> int:
        """A site of that name, else a body (MuJoCo's order of lookup)."""
        if self.model.existFrame(name, pin.FrameType.OP_FRAME):
            return self.model.getFrameId(name, pin.FrameType.OP_FRAME)
        return super()._frame(name)

    def body_inertials(self) -> dict[str, LinkInertial]:
        """Every moving body with the bodies welded to it, in the body's own frame (as
        MuJoCo's ``body_inertials`` gives it)."""
        out = {}
        for j, name in self._link_of_joint().items():
            if j == 0:
                continue
            frame = self.model.frames[self.model.getFrameId(name, pin.FrameType.BODY)]
            Y = frame.placement.actInv(self.model.inertias[j])
            out[name] = LinkInertial(float(Y.mass), Y.lever.copy(), Y.inertia.copy())
        return out

    def with_body_inertials(self, bodies: dict[str, LinkInertial]) -> PinocchioCompiled:
        """A copy whose moving bodies carry the given inertials, each in the body's own
        frame (as ``body_inertials`` gives them)."""
        moved = {}
        for name, b in bodies.items():
            if self.model.existFrame(name, pin.FrameType.BODY):
                frame = self.model.frames[self.model.getFrameId(name, pin.FrameType.BODY)]
                Y = frame.placement.act(pin.Inertia(float(b.mass), np.asarray(b.com),
                                                    np.asarray(b.inertia)))
                moved[name] = LinkInertial(float(Y.mass), Y.lever.copy(), Y.inertia.copy())
        return super().with_body_inertials(moved)  # type: ignore[return-value]

    def joint_limits(self) -> dict[str, JointLimit]:
        """No limits: the build carries rigid-body dynamics only, and MuJoCo reads the
        file's ranges."""
        return {name: JointLimit(-np.inf, np.inf, JOINT_UNITS[kind])
                for _, name, kind, _ in self._one_dof_joints()}


class PinocchioCompiledFreeRoot(PinocchioFreeRoot):
    """``PinocchioFreeRoot``'s MuJoCo convention on the compiled-model build."""

    def __init__(self, path: Path | str, gravity: Sequence[float] = (0.0, 0.0, -9.81), *,
                 joint_names: Sequence[str] | None = None,
                 mj_model: mujoco.MjModel | None = None) -> None:
        self._adopt(PinocchioCompiled(path, gravity, joint_names=joint_names,
                                      floating=True, mj_model=mj_model))
