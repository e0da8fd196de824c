"""The hopper's hand-rolled model: the SOA operator products against the recursions, the
planar chain against the 8-DoF chain, the printed bias, the contact law and the
controller's signs. No engine here (test_hopper_engines.py has those)."""

import math

import numpy as np
import pytest

from dynval.comparisons.hopper.scenarios import SCENARIOS
from dynval.handrolled.hopper import chain, contact, soa
from dynval.handrolled.hopper.control import Observation, foot_angle, stance_torque
from dynval.handrolled.hopper.fast.recursive import Recursive
from dynval.handrolled.hopper.model import PlanarHopper
from dynval.robots.hopper.params import PARAMS as p

CHAINS = {"manipulator": chain.manipulator, "planar": chain.planar, "full": chain.full}


def _state(rng, n):
    q = rng.uniform(-math.pi, math.pi, n)
    q[-1] = rng.uniform(0.5, 1.3)  # leg length
    return q, rng.uniform(-5, 5, n), rng.uniform(-20, 20, n)


@pytest.mark.parametrize("name", CHAINS)
def test_recursions_equal_operator_products(name):
    c = CHAINS[name](p)
    rec = Recursive(c)
    rng = np.random.default_rng(1)
    g = soa.gravity_acceleration(p.g)
    for _ in range(50):
        q, qd, qdd = _state(rng, c.n)
        F_t = rng.normal(size=6) * 50
        t = soa.terms(c, q, qd)
        M, J = rec.mass_and_jacobian(q)
        tau = t.M @ qdd + t.C + t.gravity(p.g) + t.J.T @ F_t
        assert np.allclose(M, t.M, rtol=0, atol=1e-12 * np.abs(t.M).max())
        assert np.allclose(J, t.J, rtol=0, atol=1e-13)
        assert np.allclose(rec.inverse_dynamics(q, qd, qdd, g, F_t), tau, rtol=0,
                           atol=1e-11 * np.abs(tau).max())
        assert np.allclose(soa.inverse_dynamics(c, q, qd, qdd, p.g, F_t), tau, rtol=0,
                           atol=1e-11 * np.abs(tau).max())


def test_planar_chain_is_the_full_chain_with_y_yaw_roll_struck():
    full, planar = chain.full(p), chain.planar(p)
    idx = list(chain.PLANAR_IN_FULL)
    rng = np.random.default_rng(2)
    for _ in range(20):
        q5, qd5, _ = _state(rng, 5)
        q8, qd8 = np.zeros(8), np.zeros(8)
        q8[idx], qd8[idx] = q5, qd5
        tf, tp = soa.terms(full, q8, qd8), soa.terms(planar, q5, qd5)
        assert np.allclose(tf.M[np.ix_(idx, idx)], tp.M, atol=1e-12)
        assert np.allclose(tf.C[idx], tp.C, atol=1e-11)
        assert np.allclose(tf.gravity(p.g)[idx], tp.gravity(p.g), atol=1e-11)


def test_printed_bias_lacks_only_the_sliding_coriolis_term():
    c = chain.manipulator(p)
    q, qd = np.array([0.3, 0.9]), np.array([1.5, 0.0])
    # a leg that does not slide: printed and corrected agree
    assert np.allclose(soa.terms(c, q, qd, form="printed").C, soa.terms(c, q, qd).C)
    qd = np.array([1.5, 0.7])
    dC = soa.terms(c, q, qd).C - soa.terms(c, q, qd, form="printed").C
    # 2 w x h r_dot on the leg's centre gives the hip 2 m_l (r - r_1) r_dot theta_dot
    assert dC[0] == pytest.approx(2 * p.m_l * (q[1] - p.r_1) * qd[1] * qd[0], rel=1e-12)
    assert abs(dC[1]) < 1e-12


def test_printed_scalar_velocity_turns_the_leg_instead_of_sliding_it():
    c = chain.manipulator(p)
    q, qd = np.array([0.2, 1.0]), np.array([0.0, 1.0])
    fr = soa.frames(c, q)
    printed = soa.velocities(c, fr, qd, np.zeros(6), "printed")[-1]
    right = soa.velocities(c, fr, qd, np.zeros(6), "corrected")[-1]
    assert np.allclose(right[:3], 0) and np.allclose(right[3:], fr.h[1])  # slides along h_2
    assert np.allclose(printed[:3], fr.h[1]) and np.allclose(printed[3:], 0)


