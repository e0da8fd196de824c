"""Pinocchio adapter: dynamics terms (crba, rnea) and kinematics of a URDF, fixed-base or
on a free flyer (q = (p, quaternion x y z w, joints), v = (v, omega) in the root's local
frame, a = dv/dt)."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pinocchio as pin

from dynval.engines import DescriptionError, EngineRefusalError
from dynval.engines.base import JOINT_UNITS, JointLimit, LinkInertial, cross3
from dynval.engines.mjcf_tree import pinocchio_body_names


def _continuous_as_revolute(urdf: str) -> str:
    """The URDF text with its continuous joints made unlimited revolute ones: Pinocchio
    stores a continuous joint's angle as (cos, sin), two coordinates for one velocity, which
    every other engine and the caller's q read as one angle; the dynamics are the same."""
    if "continuous" not in urdf:
        return urdf
    import xml.etree.ElementTree as ET

    root = ET.fromstring(urdf)
    for joint in root.iter("joint"):
        if joint.get("type") == "continuous":
            joint.set("type", "revolute")
            if joint.find("limit") is None:
                ET.SubElement(joint, "limit", lower="-1e3", upper="1e3", effort="0",
                              velocity="0")
    return ET.tostring(root, encoding="unicode")


def _place_welded_root(model: pin.Model, path: Path) -> None:
    """Pinocchio's MJCF reader puts a root body welded to the world (no joint) at the
    origin, where MuJoCo puts it at its ``pos`` and ``quat``: that placement is put back on
    everything attached to the world, so that frames are where the file says.  Only a
    root given by pos and quat (w, x, y, z) is placed; another orientation is left as
    Pinocchio read it (and a frame comparison will show it)."""
    import xml.etree.ElementTree as ET

    world = ET.parse(str(path)).getroot().find("worldbody")
    roots = [] if world is None else world.findall("body")
    if len(roots) != 1 or roots[0].find("joint") is not None \
            or roots[0].find("freejoint") is not None \
            or any(roots[0].get(k) for k in ("euler", "axisangle", "xyaxes", "zaxis")):
        return
    pos = np.array([float(x) for x in roots[0].get("pos", "0 0 0").split()])
    w, x, y, z = (float(v) for v in roots[0].get("quat", "1 0 0 0").split())
    placement = pin.SE3(pin.Quaternion(w, x, y, z).normalized().toRotationMatrix(), pos)
    for j in range(1, model.njoints):
        if model.parents[j] == 0:
            model.jointPlacements[j] = placement * model.jointPlacements[j]
    for f in model.frames:
        if f.parentJoint == 0 and f.name != "universe":
            f.placement = placement * f.placement


def _name_unnamed_bodies(model: pin.Model, path: Path) -> None:
    """An MJCF's unnamed bodies renamed from what Pinocchio's reader calls them
    (``<parent>Bis``) to what every engine here calls them (``mjcf_tree.unnamed_body``);
    an EngineRefusalError where its reading of them differs from MuJoCo's."""
    names = pinocchio_body_names(path)
    for frame in model.frames:
        if frame.type == pin.FrameType.BODY and frame.name in names:
            frame.name = names[frame.name]


def _free_flyer_from_world(model: pin.Model, path: Path) -> None:
    """An MJCF's free joint read as MuJoCo reads it: its q places the body in the world
    (MuJoCo's qpos0 is the body's pos), where Pinocchio's MJCF reader puts the body's pos
    under the free flyer as a fixed offset."""
    if model.njoints < 2 or model.joints[1].shortname() != "JointModelFreeFlyer" \
            or model.parents[1] != 0:
        raise DescriptionError(f"{path}: no free joint at the root")
    model.jointPlacements[1] = pin.SE3.Identity()


