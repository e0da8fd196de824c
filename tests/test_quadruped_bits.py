"""The printed quadruped path's shortcuts give its floats bit for bit: the pinned-feet
system assembled compiled (reduced.pinned_system, numba's @ calling the BLAS routines
numpy's does) against its printed assembly, and round trips that share plans and the
four-leg splits' common prefix (roundtrip.Plans, round_trips) against separate runs."""

from dataclasses import fields

import numpy as np

from dynval.handrolled import so3
from dynval.handrolled.quadruped import reduced, terms
from dynval.handrolled.quadruped.gait import WALK
from dynval.handrolled.quadruped.kinematics import standing_height
from dynval.handrolled.quadruped.rnea import inverse_dynamics
from dynval.handrolled.quadruped.robot import build_model
from dynval.handrolled.quadruped.roundtrip import round_trip, round_trips
from dynval.robots.quadruped.params import LEGS, PARAMS

MODEL = build_model()
G = np.array([0.0, 0.0, -PARAMS.g])
HEIGHT = standing_height(PARAMS) - PARAMS.foot_radius


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal floats, the signs of zeros included."""
    a, b = np.asarray(a), np.asarray(b)
    return np.array_equal(a, b) and np.array_equal(np.signbit(a), np.signbit(b))


def _printed_system(R_WB, theta, nu, tau, stance):
    """K and rhs of reduced.constrained_forward_dynamics, assembled with numpy."""
    M = terms.mass_matrix(MODEL, R_WB, theta)
    f_b, n_b, tau_h, _, _, a_4B = inverse_dynamics(MODEL, R_WB, nu[:6], np.zeros(6),
                                                   np.reshape(theta, (4, 3)),
                                                   np.reshape(nu[6:], (4, 3)),
                                                   np.zeros((4, 3)), G)
    h = np.concatenate([f_b, n_b, tau_h.ravel()])
    Jc = reduced.contact_jacobian(MODEL, theta, stance)
    bias = np.concatenate([a_4B[LEGS.index(leg)] + R_WB.T @ G for leg in stance]) \
        if stance else np.zeros(0)
    nc = Jc.shape[0]
    K = np.block([[M, -Jc.T], [Jc, np.zeros((nc, nc))]])
    return K, np.concatenate([np.concatenate([np.zeros(6), np.ravel(tau)]) - h, -bias])


def test_compiled_pinned_system_is_the_printed_assembly():
    rng = np.random.default_rng(5)
    stances = [(), ("LF",), ("LF", "RB"), ("RF", "LB"), ("LF", "RF", "RB"), tuple(LEGS),
               ("RB", "LF")]
    for k in range(200):
        R = np.eye(3) if k % 4 == 0 else so3.exp(rng.normal(size=3))
        theta, nu, tau = rng.normal(size=12), rng.normal(size=18), rng.normal(size=(4, 3))
        stance = stances[k % len(stances)]
        K, rhs = _printed_system(R, theta, nu, tau, stance)
        K_c, rhs_c = reduced.pinned_system(MODEL.packed, R, theta, nu, tau.ravel(), G,
                                           reduced._leg_indices(stance))
        assert _same(K, K_c) and _same(rhs, rhs_c)
        x = np.linalg.solve(K, rhs)
        nudot, F = reduced.constrained_forward_dynamics(MODEL, R, theta, nu, tau, G, stance)
        assert _same(x[:18], nudot) and _same(x[18:].reshape(-1, 3), F)


def test_splits_share_their_common_prefix_bit_for_bit():
    # the walk's first four-leg phase begins at 1.6 s: three-leg steps, then four-leg ones
    trips = round_trips(MODEL, WALK, HEIGHT, G, 4e-3, 0.2, ("side-wise", "paper"),
                        integrator="rk4", start=1.5)
    for split, r in trips.items():
        alone = round_trip(MODEL, WALK, HEIGHT, G, 4e-3, 0.2, split=split, integrator="rk4",
                           start=1.5)
        for f in fields(alone):
            assert _same(getattr(alone, f.name), getattr(r, f.name)), (split, f.name)
    a, b = trips["side-wise"], trips["paper"]
    assert _same(a.theta[:25], b.theta[:25]) and not np.array_equal(a.theta, b.theta)
