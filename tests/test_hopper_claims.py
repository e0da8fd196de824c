"""The hopper's claims, statements and requirements on synthetic traces: each must be able
to fail, so each is fed a trace on which it must fail (and one on which it must hold).
No simulation here."""

import math

import numpy as np
import pandas as pd
import pytest

from dynval.comparisons.hopper import claims
from dynval.comparisons.hopper.scenarios import SCENARIOS
from dynval.comparisons.hopper.validate import LADDER, SYMMETRIC
from dynval.comparisons.ladder.rungs import Variant
from dynval.handrolled.hopper import contact
from dynval.handrolled.hopper.control import (
    FLIGHT,
    ControllerState,
    Observation,
    raibert_step,
)
from dynval.robots.hopper.params import PARAMS as p

T_HOP = 0.8  # [s] one synthetic hop, apex to apex
RATE = 1000.0  # [Hz]


def hopping_trace(apex: list[float], speed: list[float] | None = None,
                  stance: float = 0.4) -> pd.DataFrame:
    """A 1 kHz trace of len(apex) hops: com.z peaks at apex[i] mid-hop in flight, the stance
    (``stance`` long) straddles each hop's ends, com.vx is speed[i] over hop i."""
    speed = speed or [0.0] * len(apex)
    t = np.arange(0.0, T_HOP * len(apex), 1.0 / RATE)
    i = np.minimum((t // T_HOP).astype(int), len(apex) - 1)
    s = (t - i * T_HOP) / T_HOP  # 0..1 within a hop
    z = 1.0 + (np.array(apex)[i] - 1.0) * np.sin(math.pi * s)
    in_stance = (s < 0.5 * stance / T_HOP) | (s > 1.0 - 0.5 * stance / T_HOP)
    return pd.DataFrame({"time": t, "com.z": z, "com.vx": np.array(speed)[i],
                         "hopper.phase": np.where(in_stance, 1.0, float(FLIGHT))})


def test_settling_criterion_fails_on_an_oscillating_step_and_holds_on_a_steady_one():
    steps = ((0.0, 1.6),)
    ringing = [1.6 + 0.004 * (-1) ** k for k in range(12)]  # 8 mm hop to hop
    st = claims.step_states(hopping_trace(ringing), steps)[0]
    assert not st.settled and st.height is None and st.n_hops > 3
    converging = [1.6 + 0.05 * 0.3 ** k for k in range(12)]
    st = claims.step_states(hopping_trace(converging), steps)[0]
    assert st.settled and st.height == pytest.approx(1.6, abs=1e-3)
    # a speed that still drifts 5 mm/s per hop keeps a steady apex unsettled
    drifting = [0.2 + 0.005 * k for k in range(12)]
    st = claims.step_states(hopping_trace([1.6] * 12, drifting), steps)[0]
    assert not st.settled


def test_too_few_hops_are_not_settled():
    st = claims.step_states(hopping_trace([1.6] * 4), ((0.0, 1.6),))[0]
    assert not st.settled  # three changes need four complete hops


def test_steady_error_statement_fails_where_the_apex_meets_h_d():
    steps = ((0.0, 1.6),)
    on = claims.step_states(hopping_trace([1.6] * 10), steps)
    assert not claims.steady_error_remains(on, "synthetic").holds
    off = claims.step_states(hopping_trace([1.605] * 10), steps)
    assert claims.steady_error_remains(off, "synthetic").holds
    never = claims.step_states(hopping_trace([1.6, 1.7] * 5), steps)
    assert claims.steady_error_remains(never, "synthetic") is None  # nothing to judge


def test_stance_time_statement_fails_when_the_stance_changes():
    assert not claims.stance_constant([np.array([0.35, 0.40, 0.45])], "synthetic").holds
    assert claims.stance_constant([np.array([0.400, 0.405, 0.398])], "synthetic").holds
    measured = claims.stance_times(hopping_trace([1.6] * 5, stance=0.3))
    assert measured == pytest.approx(np.full(len(measured), 0.3), abs=2e-3)


def test_unsprung_energy_statements_fail_on_lossless_or_heavier_losing_hops():
    lossless = [claims.HopEnergy(2.0, 0.0, 0.0, 5.0)] * 3
    assert not claims.unsprung_loss_every_hop(lossless, "synthetic").holds
    lossy = [claims.HopEnergy(2.0, 2.5, 2.0, 5.0)] * 3
    assert claims.unsprung_loss_every_hop(lossy, "synthetic").holds
    light_loses_more = [claims.HopEnergy(2.0, 3.0, 2.0, 5.0)] * 3
    assert not claims.lighter_leg_loses_less(lossy, light_loses_more, "synthetic").holds
    light_loses_less = [claims.HopEnergy(1.0, 1.0, 1.0, 2.0)] * 3
    assert claims.lighter_leg_loses_less(lossy, light_loses_less, "synthetic").holds


def test_hop_energy_of_a_known_damper_and_thrust():
    """A foot pressed 1 mm into the ground and out again over a 0.1 s stance against a pure
    damper F = -c v: the ground takes c * integral v^2 dt; a thrust u at constant r_dot
    does k_L u r_dot T of work."""
    c, depth, T, u, rd = 500.0, 1e-3, 0.1, 0.02, 0.5
    t = np.arange(0.0, 0.6, 1.0 / RATE)
    on = (t >= 0.2) & (t < 0.2 + T)
    fz = np.where(on, -depth * np.sin(math.pi * (t - 0.2) / T), 0.0)
    vz = np.where(on, -depth * math.pi / T * np.cos(math.pi * (t - 0.2) / T), 0.0)
    df = pd.DataFrame({"time": t, "foot.x": 0.0, "foot.z": fz, "foot.force.x": 0.0,
                       "foot.force.normal": np.where(on, -c * vz, 0.0),
                       "joint.leg.extension": 0.9, "joint.leg.extension_rate": rd,
                       "hopper.thrust": np.where(on, u, 0.0),
                       "hopper.phase": np.where(on, 1.0, 0.0)})
    (e,) = claims.hop_energies(df, 1.0, p.k_L, p.b_stop, p.r_0)
    assert e.ground == pytest.approx(c * (depth * math.pi / T) ** 2 * T / 2, rel=0.05)
    assert e.stop == 0.0  # the leg never passes r_0
    assert e.thrust == pytest.approx(p.k_L * u * rd * T, rel=0.05)


def test_balance_requirement_fails_past_20_deg_and_is_not_asked_in_the_height_run():
    t = np.arange(0.0, 1.0, 1e-3)
    fallen = pd.DataFrame({"time": t, "body.pitch": np.radians(30.0) * t})
    variant = Variant("shared", (("handrolled", "shared"),))
    (row,) = LADDER.requirements(None, SCENARIOS["speed"], variant, "handrolled", fallen)
    assert not row.passed and row.tolerance == 20.0
    assert LADDER.requirements(None, SCENARIOS["height"], variant, "handrolled", fallen) == []


def test_symmetric_signals_of_the_height_run_are_reported_not_toleranced():
    variant = LADDER.variants(SCENARIOS["height"])[0]
    cols = ["time", "com.z", *SYMMETRIC]
    wide = {impl: pd.DataFrame(np.zeros((3, len(cols))), columns=cols)
            for impl in variant.implementations}
    assert LADDER.compared_signals(SCENARIOS["height"], variant, wide) == ["com.z"]
    _, rows, _ = LADDER.scenario_extras(None, SCENARIOS["height"], variant, wide)
    assert rows and all(r.tolerance is None and "zero by symmetry" in r.reason for r in rows)
    speed_sigs = LADDER.compared_signals(SCENARIOS["speed"], variant, wide)
    assert "com.vx" in speed_sigs and "body.pitch" in speed_sigs


def test_printed_impact_law_pulls_and_the_clipped_one_does_not():
    x, x_dot = p.x_1 - 2e-4, 2.0  # just in contact, leaving fast
    printed = contact.normal_force(x, x_dot, p)
    clipped = contact.normal_force(x, x_dot, p.with_(contact_law="clipped"))
    assert printed < 0.0 and clipped == 0.0
    pressing = contact.normal_force(p.x_1 - 3e-3, -0.1, p)  # compressed: both forms agree
    assert contact.normal_force(p.x_1 - 3e-3, -0.1, p.with_(contact_law="clipped")) == pressing


@pytest.mark.parametrize("dl_min, expected", [(0.0, 0.0), (-0.2, 0.03 + 0.5 * (1.6 - 2.0))])
def test_eq_20_floor_is_the_declared_dl_min(dl_min, expected):
    """An apex 0.4 m above h_d: eq. (20) asks for a negative thrust, which dl_min = 0 (the
    default) clamps."""
    q = p.with_(dl_min=dl_min)
    s = ControllerState(FLIGHT, True, 1.6, q.dl_0, 0)
    o = Observation(0.0, 2.0, 0.0, 0.0, q.r_0, 0.0, -1e-3, 0.0, 0.0, 0.0, False)
    new, _, _ = raibert_step(s, o, 1.6, 0.0, 0.0, q, 1.0, True)
    assert new.dl == pytest.approx(expected)