class PinocchioTerms:
    """M(q), bias, gravity and inverse dynamics of a URDF; ``floating`` puts its root link
    on a free flyer.  Pinocchio orders a URDF's joints its own way; ``joint_names`` gives
    the caller's order, in which every q, v and result here is read and returned (after
    the free flyer's 7 and 6 coordinates when floating)."""

    name = "pinocchio"

    def __init__(self, path: Path | str, gravity: Sequence[float] = (0.0, 0.0, -9.81), *,
                 joint_names: Sequence[str] | None = None, floating: bool = False,
                 rigid_body: bool = False) -> None:
        mjcf = Path(path).suffix.lower() == ".xml"
        if not Path(path).is_file():
            raise DescriptionError(f"{path}: {'MJCF' if mjcf else 'URDF'} file not found")
        try:
            if mjcf:  # its own free joint, if it has one, is Pinocchio's free flyer
                self.model = pin.buildModelFromMJCF(str(path))
                _place_welded_root(self.model, Path(path))
                if floating:
                    _free_flyer_from_world(self.model, Path(path))
            elif floating:
                xml = _continuous_as_revolute(Path(path).read_text())
                self.model = pin.buildModelFromXML(xml, pin.JointModelFreeFlyer())
            else:
                self.model = pin.buildModelFromXML(_continuous_as_revolute(
                    Path(path).read_text()))
        except (RuntimeError, ValueError) as exc:
            msg = " ".join(str(exc).split())
            raise DescriptionError(f"{path}: Pinocchio cannot load this "
                                   f"{'MJCF' if mjcf else 'URDF'} ({msg})") from None
        if mjcf:
            _name_unnamed_bodies(self.model, Path(path))
        self.switched_off = []
        if rigid_body and np.any(self.model.armature > 0):  # crba adds it to M's diagonal
            self.switched_off = [f"armature ({int(np.sum(self.model.armature > 0))})"]
            self.model.armature[:] = 0.0
        self.model.gravity.linear = np.asarray(gravity, dtype=float)
        self.data = self.model.createData()
        nb_q, nb_v = (7, 6) if floating else (0, 0)
        self._iq = np.arange(self.model.nq)
        self._iv = np.arange(self.model.nv)
        if joint_names is not None:
            missing = [n for n in joint_names if not self.model.existJointName(n)]
            if missing:
                error = EngineRefusalError if mjcf else DescriptionError
                raise error(f"{path}: Pinocchio's model of it has no joint named "
                            f"{missing[0]!r}" + (" (its MJCF reader merges the joints of one "
                                                 "body into one, or leaves a body out)"
                                                 if mjcf else ""))
            ids = [self.model.getJointId(n) for n in joint_names]
            unsupported = [(n, self.model.joints[i].nv) for n, i in zip(joint_names, ids,
                                                                         strict=True)
                           if self.model.joints[i].nq != 1 or self.model.joints[i].nv != 1]
            if unsupported:
                name, nv = unsupported[0]
                raise DescriptionError(f"{path}: joint {name!r} has {nv} degrees of freedom; "
                                       "a model's joint_names are one-degree-of-freedom joints")
            self._iq = np.r_[np.arange(nb_q), [self.model.joints[i].idx_q for i in ids]
                             ].astype(int)  # int also when no joint is named
            self._iv = np.r_[np.arange(nb_v), [self.model.joints[i].idx_v for i in ids]
                             ].astype(int)

    def with_body_inertials(self, bodies: dict[str, LinkInertial]) -> PinocchioTerms:
        """A copy whose moving bodies carry the given inertials (by link name, in the
        link's frame, as ``body_inertials`` gives them): Pinocchio's terms of another
        engine's reading of the file, which tells that reading's effect on the terms apart
        from the engine's arithmetic.  An inertial Pinocchio cannot hold (not positive) is
        an EngineRefusalError naming the link."""
        other = copy.copy(self)
        other.model = pin.Model(self.model)
        for j, name in self._link_of_joint().items():
            if j > 0 and name in bodies:
                b = bodies[name]
                try:
                    other.model.inertias[j] = pin.Inertia(float(b.mass), np.asarray(b.com),
                                                          np.asarray(b.inertia))
                except RuntimeError as exc:
                    raise EngineRefusalError(f"Pinocchio cannot hold link {name!r}'s inertial "
                                             f"as read ({exc})") from None
        other.data = other.model.createData()
        return other

    def _q(self, q) -> np.ndarray:
        out = np.zeros(self.model.nq)
        out[self._iq] = q
        return out

    def _v(self, v) -> np.ndarray:
        out = np.zeros(self.model.nv)
        out[self._iv] = v
        return out

    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        M = pin.crba(self.model, self.data, self._q(q))  # its upper triangle
        lower = np.tril_indices(self.model.nv, -1)
        M[lower] = M.T[lower]
        return M[np.ix_(self._iv, self._iv)]

    def forward_dynamics(self, q: np.ndarray, v: np.ndarray, tau: np.ndarray) -> np.ndarray:
        """The accelerations under joint forces tau, by the articulated-body algorithm
        (O(n), no mass matrix formed)."""
        a = pin.aba(self.model, self.data, self._q(q), self._v(v), self._v(tau))
        return a[self._iv].copy()

    def acceleration(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Unforced forward dynamics vdot(q, v) (gravity only)."""
        return self.forward_dynamics(q, v, np.zeros(len(self._iv)))

    def bias(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        return self.inverse_dynamics(q, v, np.zeros(len(self._iv)))

    def gravity(self, q: np.ndarray) -> np.ndarray:
        return self.bias(q, np.zeros(len(self._iv)))

    def inverse_dynamics(self, q: np.ndarray, v: np.ndarray, vdot: np.ndarray) -> np.ndarray:
        tau = pin.rnea(self.model, self.data, self._q(q), self._v(v), self._v(vdot))
        return tau[self._iv].copy()

    def _frame(self, name: str) -> int:
        if not self.model.existFrame(name):
            raise DescriptionError(f"URDF model has no link or joint named {name!r}")
        if self.model.existFrame(name, pin.FrameType.BODY):  # a link shares a joint's name
            return self.model.getFrameId(name, pin.FrameType.BODY)
        return self.model.getFrameId(name)

    def frame_position(self, name: str, q: np.ndarray,
                       offset: np.ndarray | None = None) -> np.ndarray:
        """World position of frame ``name`` (a link or joint) or of the point ``offset``
        fixed in it."""
        pin.framesForwardKinematics(self.model, self.data, self._q(q))
        oMf = self.data.oMf[self._frame(name)]
        if offset is None:
            return oMf.translation.copy()
        return oMf.translation + oMf.rotation @ np.asarray(offset)

    def frame_jacobian(self, name: str, q: np.ndarray,
                       offset: np.ndarray | None = None) -> np.ndarray:
        """3 x n linear Jacobian of that point, world axes."""
        q = self._q(q)
        fid = self._frame(name)
        pin.computeJointJacobians(self.model, self.data, q)
        pin.framesForwardKinematics(self.model, self.data, q)
        J = pin.getFrameJacobian(self.model, self.data, fid, pin.LOCAL_WORLD_ALIGNED)
        J = np.reshape(J, (6, self.model.nv))  # eigenpy returns a 6-vector when nv is 1
        if offset is None:
            return J[:3, self._iv]
        r = self.data.oMf[fid].rotation @ np.asarray(offset)
        return (J[:3] - np.cross(r, J[3:].T).T)[:, self._iv]  # v_point = v_frame + omega x r

    def frame_bias_acceleration(self, name: str, q: np.ndarray, v: np.ndarray,
                                offset: np.ndarray | None = None) -> np.ndarray:
        """World (classical) acceleration of that point at velocity v and no joint
        acceleration: with :meth:`frame_jacobian` J, the point's acceleration is
        J vdot + this (what a point constraint needs)."""
        fid = self._frame(name)
        pin.forwardKinematics(self.model, self.data, self._q(q), self._v(v),
                              np.zeros(self.model.nv))
        pin.updateFramePlacements(self.model, self.data)
        frame = pin.LOCAL_WORLD_ALIGNED
        a = pin.getFrameClassicalAcceleration(self.model, self.data, fid, frame)
        if offset is None:
            return a.linear.copy()
        w = pin.getFrameVelocity(self.model, self.data, fid, frame).angular
        alpha = pin.getFrameAcceleration(self.model, self.data, fid, frame).angular
        r = self.data.oMf[fid].rotation @ np.asarray(offset)
        return a.linear + np.cross(alpha, r) + np.cross(w, np.cross(w, r))

    # --- description facts ---------------------------------------------------------------
    def _one_dof_joints(self) -> list[tuple[int, str, str, np.ndarray]]:
        """(id, name, "revolute" or "prismatic", axis in the joint frame) of every
        one-coordinate joint, from its motion subspace S = (linear; angular)."""
        out = []
        q0 = pin.neutral(self.model)
        for j in range(1, self.model.njoints):
            joint = self.model.joints[j]
            if joint.nq != 1 or joint.nv != 1:
                continue
            jdata = joint.createData()
            joint.calc(jdata, q0)
            S = np.asarray(jdata.S).ravel()
            kind = "revolute" if np.any(S[3:]) else "prismatic"
            out.append((j, self.model.names[j], kind, S[3:] if kind == "revolute" else S[:3]))
        return out

    def _link_of_joint(self) -> dict[int, str]:
        """The link that follows each joint: the body frame attached to its joint frame."""
        frames = self.model.frames
        return {f.parentJoint: f.name for f in frames
                if f.type == pin.FrameType.BODY
                and frames[f.parentFrame].type == pin.FrameType.JOINT}

    def link_inertials(self) -> dict[str, LinkInertial]:
        """The inertia Pinocchio carries on each joint, by the name of the link after it
        (links welded to that link are merged into it)."""
        links = self._link_of_joint()
        return {links[j]: LinkInertial(float(Y.mass), Y.lever.copy(), Y.inertia.copy())
                for j, Y in enumerate(self.model.inertias) if j in links}

    def welded_links(self) -> dict[str, tuple[str, ...]]:
        """Every moving link (by name) with the links welded to it, whose inertia Pinocchio
        merges into its joint's."""
        links = self._link_of_joint()
        return {links.get(j, self.model.names[j]): tuple(
                    f.name for f in self.model.frames if f.type == pin.FrameType.BODY
                    and f.parentJoint == j and f.name != links.get(j))
                for j in range(1, self.model.njoints)}

    def body_inertials(self) -> dict[str, LinkInertial]:
        """Pinocchio merges the links welded to a moving link into its joint's inertia
        when it reads the URDF: link_inertials already are the moving bodies, less those
        welded to the world (DescriptionFacts.body_inertials)."""
        inertials = self.link_inertials()
        welded = self._link_of_joint().get(0)
        return {name: y for name, y in inertials.items() if name != welded}

    def joint_axes(self) -> dict[str, np.ndarray]:
        """Axis of every revolute and prismatic joint in its child link's frame."""
        return {name: axis for _, name, _, axis in self._one_dof_joints()}

    def joint_limits(self) -> dict[str, JointLimit]:
        """Position limits of every revolute [rad] and prismatic [m] joint."""
        lo, hi = self.model.lowerPositionLimit, self.model.upperPositionLimit
        out = {}
        for j, name, kind, _ in self._one_dof_joints():
            i = self.model.joints[j].idx_q
            out[name] = JointLimit(float(lo[i]), float(hi[i]), JOINT_UNITS[kind])
        return out


class PinocchioFreeRoot:
    """A URDF on Pinocchio's free flyer, read and answered in MuJoCo's free-joint
    convention: q = (p_WB, quat_WB as w, x, y, z, joints), v = (v_WB in W, w_WB in B,
    joint rates).  Pinocchio's free flyer takes the quaternion as x, y, z, w and both
    velocities in B, so v_pin = T v with T = diag(R_WB^T, I, I); its acceleration is
    d/dt v_pin = T vdot + c with c = (-w_WB x R_WB^T v_WB, 0, 0); and power gives the
    generalised forces tau = T^T tau_pin.  Hence M = T^T M_pin T and
    tau(q, v, vdot) = T^T rnea(q_pin, T v, T vdot + c)."""

    name = "pinocchio"

    def __init__(self, path: Path | str, gravity: Sequence[float] = (0.0, 0.0, -9.81), *,
                 joint_names: Sequence[str] | None = None) -> None:
        self._adopt(PinocchioTerms(path, gravity, joint_names=joint_names, floating=True,
                                   rigid_body=True))

    def _adopt(self, terms: PinocchioTerms) -> None:
        """Answer through ``terms``, a floating PinocchioTerms (or one built otherwise)."""
        self.terms = terms
        self.switched_off = self.terms.switched_off
        self.joint_axes = self.terms.joint_axes
        self.link_inertials = self.terms.link_inertials
        self.body_inertials = self.terms.body_inertials
        self.welded_links = self.terms.welded_links
        self.joint_limits = self.terms.joint_limits

    def with_body_inertials(self, bodies: dict[str, LinkInertial]) -> PinocchioFreeRoot:
        """The same free root with the given inertials (PinocchioTerms's)."""
        other = copy.copy(self)
        other.terms = self.terms.with_body_inertials(bodies)
        other.body_inertials = other.terms.body_inertials  # the copy's, not the original's
        return other

    @staticmethod
    def _R_T(q: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Pinocchio's q, R_WB and T for a MuJoCo-convention q."""
        quat = np.asarray(q[3:7], dtype=float) / np.linalg.norm(q[3:7])
        q_pin = np.concatenate((q[0:3], quat[1:4], quat[0:1], q[7:]))
        R = pin.Quaternion(quat[0], quat[1], quat[2], quat[3]).toRotationMatrix()
        T = np.eye(len(q) - 1)
        T[0:3, 0:3] = R.T
        return q_pin, R, T

    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        q_pin, _, T = self._R_T(q)
        return T.T @ self.terms.mass_matrix(q_pin) @ T

    def inverse_dynamics(self, q: np.ndarray, v: np.ndarray, vdot: np.ndarray) -> np.ndarray:
        q_pin, R, T = self._R_T(q)
        c = np.zeros(len(v))
        c[0:3] = -cross3(v[3:6], R.T @ v[0:3])
        return T.T @ self.terms.inverse_dynamics(q_pin, T @ v, T @ vdot + c)

    def bias(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        return self.inverse_dynamics(q, v, np.zeros(len(v)))

    def gravity(self, q: np.ndarray) -> np.ndarray:
        return self.bias(q, np.zeros(len(q) - 1))

    def forward_dynamics(self, q: np.ndarray, v: np.ndarray, tau: np.ndarray) -> np.ndarray:
        """vdot under generalised forces tau: Pinocchio's articulated-body algorithm on
        v_pin = T v and tau_pin = T tau (T's blocks are orthogonal, so T^-T = T), then
        vdot = T^-1 (a_pin - c) with T^-1 = diag(R_WB, I, I) (class docstring)."""
        q_pin, R, T = self._R_T(q)
        out = self.terms.forward_dynamics(q_pin, T @ v, T @ tau)
        out[0:3] += cross3(v[3:6], R.T @ v[0:3])  # less c
        out[0:3] = R @ out[0:3]
        return out

    def acceleration(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Unforced forward dynamics vdot(q, v) (gravity only)."""
        return self.forward_dynamics(q, v, np.zeros(len(v)))

    def frame_position(self, name: str, q: np.ndarray,
                       offset: np.ndarray | None = None) -> np.ndarray:
        return self.terms.frame_position(name, self._R_T(q)[0], offset)

    def frame_jacobian(self, name: str, q: np.ndarray,
                       offset: np.ndarray | None = None) -> np.ndarray:
        q_pin, _, T = self._R_T(q)
        return self.terms.frame_jacobian(name, q_pin, offset) @ T
