"""The pendulum as a link tree (engine frame W): a fixed base and the rod on the
revolute joint ``pivot`` about +y, the bob's centre l below the pivot at theta = 0."""

from __future__ import annotations

from dynval.robots.description import Description, Inertial, Link, Shape
from dynval.robots.pendulum.params import PARAMS, PendulumParams

PIVOT_AXIS = (0.0, 1.0, 0.0)


def pendulum_description(p: PendulumParams = PARAMS) -> Description:
    """The fixed base and the rod with its bob (the rod itself massless)."""
    base = Link(name="base", parent=None, joint="fixed",
                inertial=Inertial(1.0, (0.0, 0.0, 0.0),
                                  ((1e-3, 0.0, 0.0), (0.0, 1e-3, 0.0), (0.0, 0.0, 1e-3))))
    I = p.I
    rod = Link(name="rod", parent="base", joint="revolute", joint_name="pivot",
               axis=PIVOT_AXIS,
               inertial=Inertial(p.m, (0.0, 0.0, -p.l), ((I, 0.0, 0.0), (0.0, I, 0.0),
                                                         (0.0, 0.0, I))),
               shapes=(Shape("capsule", (0.005, 0, 0), (0.0, 0.0, 0.0), (0.0, 0.0, -p.l)),
                       Shape("sphere", (p.r_b, 0, 0), (0.0, 0.0, -p.l),
                             rgba=(0.75, 0.35, 0.25, 1.0))),
               sites={"bob": (0.0, 0.0, -p.l)})
    return Description("pendulum", (base, rod), (0.0, 0.0, -p.g), p.dt)
