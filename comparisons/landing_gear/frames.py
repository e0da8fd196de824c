"""The one conversion between the paper frame P (y up) and the engine frame W (z up)."""

from __future__ import annotations

import numpy as np

from dynval.robots.landing_gear.params import R_WP


def vec_P(v_W: np.ndarray) -> np.ndarray:
    """Coordinates of a W-vector (or rows of vectors) in P."""
    return np.asarray(v_W) @ R_WP


def vec_W(v_P: np.ndarray) -> np.ndarray:
    """Coordinates of a P-vector (or rows of vectors) in W."""
    return np.asarray(v_P) @ R_WP.T


def R_PB_from_R_WB(R_WB: np.ndarray) -> np.ndarray:
    """Body attitude in paper axes; the body link's axes in W are R_WP's columns when level."""
    return R_WP.T @ R_WB @ R_WP


def R_WB_from_R_PB(R_PB: np.ndarray) -> np.ndarray:
    return R_WP @ R_PB @ R_WP.T
