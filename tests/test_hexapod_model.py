"""The hexapod's hand-rolled model (Silva, Tenreiro Machado, Lopes 2005): the leg's Lagrange
terms against a differentiated Lagrangian and Pinocchio, energy, kinematics, gaits and foot
trajectories, Tables II and III recomputed, the drives' and ground's limiting cases, the
fractional controller's frequency response. Each tolerance says why it is that number."""

import math

import numpy as np
import pytest

from dynval.handrolled.hexapod import (
    body,
    fractional,
    ground,
    kinematics,
    lagrange,
    planning,
    transmission,
)
from dynval.handrolled.hexapod.robot import PlanarHexapod, simulate
from dynval.handrolled.rk4 import rk4_step
from dynval.robots import ROOT
from dynval.robots.hexapod.params import GAITS, station_x
from dynval.robots.hexapod.params import PARAMS as p

lm = lagrange.LegMass.of(p)
EPS = np.finfo(float).eps


def _leg_state(rng):
    Th = np.array([rng.uniform(-1, 1), rng.uniform(0.5, 1.2), *rng.uniform(-math.pi, math.pi, 2)])
    return Th, rng.uniform(-3, 3, 4), rng.uniform(-20, 20, 4)


# ---------------------------------------------------------------- eq. (6) --------------
def _dL_dqd(Th, Thd):
    """dL/dTheta_dot by polarisation: L is quadratic in the velocities, so the central
    difference with a unit step is exact (no truncation error)."""
    return np.array([0.5 * (lagrange.lagrangian(Th, Thd + e, lm, p.g)
                            - lagrange.lagrangian(Th, Thd - e, lm, p.g)) for e in np.eye(4)])


def test_H_is_symmetric_positive_definite_and_the_lagrangians_hessian():
    rng = np.random.default_rng(0)
    for _ in range(50):
        Th, _, _ = _leg_state(rng)
        Hm = lagrange.H(Th, lm)
        assert np.array_equal(Hm, Hm.T)
        assert np.linalg.eigvalsh(Hm).min() > 0
        # K(e_i + e_j) - K(e_i) - K(e_j) = H_ij exactly for a quadratic form (round-off only)
        L0 = lagrange.lagrangian(Th, np.zeros(4), lm, 0.0)
        I4 = np.eye(4)

        def K(v, Th=Th, L0=L0):
            return lagrange.lagrangian(Th, v, lm, 0.0) - L0

        H_ref = np.array([[K(I4[i] + I4[j]) - K(I4[i]) - K(I4[j]) for j in range(4)]
                          for i in range(4)])
        assert np.allclose(Hm, H_ref, rtol=0, atol=1e-13 * np.abs(Hm).max())


def test_equation_6_is_the_euler_lagrange_equation_of_the_lagrangian():
    """(5b) by finite differences of L along the motion: d/dt dL/dqd (central in time,
    h = 1e-5 s: truncation h^2 ~ 1e-10 relative) minus dL/dq (central, h = 1e-6: round-off
    ~ eps |L| / h ~ 1e-9 relative of Gamma). 1e-7 covers both with margin."""
    rng = np.random.default_rng(1)
    for _ in range(20):
        Th, Thd, Thdd = _leg_state(rng)
        h = 1e-5
        ddt = (_dL_dqd(Th + h * Thd + 0.5 * h * h * Thdd, Thd + h * Thdd)
               - _dL_dqd(Th - h * Thd + 0.5 * h * h * Thdd, Thd - h * Thdd)) / (2 * h)
        hq = 1e-6
        dLdq = np.array([(lagrange.lagrangian(Th + hq * e, Thd, lm, p.g)
                          - lagrange.lagrangian(Th - hq * e, Thd, lm, p.g)) / (2 * hq)
                         for e in np.eye(4)])
        Gam = lagrange.Gamma(Th, Thd, Thdd, lm, p.g)
        assert np.allclose(Gam, ddt - dLdq, rtol=0, atol=1e-7 * np.abs(Gam).max())


