"""Section 4's inverse dynamic solution of a planned instant, in section 3's two stages:
the legs in the air give the body wrench, section 4's assumed ground forces supply it,
and the leg recursion with those forces gives the joint torques."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dynval.handrolled.quadruped.gait import PlannedState
from dynval.handrolled.quadruped.grf import solve_grf
from dynval.handrolled.quadruped.rnea import inverse_dynamics
from dynval.handrolled.quadruped.robot import QuadrupedModel


@dataclass
class Feedforward:
    """Inverse dynamics of one planned instant."""

    tau: np.ndarray  # (4, 3) joint torques [N m]
    F_foot_B: np.ndarray  # (4, 3) assumed ground forces, body axes [N]
    residual: np.ndarray  # (6,) body wrench the assumed forces leave unbalanced


def feedforward(model: QuadrupedModel, s: PlannedState, g_W: np.ndarray,
                split: str = "paper") -> Feedforward:
    """Section 3's two stages: legs in the air for the body wrench, then the ground
    forces of section 4 (``split``: grf.SPLITS) and the joint torques that go with them."""
    nu = np.concatenate([s.v_WB, np.zeros(3)])
    nudot = np.concatenate([s.a_WB, np.zeros(3)])
    f_b, n_b, *_ = inverse_dynamics(model, np.eye(3), nu, nudot, s.theta, s.thetad,
                                    s.thetadd, g_W)
    F, residual = solve_grf(s.stance, s.p_B4, f_b, n_b, split)
    _, _, tau, *_ = inverse_dynamics(model, np.eye(3), nu, nudot, s.theta, s.thetad,
                                     s.thetadd, g_W, F)
    return Feedforward(tau, F, residual)
