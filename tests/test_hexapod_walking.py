"""The walking requirements (comparisons/hexapod/walking.py), the loaded static stance the
scenarios start from (loop.loaded_start) and the chattering statement can fail: synthetic
traces of a robot that flies, slips or engages its gears cleanly fail them."""

import numpy as np
import pandas as pd
import pytest

from dynval.comparisons.hexapod import statements, walking
from dynval.comparisons.hexapod.loop import loaded_start
from dynval.comparisons.hexapod.scenarios import SCENARIOS, scenario_params
from dynval.handrolled.hexapod import body, lagrange
from dynval.handrolled.hexapod.robot import PlanarHexapod
from dynval.robots.hexapod.params import PARAMS, leg_names

P = scenario_params(PARAMS, SCENARIOS["WG_50"])


def _trace(flying: bool = False, slip: float = 0.0) -> pd.DataFrame:
    """One cycle at 1 kHz: each foot pushed on by the ground exactly in its planned
    support (or never, ``flying``), standing still there but for ``slip`` [m] of travel."""
    t = np.arange(1001) * 1e-3
    df = pd.DataFrame({"time": t, "com.y": np.full(len(t), P.H_B)})
    plan = walking.planned_support(df, P)
    for i, leg in enumerate(leg_names(P)):
        on = plan[i] & (not flying)
        df[f"foot.{leg}.force.y"] = np.where(on, 300.0, 0.0)
        df[f"foot.{leg}.force.x"] = 0.0
        df[f"foot.{leg}.x"] = np.where(plan[i], slip * t, t)  # the swing moves it
    return df


def test_a_trace_that_walks_passes():
    df = _trace()
    assert walking.airborne(df, P) == 0
    miss, planned = walking.support_misses(df, P)
    assert miss == 0 and planned > 0.9 * 3 * len(df)
    assert walking.slip(df, P) == 0.0
    assert walking.cycle_mismatch(df) == 0.0


def test_an_airborne_trace_fails():
    df = _trace(flying=True)
    assert walking.airborne(df, P) == len(df)
    miss, planned = walking.support_misses(df, P)
    assert miss == planned


def test_a_slipping_trace_fails():
    df = _trace(slip=0.02)  # 20 mm/s for half a cycle: ~10 mm in a support phase
    assert walking.slip(df, P) > 0.009


def test_the_loaded_stance_is_a_static_equilibrium():
    """Eq. (6) at rest with the stance's link torques and the ground's static forces:
    no acceleration of the segments' heights or the joints (the x rows carry the plan's
    forward speed only)."""
    st = loaded_start(P)
    r = PlanarHexapod(P)
    k = r.k
    feet, _ = r.feet(st.q, np.zeros_like(st.q))
    assert st.support.all()  # WG at t = 0: the tripods' exchange, every foot planned down
    assert np.all(feet[:, 1] < 0.0) and np.allclose(st.sinkage, -feet[:, 1])
    Q = np.zeros(r.nq)
    for i in range(r.n):
        Q[r.idx[i]] += lagrange.J_F(st.q[r.idx[i]], r.lm).T @ np.array(
            [0.0, -P.K_yF * feet[i, 1]])
    Q[1:2 * k:2] += body.F_RH(st.q[0:2 * k:2], st.q[1:2 * k:2], np.zeros(k), np.zeros(k),
                              P)[1]
    Q[2 * k:] += st.tau
    qdd = np.linalg.solve(r.H(st.q), Q - r.bias(st.q, np.zeros_like(st.q)))
    assert np.max(np.abs(qdd[1:2 * k:2])) < 1e-6 and np.max(np.abs(qdd[2 * k:])) < 1e-4
    # the weight is on the ground
    assert np.sum(P.K_yF * st.sinkage) == pytest.approx(P.m_total * P.g, rel=1e-9)


def test_the_stance_twists_the_drives_to_their_loads():
    st = loaded_start(P.with_(transmission="backlash"))
    th = st.q[2 * P.n_seg:]
    assert np.allclose(P.K_ijT * (st.th_T - th), st.tau, rtol=1e-9, atol=1e-9)
    assert np.allclose(np.abs(st.th_m - st.th_T), 0.5 * P.h_ij)


def _gears(impacts_per_closing: float, closings: int) -> pd.DataFrame:
    """Hip 1's play closing ``closings`` times in a cycle, every joint taking
    ``impacts_per_closing`` impacts each time."""
    t = np.arange(1001) * 1e-3
    closed = (np.floor(t * 2 * closings) % 2) == 1  # closings of ~1/(2 closings) s each
    gap = np.where(closed, 0.5e-3, 0.2e-3)
    df = pd.DataFrame({"time": t, "joint.LF.hip.motor_angle": gap,
                       "joint.LF.hip.gear_angle": np.zeros(len(t))})
    for leg in leg_names(P):
        df[f"joint.{leg}.hip.angle"] = 0.0
    df["hexapod.gear_impacts"] = np.linspace(0.0, 12 * impacts_per_closing * closings,
                                             len(t))
    return df


@pytest.mark.parametrize("per, holds", [(1.0, False), (50.0, True)])
def test_the_chattering_statement_can_fail(per, holds):
    df = _gears(per, 5)
    n, closings, joints = statements.gear_chatter(df)
    assert (closings, joints) == (5, 12)
    assert n == pytest.approx(12 * per * 5)
    st = statements.transmissions("hexapod", df.assign(**{"joint.LF.hip.angle": 0.0}),
                                  None, None)
    assert st == []  # needs both runs; the verdict itself:
    assert (n / joints / closings > statements.CHATTER_IMPACTS) == holds
