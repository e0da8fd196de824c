"""Foot-ground interaction of Sec. IV: the linear spring-dashpot (11), the paper's
non-linear damping (12), the conversion (13), and Table II from the soil-mechanics
expressions.

Soil mechanics (ref. 52, Lambe and Whitman / Richart, Hall and Woods):
K_xF = 2 (1 + mu) G beta_x sqrt(BL), K_yF = G / (1 - mu) beta_y sqrt(BL), G = E / (2 (1 + mu)),
so K_xF = E beta_x sqrt(BL) does not depend on mu. The dampings follow from a mass-spring-
dashpot of damping ratio zeta and mass M: B = 2 zeta sqrt(K M). Table II is reproduced by
mu = 0.4, beta_y / beta_x = 2.2, beta_x^2 B L = 0.007536 m^2, the upper end of each
printed Young's modulus range, and zeta sqrt(M) = 1.5 kg^0.5 (zeta = 0.15, M = 100 kg):
see robots/hexapod/params.toml for why each number.

Sign conventions: paper frame (y up, ground at y = 0); eta_iF0 is where the foot touched
down; the force is the ground's on the foot.
"""

from __future__ import annotations

import numpy as np

from dynval.robots.hexapod.params import HexapodParams

# Table II as printed: Young's modulus range [Pa] and K_xF, B_xF, K_yF, B_yF
TABLE_II: dict[str, tuple[tuple[float, float], float, float, float, float]] = {
    "concrete": ((3.0e10, 3.0e10), 2604304130.0, 153097.0, 3410398265.0, 175196.0),
    "wood": ((1.3e10, 1.3e10), 1128531790.0, 100781.0, 1477839248.0, 115328.0),
    "gravel": ((1.0e8, 2.0e8), 17362028.0, 12500.0, 22735988.0, 14305.0),
    "sand": ((1.0e7, 8.0e7), 6944811.0, 7906.0, 9094395.0, 9047.0),
    "compact_clay": ((3.0e6, 1.5e7), 1302152.0, 3423.0, 1705199.0, 3917.0),
    "loose_clay": ((5.0e5, 3.0e6), 260430.0, 1531.0, 341040.0, 1752.0),
    "peat": ((1.0e5, 5.0e5), 43405.0, 625.0, 56840.0, 715.0),
}


def soil_parameters(E: float, p: HexapodParams) -> dict[str, float]:
    """K_xF, K_yF, B_xF, B_yF of a soil of Young's modulus E [Pa] (Sec. IV)."""
    G = E / (2.0 * (1.0 + p.mu_P))
    sqrt_BL = np.sqrt(p.A_F)
    K_xF = 2.0 * (1.0 + p.mu_P) * G * p.beta_x * sqrt_BL
    K_yF = G / (1.0 - p.mu_P) * p.beta_y * sqrt_BL
    return {"K_xF": K_xF, "K_yF": K_yF,
            "B_xF": 2.0 * p.zeta_F * np.sqrt(K_xF * p.M_eq),
            "B_yF": 2.0 * p.zeta_F * np.sqrt(K_yF * p.M_eq)}


def table_ii(p: HexapodParams) -> dict[str, dict[str, float]]:
    """Table II recomputed, each soil at the upper end of its Young's modulus range."""
    return {soil: soil_parameters(row[0][1], p) for soil, row in TABLE_II.items()}


def nonlinear_damping(B: float, Delta_max: float, nu: float) -> float:
    """Eq. (13): B' with B' Delta_max^nu = B (the linear damping reached at the deepest
    penetration Delta_max > 0)."""
    return B / Delta_max**nu


def linear_force(eta: np.ndarray, eta_dot: np.ndarray, eta_0: np.ndarray, p: HexapodParams,
                 eta_0_dot: np.ndarray | None = None) -> np.ndarray:
    """Eq. (11): f = -K (eta - eta_0) - B (eta_dot - eta_0_dot), (x, y) components, while the
    foot is in contact (the caller decides contact: the foot below the ground y = 0)."""
    K = np.array([p.K_xF, p.K_yF])
    B = np.array([p.B_xF, p.B_yF])
    d0 = np.zeros(2) if eta_0_dot is None else eta_0_dot
    return -K * (np.asarray(eta) - eta_0) - B * (np.asarray(eta_dot) - d0)


def nonlinear_force(eta: np.ndarray, eta_dot: np.ndarray, eta_0: np.ndarray,
                    p: HexapodParams, eta_0_dot: np.ndarray | None = None) -> np.ndarray:
    """Eq. (12): f = -K (eta - eta_0) - B' [-(y - y_0)]^nu (eta_dot - eta_0_dot): the
    damping grows from zero with the penetration -(y - y_0), so the force is continuous at
    touchdown. Zero when the foot is above its touchdown height."""
    pen = -(eta[1] - eta_0[1])
    if pen <= 0.0:
        return np.zeros(2)
    K = np.array([p.K_xF, p.K_yF])
    Bp = np.array([p.Bp_xF * pen**p.nu_x, p.Bp_yF * pen**p.nu_y])
    d0 = np.zeros(2) if eta_0_dot is None else eta_0_dot
    return -K * (np.asarray(eta) - eta_0) - Bp * (np.asarray(eta_dot) - d0)


class Foot:
    """Contact state of one foot: touchdown point eta_iF0 while in contact."""

    def __init__(self) -> None:
        self.eta_0: np.ndarray | None = None

    def force(self, eta: np.ndarray, eta_dot: np.ndarray, p: HexapodParams,
              model: str | None = None) -> np.ndarray:
        """The ground force on the foot (paper frame) with eq. (11) or (12); contact starts
        when the foot centre crosses y = 0 (its touchdown point is stored) and ends when
        it rises above it again."""
        if eta[1] >= 0.0:
            self.eta_0 = None
            return np.zeros(2)
        if self.eta_0 is None:
            self.eta_0 = np.array([eta[0], 0.0])
        model = model or p.ground
        if model == "linear":
            return linear_force(eta, eta_dot, self.eta_0, p)
        return nonlinear_force(eta, eta_dot, self.eta_0, p)
