"""Common types of the engine adapters (engine world frame W, z up) and the protocols every
adapter satisfies, so that callers depend on one set of method names and never on which
engine answers.

Three roles, each a ``typing.Protocol`` (runtime checkable, so a test can assert that an
adapter satisfies it):

- :class:`Simulation`: time-stepping a tree with joint torques and point forces
  (``MujocoSimulation``, ``PybulletSimulation``);
- :class:`DynamicsTerms`: M(q), bias, gravity, inverse dynamics and frame kinematics
  (``MujocoTerms``, ``PybulletTerms``, ``PinocchioTerms``);
- :class:`DescriptionFacts`: what an engine made of a description file (link inertials,
  joint axes, joint limits with their units), so that the L0 check compares plain data.

Joint vectors (q, v, vdot, tau) are in the caller's ``joint_names`` order wherever an
adapter takes joint names; each adapter looks its joints up by name.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np


@dataclass
class FloatingState:
    """Pose and velocity of a tree's root link frame, and its joints.

    For a floating base the root pose is the free joint's; for a fixed base (welded root,
    or a planar or prismatic root made of ordinary joints) the root link keeps the pose
    the description gives it: ``reset`` ignores the root fields and ``state`` reports the
    root link as the engine has it.
    """

    p_WB: np.ndarray  # root link origin [m]
    R_WB: np.ndarray  # root link attitude
    v_WB_W: np.ndarray  # velocity of the root link origin, world axes [m/s]
    w_WB_W: np.ndarray  # angular velocity of the root link, world axes [rad/s]
    q: np.ndarray  # joint positions in the adapter's joint order
    qd: np.ndarray  # joint rates


@dataclass(frozen=True)
class PointForce:
    """A force F_W [N] applied at the point ``offset`` [m] of link ``link`` (link frame)."""

    link: str
    offset: np.ndarray
    F_W: np.ndarray


@dataclass(frozen=True)
class Ground:
    """A ground plane for native contact: unit normal and one point, world frame, and the
    contact parameters mapped from the paper's spring-damper law."""

    normal_W: np.ndarray
    point_W: np.ndarray
    stiffness: float  # [N/m]
    damping: float  # [N s/m]
    friction: float  # [-]
    # mass that turns k, b into accelerations for engines that want them [kg]; None: each
    # contact's own apparent mass 1/(n^T J M^-1 J^T n) at the initial state
    mass_scale: float | None
    contact_geoms: tuple[str, ...] = field(default_factory=tuple)


JOINT_UNITS = {"revolute": "rad", "prismatic": "m"}  # the unit of a joint's position


