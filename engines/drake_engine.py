"""Drake adapter: dynamics terms and description facts of a URDF, an SDF or the MJCF
subset Drake's parser reads, on a continuous MultibodyPlant, fixed base or free.

Conventions handled here (each checked against Pinocchio in tests/test_drake_engine.py):

- ``CalcBiasTerm`` is C(q, v) v alone, and ``CalcGravityGeneralizedForces`` is
  tau_g(q) on the right of M vdot + C v = tau_g + tau, so G(q) = -tau_g;
  ``CalcInverseDynamics`` leaves every force element out (gravity, joint damping), so the
  inverse dynamics is its answer less tau_g.  Damping and springs are force elements
  Drake keeps out of these terms; a joint's reflected rotor inertia enters M and is
  switched off.
- Drake leaves a URDF's root link free; a fixed base welds it to the world at the origin,
  as the other engines place it.  A free root is Drake's quaternion floating joint,
  q_D = (qw, qx, qy, qz, p_WB), v_D = (w_WB in W, v_WB in W), read and answered in
  MuJoCo's free-joint convention q = (p_WB, w, x, y, z, joints), v = (v_WB in W, w_WB in
  B, joint rates): v_D = T v with T = [[0, R_WB, 0], [I, 0, 0], [0, 0, I]], and since
  d/dt (R_WB w_B) = R_WB dw_B/dt, vdot_D = T vdot exactly; power gives tau = T^T tau_D,
  hence M = T^T M_D T.
- Joints are looked up by name; q, v and every result are in the caller's joint order.
- What Drake's parser warns of is kept (``findings``: a link's inertia or mass; ``notes``:
  what it ignores), never printed; a file it refuses is a DescriptionError (an
  EngineRefusalError where the file is not at fault) with its message in one sentence.

pydrake is imported where a plant is built, so importing this module costs nothing.
"""

from __future__ import annotations

import logging
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from dynval.engines import DescriptionError, EngineRefusalError
from dynval.engines.base import JOINT_UNITS, JointLimit, LinkInertial, composite_inertial

KINDS = {".urdf": "URDF", ".sdf": "SDF", ".xml": "MJCF"}
_ONE_DOF = {"revolute": "revolute", "prismatic": "prismatic"}  # Drake's type_name
# what a failed internal check of Drake's means, where its message names only the code
_GLOSSES = {"pos_lower_limits.array() <= pos_upper_limits.array()":
            "a joint's lower limit is above its upper limit, which Drake does not accept"}
# a warning about the file's inertial values, kept as a finding (the rest are notes)
_INERTIAL = re.compile(r"inertia|mass|physically valid", re.IGNORECASE)


def available() -> bool:
    """Whether pydrake is installed (found without importing it)."""
    from importlib.util import find_spec

    return find_spec("pydrake") is not None


@contextmanager
def _captured(records: list[logging.LogRecord]):
    """Drake's log (pydrake sends it to Python's ``drake`` logger) kept in ``records``
    instead of printed."""
    logger = logging.getLogger("drake")

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    handler, propagate = Keep(logging.WARNING), logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate


def _one_sentence(message: str, path: Path) -> tuple[int | None, str]:
    """Drake's message without its file prefix, on one line, and the line it names."""
    text = " ".join(str(message).split())
    m = re.match(rf"^(?:{re.escape(str(path))}|[^ ]+?):(\d+): (?:warning|error): "
                 r"(?:ERROR: )?", text)
    line = int(m.group(1)) if m else None
    text = text[m.end():] if m else text.replace(str(path), path.name)
    text = re.sub(r"Failure at \S+ in ", "", text)
    text = re.sub(r"\s*\[[^\]]*\](?:\s*\[[^\]]*\])*", "", text)  # printed matrices
    return line, text.rstrip(".")


def _element_at(path: Path, line: int | None) -> str | None:
    """The link (URDF, SDF) or body (MJCF) whose element the file's line ``line`` is in:
    the last one opened at or before it."""
    if line is None:
        return None
    tag = "body" if path.suffix.lower() == ".xml" else "link"
    name = None
    pattern = re.compile(rf"<{tag}\b[^>]*\bname\s*=\s*[\"']([^\"']+)")
    for text in path.read_text(errors="replace").splitlines()[:line]:
        for found in pattern.finditer(text):
            name = found.group(1)
    return name


