"""The rover's wheel-soil law (thesis section 2.1, 3.2) and its steady-state solver."""

import math

import numpy as np
import pytest

from handrolled.rover import terramechanics as tm
from handrolled.rover.steady_state import NoSteadyStateError, constvel
from robots.rover.params import ROVERS
from robots.rover.soil import SoilFileError, load_soil

DRY = load_soil("dry_sand").as_tuple()
LUNAR = load_soil("lunar_soil_simulant").as_tuple()
R, B = 0.5, 0.2


@pytest.mark.parametrize("theta1", [0.1, 0.3, 0.6])
@pytest.mark.parametrize("s", [-0.2, 0.05, 0.3, 0.7])
def test_closed_form_is_the_integral_of_the_triangular_stresses(theta1, s):
    # (2.15)-(2.18) are exact integrals of (2.14): the difference is quadrature round-off.
    H, Rr, Fz, Fy, T = tm.closed_form(theta1, s, 0.2, R, B, DRY)
    Fx_n, Fz_n, Fy_n, T_n = tm.integrated_forces(theta1, s, 0.2, R, B, DRY, triangular=True)
    for a, b in ((H + Rr, Fx_n), (Fz, Fz_n), (Fy, Fy_n), (T, T_n)):
        assert abs(a - b) <= 1e-9 * max(abs(b), 1.0)


def _kappa(theta1, thm):
    """Area of the parabola (cos th - cos th1 ~ (th1^2 - th^2)/2, n = 1) over the
    triangle of (2.14) with the same peak: 2 (2 th1 + thm) / (3 (th1 + thm))."""
    return 2.0 * (2.0 * theta1 + thm) / (3.0 * (theta1 + thm))


@pytest.mark.parametrize("s", [0.0, 0.3, 0.6])
def test_triangle_error_matches_its_small_angle_value_for_n_1(s):
    # Lunar simulant has n = 1: at a shallow entry angle Wong-Reece's normal stress is a
    # parabola, so F_z(exact) / F_z(closed form) = kappa up to O(theta1^2) and the
    # shear term's O(theta) share of F_z (measured 0.2 % at theta1 = 0.1).
    theta1 = 0.1
    thm = tm.theta_max(theta1, s, LUNAR[9], LUNAR[10])
    Fz = tm.closed_form(theta1, s, 0.0, R, B, LUNAR)[2]
    Fz_exact = tm.integrated_forces(theta1, s, 0.0, R, B, LUNAR)[1]
    assert Fz_exact / Fz == pytest.approx(_kappa(theta1, thm), rel=1e-2)


@pytest.mark.parametrize("soil", [DRY, LUNAR])
@pytest.mark.parametrize("theta1", [0.1, 0.3, 0.5])
@pytest.mark.parametrize("s", [0.0, 0.3, 0.6])
def test_closed_form_underestimates_vertical_force_by_at_most_the_triangle_error(soil, theta1,
                                                                                  s):
    # The documented error of the approximation: the triangle lies under the concave
    # (n <= 1.1) exact distribution, so F_z(exact) / F_z(closed form) lies in
    # (1, kappa]; kappa is 1.11-1.19 for these soils (the half-percent allows the shear
    # term's share of F_z).
    thm = tm.theta_max(theta1, s, soil[9], soil[10])
    ratio = (tm.integrated_forces(theta1, s, 0.0, R, B, soil)[1]
             / tm.closed_form(theta1, s, 0.0, R, B, soil)[2])
    assert 1.0 < ratio <= 1.005 * _kappa(theta1, thm)


def test_bekker_power_laws():
    # (2.2)-(2.3): exponents of W, D, b recovered by log-log fits.
    n, kc, kphi = DRY[0], DRY[3], DRY[4]
    W = np.array([100.0, 200.0, 400.0, 800.0])
    z = [tm.bekker_sinkage(w, 1.0, B, n, kc, kphi) for w in W]
    Rc = [tm.bekker_resistance(w, 1.0, B, n, kc, kphi) for w in W]
    assert np.polyfit(np.log(W), np.log(z), 1)[0] == pytest.approx(2 / (2 * n + 1), rel=1e-12)
    assert np.polyfit(np.log(W), np.log(Rc), 1)[0] == pytest.approx((2 * n + 2) / (2 * n + 1),
                                                                      rel=1e-12)
    D = np.array([0.5, 1.0, 2.0])
    zD = [tm.bekker_sinkage(300.0, d, B, n, kc, kphi) for d in D]
    assert np.polyfit(np.log(D), np.log(zD), 1)[0] == pytest.approx(-1 / (2 * n + 1), rel=1e-12)


