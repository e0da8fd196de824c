"""L3 for the quadruped: the body welded, the twelve joints swinging freely under gravity
from a seeded pose, integrated by each implementation's own semi-implicit Euler and with
MuJoCo's accelerations fed through the hand model's integrator; and the whole robot
tumbling in free flight.  Same dynamics and same scheme: the differences must stay at
round-off."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from dynval.comparisons.ladder import plant
from dynval.comparisons.ladder.free_swing import compare_swings, integration_error_row
from dynval.handrolled.quadruped import terms
from dynval.handrolled.quadruped.robot import build_model
from dynval.robots.quadruped.model_description import joint_names
from dynval.robots.quadruped.params import QuadrupedParams

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
    from dynval.engines.mujoco_engine import MujocoTerms
    from dynval.engines.pybullet_engine import PybulletTerms

    model = build_model(p)
    g_W = np.array([0.0, 0.0, -p.g])
    g = (0.0, 0.0, -p.g)
    mj = MujocoTerms(desc_dir / "quadruped_fixed.xml", g, joint_names=joint_names())
    pb = PybulletTerms(desc_dir / "quadruped_fixed.urdf", g, joint_names=joint_names())
    q0 = initial_pose()

    def hand_qdd(q, qd):
        return terms.forward_dynamics(model, np.eye(3), q, qd, np.zeros(12), g_W,
                                      floating=False)

    rows = []
    for dt in STEPS:
        n = int(round(DURATION / dt))
        hand, pair_rows = compare_swings(hand_qdd, mj, pb, q0, dt, n, ROUND_OFF_RAD, REASON)
        rows += pair_rows
        rows.append(integration_error_row(hand_qdd, hand, q0, dt, n, 4))
    return rows


FLIGHT_DURATION = 0.5  # [s]
FLIGHT_STEPS = (1e-3, 5e-4)  # [s]
FLIGHT_REASON = ("the floating base in free flight: the joints and the attitude depend on the "
                 "base only through its angular velocity (body axes in all three) and its "
                 "acceleration, so the same semi-implicit Euler gives the same motion to "
                 "round-off, whichever axes the base's linear velocity is stepped in")


def _angle(R: np.ndarray) -> float:
    """Rotation angle of R [rad], well conditioned near zero (atan2 of sine and cosine)."""
    v = np.array([R[2, 1] - R[1, 2], R[0, 2] - R[2, 0], R[1, 0] - R[0, 1]])
    return float(np.arctan2(np.linalg.norm(v) / 2.0, (np.trace(R) - 1.0) / 2.0))


def free_flight(p: QuadrupedParams, desc_dir: Path) -> list[dict]:
    """The whole robot tumbling in the air from a seeded spin (no contact, no torque): the
    largest joint-angle or attitude difference from the hand model [rad] at each step."""
    from dynval.engines.base import FloatingState
    from dynval.handrolled.quadruped.simulation import PinnedFeetSimulation

    rng = np.random.default_rng(SEED)
    theta0 = initial_pose()
    nu0 = np.concatenate([rng.uniform(-0.5, 0.5, 3), rng.uniform(-2, 2, 3),
                          rng.uniform(-3, 3, 12)])
    p0, R0 = np.array([0.0, 0.0, 1.0]), np.eye(3)
    g = (0.0, 0.0, -p.g)
    rows = []
    for dt in FLIGHT_STEPS:
        hand = PinnedFeetSimulation(build_model(p), np.array(g), dt)
        hand.reset(p0, R0, theta0, nu0, ())
        engines = {e: plant.simulation(e, desc_dir, "quadruped", joint_names(), dt, g)
                   for e in plant.ENGINES}
        worst = dict.fromkeys(engines, 0.0)
        for sim in engines.values():
            sim.reset(FloatingState(p0, R0, R0 @ nu0[:3], R0 @ nu0[3:6], theta0, nu0[6:]))
        for _ in range(int(round(FLIGHT_DURATION / dt))):
            hand.step(np.zeros(12), ())
            for name, sim in engines.items():
                sim.step(np.zeros(12), [])
                s = sim.state()
                worst[name] = max(worst[name], float(np.max(np.abs(s.q - hand.theta))),
                                  _angle(hand.R_WB.T @ s.R_WB))
        rows += [{"step": dt, "comparison": f"handrolled vs {name} (free flight)",
                  "max_abs": w, "tolerance": ROUND_OFF_RAD, "reason": FLIGHT_REASON}
                 for name, w in worst.items()]
    return rows
