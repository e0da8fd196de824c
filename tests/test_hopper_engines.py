"""The hopper against the engines: descriptions, the SOA audit, the passive bounce and
the closed loop in every implementation."""

import numpy as np
import pytest

from dynval.comparisons.hopper import audit, bounce, claims
from dynval.comparisons.hopper.scenarios import SCENARIOS, run_one
from dynval.comparisons.ladder import harness, l0
from dynval.robots.hopper import descriptions
from dynval.robots.hopper.params import PARAMS as p


def test_descriptions_agree_with_parameters_in_every_engine(hopper_dir):
    for desc in descriptions().values():
        rows = l0.description_rows(desc, hopper_dir)
        assert rows and not [r for r in rows if not r["passed"]]


def test_audit_corrected_at_round_off_printed_terms_named(hopper_dir):
    res = audit.full_audit(p, hopper_dir, 40, 3)
    refs = {r.reference for r in res}
    assert {"mujoco (fixed base)", "pybullet (8-DoF chain)", "pinocchio (8-DoF chain)"} <= refs
    for r in res:
        if r.form != "printed":
            assert r.max_rel_error <= 1e-9, r
    bad = {r.term for r in res if r.form == "printed" and not r.passed}
    assert bad == {"v_t", "C", "tau"}  # (1)-(2) and the bias of (12); M and G are right
    assert any(r.term == "M_b" for r in res)


def test_passive_bounce_agrees_and_conserves_energy_to_first_order(hopper_dir):
    rows, metrics, rung = bounce.bounce(p, hopper_dir, until=1.5)
    assert rung.verdict == "agrees", rung.note
    agree = [r for r in rows if r.unit == "m"]
    assert agree and max(r.max_abs for r in agree) <= 1e-9
    order = next(r for r in rows if r.unit == "order")
    assert order.max_abs <= bounce.ORDER_TOL


@pytest.mark.parametrize("impl", ["mujoco", "pybullet"])
def test_shared_contact_hopping_matches_the_hand_model(hopper_dir, impl):
    sc = SCENARIOS["speed"]
    hand = run_one(p, sc, "handrolled", "shared", hopper_dir, until=3.0)
    eng = run_one(p, sc, impl, "shared", hopper_dir, until=3.0)
    assert np.max(np.abs(eng["com.z"] - hand["com.z"])) < 1e-6
    assert np.max(np.abs(eng["com.vx"] - hand["com.vx"])) < 1e-6
    assert np.max(np.abs(eng["body.y"])) == 0.0  # the free base stays in the plane
    assert eng["hopper.phase"].max() == 2  # it reached thrust: a real hop


def test_native_contact_hops_in_both_engines(hopper_dir):
    for impl in ("mujoco", "pybullet"):
        df = run_one(p, SCENARIOS["height"], impl, "native", hopper_dir, until=4.0)
        ap = claims.apexes(df)
        assert len(ap) >= 3, impl
        # eq. (20) holds the apex near its 1.55 m reference within a hop or two
        assert abs(ap["height"].iloc[-1] - 1.55) < 0.05, (impl, ap)


def test_flipped_attitude_sign_loses_balance(hopper_dir):
    with pytest.raises(harness.DivergenceError):
        run_one(p, SCENARIOS["speed"], "handrolled", "shared", hopper_dir,
                attitude_sign=-1.0)
