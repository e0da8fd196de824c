"""The hopper's serial chains, built from the parameter module, in the form the spatial
operator algebra of eqs. (1)-(19) reads: for each link the joint that joins it to its
parent (revolute or prismatic, axis h_k and origin in the parent frame) and the link's
mass, centre and inertia.

Three chains of the same robot (the paper's Fig. 3 and its planar simulation):

* ``manipulator``: hip (theta_1) and leg (theta_2) on the body, the base b of eq. (19);
* ``full``: the paper's 8-DoF chain, the body hung from the ground by x, y, z, yaw,
  pitch, roll, then hip and leg;
* ``planar``: the chain the simulation integrates, x, z, pitch, hip, leg: ``full`` with
  y, yaw and roll held at zero (their rows and columns struck from eq. 19).

Angles about -y are counter-clockwise in the x-z plane (robots/hopper/FRAMES.md).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dynval.robots.hopper.params import HopperParams, hip_inertia

REVOLUTE, PRISMATIC = 0, 1
EX, EY, EZ = np.eye(3)


@dataclass(frozen=True)
class Chain:
    """A serial chain of n rigid links; arrays are indexed by link (1..n in the paper,
    0..n-1 here). Link k's frame is its joint frame: at theta_k = 0 it sits at ``offset``
    in the parent frame with the parent's axes; a revolute joint turns it about ``axis``,
    a prismatic one slides it along ``axis`` by theta_k."""

    names: tuple[str, ...]
    kind: np.ndarray  # (n,) REVOLUTE or PRISMATIC
    axis: np.ndarray  # (n, 3) h_k in the parent frame
    offset: np.ndarray  # (n, 3) joint origin in the parent frame at theta = 0
    mass: np.ndarray  # (n,) m_k
    com: np.ndarray  # (n, 3) centre in the link frame, l_{k,c}
    inertia: np.ndarray  # (n, 3, 3) about the centre, link axes
    tip: np.ndarray  # (3,) the tip (foot) in the last link frame, l_{n,t}

    @property
    def n(self) -> int:
        return len(self.names)


def _links(p: HopperParams) -> list[tuple]:
    """(name, kind, axis, offset, mass, com, inertia) of hip and leg."""
    I_h = hip_inertia(p)
    return [
        ("hip", REVOLUTE, -EY, -p.r_2 * EZ, p.m_h, np.zeros(3), np.eye(3) * I_h),
        ("leg", PRISMATIC, -EZ, np.zeros(3), p.m_l, p.r_1 * EZ,
         np.diag([p.J_l, p.J_l, p.J_l_axial])),
    ]


def _body(p: HopperParams, name: str, kind: int, axis: np.ndarray) -> tuple:
    return (name, kind, axis, np.zeros(3), p.M, np.zeros(3), np.eye(3) * p.J)


def _massless(name: str, kind: int, axis: np.ndarray) -> tuple:
    return (name, kind, axis, np.zeros(3), 0.0, np.zeros(3), np.zeros((3, 3)))


def _chain(links: list[tuple]) -> Chain:
    names, kind, axis, offset, mass, com, inertia = zip(*links, strict=True)
    return Chain(tuple(names), np.array(kind), np.array(axis, dtype=float),
                 np.array(offset, dtype=float), np.array(mass, dtype=float),
                 np.array(com, dtype=float), np.array(inertia, dtype=float), np.zeros(3))


def manipulator(p: HopperParams) -> Chain:
    """Hip and leg on the body (the base b of eqs. 7-19)."""
    return _chain(_links(p))


def full(p: HopperParams) -> Chain:
    """The 8-DoF chain of Fig. 3: x, y, z, yaw, pitch, roll (the body), hip, leg."""
    return _chain([_massless("base_x", PRISMATIC, EX), _massless("base_y", PRISMATIC, EY),
                   _massless("base_z", PRISMATIC, EZ), _massless("base_yaw", REVOLUTE, EZ),
                   _massless("base_pitch", REVOLUTE, -EY),
                   _body(p, "base_roll", REVOLUTE, EX)] + _links(p))


PLANAR_IN_FULL = (0, 2, 4, 6, 7)  # x, z, pitch, hip, leg among full()'s joints


def planar(p: HopperParams) -> Chain:
    """The simulated chain: x, z, pitch (the body), hip, leg."""
    return _chain([_massless("base_x", PRISMATIC, EX), _massless("base_z", PRISMATIC, EZ),
                   _body(p, "base_pitch", REVOLUTE, -EY)] + _links(p))