def test_leg_terms_equal_pinocchio_on_the_leg_urdf():
    """hexapod_leg.urdf (generated from the same parameters) in Pinocchio: H and Gamma to
    1e-9 relative (both are exact; what remains is round-off)."""
    import pinocchio as pin

    model = pin.buildModelFromUrdf(str(ROOT / "hexapod" / "hexapod_leg.urdf"))
    data = model.createData()
    model.gravity.linear[:] = (0.0, 0.0, -p.g)
    rng = np.random.default_rng(2)
    for _ in range(30):
        Th, Thd, Thdd = _leg_state(rng)
        q = np.array([Th[0], Th[1] - p.H_B, Th[2], Th[3]])  # slide joints from (0, H_B)
        M = pin.crba(model, data, q)
        M = np.triu(M) + np.triu(M, 1).T
        tau = pin.rnea(model, data, q, Thd, Thdd)
        assert np.allclose(lagrange.H(Th, lm), M, rtol=0, atol=1e-9 * np.abs(M).max())
        assert np.allclose(lagrange.Gamma(Th, Thd, Thdd, lm, p.g), tau, rtol=0,
                           atol=1e-9 * np.abs(tau).max())
        # the split of Fig. 7: the three terms add up to the whole
        terms = lagrange.torque_terms(Th, Thd, Thdd, lm, p.g)
        assert np.allclose(terms["I"] + terms["CC"] + terms["G"], tau,
                           atol=1e-9 * np.abs(tau).max())
        # the foot Jacobian is Pinocchio's at the foot frame
        pin.computeJointJacobians(model, data, q)
        pin.framesForwardKinematics(model, data, q)
        fid = model.getFrameId("LF_foot")
        Jw = pin.getFrameJacobian(model, data, fid, pin.LOCAL_WORLD_ALIGNED)[[0, 2]]
        assert np.allclose(lagrange.J_F(Th, lm), Jw, atol=1e-12)
        assert np.allclose(lagrange.p_F(Th, lm), data.oMf[fid].translation[[0, 2]], atol=1e-12)


def test_whole_robot_mass_matrix_and_bias_equal_pinocchio():
    """The legs' Lagrangians summed over shared segments is the 18-DoF hexapod.urdf."""
    import pinocchio as pin

    model = pin.buildModelFromUrdf(str(ROOT / "hexapod" / "hexapod.urdf"))
    data = model.createData()
    model.gravity.linear[:] = (0.0, 0.0, -p.g)
    robot = PlanarHexapod(p)
    xs = np.asarray(station_x(p))
    rng = np.random.default_rng(3)
    for _ in range(5):
        q = rng.uniform(-1, 1, robot.nq)
        qd = rng.uniform(-2, 2, robot.nq)
        q_pin = q.copy()
        q_pin[0:6:2] -= xs
        q_pin[1:6:2] -= p.H_B
        # Pinocchio orders the joints depth first: seg1_x, seg1_z, its legs, seg2_x, ...
        order = []
        for m in range(3):
            order += [2 * m, 2 * m + 1] + [6 + 4 * m + k for k in range(4)]
        M = pin.crba(model, data, q_pin[order])
        M = np.triu(M) + np.triu(M, 1).T
        b = pin.rnea(model, data, q_pin[order], qd[order], np.zeros(18))
        assert np.allclose(robot.H(q)[np.ix_(order, order)], M, rtol=0, atol=1e-9 * np.abs(M).max())
        assert np.allclose(robot.bias(q, qd)[order], b, rtol=0, atol=1e-9 * np.abs(b).max())