def _read(path: Path, free_root: bool, time_step: float = 0.0
          ) -> tuple[Any, list[logging.LogRecord], Any]:
    """A finalized plant of the file, continuous (``time_step`` 0) or stepped every
    ``time_step`` seconds: a root body (one no joint moves) welded to the world at the
    origin, or, with ``free_root``, on a quaternion floating joint (returned third; None
    on a fixed base).  Drake's messages are returned, not printed."""
    from pydrake.multibody.parsing import Parser
    from pydrake.multibody.plant import MultibodyPlant
    from pydrake.multibody.tree import QuaternionFloatingJoint

    records: list[logging.LogRecord] = []
    plant, free = MultibodyPlant(time_step), None
    with _captured(records):
        parser = Parser(plant)
        root = ET.parse(str(path)).getroot() if path.suffix.lower() == ".xml" else None
        if root is not None and not root.get("model"):  # Drake's MJCF reader wants one
            root.set("model", path.stem)
            instances = parser.AddModelsFromString(ET.tostring(root, encoding="unicode"),
                                                   "xml")
        else:
            instances = parser.AddModels(str(path))
        moved = {plant.get_joint(j).child_body().index() for i in instances
                 for j in plant.GetJointIndices(i)}
        roots = [plant.get_body(b) for i in instances for b in plant.GetBodyIndices(i)
                 if b not in moved and b != plant.world_body().index()]
        if free_root:
            if len(roots) != 1:
                raise DescriptionError(f"{path}: {len(roots)} root bodies in Drake's reading "
                                       "of it, where a free root needs one")
            free = plant.AddJoint(QuaternionFloatingJoint(
                f"{roots[0].name()} free root", plant.world_frame(), roots[0].body_frame()))
        else:
            for body in roots:
                plant.WeldFrames(plant.world_frame(), body.body_frame())
        plant.Finalize()
    return plant, records, free


def kind_of(path: Path) -> str:
    """"URDF", "SDF" or "MJCF" for a file Drake reads; a DescriptionError otherwise."""
    kind = KINDS.get(path.suffix.lower())
    if kind is None:
        raise DescriptionError(f"{path}: Drake reads a .urdf, .sdf or MJCF .xml")
    if not path.is_file():
        raise DescriptionError(f"{path}: {kind} file not found")
    return kind


def load(path: Path, free_root: bool, time_step: float = 0.0
         ) -> tuple[Any, list[logging.LogRecord], Any]:
    """:func:`_read`, with a file Drake refuses as one sentence: a DescriptionError where
    the file's inertial values are at fault, an EngineRefusalError otherwise."""
    try:
        return _read(path, free_root, time_step)
    except (RuntimeError, ValueError, ET.ParseError, SystemExit) as exc:
        # pydrake raises a failed internal check (DRAKE_DEMAND) as SystemExit
        _, said = _one_sentence(str(exc), path)
        gloss = next((g for key, g in _GLOSSES.items() if key in said), None)
        said = f"{gloss} ({said})" if gloss else said
        error = DescriptionError if _INERTIAL.search(said) else EngineRefusalError
        raise error(f"{path}: {said}") from None


def bodies(plant: Any) -> list[Any]:
    """Every body of a plant but the world, in Drake's order."""
    from pydrake.multibody.tree import BodyIndex

    return [plant.get_body(BodyIndex(b)) for b in range(1, plant.num_bodies())]


def body_masses(path: Path | str) -> dict[str, float]:
    """Each body's mass as Drake reads the file, by body name (what another reader's
    masses are held to where Drake defines the file's meaning, as for an SDF)."""
    plant, _, _ = _read(Path(path), False)
    return {body.name(): float(body.default_mass()) for body in bodies(plant)}


def body_inertial(body: Any) -> LinkInertial:
    """A Drake body's mass, centre of mass and inertia about it, in body axes."""
    M = body.default_spatial_inertia()  # about the body origin, body axes
    com = np.asarray(M.get_com(), dtype=float)
    central = M.Shift(com).CalcRotationalInertia().CopyToFullMatrix3()
    return LinkInertial(float(M.get_mass()), com, np.array(central))


