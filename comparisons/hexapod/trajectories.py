"""L3 for the hexapod: contact-free motion, no forces but gravity, from a seeded pose at
rest, integrated by the hand model's semi-implicit Euler (eq. 6's H, c, g), by MuJoCo's and
PyBullet's own, and with MuJoCo's accelerations through the hand integrator: the twelve leg
joints swinging on the segments welded at H_B (``hexapod_fixed``). The free robot is not
swung: under gravity alone a free-falling tree from rest keeps its shape (every body falls
alike), so it would test nothing the audit of the free tree's terms has not. At two steps
(step halving): the hand-vs-engine differences must stay at round-off at both, and the
scheme's own error against RK4 must halve with the step (first order)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from dynval.comparisons.ladder.free_swing import compare_swings, integration_error_row, l3_result
from dynval.handrolled.hexapod.robot import PlanarHexapod
from dynval.results import Rung
from dynval.robots.hexapod.model_description import robot_joints, robot_offset
from dynval.robots.hexapod.params import HexapodParams

STEPS = (2e-4, 1e-4)  # [s]
DURATION = 0.3  # [s]
SEED = 11
# Same tree (L2 agrees at 1e-14), same scheme: round-off grown over a few thousand steps.
ROUND_OFF = 1e-9
REASON = ("same semi-implicit Euler scheme and the same dynamics (L2 agrees to round-off): "
          "only round-off remains; 1e-9 is a millionth of a milliradian")
ORDER_TOL = 0.2  # semi-implicit Euler is first order; 0.2 allows the error's phase drift


def _cases(p: HexapodParams, desc_dir: Path):
    """(label, hand q_dd(q, qd), MuJoCo terms, PyBullet terms, q0): the twelve leg joints
    on the welded segments (hexapod_fixed: H, c, g of eq. (6) with the hips held)."""
    from dynval.engines.mujoco_engine import MujocoTerms
    from dynval.engines.pybullet_engine import PybulletTerms

    g = (0.0, 0.0, -p.g)
    rng = np.random.default_rng(SEED)
    robot, off, k = PlanarHexapod(p), robot_offset(p), 2 * p.n_seg
    legs = robot_joints(p)[k:]

    def legs_qdd(q, qd):
        Th, Thd = off.copy(), np.zeros(robot.nq)
        Th[k:] += q
        Thd[k:] = qd
        return np.linalg.solve(robot.H(Th)[k:, k:], -robot.bias(Th, Thd)[k:])

    yield ("legs on welded segments", legs_qdd,
           MujocoTerms(desc_dir / "hexapod_fixed.xml", g, joint_names=legs),
           PybulletTerms(desc_dir / "hexapod_fixed.urdf", g, joint_names=legs),
           rng.uniform(-1.0, 1.0, len(legs)))


def free_motion(p: HexapodParams, desc_dir: Path) -> list[dict]:
    """Rows: max joint-angle differences [rad] per pairing and step, the scheme's error
    against RK4 at each step, and its measured order."""
    rows = []
    for label, qdd, mj, pb, q0 in _cases(p, desc_dir):
        err = {}
        for dt in STEPS:
            n = int(round(DURATION / dt))
            hand, pairs = compare_swings(qdd, mj, pb, q0, dt, n, ROUND_OFF, REASON)
            for r in pairs:
                r["comparison"] = f"{label}: {r['comparison']}"
            rows += pairs
            e = integration_error_row(qdd, hand, q0, dt, n, 2)
            e["comparison"] = f"{label}: {e['comparison']}"
            err[dt] = e["max_abs"]
            rows.append(e)
        order = math.log2(err[STEPS[0]] / err[STEPS[1]])
        rows.append({"step": STEPS[0], "comparison": f"{label}: error order (dt vs dt/2) vs 1",
                     "max_abs": abs(order - 1.0), "tolerance": ORDER_TOL, "unit": "order",
                     "reason": f"measured order {order:.2f}: semi-implicit Euler is first "
                               "order, so halving the step halves its error"})
    return rows


def l3(p: HexapodParams, desc_dir: Path):
    """The L3 rows, metric rows and rung."""
    rows = free_motion(p, desc_dir)
    typed, metrics, rung = l3_result("hexapod", rows, "twelve leg joints swinging")
    pairs = [r for r in typed if r.unit == "rad" and r.tolerance is not None]
    order = next(r for r in typed if r.unit == "order")
    return typed, metrics, Rung(rung.verdict, (
        f"twelve leg joints swinging {DURATION:g} s on the welded segments at dt = "
        f"{STEPS[0]:g} and {STEPS[1]:g} s: hand vs engines worst "
        f"{max(r.max_abs for r in pairs):.1e} rad; {order.reason}"))
