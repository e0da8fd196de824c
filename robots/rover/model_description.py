"""The rover as a link tree in the engine frame W (x forward, y left, z up).

Three descriptions are generated from the parameters:
  *rover*        free-floating rear segment, passive turning joint(s): chapter 5 runs;
  *rover_rigid*  the same with the turning joint welded: the validation runs of
                 section 4.2 ("all validation tests were conducted with a fixed central
                 joint");
  *rover_chain*  fixed base and the explicit 3-prismatic + 3-revolute chain of Table 3.1,
                 joint for joint, for the dynamics audit: its coordinates are the thesis' q.
The wheels are massless (Appendix B); they appear as visual cylinders and hub sites.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from dynval.robots.description import Description, Inertial, Link, Shape
from dynval.robots.rover.params import PARAMS, R_W0, SIDES, RoverParams, cg_position, hub_positions

# Table 3.1 joints 1-6 as (name, kind, axis in W at zero joint values): the DH axes
# z_1..z_6 of frame 0 mapped by R_W0 (z0 -> -x_W, x0 -> z_W, y0 -> y_W).
BASE_CHAIN = (
    ("dz", "prismatic", tuple(R_W0 @ [0.0, 0.0, 1.0])),
    ("dx", "prismatic", tuple(R_W0 @ [1.0, 0.0, 0.0])),
    ("dy", "prismatic", tuple(R_W0 @ [0.0, 1.0, 0.0])),
    ("phi_y", "revolute", tuple(R_W0 @ [0.0, 1.0, 0.0])),
    ("phi_z", "revolute", tuple(R_W0 @ [0.0, 0.0, 1.0])),
    ("phi_x", "revolute", tuple(R_W0 @ [1.0, 0.0, 0.0])),
)


def segment_name(i: int, n: int) -> str:
    """Name of segment i (1 = rear) of an n-segment rover."""
    if i == 1:
        return "rear"
    return "front" if i == n else f"middle{i - 1}"


def turning_joint_name(i: int) -> str:
    """Name of turning joint i (between segments i and i + 1): q_{6+i} of Table 3.1."""
    return f"q{6 + i}"


def hub_site(segment: str, side: str) -> str:
    return f"{segment}_{side}_hub"


def _segment_link(i: int, parent: str | None, joint: str, p: RoverParams) -> Link:
    n = p.n_segments
    x_axle = 0.0 if i == 1 else p.l
    hubs = hub_positions(p, i)
    x0, x1 = (-0.25 * p.l, p.l) if i == 1 else (0.0, p.l + (p.l if i < n else 0.25 * p.l))
    shapes = [Shape("box", (0.5 * (x1 - x0), 0.6 * p.w, 0.05),
                    pos=(0.5 * (x0 + x1), 0.0, 0.0), rgba=(0.55, 0.55, 0.6, 1.0))]
    for side in SIDES:
        h = hubs[side]
        half_b = 0.5 * p.b * (1 if side == "left" else -1)
        shapes.append(Shape("cylinder", (p.r, 0, 0), pos=(h[0], h[1] - half_b, h[2]),
                            p1=(h[0], h[1] + half_b, h[2]), rgba=(0.2, 0.2, 0.2, 1.0)))
        shapes.append(Shape("capsule", (0.03, 0, 0), pos=(x_axle, 0.0, 0.0), p1=tuple(h),
                            rgba=(0.4, 0.4, 0.45, 1.0)))
    I = p.I_seg * np.eye(3)  # eq. (3.4)
    return Link(
        name=segment_name(i, n),
        parent=parent,
        joint=joint,
        joint_name=turning_joint_name(i - 1) if i > 1 else "",
        axis=(0.0, 0.0, 1.0),
        p_PJ=(0.0, 0.0, 0.0) if i == 1 else ((p.l if i == 2 else 2 * p.l), 0.0, 0.0),
        inertial=Inertial(p.m_seg, tuple(cg_position(p, i)), tuple(map(tuple, I))),
        shapes=tuple(shapes),
        sites={hub_site(segment_name(i, n), s): tuple(hubs[s]) for s in SIDES},
    )


def description_stem(variant: str, rover: str = "A") -> str:
    """File stem of a variant for one rover of Table 4.5: ``rover_rigid``, ``rover_B_rigid``."""
    tag = "" if rover == "A" else f"_{rover}"
    return f"rover{tag}" + ("" if variant == "rover" else variant[len("rover"):])


def rover_description(variant: str, p: RoverParams = PARAMS) -> Description:
    """The rover in one of the variants ``rover``, ``rover_rigid``, ``rover_chain``."""
    if variant not in ("rover", "rover_rigid", "rover_chain"):
        raise ValueError(f"unknown rover description {variant!r}")
    links: list[Link] = []
    if variant == "rover_chain":
        tiny = Inertial(p.chain_link_mass, (0.0, 0.0, 0.0),
                        tuple(map(tuple, p.chain_link_mass * np.eye(3))))
        links.append(Link(name="base", parent=None, joint="fixed"))
        parent = "base"
        for name, kind, axis in BASE_CHAIN[:-1]:
            links.append(Link(name=f"link_{name}", parent=parent, joint=kind, joint_name=name,
                              axis=axis, inertial=tiny))
            parent = f"link_{name}"
        name, kind, axis = BASE_CHAIN[-1]
        rear = _segment_link(1, parent, kind, p)
        links.append(replace(rear, joint_name=name, axis=axis))
    else:
        links.append(_segment_link(1, None, "free", p))
    turning = "fixed" if variant == "rover_rigid" else "revolute"
    for i in range(2, p.n_segments + 1):
        links.append(_segment_link(i, segment_name(i - 1, p.n_segments), turning, p))
    return Description(name=description_stem(variant, p.rover), links=tuple(links),
                       gravity=(0.0, 0.0, -p.g), timestep=p.dt)
