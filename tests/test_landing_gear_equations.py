"""Physics of the hand-rolled landing-gear equations, independent of any engine."""

import math

import numpy as np
import pytest

from dynval.handrolled.landing_gear import com_dynamics, single_leg
from dynval.handrolled.landing_gear.contact import R_PS, R_SP, SlopeContact, ground_normal_P
from dynval.handrolled.landing_gear.state import attitude_angles, rotation_from_angles
from dynval.handrolled.rk4 import rk4_step
from dynval.robots.landing_gear.params import PARAMS as p

ARGS = (p.m_U, p.m_L, p.l_U, p.l_L)


def test_mass_matrix_is_symmetric_positive_definite():
    for tk in np.linspace(-3, 3, 13):
        M = single_leg.mass_matrix(tk, *ARGS)
        assert np.allclose(M, M.T)
        assert np.all(np.linalg.eigvalsh(M) > 0)


def test_corrected_gravity_is_gradient_of_potential():
    def V(th, tk):
        y_knee = p.l_U * math.sin(th)
        return p.g * (p.m_U * y_knee + p.m_L * (y_knee + p.l_L * math.sin(th + tk)))

    th, tk, h = 0.4, -1.1, 1e-6
    grad = [(V(th + h, tk) - V(th - h, tk)) / (2 * h), (V(th, tk + h) - V(th, tk - h)) / (2 * h)]
    G = single_leg.gravity_vector(th, tk, *ARGS, p.g, False)
    assert np.allclose(G, grad, rtol=1e-8)
    G_printed = single_leg.gravity_vector(th, tk, *ARGS, p.g, True)
    assert abs(G_printed[0] - grad[0]) == pytest.approx(2 * p.m_L * p.g * p.l_U * math.cos(th))


def test_leg_energy_is_conserved_without_torque():
    """Free swing of the corrected leg: kinetic + potential energy stays constant (RK4)."""
    def qdd(q, qd):
        return single_leg.forward_dynamics(q, qd, np.zeros(2), np.zeros(2), *ARGS, p.g, False)

    def energy(q, qd):
        M = single_leg.mass_matrix(q[1], *ARGS)
        y_knee = p.l_U * math.sin(q[0])
        V = p.g * (p.m_U * y_knee + p.m_L * (y_knee + p.l_L * math.sin(q[0] + q[1])))
        return 0.5 * qd @ M @ qd + V

    q, qd, dt = np.array([0.3, -0.8]), np.zeros(2), 1e-4
    E0 = energy(q, qd)
    for _ in range(5000):
        q, qd = rk4_step(qdd, q, qd, qdd(q, qd), dt)
    # RK4 at 1e-4 s: local error ~dt^5; 1e-9 of the energy scale is well above it
    assert abs(energy(q, qd) - E0) < 1e-9 * max(abs(E0), 1.0)


def test_inverse_kinematics_inverts_forward_kinematics():
    for x, y in [(0.07, 0.12), (0.05, 0.17), (0.09, 0.08)]:
        th, tk = single_leg.inverse_kinematics(x, y, p.l_U, p.l_L)
        assert tk <= 0.0
        assert np.allclose(single_leg.forward_kinematics(th, tk, p.l_U, p.l_L), [x, -y],
                           atol=1e-12)


def test_unreachable_foot_is_refused():
    with pytest.raises(single_leg.UnreachableFootError, match="out of reach"):
        single_leg.inverse_kinematics(0.07, 0.5, p.l_U, p.l_L)


def test_jacobian_matches_finite_differences():
    th, tk, h = 0.2, -1.3, 1e-7
    J = single_leg.jacobian(th, tk, p.l_U, p.l_L)
    fk = single_leg.forward_kinematics
    num = np.column_stack([(fk(th + h, tk, p.l_U, p.l_L) - fk(th - h, tk, p.l_U, p.l_L)) / (2 * h),
                           (fk(th, tk + h, p.l_U, p.l_L) - fk(th, tk - h, p.l_U, p.l_L)) / (2 * h)])
    assert np.allclose(J, num, atol=1e-8)


def test_corrected_moments_are_cross_products_and_printed_are_not():
    rng = np.random.default_rng(1)
    r, F = rng.normal(size=(4, 3)), rng.normal(size=(4, 3))
    assert np.allclose(com_dynamics.moment_sums(r, F, False), np.cross(r, F).sum(axis=0))
    assert not np.allclose(com_dynamics.moment_sums(r, F, True), np.cross(r, F).sum(axis=0))


def test_euler_equations_conserve_angular_momentum_torque_free():
    I = np.array([0.02, 0.03, 0.05])
    w = np.array([1.0, 0.2, -0.5])
    wd = com_dynamics.angular_acceleration(np.zeros(3), w, I)
    # d/dt (I w) in the body frame equals -(w x I w) torque-free
    assert np.allclose(I * wd, -np.cross(w, I * w))


def test_slope_transforms_are_inverse_rotations():
    A = R_SP(math.radians(20), math.radians(30))
    assert np.allclose(R_PS(math.radians(20), math.radians(30)) @ A, np.eye(3))
    assert np.isclose(np.linalg.det(A), 1.0)
    n = ground_normal_P(math.radians(20), math.radians(30))
    assert math.degrees(math.acos(n[1])) == pytest.approx(20.0)


def test_contact_spring_damper_and_friction_cone_limits():
    c = SlopeContact(p.k, p.b, p.mu_S, p.mu_D, 0.0, 0.0, n_feet=1)
    F = c.forces(np.array([[0.0, -0.01, 0.0]]), np.zeros((1, 3)))
    assert F[0] == pytest.approx([0.0, p.k * 0.01, 0.0])  # eq. (26), stick at anchor
    F = c.forces(np.array([[0.05, -0.01, 0.0]]), np.array([[0.1, 0.0, 0.0]]))
    assert abs(F[0, 0]) == pytest.approx(p.mu_D * p.k * 0.01)  # slipping: mu_D F_n
    assert F[0, 0] < 0  # against the motion
    assert c.forces(np.array([[0.0, 0.01, 0.0]]), np.zeros((1, 3)))[0] == pytest.approx([0, 0, 0])


def test_attitude_angles_round_trip():
    R = rotation_from_angles(0.1, -0.2, 0.3)
    assert np.allclose(attitude_angles(R), (0.1, -0.2, 0.3))


def test_row_cross_product_is_np_cross_to_the_bit():
    from dynval.handrolled.landing_gear.model import _cross_rows

    rng = np.random.default_rng(0)
    for _ in range(200):
        w, r = rng.normal(size=3), rng.normal(size=(4, 3))
        assert np.array_equal(_cross_rows(w, r), np.cross(w, r))


def test_a_contact_spring_that_cannot_carry_the_robot_is_warned_of_in_the_chapter():
    """landing_gear.k=1e-3 ran to the end with the body 1.24 m below the ground and no
    word: the chapter's notes now open with a warning, at Table 1's k none."""
    from dataclasses import replace

    from dynval.comparisons.landing_gear.validate import contact_warning
    from dynval.robots.landing_gear.params import PARAMS

    assert contact_warning(PARAMS) is None  # 5.7 mm of 104.5 mm
    w = contact_warning(replace(PARAMS, k=1e-3))
    assert w.startswith("WARNING: physically meaningless contact")
    assert "m g / (4 k) = 8.58e+03 m" in w and "l_L = 0.1045 m" in w
    assert contact_warning(replace(PARAMS, k=83.0)) is None  # 0.1034 m: still carried
