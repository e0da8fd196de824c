"""Section 5.3.2's settling time read as the thesis judges it (angle and rate negligible)
and section 5.1.2's maximum and final turning joint angle swept over the knock."""

import math
from pathlib import Path

import numpy as np
import pytest

from dynval.comparisons.ladder.rungs import Inputs
from dynval.comparisons.rover import settling, tables, turning_sweep
from dynval.comparisons.rover.validate import LADDER
from dynval.robots import ROOT
from dynval.robots.rover.params import PARAMS

DESC = ROOT / "rover"
DEG = 180.0 / math.pi


def test_author_settling_on_an_exponential_decay():
    # q = A e^{-t}, q' = -A e^{-t}: both first fall below tol at t* = ln(A / tol)
    t = np.linspace(0.0, 20.0, 20001)
    A, tol = 1.0, 1e-3
    q, qd = A * np.exp(-t), -A * np.exp(-t)
    ts = settling.author_settling_time(t, q, qd, tol, tol)
    assert ts == pytest.approx(math.log(A / tol), abs=2e-3)
    assert settling.stays_settled(t, q, qd, tol, tol)


def test_author_settling_waits_for_the_rate_at_zero_crossings():
    # a damped oscillation crosses zero with a large rate: an angle-only rule would stop
    # at the first crossing, the thesis' rule (angle AND rate negligible) must not; it
    # settles once the rate envelope (w A e^{-t}) is below tol, later than the angle's
    t = np.linspace(0.0, 20.0, 200001)
    w = 2.0 * math.pi
    q = np.exp(-t) * np.sin(w * t)
    qd = np.exp(-t) * (w * np.cos(w * t) - np.sin(w * t))
    tol = 1e-2
    ts = settling.author_settling_time(t, q, qd, tol, tol)
    angle_only = t[np.nonzero(np.abs(q[1:]) <= tol)[0][0] + 1]
    assert angle_only < 0.6  # the first zero crossing, at t = 0.5
    rate_envelope = math.log(math.hypot(w, 1.0) / tol)  # |q'| <= sqrt(w^2+1) e^{-t}
    assert math.log(1.0 / tol) - 0.5 < ts <= rate_envelope + 1e-3
    assert ts > 3.0
    # the 5 % band of today's table is a different (relative) number
    assert tables.settling_time(t, q) < ts


def test_author_settling_never_settled_and_moving_again():
    t = np.linspace(0.0, 10.0, 1001)
    q = np.full_like(t, 0.5)
    assert math.isnan(settling.author_settling_time(t, q, np.zeros_like(t), 0.01, 0.01))
    assert not settling.stays_settled(t, q, np.zeros_like(t), 0.01, 0.01)
    # settles at t = 2, then is knocked again at t = 6
    q2 = np.where(t < 2.0, 1.0 - t / 2.0, 0.0) + np.where(t > 6.0, 0.5, 0.0)
    qd2 = np.where(t < 2.0, -0.5, 0.0)
    t_s = settling.author_settling_time(t, q2, qd2, 0.01, 0.01)
    assert t_s == pytest.approx(2.0, abs=0.011)  # the angle is small at 1.98 s, the rate not
    assert not settling.stays_settled(t, q2, qd2, 0.01, 0.01)
    assert settling.stays_settled(t[t < 6.0], q2[t < 6.0], qd2[t < 6.0], 0.01, 0.01)


def test_plateau_finds_where_a_curve_levels_out():
    x = list(range(10))
    y = [1, 4, 9, 12, 10, 8.1, 8.4, 7.9, 8.2, 8.0]
    k, m, lo, hi = turning_sweep.plateau(x, y, rel=0.05)
    assert k == 5 and lo == 7.9 and hi == 8.4 and m == pytest.approx(np.mean(y[5:]))
    # a straight ramp never levels out at 5 %
    assert turning_sweep.plateau(x, [float(v + 1) for v in x], rel=0.05) is None
    with pytest.raises(ValueError):
        turning_sweep.plateau([0, 1], [1.0])


def test_levels_out_note_reads_the_numbers():
    fr = turning_sweep.FRACTIONS
    ymax = [min(20.0 * f / 0.4, 20.0) if f <= 0.4 else (16.0 if f >= 0.6 else 24.0) for f in fr]
    res = {(6.0, "handrolled"): [
        {"fraction": f, "rate0": f * 6.0 / 1.5, "max_abs_q7": y / DEG, "t_max": 1.0,
         "final_q7": -15.0 / DEG if f >= 0.6 else 5.0 / DEG, "final_rate": 0.0,
         "heading_rate": 0.0, "duration": 20.0} for f, y in zip(fr, ymax, strict=True)]}
    note = turning_sweep.levels_out_note(res, 1.5)
    first = min(f for f in fr if f >= 0.6)
    assert f"({100 * first:g} % of v/l)" in note
    assert "16.0-16.0 deg" in note and "to 24.0 deg at 100 deg/s (43.75 % of v/l)" in note
    tabs, rows, note2 = turning_sweep.turning_angle_table(res, 1.5)
    assert note2 == note and len(tabs[0]["rows"]) == len(fr) and len(rows) == 2 * len(fr)
    assert tabs[0]["plot"]["panels"][0]["title"].startswith("6 m/s")


