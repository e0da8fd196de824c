"""The quadruped as a link tree: body plus four legs whose link frames are the D-H frames
of Table 1, so an engine joint angle is the paper's theta_i.

Two variants: ``quadruped`` (body on a free joint) and ``quadruped_fixed`` (body welded to
the world, for the per-leg audit).
"""

from __future__ import annotations

import numpy as np

from dynval.robots import side_sign
from dynval.robots.description import Description, Inertial, Link, Shape
from dynval.robots.quadruped import params as qp
from dynval.robots.quadruped.params import ALPHA, LEGS, PARAMS, QuadrupedParams, dh_a, p_B0

LINKS = ("hip", "thigh", "shank")
BODY_BOX = (0.267, 0.194, 0.114)  # A1 trunk collision box [m], visual only (no physics)


def _tuple3(M: np.ndarray):
    return tuple(tuple(float(x) for x in row) for row in np.asarray(M))


def _inertial(i: qp.Inertial) -> Inertial:
    return Inertial(i.mass, tuple(float(x) for x in i.com), _tuple3(i.matrix()))


def joint_name(leg: str, joint: str) -> str:
    return f"{leg}_{joint}"


def link_name(leg: str, k: int) -> str:
    """Name of link k = 1, 2, 3 of ``leg``."""
    return f"{leg}_{LINKS[k - 1]}"


def joint_names() -> list[str]:
    """The twelve joints in the model's order: legs LF, RF, LB, RB, each HAA, HFE, KFE."""
    return [joint_name(leg, j) for leg in LEGS for j in qp.JOINTS]


def _leg_links(leg: str, p: QuadrupedParams) -> list[Link]:
    a = dh_a(p)
    col = (0.25, 0.45, 0.75, 1.0) if side_sign(leg) > 0 else (0.75, 0.35, 0.25, 1.0)
    inertials = qp.leg_inertials(leg, p)
    links = []
    for k in (1, 2, 3):
        # Craig: T_{k-1,k} = RotX(alpha_{k-1}) TransX(a_{k-1}) RotZ(theta_k), d_k = 0
        R_PJ = qp.rot_x(ALPHA[k - 1])
        if k == 1:
            R_PJ = qp.R_B0 @ R_PJ
        parent = "body" if k == 1 else link_name(leg, k - 1)
        p_PJ = tuple(p_B0(leg, p)) if k == 1 else (a[k - 1], 0.0, 0.0)
        shapes: tuple[Shape, ...] = ()
        sites: dict = {}
        if k == 2:
            shapes = (Shape("capsule", (0.017, 0, 0), (0, 0, 0), (p.l_2, 0, 0), col),)
        if k == 3:
            shapes = (Shape("capsule", (0.01, 0, 0), (0, 0, 0), (p.l_3, 0, 0), col),
                      Shape("sphere", (p.foot_radius, 0, 0), (p.l_3, 0, 0), name=f"{leg}_foot",
                            rgba=(0.1, 0.1, 0.1, 1.0), collision=True))
            sites = {f"{leg}_foot": (p.l_3, 0.0, 0.0)}
        links.append(Link(
            name=link_name(leg, k), parent=parent, joint="revolute",
            joint_name=joint_name(leg, qp.JOINTS[k - 1]), axis=(0.0, 0.0, 1.0),
            effort=p.tau_max, p_PJ=p_PJ, R_PJ=_tuple3(R_PJ), inertial=_inertial(inertials[k - 1]),
            shapes=shapes, sites=sites))
    return links


def _body(p: QuadrupedParams, joint: str, parent: str | None = None) -> Link:
    return Link(name="body", parent=parent, joint=joint, joint_name="root",
                axis=(1.0, 0.0, 0.0), inertial=_inertial(qp.body_inertial(p)),
                shapes=(Shape("box", tuple(x / 2 for x in BODY_BOX),
                              rgba=(0.8, 0.8, 0.82, 0.9)),))


def quadruped_description(variant: str = "quadruped",
                          p: QuadrupedParams = PARAMS) -> Description:
    """One of the two variants named in the module docstring."""
    if variant == "quadruped":
        base = [_body(p, "free")]
    elif variant == "quadruped_fixed":
        base = [_body(p, "fixed")]
    else:
        raise ValueError(f"unknown quadruped variant {variant!r}")
    links = base + [lk for leg in LEGS for lk in _leg_links(leg, p)]
    return Description(variant, tuple(links), (0.0, 0.0, -p.g), 1e-3, ("mjcf", "urdf"))