class DrakeTerms:
    """M(q), bias, gravity, inverse dynamics and frames of a description in Drake, and
    what Drake read from it (DescriptionFacts).  ``joint_names`` gives the caller's joint
    order (every one-degree-of-freedom joint in Drake's order when None); ``free_root``
    puts the root body on a free joint read in MuJoCo's convention (module docstring),
    whose 7 and 6 coordinates come first."""

    name = "drake"

    def __init__(self, path: Path | str, gravity: Sequence[float] = (0.0, 0.0, -9.81), *,
                 joint_names: Sequence[str] | None = None, free_root: bool = False,
                 rigid_body: bool = True) -> None:
        self.path, self.kind = Path(path), kind_of(Path(path))
        self.plant, records, self._free = load(self.path, free_root)
        self.findings, self.notes = self._warnings(records)
        self._shared = self._unnamed_bodies()
        self.switched_off = self._rigid_body_only() if rigid_body else []
        from pydrake.multibody.tree import JacobianWrtVariable, MultibodyForces

        self._forces = MultibodyForces(self.plant)
        self._wrt_v = JacobianWrtVariable.kV
        self.plant.mutable_gravity_field().set_gravity_vector(np.asarray(gravity, float))
        self.context = self.plant.CreateDefaultContext()
        self._q0 = self.plant.GetPositions(self.context).copy()
        self._index(joint_names)

    # --- reading ------------------------------------------------------------------------
    def _warnings(self, records: list[logging.LogRecord]) -> tuple[list[str], list[str]]:
        """Drake's warnings in words: about a link's inertial values (findings, naming
        the link where the line says which), and what it ignores (notes, each message
        once with its count)."""
        findings, ignored = [], {}
        for record in records:
            line, said = _one_sentence(record.getMessage(), self.path)
            if _INERTIAL.search(said):
                where = _element_at(self.path, line)
                what = f"{'body' if self.kind == 'MJCF' else 'link'} {where!r}" if where \
                    else self.path.name
                findings.append(f"Drake warns of {what}: {said}")
            else:
                ignored[said] = ignored.get(said, 0) + 1
        notes = [f"Drake's {self.kind} parser: {said}"
                 + (f" ({n} times)" if n > 1 else "") for said, n in ignored.items()]
        return list(dict.fromkeys(findings)), notes

    def _unnamed_bodies(self) -> dict[str, str]:
        """Drake's name of each body an MJCF leaves unnamed (``body<n>``, n its MuJoCo
        number) with the name every engine here gives it (``mjcf_tree.unnamed_body``)."""
        if self.kind != "MJCF":
            return {}
        from dynval.engines.mjcf_tree import mjcf_bodies

        return {f"body{b.index}": b.name for b in mjcf_bodies(self.path) if not b.named
                and self.plant.HasBodyNamed(f"body{b.index}")}

    def _name(self, body: Any) -> str:
        """A body's name as every engine here gives it."""
        return self._shared.get(body.name(), body.name())

    def _rigid_body_only(self) -> list[str]:
        """Switch off the joints' reflected rotor inertia, the one thing beyond rigid-body
        dynamics that enters Drake's M, bias or inverse dynamics (damping, springs and
        joint limits are force elements or constraints these terms leave out)."""
        reflected = [a for a in (self.plant.get_joint_actuator(i)
                                 for i in self.plant.GetJointActuatorIndices())
                     if a.default_reflected_inertia() > 0.0]
        for actuator in reflected:
            actuator.set_default_rotor_inertia(0.0)
        return [f"reflected rotor inertia ({len(reflected)})"] if reflected else []

    def _index(self, joint_names: Sequence[str] | None) -> None:
        """The positions and velocities of Drake's state that the caller's q and v are."""
        plant = self.plant
        if joint_names is None:
            joint_names = [name for _, name, _ in self._one_dof_joints()]
        missing = [n for n in joint_names if not plant.HasJointNamed(n)]
        if missing:
            error = EngineRefusalError if self.kind == "MJCF" else DescriptionError
            raise error(f"{self.path}: Drake's model of it has no joint named {missing[0]!r}")
        joints = [plant.GetJointByName(n) for n in joint_names]
        wide = [j for j in joints if j.num_positions() != 1 or j.num_velocities() != 1]
        if wide:
            raise DescriptionError(f"{self.path}: joint {wide[0].name()!r} has "
                                   f"{wide[0].num_velocities()} degrees of freedom; a "
                                   "model's joint_names are one-degree-of-freedom joints")
        iq = [j.position_start() for j in joints]
        iv = [j.velocity_start() for j in joints]
        if self._free is not None:
            iq = [*range(self._free.position_start(), self._free.position_start() + 7), *iq]
            iv = [*range(self._free.velocity_start(), self._free.velocity_start() + 6), *iv]
        self._iq, self._iv = np.array(iq, dtype=int), np.array(iv, dtype=int)

    # --- state --------------------------------------------------------------------------
    def _T(self, q: np.ndarray) -> np.ndarray | None:
        """T of the module docstring at q (None on a fixed base)."""
        if self._free is None:
            return None
        w, x, y, z = np.asarray(q[3:7], dtype=float) / np.linalg.norm(q[3:7])
        R = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                      [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                      [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])
        T = np.eye(len(self._iv))
        T[0:6, 0:6] = 0.0
        T[0:3, 3:6] = R
        T[3:6, 0:3] = np.eye(3)
        return T

    def _set(self, q: np.ndarray, v: np.ndarray | None = None) -> np.ndarray | None:
        """Put the caller's state into Drake's context; T at q (None on a fixed base)."""
        q = np.asarray(q, dtype=float)
        T = self._T(q)
        full = self._q0.copy()
        full[self._iq] = q if T is None else np.r_[q[3:7] / np.linalg.norm(q[3:7]), q[0:3],
                                                   q[7:]]
        self.plant.SetPositions(self.context, full)
        vel = np.zeros(self.plant.num_velocities())
        if v is not None:
            vel[self._iv] = np.asarray(v, dtype=float) if T is None else T @ v
        self.plant.SetVelocities(self.context, vel)
        return T

    @staticmethod
    def _out(T: np.ndarray | None, x: np.ndarray) -> np.ndarray:
        """A generalised force in the caller's coordinates: T^T x."""
        return x if T is None else T.T @ x

    # --- terms --------------------------------------------------------------------------
    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        T = self._set(q)
        M = self.plant.CalcMassMatrix(self.context)[np.ix_(self._iv, self._iv)]
        return M if T is None else T.T @ M @ T

    def _tau_g(self) -> np.ndarray:
        return self.plant.CalcGravityGeneralizedForces(self.context)[self._iv]

    def bias(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        T = self._set(q, v)
        return self._out(T, self.plant.CalcBiasTerm(self.context)[self._iv] - self._tau_g())

    def gravity(self, q: np.ndarray) -> np.ndarray:
        T = self._set(q)
        return self._out(T, -self._tau_g())

    def inverse_dynamics(self, q: np.ndarray, v: np.ndarray, vdot: np.ndarray) -> np.ndarray:
        T = self._set(q, v)
        a = np.zeros(self.plant.num_velocities())
        a[self._iv] = np.asarray(vdot, dtype=float) if T is None else T @ vdot
        tau = self.plant.CalcInverseDynamics(self.context, a, self._forces)
        return self._out(T, tau[self._iv] - self._tau_g())

    def acceleration(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Unforced forward dynamics vdot(q, v) (gravity only): M \\ (-bias) in Drake's
        coordinates at one state set, then vdot = T^T vdot_D (T is orthogonal)."""
        T = self._set(q, v)
        M = self.plant.CalcMassMatrix(self.context)[np.ix_(self._iv, self._iv)]
        bias = self.plant.CalcBiasTerm(self.context)[self._iv] - self._tau_g()
        return self._out(T, np.linalg.solve(M, -bias))

    # --- frames -------------------------------------------------------------------------
    def _frame(self, name: str) -> Any:
        """A body of that name, else a frame (an SDF's or MJCF's own)."""
        name = next((d for d, shared in self._shared.items() if shared == name), name)
        if self.plant.HasBodyNamed(name):
            return self.plant.GetBodyByName(name).body_frame()
        if self.plant.HasFrameNamed(name):
            return self.plant.GetFrameByName(name)
        raise DescriptionError(f"Drake's model of {self.path.name} has no body or frame "
                               f"named {name!r}")

    def frame_position(self, name: str, q: np.ndarray,
                       offset: np.ndarray | None = None) -> np.ndarray:
        """World position of a body or frame's origin, or of the point ``offset`` in it."""
        self._set(q)
        p = np.zeros((3, 1)) if offset is None else np.reshape(offset, (3, 1)).astype(float)
        return self.plant.CalcPointsPositions(self.context, self._frame(name), p,
                                              self.plant.world_frame())[:, 0]

    def frame_jacobian(self, name: str, q: np.ndarray,
                       offset: np.ndarray | None = None) -> np.ndarray:
        """3 x n linear Jacobian of that point, world axes, in the caller's v."""
        T = self._set(q)
        p = np.zeros(3) if offset is None else np.asarray(offset, dtype=float)
        world = self.plant.world_frame()
        J = self.plant.CalcJacobianTranslationalVelocity(
            self.context, self._wrt_v, self._frame(name), p, world, world)[:, self._iv]
        return J if T is None else J @ T

    # --- description facts --------------------------------------------------------------
    def _one_dof_joints(self) -> list[tuple[Any, str, str]]:
        """(joint, name, "revolute" or "prismatic") of every one-coordinate joint."""
        out = []
        for j in self.plant.GetJointIndices():
            joint = self.plant.get_joint(j)
            if joint.type_name() in _ONE_DOF:
                out.append((joint, joint.name(), _ONE_DOF[joint.type_name()]))
        return out

    def _bodies(self) -> list[Any]:
        return bodies(self.plant)

    def link_inertials(self) -> dict[str, LinkInertial]:
        """Every body's mass, centre of mass and inertia about it in body axes."""
        return {self._name(body): body_inertial(body) for body in self._bodies()}

    def _file_bodies(self) -> set[str] | None:
        """The bodies of an MJCF (Drake adds a massless body per extra joint of a body
        with several); None for a URDF or SDF, whose links are Drake's bodies."""
        if self.kind != "MJCF":
            return None
        from dynval.engines.mjcf_tree import mjcf_bodies

        return {b.name for b in mjcf_bodies(self.path)}

    def body_inertials(self) -> dict[str, LinkInertial]:
        """Every moving body with the bodies welded to it, merged in its frame with every
        joint at zero (DescriptionFacts.body_inertials); bodies welded to the world are
        left out, and so are the massless bodies Drake adds between an MJCF body's
        joints."""
        plant = self.plant
        context = plant.CreateDefaultContext()
        q = np.zeros(plant.num_positions())
        if self._free is not None:
            q[self._free.position_start()] = 1.0
        plant.SetPositions(context, q)
        inboard = {plant.get_joint(j).child_body().index(): plant.get_joint(j)
                   for j in plant.GetJointIndices()}
        world, inertials = plant.world_body().index(), self.link_inertials()
        parts: dict[Any, list] = {}
        for body in self._bodies():
            moving = body.index()
            while moving != world and inboard[moving].type_name() == "weld":
                moving = inboard[moving].parent_body().index()
            X = plant.EvalBodyPoseInWorld(context, body)
            R, y = X.rotation().matrix(), inertials[self._name(body)]
            parts.setdefault(moving, []).append((y.mass, X.translation() + R @ y.com,
                                                 R @ y.inertia @ R.T))
        named = self._file_bodies()
        out = {}
        for b, group in parts.items():
            body = plant.get_body(b)
            if b == world or (named is not None and self._name(body) not in named
                              and sum(m for m, _, _ in group) == 0.0):
                continue
            X = plant.EvalBodyPoseInWorld(context, body)
            out[self._name(body)] = composite_inertial(group, X.translation(),
                                                       X.rotation().matrix())
        return out

    def joint_axes(self) -> dict[str, np.ndarray]:
        """Axis of every revolute and prismatic joint in its child body's frame."""
        out = {}
        for joint, name, kind in self._one_dof_joints():
            axis = joint.revolute_axis() if kind == "revolute" else joint.translation_axis()
            R_CM = joint.frame_on_child().GetFixedPoseInBodyFrame().rotation().matrix()
            out[name] = R_CM @ np.asarray(axis, dtype=float)
        return out

    def joint_limits(self) -> dict[str, JointLimit]:
        """Position limits of every revolute [rad] and prismatic [m] joint."""
        return {name: JointLimit(float(joint.position_lower_limits()[0]),
                                 float(joint.position_upper_limits()[0]), JOINT_UNITS[kind])
                for joint, name, kind in self._one_dof_joints()}
