"""MuJoCo's compiled model of an MJCF as a tree of joints and welded bodies, the numbers
another engine is built from so that its algorithms are compared on MuJoCo's reading.

MuJoCo's compiler decides what an MJCF means: ``<default>`` classes, ``settotalmass``,
the mass of every geom (contype=0 ones included), inertia from geometry, ``<compiler
angle>``, a joint's ``ref``.  Its ``MjModel`` holds the result: ``body_mass``,
``body_ipos``/``body_iquat``/``body_inertia``, ``body_pos``/``body_quat``,
``jnt_type``/``jnt_axis``/``jnt_pos``.  Its forward kinematics (``mj_kinematics``) moves
a body by each of its joints in turn: a hinge turns the body about its axis through the
joint's anchor ``jnt_pos`` (in the body's frame), a slide moves it along its axis, a ball
turns it about the anchor, a free joint places it in the world; each by its coordinate
less the joint's reference (``qpos0``).

:func:`segments` turns that into one segment per joint, each placed in the frame of the
segment before it (the joint's frame sits at its anchor, in the body's axes), so that a
body with several joints is a chain of massless segments ending at the body; and one weld
per body without joints.  Every body's placement in its segment's frame is kept, so that
its inertia and its frame are put where MuJoCo has them.
"""

from __future__ import annotations

from dataclasses import dataclass

import mujoco
import numpy as np

from dynval.engines.mjcf_tree import unnamed_body

_J = mujoco.mjtJoint
HINGE, SLIDE, BALL, FREE = (int(_J.mjJNT_HINGE), int(_J.mjJNT_SLIDE), int(_J.mjJNT_BALL),
                            int(_J.mjJNT_FREE))
KIND = {HINGE: "hinge", SLIDE: "slide", BALL: "ball", FREE: "free"}


def rotation(quat_wxyz: np.ndarray) -> np.ndarray:
    """The rotation matrix of a unit quaternion (w, x, y, z), MuJoCo's convention."""
    R = np.zeros(9)
    mujoco.mju_quat2Mat(R, np.asarray(quat_wxyz, dtype=float))
    return R.reshape(3, 3)


@dataclass(frozen=True)
class Pose:
    """A rigid placement: rotation R and translation p (x_parent = R x_child + p)."""

    R: np.ndarray
    p: np.ndarray

    @staticmethod
    def identity() -> Pose:
        return Pose(np.eye(3), np.zeros(3))

    @staticmethod
    def of(pos: np.ndarray, quat: np.ndarray | None = None) -> Pose:
        return Pose(np.eye(3) if quat is None else rotation(quat), np.asarray(pos, float).copy())

    def __mul__(self, other: Pose) -> Pose:
        return Pose(self.R @ other.R, self.R @ other.p + self.p)


@dataclass(frozen=True)
class Segment:
    """One joint of the compiled model: its MuJoCo id, name (``joint #id`` where the file
    gives none), kind, axis in its frame, the segment it hangs from (-1: the world) and
    its frame's placement in that segment's frame; the joint's reference coordinate."""

    joint: int
    name: str
    kind: str
    axis: np.ndarray
    parent: int  # index into the segment list, -1 for the world
    placement: Pose
    ref: float


@dataclass(frozen=True)
class BodyPlace:
    """Where a MuJoCo body sits: the segment it moves with (-1: welded to the world), its
    frame in that segment's frame, and its mass, centre of mass and inertia about it in
    the segment's frame (MuJoCo's compiled values)."""

    body: int
    name: str
    segment: int
    frame: Pose
    mass: float
    com: np.ndarray
    inertia: np.ndarray


def body_name(m: mujoco.MjModel, b: int) -> str:
    """MuJoCo's name of body ``b``, or ``mjcf_tree.unnamed_body``'s for an unnamed one."""
    name = mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_BODY, b)
    if name:
        return name
    parent = int(m.body_parentid[b])
    return unnamed_body(b, parent, mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_BODY, parent))


def joint_name(m: mujoco.MjModel, j: int) -> str:
    return mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_JOINT, j) or f"joint #{j}"


def segments(m: mujoco.MjModel) -> tuple[list[Segment], list[BodyPlace]]:
    """The compiled model's joints as segments, in MuJoCo's joint order, and every body
    (the world left out) with its place, in MuJoCo's body order."""
    segs: list[Segment] = []
    places: dict[int, tuple[int, Pose]] = {0: (-1, Pose.identity())}
    bodies: list[BodyPlace] = []
    for b in range(1, m.nbody):
        seg, in_seg = places[int(m.body_parentid[b])]
        frame = in_seg * Pose.of(m.body_pos[b], m.body_quat[b])  # the body at its qpos0
        for j in range(m.body_jntadr[b], m.body_jntadr[b] + m.body_jntnum[b]):
            kind = KIND[int(m.jnt_type[j])]
            if kind == "free":  # the body placed in the world by its coordinates alone
                joint_frame = Pose.identity()
            else:
                joint_frame = frame * Pose.of(m.jnt_pos[j])
            ref = float(m.qpos0[m.jnt_qposadr[j]]) if kind in ("hinge", "slide") else 0.0
            segs.append(Segment(j, joint_name(m, j), kind, m.jnt_axis[j].copy(), seg,
                                joint_frame, ref))
            seg = len(segs) - 1
            frame = Pose.of(-m.jnt_pos[j]) if kind != "free" else Pose.identity()
        places[b] = (seg, frame)
        inertial = frame * Pose.of(m.body_ipos[b], m.body_iquat[b])
        inertia = inertial.R @ np.diag(m.body_inertia[b]) @ inertial.R.T
        bodies.append(BodyPlace(b, body_name(m, b), seg, frame, float(m.body_mass[b]),
                                inertial.p.copy(), inertia))
    return segs, bodies


def site_places(m: mujoco.MjModel, bodies: list[BodyPlace]) -> list[tuple[str, int, Pose]]:
    """Every named site: its name, its segment and its frame in that segment's frame."""
    by_id = {p.body: p for p in bodies}
    out = []
    for s in range(m.nsite):
        name = mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_SITE, s)
        b = int(m.site_bodyid[s])
        if name and b in by_id:
            place = by_id[b]
            out.append((name, place.segment,
                        place.frame * Pose.of(m.site_pos[s], m.site_quat[s])))
    return out