def test_energy_of_a_free_leg_is_conserved_and_power_balances():
    """An unactuated leg swinging under gravity, RK4 at 1e-4 s for 1 s: the energy drift is
    the integrator's (O(dt^4), about 1e-10 here); 1e-8 relative of the swing energy."""
    Th, Thd = np.array([0.0, 0.9, 1.0, -0.5]), np.array([0.3, -0.2, 2.0, -1.0])

    def qdd(q, v, tau):
        return np.linalg.solve(lagrange.H(q, lm), tau - lagrange.c(q, v, lm)
                               - lagrange.g(q, lm, p.g))

    E0 = lagrange.energy(Th, Thd, lm, p.g)
    q, v = Th.copy(), Thd.copy()
    for _ in range(10000):
        q, v = rk4_step(qdd, q, v, qdd(q, v, np.zeros(4)), 1e-4, (np.zeros(4),))
    scale = 0.5 * Thd @ lagrange.H(Th, lm) @ Thd + lm.m * p.g
    assert abs(lagrange.energy(q, v, lm, p.g) - E0) < 1e-8 * scale
    # with torques: dE/dt = Theta_dot . Gamma
    tau = np.array([5.0, -3.0, 20.0, -10.0])
    dt = 1e-5
    q1, v1 = rk4_step(qdd, q, v, qdd(q, v, tau), dt, (tau,))
    dE = lagrange.energy(q1, v1, lm, p.g) - lagrange.energy(q, v, lm, p.g)
    assert dE / dt == pytest.approx(0.5 * (v + v1) @ tau, rel=1e-6)


# ---------------------------------------------------------------- eq. (4) ---------------
def test_inverse_kinematics_round_trip_and_forward_knee():
    rng = np.random.default_rng(4)
    for _ in range(200):
        Th = np.array([rng.uniform(-1.5, 1.5), rng.uniform(-3.0, -0.05)])
        P = kinematics.Psi(*Th, p.L_i1, p.L_i2)
        back = kinematics.Psi_inv(P, p.L_i1, p.L_i2)
        assert np.allclose(back, Th, atol=1e-9)
        Jn = np.column_stack([(kinematics.Psi(*(Th + h), p.L_i1, p.L_i2)
                               - kinematics.Psi(*(Th - h), p.L_i1, p.L_i2)) / 2e-7
                              for h in np.eye(2) * 1e-7])
        assert np.allclose(kinematics.J(*Th, p.L_i1, p.L_i2), Jn, atol=1e-7)
    # forward knee: the knee is ahead of the hip-foot line
    Th = kinematics.Psi_inv(np.array([0.0, p.H_B]), p.L_i1, p.L_i2)
    knee = p.L_i1 * np.array([np.sin(Th[0]), -np.cos(Th[0])])
    assert Th[1] < 0 and knee[0] > 0
    with pytest.raises(ValueError, match="reach"):
        kinematics.Psi_inv(np.array([0.0, 1.2]), p.L_i1, p.L_i2)
    assert np.allclose(kinematics.world_to_paper(kinematics.paper_to_world([0.3, 0.9], 0.2)),
                       [0.3, 0.9])


# ---------------------------------------------------------------- gaits -----------------
@pytest.mark.parametrize("gait", GAITS)
@pytest.mark.parametrize("beta", [0.5, 2 / 3, 5 / 6])
def test_every_leg_supports_for_the_duty_factor(gait, beta):
    phi = planning.phases(gait, beta)
    t = (np.arange(6000) + 0.5) / 6000.0
    for i in range(6):
        share = np.mean([planning.in_support(tk, phi[i], beta, 1.0) for tk in t])
        assert share == pytest.approx(beta, abs=1e-3)  # the sampling grid's resolution
        assert phi[i + (1 if i % 2 == 0 else -1)] == pytest.approx((phi[i] + 0.5) % 1.0)


def test_wave_gait_at_half_duty_is_the_tripod():
    p5 = p.with_(beta=0.5)
    phi = planning.phases("WG", p5.beta)
    for t in np.linspace(0.01, 0.99, 40):
        support = [i for i in range(6) if planning.in_support(t, phi[i], 0.5, 1.0)]
        assert support in ([1, 2, 5], [0, 3, 4])  # {RF, LM, RB} or {LF, RM, LB}


