"""The numbers the hand-rolled quadruped needs, as arrays for the compiled
recursions: Table 1's D-H rows and each link's inertial in its own D-H frame."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import numpy as np

from dynval.robots.quadruped import params as qp


class Links(NamedTuple):
    """QuadrupedModel's arrays as one record, as the compiled recursions take them (the
    readable RNEA rnea._rnea and the fast path), with cos and sin of Table 1's alpha."""

    alpha: np.ndarray
    a: np.ndarray
    R_B0: np.ndarray
    p_B0: np.ndarray
    m: np.ndarray
    P_C: np.ndarray
    I_C: np.ndarray
    m_b: float
    P_Cb: np.ndarray
    I_Cb: np.ndarray
    cos_alpha: np.ndarray
    sin_alpha: np.ndarray


@dataclass(frozen=True)
class QuadrupedModel:
    """Arrays indexed [leg, link] in the order of ``qp.LEGS`` and links 1, 2, 3."""

    alpha: np.ndarray  # (4,) alpha_{i-1} of Table 1 rows 1..4 [rad]
    a: np.ndarray  # (4,) a_{i-1} [m]
    R_B0: np.ndarray  # (3, 3) frame 0 in the body frame
    p_B0: np.ndarray  # (4, 3) HAA joint (frame 0 origin) of each leg in B [m]
    m: np.ndarray  # (4, 3) link masses [kg]
    P_C: np.ndarray  # (4, 3, 3) link centre of mass in its frame [m]
    I_C: np.ndarray  # (4, 3, 3, 3) inertia about the centre of mass, link frame [kg m^2]
    m_b: float  # body mass [kg]
    P_Cb: np.ndarray  # (3,) body centre of mass in B [m]
    I_Cb: np.ndarray  # (3, 3) body inertia about its centre of mass, B axes [kg m^2]

    @property
    def total_mass(self) -> float:
        return float(self.m_b + self.m.sum())

    @cached_property
    def links(self) -> Links:
        """The arrays as one record for the compiled recursions (the same arrays)."""
        return Links(self.alpha, self.a, self.R_B0, self.p_B0, self.m, self.P_C, self.I_C,
                     float(self.m_b), self.P_Cb, self.I_Cb, np.cos(self.alpha),
                     np.sin(self.alpha))


def build_model(p: qp.QuadrupedParams = qp.PARAMS, R_B0: np.ndarray | None = None
                ) -> QuadrupedModel:
    """The model of the parameter set; ``R_B0`` replaces section 2's frame 0 (e.g. the
    printed, left-handed one)."""
    legs = [qp.leg_inertials(leg, p) for leg in qp.LEGS]
    body = qp.body_inertial(p)
    return QuadrupedModel(
        alpha=np.array(qp.ALPHA, dtype=float),
        a=np.array(qp.dh_a(p), dtype=float),
        R_B0=np.array(qp.R_B0 if R_B0 is None else R_B0, dtype=float),
        p_B0=np.array([qp.p_B0(leg, p) for leg in qp.LEGS]),
        m=np.array([[i.mass for i in links] for links in legs]),
        P_C=np.array([[i.com for i in links] for links in legs], dtype=float),
        I_C=np.array([[i.matrix() for i in links] for links in legs]),
        m_b=body.mass,
        P_Cb=np.array(body.com, dtype=float),
        I_Cb=body.matrix(),
    )
