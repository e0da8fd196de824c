"""Pinocchio's joint-torque regressor: inverse dynamics written linear in each body's ten
inertial parameters, tau = Y(q, v, a) @ pi, so that a model's torque difference from its
description can be traced back to one link's mass, centre of mass or inertia.

Fixed base only: on a free flyer (``PinocchioTerms(floating=True)``) the same functions
answer in Pinocchio's own free-flyer convention (quaternion x y z w, base velocity in the
root frame), not MuJoCo's that ``PinocchioFreeRoot`` speaks; that case is untested.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pinocchio as pin

from dynval.engines.pinocchio_engine import PinocchioTerms

# Pinocchio's order of a body's ten parameters (``Inertia.toDynamicParameters``): mass,
# first moment m c and the inertia about the joint frame's origin, in that frame's axes.
PARAMETER_NAMES = ("m", "m c_x", "m c_y", "m c_z",
                   "I_xx", "I_xy", "I_yy", "I_xz", "I_yz", "I_zz")


@dataclass(frozen=True)
class BodyParameters:
    """One moving body of the tree: the joint that moves it, the link after that joint,
    the links welded to that link (Pinocchio merges their inertia into it), pi (the ten
    parameters, ``PARAMETER_NAMES``) and the joint's offset from its parent joint [m]."""

    joint: str
    link: str
    fixed_links: tuple[str, ...]
    pi: np.ndarray
    offset: float


def torque_regressor(terms: PinocchioTerms, q: np.ndarray, v: np.ndarray,
                     a: np.ndarray) -> np.ndarray:
    """Y (n x 10 nbodies) with tau = Y @ pi at one state: rows in the caller's coordinate
    order (``terms``' ``joint_names``), columns body by body in ``body_parameters`` order,
    each body's ten in ``PARAMETER_NAMES`` order."""
    Y = pin.computeJointTorqueRegressor(terms.model, terms.data, terms._q(q), terms._v(v),
                                        terms._v(a))
    Y = np.reshape(Y, (terms.model.nv, 10 * (terms.model.njoints - 1)))  # eigenpy, nv = 1
    return Y[terms._iv].copy()


def body_parameters(terms: PinocchioTerms) -> list[BodyParameters]:
    """Every moving body (Pinocchio joints 1 .. njoints - 1, the regressor's column
    blocks in order) with its link names and inertial parameters as Pinocchio holds them."""
    links = terms._link_of_joint()
    welded_to = terms.welded_links()
    model = terms.model
    out = []
    for j in range(1, model.njoints):
        link = links.get(j, model.names[j])
        out.append(BodyParameters(model.names[j], link, welded_to[link],
                                  np.asarray(model.inertias[j].toDynamicParameters()).copy(),
                                  float(np.linalg.norm(model.jointPlacements[j].translation))))
    return out
