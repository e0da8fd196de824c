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

from handrolled.so3 import rot_y, rot_z


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
        pnt = p_feet_P @ self.R_SP.T  # eq. (25)
        pnt_dot = v_feet_P @ self.R_SP.T
        n, n_dot = pnt[:, 1], pnt_dot[:, 1]
        touching = n <= 0.0
        F_n = np.where(touching, np.maximum(-n * self.k - n_dot * self.b, 0.0), 0.0)  # eq. (26)

        touchdown = touching & ~self.in_contact
        self.anchor_pt[touchdown] = pnt[touchdown][:, [0, 2]]
        self.slipping[~touching] = False
        self.in_contact = touching

        disp = pnt[:, [0, 2]] - self.anchor_pt
        F_stick = -disp * self.k - pnt_dot[:, [0, 2]] * self.b  # eqs. (27)-(28), stick
        F_fS = (self.mu_S * F_n)[:, None]  # eq. (29)
        F_fD = (self.mu_D * F_n)[:, None]  # eq. (30)
        slip = touching[:, None] & (np.abs(F_stick) >= F_fS) & (F_n[:, None] > 0.0)
        F_fric = np.where(slip, np.sign(F_stick) * F_fD, F_stick)  # eqs. (27)-(28), slip
        F_fric = np.where(touching[:, None], F_fric, 0.0)
        # a slipping foot drags its anchor so the spring alone carries F_fD
        dragged = pnt[:, [0, 2]] + F_fric / self.k
        self.anchor_pt = np.where(slip, dragged, self.anchor_pt)
        self.slipping = slip

        F_pnt = np.column_stack([F_fric[:, 0], F_n, F_fric[:, 1]])
        return F_pnt @ self.R_PS.T  # eq. (31)

    def normal_forces(self, F_P: np.ndarray) -> np.ndarray:
        """Normal components of foot forces given in P."""
        return F_P @ self.R_SP[1]