def test_gait_sequences_and_equal_phases():
    # placing time of a left leg m: phi + 1 - beta; forward gaits place back to front
    beta = 5 / 6
    for gait, forward in (("WG", True), ("BW", False), ("EPHC", True), ("BEPHC", False),
                          ("EPFC", True), ("BEPFC", False)):
        phi = planning.phases(gait, beta)
        place = [(phi[2 * m] + 1 - beta) % 1.0 for m in range(3)]
        # the back leg's placing precedes the middle's by less than half a cycle (forward)
        lag = (place[1] - place[2]) % 1.0 if forward else (place[1] - place[0]) % 1.0
        assert 0 < lag < 0.5 + 1e-12, gait
        if gait.endswith(("EPHC", "EPFC")):
            placings = np.sort([(f + 1 - beta) % 1.0 for f in phi])
            assert np.allclose(np.diff(placings), 1 / 6)  # n placings T/n apart


# ---------------------------------------------------------------- eq. (1)-(3) -----------
@pytest.mark.parametrize("profile", ["cycloid", "sine"])
def test_corrected_transfer_lands_L_S_ahead_with_zero_velocity(profile):
    for beta in (0.5, 0.35):
        q = p.with_(beta=beta)
        d0, v0, _ = planning.foot_transfer(0.0, q, profile)
        d1, v1, _ = planning.foot_transfer(q.t_T * (1 - 1e-12), q, profile)
        assert np.allclose(d0, 0, atol=1e-12) and np.allclose(v0, 0, atol=1e-12)
        assert np.allclose(d1, [q.L_S, 0.0], atol=1e-9) and np.allclose(v1, 0, atol=1e-9)
        ts = np.linspace(0, q.t_T, 2001)
        ys = [planning.foot_transfer(t, q, profile)[0][1] for t in ts]
        assert max(ys) == pytest.approx(q.F_C, rel=1e-6)  # the clearance F_C at mid-transfer
        # velocities and accelerations are the derivatives of the positions
        t, h = 0.3 * q.t_T, 1e-6
        dp, dm = (planning.foot_transfer(t + h, q, profile), planning.foot_transfer(t - h, q,
                                                                                     profile))
        mid = planning.foot_transfer(t, q, profile)
        assert np.allclose((dp[0] - dm[0]) / (2 * h), mid[1], atol=1e-6)
        assert np.allclose((dp[1] - dm[1]) / (2 * h), mid[2], rtol=1e-6, atol=1e-4)


def test_printed_cycloid_ends_the_transfer_at_its_apex():
    """Erratum evidence for eq. (1a): with T as printed, at t_T = T/2 (beta = 0.5) the foot
    is L_S / 2 along, at the clearance F_C, moving at 2 V_F."""
    d, v, _ = planning.foot_transfer(p.t_T, p, "cycloid", "printed")
    assert np.allclose(d, [0.5 * p.L_S, p.F_C]) and v[0] == pytest.approx(2 * p.V_F)


def test_planned_foot_is_still_in_support_and_joint_rates_match_positions():
    for i in range(6):
        for t in np.linspace(0.0, 2.0, 41):
            pl = planning.leg_plan(t, i, p)
            if pl.support:
                assert pl.p_Fd[1] == 0.0 and not pl.v_Fd.any()
                # the foot stays within half a stroke of its hip (O_i = 0)
                assert abs(pl.p_Fd[0] - pl.p_Hd[0]) <= 0.5 * p.beta * p.L_S + 1e-12
            h = 1e-6
            Th, Thd = planning.joint_reference(t + 0.0123, i, p)
            Thp, _ = planning.joint_reference(t + 0.0123 + h, i, p)
            Thm, _ = planning.joint_reference(t + 0.0123 - h, i, p)
            assert np.allclose((Thp - Thm) / (2 * h), Thd, atol=1e-5)


