"""The floor the pole's tip may strike: a plane h_f below the rail, frictionless, that
pushes back on a tip below it by a spring k_f and a damper c_f along its normal and never
pulls (the force is zero where the damper would make it negative):

    F_z = max(0, k_f d - c_f z'),   d = -h_f - z > 0 the tip's depth below the floor   (5)

F_x = F_y = 0. Every implementation applies this one law to its own reading of the tip
(the hand model's eq. of the tip, the engines' point 2 l up the pole's link)."""

from __future__ import annotations

import numpy as np


def floor_forces(P: np.ndarray, V: np.ndarray, h_f: float, k_f: float,
                 c_f: float) -> np.ndarray:
    """Eq. (5) at each point: world positions P and velocities V, (n, 3) -> forces [N]."""
    F = np.zeros_like(P)
    for k in range(len(P)):
        depth = -h_f - P[k, 2]
        if depth > 0.0:
            F[k, 2] = max(0.0, k_f * depth - c_f * V[k, 2])  # eq. (5)
    return F