def cross3(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a x b for two 3-vectors: np.cross's formula without its axis handling, which costs
    ten times the arithmetic in a per-step engine read."""
    return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                     a[0] * b[1] - a[1] * b[0]])


@dataclass(frozen=True)
class LinkInertial:
    """A link's mass [kg], centre of mass [m] in the link frame and inertia about the centre
    of mass in link axes [kg m^2], as an engine holds them."""

    mass: float
    com: np.ndarray
    inertia: np.ndarray


@dataclass(frozen=True)
class JointLimit:
    """Position limits of a one-degree-of-freedom joint in its own unit: "rad" for a
    revolute joint, "m" for a prismatic one (unlimited: -inf, inf)."""

    lower: float
    upper: float
    unit: str


def inertia_from_principal(moments: np.ndarray, R: np.ndarray) -> np.ndarray:
    """Inertia in link axes from principal moments and the principal frame R (columns:
    principal axes in link axes), the form MuJoCo and PyBullet store it in."""
    return R @ np.diag(moments) @ R.T


def composite_inertial(parts: Sequence[tuple[float, np.ndarray, np.ndarray]],
                       p_WL: np.ndarray, R_WL: np.ndarray) -> LinkInertial:
    """The one rigid body that links welded together make: ``parts`` are each link's mass
    [kg], centre of mass and inertia about it, in world axes; the result is in the frame
    (p_WL, R_WL) of the link they move with.  Masses add, centres average by mass and each
    inertia moves to the common centre by the parallel-axis theorem."""
    m = float(sum(mass for mass, _, _ in parts))
    if m == 0.0:
        return LinkInertial(0.0, np.zeros(3), np.zeros((3, 3)))
    c = sum(mass * com for mass, com, _ in parts) / m
    inertia = np.zeros((3, 3))
    for mass, com, I in parts:
        d = com - c
        inertia += I + mass * (d @ d * np.eye(3) - np.outer(d, d))
    return LinkInertial(m, R_WL.T @ (c - p_WL), R_WL.T @ inertia @ R_WL)


@runtime_checkable
class DescriptionFacts(Protocol):
    """What an engine made of a description file, keyed by the file's names."""

    def link_inertials(self) -> dict[str, LinkInertial]:
        """Every link with an inertial the engine keeps, by link name."""
        ...

    def body_inertials(self) -> dict[str, LinkInertial]:
        """Every moving body's inertial, by the name of the link a joint moves: that link
        and every link welded to it by fixed joints, merged (composite_inertial) in the
        link's frame at the reference configuration.  Links welded to the world are left
        out.  Engines that merge welded links themselves (Pinocchio) and engines that keep
        them apart (MuJoCo, PyBullet) compare like with like this way."""
        ...

    def joint_axes(self) -> dict[str, np.ndarray]:
        """Unit axis of every revolute or prismatic joint in its child link's frame."""
        ...

    def joint_limits(self) -> dict[str, JointLimit]:
        """Limits of every revolute or prismatic joint, with the unit of each."""
        ...


@runtime_checkable
class DynamicsTerms(Protocol):
    """The terms of M(q) vdot + bias(q, v) = tau and the kinematics of named frames.

    ``bias`` = C(q, v) v + G(q); ``gravity`` = G(q) = bias at zero velocity.  A frame is
    named as the engine names it (a link; for MuJoCo also a site); ``offset`` is a point
    fixed in that frame [m], the frame origin when None.  Positions are world-frame [m];
    Jacobians are the 3 x n linear Jacobians of that point.
    """

    name: str

    def mass_matrix(self, q: np.ndarray) -> np.ndarray: ...

    def bias(self, q: np.ndarray, v: np.ndarray) -> np.ndarray: ...

    def gravity(self, q: np.ndarray) -> np.ndarray: ...

    def inverse_dynamics(self, q: np.ndarray, v: np.ndarray, vdot: np.ndarray) -> np.ndarray: ...

    def frame_position(self, name: str, q: np.ndarray,
                       offset: np.ndarray | None = None) -> np.ndarray: ...

    def frame_jacobian(self, name: str, q: np.ndarray,
                       offset: np.ndarray | None = None) -> np.ndarray: ...


@runtime_checkable
class Simulation(Protocol):
    """A tree stepped in time under joint torques and point forces (world frame W).

    ``floating`` says whether the root is a free body; ``dt`` is the step [s].
    """

    name: str
    dt: float
    floating: bool

    def reset(self, s: FloatingState) -> None:
        """Put the tree in state ``s`` and the clock at zero."""
        ...

    def state(self) -> FloatingState: ...

    def step(self, tau: np.ndarray, forces: Sequence[PointForce]) -> None:
        """Advance one step with joint efforts ``tau`` [N m or N] and point forces."""
        ...

    def point(self, link: str, offset: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """World position [m] and velocity [m/s] of a point fixed in a link."""
        ...

    def points(self, links: Sequence[str], offsets: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:
        """``point`` for many points at once: (n, 3) positions and velocities of the
        points ``offsets[k]`` of ``links[k]``, read from the engine in one pass."""
        ...

    def contact_forces(self) -> dict[str, np.ndarray]:
        """Native-contact force on each contact link, world frame [N]."""
        ...

    @property
    def time(self) -> float: ...

    # --- what per-step loops read in one call (each the same floats as the calls above)

    def joint_state(self) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`state`'s q and qd without the root's pose and velocity."""
        ...

    def flat_state(self, links: Sequence[str], offsets: np.ndarray) -> np.ndarray:
        """:meth:`state` and :meth:`points` side by side in one array: p_WB (3), R_WB (9,
        row by row), v_WB_W (3), w_WB_W (3), q, qd, then each point's position and
        velocity (3 + 3)."""
        ...

    def contact_force_rows(self, links: Sequence[str]) -> np.ndarray:
        """:meth:`contact_forces` of the named links as the rows of an (n, 3) array."""
        ...

    def contact_row_table(self, links: tuple[str, ...]) -> np.ndarray:
        """What compiled code needs to sum the named links' native contact forces into
        rows: each contact geometry's (MuJoCo) or link's (PyBullet) row, -1 for none."""
        ...

    # --- compiled loops and benchmarks

    def compiled(self) -> object | None:
        """What a numba-compiled loop needs to step this simulation without Python (the
        engine's ``Compiled...`` record of addresses and arrays), or None where the
        engine's C library is not at hand: the caller then steps from Python."""
        ...

    def bare_step_seconds(self, n: int) -> float:
        """Seconds per bare engine step from a copy of the current state: the benchmarks'
        yardstick for what a loop adds."""
        ...

    def restored(self) -> AbstractContextManager[None]:
        """A context after which the simulation is as it was before (a benchmark's steps
        inside leave no trace)."""
        ...


# Beyond the protocol, each adapter offers what only its engine has, used where a loop
# knows which engine it steps: MuJoCo's split step (``split_step``), its instability
# count and check (``badqacc_count``, ``check_stable``) and its live contact list
# (``compiled_contacts``); PyBullet's compiled point reads and step counter
# (``compiled_points``, ``compiled_steps_taken``).