def test_sweep_tasks_cover_the_requested_magnitudes(tmp_path: Path):
    # at least 15 knocks per speed from 0 to v/l in every implementation: the engines run
    # the grid's knocks that the 5.1.2 scenarios do not; settling for both gain sets
    # (6 m/s: initial and alternate)
    assert len(turning_sweep.FRACTIONS) >= 15
    assert turning_sweep.FRACTIONS[0] == 0.0 and turning_sweep.FRACTIONS[-1] == 1.0
    assert set(turning_sweep.SCENARIO_FRACTIONS) <= set(turning_sweep.FRACTIONS)
    assert (set(turning_sweep.ENGINE_FRACTIONS) | set(turning_sweep.SCENARIO_FRACTIONS)
            == set(turning_sweep.FRACTIONS))
    inp = LADDER.inputs(PARAMS, DESC)
    tasks = LADDER.extra_tasks(inp)
    for v in turning_sweep.SPEEDS:
        fn, args, kwargs = tasks[f"5.1.2 sweep {v:g} handrolled"]
        assert fn is turning_sweep.sweep_speed and len(args[3]) >= 15 and kwargs["until"] is None
        assert tuple(tasks[f"5.1.2 sweep {v:g} mujoco"][1][3]) == turning_sweep.ENGINE_FRACTIONS
    gains = {(c.speed, c.gains) for c in settling.CASES}
    assert {(6.0, "initial"), (6.0, "alternate")} <= gains
    for c in settling.CASES:
        assert f"5.3.2 settling {c.scenario} handrolled" in tasks
    # the ci tier stops every sweep run at its first second; a run of other scenarios
    # does not pay for the sweeps
    ci = LADDER.extra_tasks(LADDER.inputs(PARAMS, DESC, tier="ci"))
    assert ci["5.1.2 sweep 6 handrolled"][2]["until"] == 1.0
    only = LADDER.extra_tasks(Inputs(PARAMS, DESC, ("steady_A",), 10, 0))
    assert not any(k.startswith(("5.1.2 sweep", "5.3.2 settling")) for k in only)


def test_max_turning_angle_grows_nearly_linearly_at_low_speed():
    # Figure 5.2: at 0.5 m/s the largest q7 is nearly linear in the knock (no overshoot;
    # the peak comes at ~0.85 s, so 1.5 s of each run holds it)
    res = turning_sweep.sweep_speed(PARAMS, 0.5, "handrolled", (0.0, 0.25, 0.5, 1.0), DESC,
                                    until=1.5)
    assert len(res) == 4 and res[0]["max_abs_q7"] < 1e-8
    m = [r["max_abs_q7"] for r in res[1:]]
    assert m[0] < m[1] < m[2]
    per_rate = [r["max_abs_q7"] / r["rate0"] for r in res[1:]]
    assert max(per_rate) / min(per_rate) < 1.15
    assert all(0.5 < r["t_max"] < 1.5 for r in res[1:])


def test_alternate_gains_settle_faster_and_larger_knocks_settle_later():
    # section 5.3.2 / Figure 5.11: K_p = K_d = 300 settles the 6 m/s knock sooner than 100;
    # and for one gain set a larger knock takes longer to decay to the same negligible level
    init = settling.sweep_case(PARAMS, "pd_disturbed_6", "handrolled", (0.5, 1.0), DESC,
                               until=22.0)
    alt = settling.sweep_case(PARAMS, "pd_disturbed_6_alt", "handrolled", (0.5, 1.0), DESC,
                              until=22.0)
    key = f"settle_{settling.MAIN_DEG:g}"
    for a, b in zip(init, alt, strict=True):
        assert b[key] < a[key] < 22.0
        assert a[f"stays_{settling.MAIN_DEG:g}"] and b[f"stays_{settling.MAIN_DEG:g}"]
        # the author's criterion at 0.01 deg is stricter than today's 5 % band
        assert a[key] > a["settle_band"]
    assert init[0]["settle_0.001"] > init[0]["settle_0.01"] > init[0]["settle_0.1"]
    assert "trace_t" in init[1] and "trace_t" not in init[0]
    res = {("pd_disturbed_6", "handrolled"): init, ("pd_disturbed_6_alt", "handrolled"): alt}
    ratio = settling.gain_ratio(res)
    assert len(ratio) == 2 and all(s < 0 for _, s, _ in ratio)
    tabs, rows = settling.settling_table(res)
    assert len(tabs[0]["rows"]) == 4 and len(rows) == 12
    assert "Figure 5.11" in tabs[0]["plot"]["panels"][1]["title"]


def test_slowest_settling_case_fits_in_the_run():
    # the longest case (3 m/s, largest knock, initial gains) settles by the finest level
    # inside DURATION, so the 30 s runs measure every case
    r = settling.sweep_case(PARAMS, "pd_disturbed_3", "handrolled", (1.0,), DESC)[0]
    assert r["duration"] == pytest.approx(settling.DURATION, abs=0.011)
    assert r["settle_0.001"] < settling.DURATION - 5.0
    assert r["stays_0.001"]