# ---------------------------------------------------------------- Table II ---------------
def test_table_II_recomputed_from_the_soil_expressions():
    """All 28 numbers to the printed integers: within 0.5 of each, the rounding of the
    print (each soil at the upper end of its Young's modulus range)."""
    rec = ground.table_ii(p)
    for soil, (_, K_x, B_x, K_y, B_y) in ground.TABLE_II.items():
        r = rec[soil]
        for key, printed in (("K_xF", K_x), ("K_yF", K_y), ("B_xF", B_x), ("B_yF", B_y)):
            assert abs(r[key] - printed) <= 0.5, (soil, key)
    # Table I's ground is Table II's compact clay
    cc = rec["compact_clay"]
    assert (cc["K_xF"], cc["K_yF"]) == (pytest.approx(p.K_xF, abs=0.5),
                                        pytest.approx(p.K_yF, abs=0.5))


def test_table_I_nonlinear_dampings_from_eq_13():
    """B' = B / Delta_max^nu with Table II's printed B, Delta_max = 0.7 mm and nu = 0.9 in
    BOTH directions gives Table I's 2364932.0 and 2706233.0 (the second truncated, not
    rounded, from 2706233.93); eq. (12)'s nu_x = 1.0 would give 4890000."""
    assert ground.nonlinear_damping(3423.0, p.Delta_yF_max, 0.9) == pytest.approx(2364932.0,
                                                                                  abs=0.1)
    assert 0 <= ground.nonlinear_damping(3917.0, p.Delta_yF_max, 0.9) - 2706233.0 < 1.0
    assert ground.nonlinear_damping(3423.0, p.Delta_yF_max, p.nu_x) == pytest.approx(
        4890000.0, rel=1e-6)


def test_ground_laws_limits():
    eta0 = np.array([0.2, 0.0])
    v = np.array([0.1, -0.5])
    # linear law jumps to B v at touchdown and pulls when the foot rises; the non-linear one
    # starts from zero
    at = ground.linear_force(np.array([0.2, 0.0]), v, eta0, p)
    assert at[1] == pytest.approx(p.B_yF * 0.5)
    assert ground.linear_force(np.array([0.2, -1e-5]), -v, eta0, p)[1] < 0
    assert not ground.nonlinear_force(np.array([0.2, 0.0]), v, eta0, p).any()
    # at the deepest penetration the non-linear damping is the linear one, eq. (13)
    q = p.with_(Bp_yF=ground.nonlinear_damping(p.B_yF, 1e-3, p.nu_y))
    eta = np.array([0.2, -1e-3])
    assert ground.nonlinear_force(eta, v, eta0, q)[1] == pytest.approx(
        ground.linear_force(eta, v, eta0, q)[1], rel=1e-12)


# ---------------------------------------------------------------- Table III, eqs. (14)-(16)
def test_table_III_is_the_pade_approximant_of_the_gl_operator():
    """Table III's printed values are exact binary fractions; the recomputation must give
    them to round-off."""
    a, b = fractional.pade_coefficients(0.5)
    assert np.allclose(a, [1.0, -2.25, 1.6875, -0.46875, 0.03515625], rtol=0, atol=1e-13)
    assert np.allclose(b, [1.0, -1.75, 0.9375, -0.15625, 0.00390625], rtol=0, atol=1e-13)
    # the weights of (15b) by gamma functions equal the recursion
    w = fractional.gl_weights(0.5, 9)
    assert np.allclose(w, [fractional.gl_weight_gamma(0.5, k) for k in range(9)], atol=1e-15)
    # the approximant's series is the first nine weights: its impulse response
    f = fractional.DiscreteFilter(a, b)
    imp = [f(1.0 if k == 0 else 0.0) for k in range(9)]
    assert np.allclose(imp, w, atol=1e-13)
    # stable: the poles z = 1 / x_root lie inside the unit circle
    assert np.all(np.abs(1.0 / np.roots(b[::-1])) < 1.0)


