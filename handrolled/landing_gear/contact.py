"""Ground contact of Sec. V: slope frame (25), normal spring-damper (26), stick/slip
friction (27)-(30) and the back-transform (31), for n feet at once.

Readings of the printed text (each stated in the report):
* R(u, a) is the right-handed rotation matrix about axis u, so eq. (25) maps P
  coordinates to slope coordinates (p, n, t) and eq. (31) is its transpose.
* Eq. (26) is clipped at zero ("only positive values of F_n are allowed").
* Eqs. (27)-(28) compare magnitudes; the slip force F_fD acts against the stick
  force it replaces (the print drops the sign).  While slipping, the anchor
  p_0 follows the foot so that the spring alone carries F_fD; the foot sticks
  again when the stick force falls below F_fS.  Each slope axis is treated on its
  own, as printed (a box, not a cone).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dynval._numba_cache import njit
from dynval.handrolled.so3 import rot_y, rot_z


def R_SP(alpha_SL: float, alpha_AZ: float) -> np.ndarray:
    """Coordinates (x, y, z) in P to slope coordinates (p, n, t): eq. (25), R(t, alpha_SL)
    R(n, alpha_AZ) with the slope axes t, n along z and y."""
    return rot_z(alpha_SL) @ rot_y(alpha_AZ)


def R_PS(alpha_SL: float, alpha_AZ: float) -> np.ndarray:
    """Slope coordinates back to P: eq. (31), R(n, -alpha_AZ) R(t, -alpha_SL)."""
    return rot_y(-alpha_AZ) @ rot_z(-alpha_SL)


def ground_normal_P(alpha_SL: float, alpha_AZ: float) -> np.ndarray:
    """Unit normal of the slope in P (the n row of eq. (25))."""
    return R_SP(alpha_SL, alpha_AZ)[1].copy()


@dataclass
class SlopeContact:
    """Contact law of eqs. (25)-(31) with its per-foot state (touchdown anchors, slip flags)."""

    k: float
    b: float
    mu_S: float
    mu_D: float
    alpha_SL: float
    alpha_AZ: float
    n_feet: int = 4

    def __post_init__(self) -> None:
        self.R_SP = R_SP(self.alpha_SL, self.alpha_AZ)
        self.R_PS = self.R_SP.T
        self.reset()

    def reset(self) -> None:
        self.in_contact = np.zeros(self.n_feet, dtype=bool)
        self.anchor_pt = np.zeros((self.n_feet, 2))  # (p_0, t_0) of each foot
        self.slipping = np.zeros((self.n_feet, 2), dtype=bool)

    def forces(self, p_feet_P: np.ndarray, v_feet_P: np.ndarray) -> np.ndarray:
        """Foot forces in P (n x 3); updates the anchors as feet touch down or slip."""
        return _forces(np.ascontiguousarray(p_feet_P, dtype=float),
                       np.ascontiguousarray(v_feet_P, dtype=float), self.R_SP, self.k,
                       self.b, self.mu_S, self.mu_D, self.in_contact, self.anchor_pt,
                       self.slipping)

    def normal_forces(self, F_P: np.ndarray) -> np.ndarray:
        """Normal components of foot forces given in P."""
        return F_P @ self.R_SP[1]


@njit(cache=True)
def _forces(p_P, v_P, R_SP, k, b, mu_S, mu_D, in_contact, anchor, slipping):
    """Eqs. (25)-(31) foot by foot, compiled; the contact state arrays are updated in
    place (touchdown anchors, slip flags)."""
    n_feet = p_P.shape[0]
    F_P = np.zeros((n_feet, 3))
    pnt = np.zeros(3)
    pnt_dot = np.zeros(3)
    F_pnt = np.zeros(3)
    for f in range(n_feet):
        for i in range(3):  # eq. (25): slope coordinates (p, n, t)
            pnt[i] = R_SP[i, 0] * p_P[f, 0] + R_SP[i, 1] * p_P[f, 1] + R_SP[i, 2] * p_P[f, 2]
            pnt_dot[i] = (R_SP[i, 0] * v_P[f, 0] + R_SP[i, 1] * v_P[f, 1]
                          + R_SP[i, 2] * v_P[f, 2])
        touching = pnt[1] <= 0.0
        F_n = max(-pnt[1] * k - pnt_dot[1] * b, 0.0) if touching else 0.0  # eq. (26)
        if touching and not in_contact[f]:  # touchdown: anchor the foot
            anchor[f, 0], anchor[f, 1] = pnt[0], pnt[2]
        if not touching:
            slipping[f, 0], slipping[f, 1] = False, False
        in_contact[f] = touching
        F_pnt[1] = F_n
        for j, axis in ((0, 0), (1, 2)):  # each slope axis on its own (a box, not a cone)
            disp = pnt[axis] - anchor[f, j]
            F_stick = -disp * k - pnt_dot[axis] * b  # eqs. (27)-(28), stick
            slip = touching and abs(F_stick) >= mu_S * F_n and F_n > 0.0  # eq. (29)
            F_fric = np.sign(F_stick) * (mu_D * F_n) if slip else F_stick  # eq. (30)
            if not touching:
                F_fric = 0.0
            if slip:  # a slipping foot drags its anchor so the spring alone carries F_fD
                anchor[f, j] = pnt[axis] + F_fric / k
            slipping[f, j] = slip
            F_pnt[axis] = F_fric
        for i in range(3):  # eq. (31): back to P with R_PS = R_SP^T
            F_P[f, i] = R_SP[0, i] * F_pnt[0] + R_SP[1, i] * F_pnt[1] + R_SP[2, i] * F_pnt[2]
    return F_P