@pytest.mark.parametrize("form", ["corrected", "printed"])
def test_fast_step_follows_the_operator_products_to_round_off(form):
    """The compiled copy's steps (fast/recursive.py) against the readable model's."""
    from dynval.comparisons.hopper.loop import CompiledHandPlant

    fast, slow = CompiledHandPlant(p, form), PlanarHopper(p, form)
    for m in (fast, slow):
        m.reset(np.array([0.0, 1.5, 0.1, 0.3, 0.9]), np.array([0.2, -0.5, 0.4, 2.0, -1.0]))
    F = np.array([3.0, 0.0, 150.0])
    for _ in range(300):
        fast.step(np.array([5.0, 20.0]), F.reshape(1, 3))  # the plant contract's step
        slow.step(5.0, 20.0, F)
    assert np.allclose(fast.q, slow.q, rtol=0, atol=1e-12)
    for a, b in zip(fast.foot, slow.foot(), strict=True):
        assert np.allclose(a, b, rtol=0, atol=1e-12)


def test_the_printed_bias_changes_a_swinging_sliding_leg():
    runs = {}
    for form in ("corrected", "printed"):
        m = PlanarHopper(p, form)
        m.reset(np.array([0.0, 1.5, 0.1, 0.3, 0.9]), np.array([0.2, -0.5, 0.4, 2.0, -1.0]))
        for _ in range(300):
            m.step(5.0, 20.0, np.zeros(3))
        runs[form] = m.q
    assert np.max(np.abs(runs["corrected"] - runs["printed"])) > 1e-4


def test_impact_law_and_step():
    assert contact.step(-1.0, 0.0, 2.0, 1.0, 5.0) == 2.0
    assert contact.step(0.5, 0.0, 2.0, 1.0, 5.0) == pytest.approx(3.5)
    assert contact.step(2.0, 0.0, 2.0, 1.0, 5.0) == 5.0
    assert contact.normal_force(1e-4, -1.0, p) == 0.0  # above the ground: nothing
    delta = 2e-3
    assert contact.normal_force(-delta, 0.0, p) == pytest.approx(p.k_c * delta**p.e)
    # full damping below d, none at the surface
    assert contact.normal_force(-2 * p.d, -1.0, p) == pytest.approx(
        p.k_c * (2 * p.d) ** p.e + p.c_max)
    assert contact.friction_force(100.0, 1.0, p) == pytest.approx(-p.mu * 100.0)
    assert abs(contact.friction_force(100.0, p.v_eps / 4, p)) < p.mu * 100.0
    assert contact.friction_force(-5.0, 1.0, p) == 0.0
    weight = p.m_total * p.g
    assert contact.normal_force(-contact.static_penetration(p), 0.0, p) == pytest.approx(weight)


def test_controller_signs():
    o = Observation(0, 1.5, 0.0, 0.0, 1.0, 0.5, 0, 0, 0, 0, False)
    assert foot_angle(o, 0.5, p) > 0  # moving forward: foot ahead of the hip
    o_fast = Observation(0, 1.5, 0.0, 0.0, 1.0, 0.5, 0, 0, 0, 0, False)
    assert foot_angle(o_fast, 0.0, p) > foot_angle(o_fast, 0.5, p)  # too fast: further ahead
    nose_up = Observation(0, 1.5, 0.1, 0.0, 1.0, 0.0, 0, 0, 0, 0, True)
    # the hip torque acts on the leg and back on the body: +tau pitches the body down
    assert stance_torque(nose_up, 0.0, p) > 0


def test_parameters_are_valid_and_relations_checked():
    from dynval.robots.parameters import ParameterError, validate_params

    validate_params(p)
    with pytest.raises(ParameterError, match="r_1"):
        p.with_(r_1=1.2).check_relations()
    with pytest.raises(ParameterError, match="z_0"):
        p.with_(z_0=1.0).check_relations()


def test_scenario_references_step_at_their_times():
    from dynval.comparisons.hopper.scenarios import piecewise

    ref = piecewise(SCENARIOS["speed"].x_dot_d)
    assert [ref(t) for t in (0.0, 1.99, 2.0, 6.5, 11.0)] == [0.0, 0.0, 0.4, 0.8, 0.2]