def test_printed_gl_sum_does_not_annihilate_constants():
    """Erratum evidence for (15b): the k = 0 term is missing; the sum of the printed
    weights is -1 (so D^alpha of 1 ~ -h^-alpha), the complete one tends to 0."""
    assert fractional.gl_weights(0.5, 200000, printed=True).sum() == pytest.approx(-1.0,
                                                                                  abs=2e-3)
    assert abs(fractional.gl_weights(0.5, 200000).sum()) < 2e-3


def test_discrete_controller_follows_s_alpha_over_its_band():
    """Eq. (16) at 2 kHz against (j omega)^0.5: within 13 % in magnitude and 10 deg in phase
    over 100-1000 rad/s (the band where a 4th-order approximant of a branch point holds:
    below it the approximant flattens to its DC gain f_sc^alpha A(1)/B(1) = f_sc^alpha / 9,
    above it the sampling's Nyquist limit bends the phase)."""
    a, b = fractional.pade_coefficients(0.5)
    K = fractional.K_derivative(1.0, 0.5, p.f_sc)
    w = np.logspace(2, 3, 50)
    G = fractional.frequency_response(a, b, K, w, p.f_sc)
    S = fractional.s_alpha(w, 0.5)
    assert np.all(np.abs(np.abs(G) / np.abs(S) - 1) < 0.13)
    assert np.all(np.degrees(np.abs(np.angle(G / S))) < 10.0)
    G0 = fractional.frequency_response(a, b, K, np.array([1e-6]), p.f_sc)[0]
    assert G0.real == pytest.approx(math.sqrt(p.f_sc) / 9, rel=1e-6)


# ---------------------------------------------------------------- eqs. (7)-(9) -----------
def test_saturation_and_impact_law():
    assert np.allclose(transmission.saturate(np.array([100.0, -500.0, 450.0]), 400.0),
                       [100.0, -400.0, 400.0])
    J_T, J_m, e = p.J_i1T, p.J_i1m, p.eps_ij
    vT, vm = transmission.impact(1.0, -2.0, J_T, J_m, e)
    assert J_T * vT + J_m * vm == pytest.approx(J_T * 1.0 + J_m * -2.0, rel=1e-12)
    assert vm - vT == pytest.approx(-e * (-2.0 - 1.0), rel=1e-12)


def _drive(level, q, dt=2e-6, t_end=0.05):
    """One joint: a rotor J_L (no gravity) driven through the chosen drive by a torque
    step, integrated by RK4 at dt; returns the link angle history."""
    J_L = 0.5
    Jm, JT = np.array([q.J_i1m]), np.array([q.J_i1T])
    x = np.zeros(6)  # th, th_dot, th_m, th_m_dot, th_T, th_T_dot
    tau = np.array([20.0])

    def f(x):
        th, w, thm, wm, thT, wT = x
        lk = transmission.link_torque(tau, np.array([thm]), np.array([thT]), np.array([th]),
                                      q, level)[0]
        out = np.array([w, lk / J_L, 0.0, 0.0, 0.0, 0.0])
        if level != "ideal":
            out[2:4] = wm, transmission.motor_acceleration(
                tau, np.array([thm]), np.array([wm]), np.array([th]), Jm, q, level)[0]
        if level == "backlash":
            out[4:6] = wT, transmission.output_acceleration(np.array([thT]), np.array([wT]),
                                                            np.array([th]), JT, q)[0]
        return out

    hist = []
    for _ in range(int(round(t_end / dt))):
        k1 = f(x)
        k2 = f(x + 0.5 * dt * k1)
        k3 = f(x + 0.5 * dt * k2)
        k4 = f(x + dt * k3)
        x = x + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        if level == "backlash":
            a = [np.array([x[i]]) for i in (2, 3, 4, 5)]
            transmission.resolve_backlash(*a, Jm, JT, q)
            x[2:6] = [v[0] for v in a]
        hist.append(x[0])
    return np.array(hist), J_L


