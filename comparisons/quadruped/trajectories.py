"""L3 for the quadruped: the body welded, the twelve joints swinging freely under gravity
from a seeded pose, integrated by each implementation's own semi-implicit Euler and with
MuJoCo's accelerations fed through the hand model's integrator.  Same dynamics and same
scheme: the differences must stay at round-off."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from comparisons.free_swing import compare_swings
from comparisons.integrate import integrate_rk4
from handrolled.quadruped import terms
from handrolled.quadruped.robot import build_model
from robots.quadruped.params import QuadrupedParams

DURATION = 1.0  # [s]
STEPS = (1e-3, 5e-4)  # [s]
SEED = 7
ROUND_OFF_RAD = 1e-9
REASON = ("same semi-implicit Euler scheme and the same dynamics (L2 agrees to 1e-11): "
          "only round-off remains")


def initial_pose(seed: int = SEED) -> np.ndarray:
    """Twelve joint angles, each within 1 rad of the standing posture."""
    rng = np.random.default_rng(seed)
    stand = np.tile(QuadrupedParams().theta_stand, 4)
    return stand + rng.uniform(-1.0, 1.0, 12)


def free_swing(p: QuadrupedParams, desc_dir: Path) -> list[dict]:
    """Max joint-angle differences [rad] over the swing, for each pair and step."""
    from engines.mujoco_engine import MujocoTerms
    from engines.pybullet_engine import PybulletTerms

    model = build_model(p)
    g_W = np.array([0.0, 0.0, -p.g])
    mj = MujocoTerms(desc_dir / "quadruped_fixed.xml")
    pb = PybulletTerms(desc_dir / "quadruped_fixed.urdf", (0.0, 0.0, -p.g))
    q0 = initial_pose()

    def hand_qdd(q, qd):
        return terms.forward_dynamics(model, np.eye(3), q, qd, np.zeros(12), g_W,
                                      floating=False)

    rows = []
    for dt in STEPS:
        n = int(round(DURATION / dt))
        hand, pair_rows = compare_swings(hand_qdd, mj, pb, q0, dt, n, ROUND_OFF_RAD, REASON)
        rows += pair_rows
        exact = integrate_rk4(hand_qdd, q0, dt / 4, n * 4)[::4]
        rows.append({"step": dt, "comparison": "semi-implicit Euler vs RK4 at dt/4",
                     "max_abs_rad": float(np.max(np.abs(hand - exact))),
                     "tolerance": None,
                     "reason": "integration error of the shared scheme, first order in dt"})
    return rows
