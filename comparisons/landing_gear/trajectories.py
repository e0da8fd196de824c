"""L3 for the landing gear: the fixed-base leg swinging freely under gravity (no contact,
no torque), integrated by each implementation's own integrator and, separately, with
MuJoCo's accelerations fed through the hand model's integrator, so that dynamics and
integration errors separate.  The hand model integrates semi-implicit Euler, the scheme
MuJoCo's "Euler" and PyBullet also use, so the three should agree to round-off."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from dynval.comparisons.ladder.free_swing import compare_swings, integration_error_row
from dynval.comparisons.ladder.integrate import integrate_euler
from dynval.comparisons.landing_gear.audit import leg_engines
from dynval.handrolled.landing_gear import single_leg
from dynval.robots.landing_gear.params import LandingGearParams

THETA0 = np.array([-np.pi / 2 + 0.5, 0.4])  # released 29 deg from hanging, knee bent 23 deg
DURATION = 2.0  # [s]
STEPS = (1e-3, 5e-4, 2.5e-4)  # [s]
ROUND_OFF_RAD = 1e-9
REASON = ("same semi-implicit Euler scheme and the same dynamics: only round-off and the "
          "1e-14 kg m^2 point inertia the engines need (<1e-11 of M) remain")


def free_swing(p: LandingGearParams, desc_dir: Path) -> list[dict]:
    """Max joint-angle differences [rad] over the swing, for each pair and step."""
    args = (p.m_U, p.m_L, p.l_U, p.l_L)
    mj, pb, _ = leg_engines(desc_dir, p)
    rows = []
    for dt in STEPS:
        n = int(round(DURATION / dt))

        def hand_qdd(q, qd, printed=False):
            return single_leg.forward_dynamics(q, qd, np.zeros(2), np.zeros(2), *args, p.g,
                                               printed)

        hand, pair_rows = compare_swings(hand_qdd, mj, pb, THETA0, dt, n, ROUND_OFF_RAD,
                                         REASON)
        rows += pair_rows
        printed = integrate_euler(lambda q, qd: hand_qdd(q, qd, True), THETA0, dt, n)
        rows.append({"step": dt, "comparison": "printed eq. (12) vs corrected",
                     "max_abs": float(np.max(np.abs(printed - hand))),
                     "tolerance": None, "reason": "erratum effect (informational)"})
        rows.append(integration_error_row(hand_qdd, hand, THETA0, dt, n, 10))
    return rows
