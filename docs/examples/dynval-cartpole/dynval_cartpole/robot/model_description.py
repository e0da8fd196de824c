"""The cart-pole as a link tree (engine frame W, FRAMES.md): a fixed base, the cart on
the prismatic joint ``slider`` along +x, the pole on the revolute joint ``hinge`` about
+y at the cart's origin, its centre l above the hinge at theta = 0."""

from __future__ import annotations

from dynval.robots.description import Description, Inertial, Link, Shape
from dynval_cartpole.robot.params import PARAMS, CartPoleParams

SLIDER, HINGE = JOINTS = ("slider", "hinge")  # q = (x, theta), in this order
SLIDER_AXIS = (1.0, 0.0, 0.0)
HINGE_AXIS = (0.0, 1.0, 0.0)
CART_BOX = (0.2, 0.1, 0.05)  # half extents of the cart's box, a drawing only [m]


def cartpole_description(p: CartPoleParams = PARAMS) -> Description:
    """The rail (fixed base), the cart and the pole."""
    base = Link(name="rail", parent=None, joint="fixed",
                inertial=Inertial(1.0, (0.0, 0.0, 0.0),
                                  ((1e-3, 0.0, 0.0), (0.0, 1e-3, 0.0), (0.0, 0.0, 1e-3))))
    a, b, c = CART_BOX
    box = tuple(p.m_c * (u**2 + v**2) / 3.0 for u, v in ((b, c), (a, c), (a, b)))
    cart = Link(name="cart", parent="rail", joint="prismatic", joint_name=SLIDER,
                axis=SLIDER_AXIS,
                inertial=Inertial(p.m_c, (0.0, 0.0, 0.0), ((box[0], 0.0, 0.0),
                                                           (0.0, box[1], 0.0),
                                                           (0.0, 0.0, box[2]))),
                shapes=(Shape("box", CART_BOX, (0.0, 0.0, 0.0)),))
    I, spin = p.I, 0.5 * p.m_p * p.r_p**2
    pole = Link(name="pole", parent="cart", joint="revolute", joint_name=HINGE,
                axis=HINGE_AXIS,
                inertial=Inertial(p.m_p, (0.0, 0.0, p.l), ((I, 0.0, 0.0), (0.0, I, 0.0),
                                                           (0.0, 0.0, spin))),
                shapes=(Shape("capsule", (p.r_p, 0, 0), (0.0, 0.0, 0.0),
                              (0.0, 0.0, 2.0 * p.l), rgba=(0.75, 0.35, 0.25, 1.0)),),
                sites={"tip": (0.0, 0.0, 2.0 * p.l)})
    return Description("cartpole", (base, cart, pole), (0.0, 0.0, -p.g), p.dt)