def test_bisection_recovers_slip_on_the_rising_branch():
    theta1, beta = 0.4, 0.1
    s_peak = tm.peak_torque_slip(theta1, beta, R, B, DRY)
    for s in np.linspace(-0.3, s_peak - 0.01, 7):
        T = tm.closed_form(theta1, s, beta, R, B, DRY)[4]
        s_found, saturated = tm.slip_from_torque(T, theta1, beta, R, B, DRY)
        assert not saturated and s_found == pytest.approx(s, abs=1e-10)
    T_peak = tm.closed_form(theta1, s_peak, beta, R, B, DRY)[4]
    assert tm.slip_from_torque(1.1 * T_peak, theta1, beta, R, B, DRY) == (s_peak, True)


def test_sign_rules():
    theta1, T = 0.4, 50.0
    a = tm.wheel_forces(theta1, 1.0, 0.2, 0.0, T, R, B, 800.0, DRY)
    b = tm.wheel_forces(theta1, 1.0, -0.2, 0.0, T, R, B, 800.0, DRY)
    assert a[1] < 0.0 and b[1] == -a[1]  # the side force opposes v_y
    assert a[0] == b[0] and a[2] == b[2]
    # at v_x = 0 a torque too small to beat the rolling resistance moves nothing (3.25)
    H, Rr = tm.wheel_forces(theta1, 0.0, 0.0, 0.0, 1.0, R, B, 800.0, DRY)[5:7]
    assert 0.0 < H < abs(Rr)
    assert tm.wheel_forces(theta1, 0.0, 0.0, 0.0, 1.0, R, B, 800.0, DRY)[0] == 0.0
    # the suspension damping -D v_z on the vertical force
    still = tm.wheel_forces(theta1, 1.0, 0.0, 0.0, T, R, B, 800.0, DRY)[2]
    sinking = tm.wheel_forces(theta1, 1.0, 0.0, 0.1, T, R, B, 800.0, DRY)[2]
    assert sinking - still == pytest.approx(-80.0, abs=1e-9)


@pytest.mark.parametrize("rover", sorted(ROVERS))
def test_steady_state_balances_drawbar_pull_and_weight(rover):
    m, r, b = ROVERS[rover]
    soil = load_soil("dry_sand")
    ss = constvel(m, 9.81, r, b, soil, 0.0)
    H, Rr, Fz, _, T = tm.closed_form(ss.theta1, ss.s, 0.0, r, b, soil.as_tuple())
    assert abs(H - abs(Rr)) < 1e-9 * abs(Rr)
    assert Fz == pytest.approx(0.5 * m * 9.81, rel=1e-12)
    assert T == pytest.approx(ss.T, rel=1e-12)
    assert ss.theta1 == pytest.approx(math.acos(1 - ss.z / r), rel=1e-15)
    # torque -> power -> torque round trip (simcore.m's Pmax0 and wheel torque law)
    v = 1.0
    P = ss.T * v / ((1 - ss.s) * r)
    assert tm.torque_from_power(P, ss.s, v, r) == pytest.approx(ss.T, rel=1e-14)


def test_no_steady_state_is_an_error():
    with pytest.raises(NoSteadyStateError, match="cannot carry"):
        constvel(50000.0, 9.81, 0.15, 0.08, load_soil("dry_sand"))


def test_soil_files(tmp_path):
    assert load_soil("dry_sand").phi == pytest.approx(math.radians(38.0))
    bad = tmp_path / "bad.soil"
    bad.write_text("n 1.1\nc abc\n")
    with pytest.raises(SoilFileError, match="lacks the key"):
        load_soil(bad)
    text = (load_soil.__globals__["SOIL_DIR"] / "dry_sand.soil").read_text()
    bad.write_text(text.replace("kphi 1528430", "kphi -5"))
    with pytest.raises(SoilFileError, match="kphi must not be negative"):
        load_soil(bad)
    bad.write_text(text + "colour brown\n")
    with pytest.raises(SoilFileError, match="unknown key 'colour'"):
        load_soil(bad)
    with pytest.raises(SoilFileError, match="unknown soil"):
        load_soil("mud")
