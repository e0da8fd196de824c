"""The landing gear as a link tree (engine frame W), in both mass models.

*as_derived*: the paper's assumptions for the multibody: each link's mass is a point at
the link's far end (Sec. III) and the body mass m - 4(m_U + m_L) sits at the body
centre with the inertia of a solid D_x x D_y x D_z box.
*as_built*: links are solid rods of radius ``link_radius`` with their mass at
mid-length; the body is the same solid box.
"""

from __future__ import annotations

import numpy as np

from dynval.robots import side_sign
from dynval.robots.description import Description, Inertial, Link, Shape
from dynval.robots.landing_gear.params import (
    LEGS,
    PARAMS,
    R_BL,
    R_WP,
    LandingGearParams,
    body_inertia_P,
    p_BH,
)


def _rod_inertia(mass: float, length: float, radius: float) -> np.ndarray:
    """Solid rod along x about its centre."""
    return np.diag(
        [
            0.5 * mass * radius**2,
            mass * (3 * radius**2 + length**2) / 12.0,
            mass * (3 * radius**2 + length**2) / 12.0,
        ]
    )


def link_inertial(mass: float, length: float, mass_model: str, p: LandingGearParams) -> Inertial:
    """Inertial of a leg link in its joint frame (link along +x_L)."""
    if mass_model == "as_derived":
        I = np.eye(3) * p.point_inertia
        return Inertial(mass, (length, 0.0, 0.0), _tuple3(I))
    if mass_model == "as_built":
        return Inertial(
            mass, (length / 2, 0.0, 0.0), _tuple3(_rod_inertia(mass, length, p.link_radius))
        )
    raise ValueError(f"unknown mass model {mass_model!r}; use one of as_derived, as_built")


def _tuple3(M: np.ndarray):
    return tuple(tuple(float(x) for x in row) for row in M)


def _leg_links(
    leg: str,
    parent: str,
    p_PH_W: np.ndarray,
    R_PL_W: np.ndarray,
    mass_model: str,
    p: LandingGearParams,
) -> list[Link]:
    col = (0.25, 0.45, 0.75, 1.0) if side_sign(leg) > 0 else (0.75, 0.35, 0.25, 1.0)
    upper = Link(
        name=f"{leg}_upper",
        parent=parent,
        joint="revolute",
        joint_name=f"{leg}_hip",
        axis=(0.0, 0.0, 1.0),
        limit=(-np.pi, np.pi),
        effort=p.T_max,
        p_PJ=tuple(p_PH_W),
        R_PJ=_tuple3(R_PL_W),
        inertial=link_inertial(p.m_U, p.l_U, mass_model, p),
        shapes=(Shape("capsule", (p.link_radius, 0, 0), (0, 0, 0), (p.l_U, 0, 0), col),),
    )
    lower = Link(
        name=f"{leg}_lower",
        parent=upper.name,
        joint="revolute",
        joint_name=f"{leg}_knee",
        axis=(0.0, 0.0, 1.0),
        limit=(-np.pi, np.pi),
        effort=p.T_max,
        p_PJ=(p.l_U, 0.0, 0.0),
        inertial=link_inertial(p.m_L, p.l_L, mass_model, p),
        shapes=(
            Shape("capsule", (0.7 * p.link_radius, 0, 0), (0, 0, 0), (p.l_L, 0, 0), col),
            Shape(
                "sphere",
                (p.foot_radius, 0, 0),
                (p.l_L, 0, 0),
                name=f"{leg}_foot",
                rgba=(0.1, 0.1, 0.1, 1.0),
                collision=True,
            ),
        ),
        sites={f"{leg}_foot": (p.l_L, 0.0, 0.0)},
    )
    return [upper, lower]


def floating_description(
    mass_model: str = "as_derived", p: LandingGearParams = PARAMS, timestep: float | None = None
) -> Description:
    """Helicopter body on a free joint with four two-joint legs."""
    I_W = R_WP @ body_inertia_P(p) @ R_WP.T
    body = Link(
        name="body",
        parent=None,
        joint="free",
        joint_name="root",
        inertial=Inertial(p.m_B, (0.0, 0.0, 0.0), _tuple3(I_W)),
        shapes=(
            Shape(
                "box", tuple(R_WP @ np.array([p.D_x, p.D_y, p.D_z]) / 2), rgba=(0.8, 0.8, 0.82, 0.9)
            ),
        ),
    )
    links = [body]
    for leg in LEGS:
        links += _leg_links(leg, "body", R_WP @ p_BH(leg, p), R_WP @ R_BL(leg), mass_model, p)
    return Description(
        f"landing_gear_{mass_model}", tuple(links), (0.0, 0.0, -p.g), timestep or p.dt
    )


def single_leg_description(
    mass_model: str = "as_derived", p: LandingGearParams = PARAMS
) -> Description:
    """One leg on a fixed base, hip at the origin, for the dynamics audit (L2).

    The leg frame is the paper frame (x outward, y up), so joint angles are eq. (12)'s
    theta_h, theta_k and gravity acts along -y_L.
    """
    base = Link(name="base", parent=None, joint="fixed")
    links = [base] + _leg_links("LF", "base", np.zeros(3), R_WP, mass_model, p)
    return Description(f"landing_gear_leg_{mass_model}", tuple(links), (0.0, 0.0, -p.g), p.dt)
