"""Common types of the engine adapters (engine world frame W, z up)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class FloatingState:
    """Pose and velocity of a floating-base tree; the base is the root link frame."""

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


def skew(w: np.ndarray) -> np.ndarray:
    return np.array([[0.0, -w[2], w[1]], [w[2], 0.0, -w[0]], [-w[1], w[0], 0.0]])
