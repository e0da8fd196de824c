"""The rover's recomputed thesis studies: the power laws of 4.2.1, the single wheel of
4.2.2, the constant drawbar pull runs of 4.2.4 and the PD steering of 5.3."""

import math
from dataclasses import replace

import numpy as np
import pytest

from dynval.comparisons.rover import soil_tables, tables
from dynval.comparisons.rover.scenarios import SCENARIOS, run_one
from dynval.handrolled.rover import terramechanics as tm
from dynval.handrolled.rover.steady_state import sinkage_for_load
from dynval.robots import ROOT
from dynval.robots.rover.params import PARAMS
from dynval.robots.rover.soil import load_soil

DESC = ROOT / "rover"
DRY = load_soil("dry_sand")


def test_power_law_fit_recovers_bekkers_exponents():
    # (2.2)-(2.3) are exact power laws in W and D: the fit of (4.3) must return their
    # exponents to round-off and R^2 = 1; a wrong fit or a wrong (2.2)-(2.3) would not.
    e = 2 * DRY.n + 1
    tabs, _ = soil_tables.power_law_tables(DRY)
    t41, t42 = ({r[0]: r for r in t["rows"]} for t in tabs[:2])
    for row, exponent in ((t41["W"], (2 * DRY.n + 2) / e), (t41["D"], -(DRY.n + 1) / e),
                          (t42["W"], 2 / e), (t42["D"], -1 / e)):
        assert row[3] == pytest.approx(exponent, rel=1e-10)
        assert row[4] == pytest.approx(1.0, abs=1e-12)


def test_model_power_laws_follow_bekkers_trends():
    # section 4.2.1's finding, recomputed: the model's exponents in D, b, W have Bekker's
    # signs (more load sinks deeper, bigger wheels sink less); its own fit is close to a
    # power law (R^2 > 0.99, else (4.3) would not describe it)
    tabs, _ = soil_tables.power_law_tables(DRY)
    for t in tabs[:2]:
        for row in t["rows"]:
            assert np.sign(row[6]) == np.sign(row[3]), (t["title"], row[0])
            assert row[7] > 0.99


def test_fit_power_law_on_a_known_law():
    x = np.geomspace(0.1, 10.0, 5)
    A, B, R2 = soil_tables.fit_power_law(x, 3.0 * x**-0.7)
    assert (A, B, R2) == pytest.approx((3.0, -0.7, 1.0), rel=1e-12)


def test_rut_recovery_gain_has_the_printed_size():
    # section 4.2.2 blames rut recovery (eq. 4.4) for drawbar pulls ~14 N (s = 0) and
    # ~25 N (s = 0.8) above the thesis' model. Those are one-figure readings of the gap
    # between two plotted models (Ishigami's differs in more than rut recovery), so the
    # recomputed gain must have that size (25 %) and grow with slip as they do.
    soil = replace(load_soil("lunar_soil_simulant"), **soil_tables.LOADSOIL_SLOPES)
    gain = {s: soil_tables.drawbar_and_side_force(soil, s, 0.0, soil_tables.LAMBDA_RUT)[0]
            - soil_tables.drawbar_and_side_force(soil, s, 0.0)[0] for s in (0.0, 0.8)}
    assert gain[0.0] == pytest.approx(14.0, rel=0.25)
    assert gain[0.8] == pytest.approx(25.0, rel=0.25)
    assert gain[0.8] > gain[0.0]


def test_single_wheel_trends_of_figures_4_4_and_4_5():
    # the text: drawbar pull rises with slip and falls with sideslip; side force falls with
    # slip and rises with sideslip
    tab = soil_tables.single_wheel_table(load_soil("lunar_soil_simulant"))[0][0]
    rows = np.array(tab["rows"])
    n_beta = len(soil_tables.SLIP_ANGLES_DEG)
    DP, Fy = rows[:, 1:1 + n_beta], rows[:, 1 + n_beta:2 * n_beta]
    assert np.all(np.diff(DP, axis=0) > 0) and np.all(np.diff(DP, axis=1) < 0)
    assert np.all(np.diff(Fy, axis=0) < 0) and np.all(np.diff(Fy, axis=1) > 0)


def test_sinkage_for_load_with_a_slip_angle():
    # with a slip angle, the root finder returns the sinkage at which (2.16) carries W
    z = sinkage_for_load(500.0, 0.1, 0.5, 0.2, DRY, beta=0.2)
    theta1 = math.acos(1 - z / 0.5)
    assert tm.iagnemma_forces(theta1, 0.1, 0.2, 0.5, 0.2, DRY).Fz == pytest.approx(500.0,
                                                                                    rel=1e-12)


@pytest.mark.parametrize("name", ["drawbar_10", "drawbar_175"])
def test_constant_drawbar_pull_accelerates_as_expected(name):
    # Table 4.7: a constant drawbar pull DP per wheel of a m_seg / 2 share accelerates the
    # rover at DP / (m_seg / 2). The only departure is the load moving to the rear wheels
    # (section 4.2.4): 0.5 % of the speed gained bounds it at 1.75 m/s^2 (measured 0.08 %).
    sc = SCENARIOS[name]
    df = run_one(PARAMS, sc, "handrolled", "shared", DESC)
    expected = sc.speed + sc.DP / (0.5 * PARAMS.m_seg) * sc.duration
    assert df["rover.speed"].iloc[-1] == pytest.approx(expected, rel=5e-3)
    if name == "drawbar_175":  # the erratum: the printed 8.75 m/s is the change of speed
        assert abs(df["rover.speed"].iloc[-1] - 8.75) > 0.9


def test_pd_turn_holds_its_command_on_the_eq_5_1_circle():
    # eqs. (5.2)-(5.3) steer q7 to its command; the segments then follow the circle of
    # eq. (5.1), up to the wheels' side slip (small at 0.5 m/s: 2 % on the radius)
    sc = SCENARIOS["turn_0.5_10"]
    df = run_one(PARAMS, sc, "handrolled", "shared", DESC)
    q7 = df["joint.q7.angle"].iloc[-1]
    assert q7 == pytest.approx(math.radians(10.0), rel=1e-2)
    assert tables.turn_radius(df) == pytest.approx(tables.eq_5_1_radius(PARAMS.l, q7),
                                                   rel=2e-2)


def test_engine_heading_winds_past_half_a_turn():
    # the engines give the heading modulo 2 pi; the loop must follow the hand-rolled
    # joint q6 through +-180 deg without a jump (a 2 pi jump would show as a 360 deg error)
    sc = SCENARIOS["turn_3_30"]
    hand = run_one(PARAMS, sc, "handrolled", "shared", DESC, duration=12.0)
    eng = run_one(PARAMS, sc, "mujoco", "shared", DESC, duration=12.0)
    assert hand["rover.heading"].iloc[-1] > math.pi
    assert np.max(np.abs(np.diff(eng["rover.heading"]))) < 0.1
    assert eng["rover.heading"].iloc[-1] == pytest.approx(hand["rover.heading"].iloc[-1],
                                                          abs=1e-2)


def test_settling_time():
    t = np.linspace(0.0, 10.0, 1001)
    x = np.exp(-t)
    # |x - x_end| first drops below 5 % of its largest excursion at t = -ln(0.05 + ...)
    ts = tables.settling_time(t, x)
    assert ts == pytest.approx(-math.log(0.05 * (1 - x[-1]) + x[-1]), abs=0.011)