def test_stiff_flexible_drive_tends_to_the_ideal_one_with_the_motor_lumped():
    """K_T -> inf: the link moves as the rigid rotor (J_L + J_m) th_dd = tau - B_m th_dot;
    the difference is the spring's static twist tau / K_T, O(1/K_T)."""
    q = p.with_(K_ijT=1e9)
    th, J_L = _drive("flexible", q)
    t = np.arange(1, len(th) + 1) * 2e-6
    J, B = J_L + q.J_i1m, q.B_ijm
    rigid = 20.0 / B * (t - J / B * (1 - np.exp(-B * t / J)))
    assert np.max(np.abs(th - rigid)) < 1e-5 * np.max(np.abs(rigid))


def test_backlash_without_play_is_the_flexible_drive_with_both_gear_sides():
    """h = 0, eps = 0: motor and gear output move as one (J_m + J_T, B_m + B_T) behind K_T.
    The impulse coupling after each step is first order in dt: the difference halves with
    the step (0.47 % at 4 us, 0.23 % at 2 us over 20 ms)."""
    q0 = p.with_(h_ij=0.0, eps_ij=0.0)
    q2 = p.with_(J_i1m=p.J_i1m + p.J_i1T, B_ijm=p.B_ijm + p.B_ijT)
    err = []
    for dt in (4e-6, 2e-6):
        th_b, _ = _drive("backlash", q0, dt, 0.02)
        th_f, _ = _drive("flexible", q2, dt, 0.02)
        err.append(np.max(np.abs(th_b - th_f)) / np.max(np.abs(th_f)))
    assert err[1] < 3e-3 and err[1] / err[0] == pytest.approx(0.5, abs=0.05)
    th_f, _ = _drive("flexible", q2)
    # with the play, the gear impacts make it lag
    th_h, _ = _drive("backlash", p)
    assert th_h[-1] < th_f[-1]


# ---------------------------------------------------------------- eq. (10) ---------------
def test_body_springs_rest_length_erratum_and_action_reaction():
    xs = np.asarray(station_x(p))
    y = np.full(3, p.H_B)
    zero = np.zeros(3)
    fx, fy = body.F_RH(xs, y, zero, zero, p)
    assert not fx.any() and not fy.any()
    fx_p, _ = body.F_RH(xs, y, zero, zero, p, form="printed")
    assert fx_p[0] == pytest.approx(-p.K_xH * p.S_P)  # pulls the front segment back by 1e5 N
    rng = np.random.default_rng(5)
    fx, fy = body.F_RH(xs + rng.normal(size=3) * 0.01, y + rng.normal(size=3) * 0.01,
                       rng.normal(size=3), rng.normal(size=3), p)
    assert abs(fx.sum()) < 1e-9 and abs(fy.sum()) < 1e-9


# ---------------------------------------------------------------- the whole robot --------
def test_a_short_walk_keeps_the_body_up_and_the_tripod_on_the_ground():
    """0.1 s of the wave gait (beta = 0.5) under the FO controller: the swing tripod lifts,
    the support tripod carries the robot (mean vertical force over the run within 20 % of
    the weight: the body bounces on the legs' servo stiffness), the hips stay within 2 cm
    of H_B."""
    r = simulate(p, 0.1, record_every=10)
    assert np.all(np.abs(r["q"][:, 1:6:2] - p.H_B) < 0.02)
    Fy = r["F"][:, :, 1]
    assert np.all(Fy[-50:, [0, 3, 4]] == 0.0)
    weight = p.m_total * p.g
    assert Fy.sum(axis=1).mean() == pytest.approx(weight, rel=0.2)


def test_parameters_are_valid_and_relations_checked():
    from dynval.robots.parameters import ParameterError, validate_params

    validate_params(p)
    with pytest.raises(ParameterError, match="H_B"):
        p.with_(H_B=1.0).check_relations()
    with pytest.raises(ParameterError, match="paired"):
        p.with_(n=5).check_relations()
