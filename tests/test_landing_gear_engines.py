"""L0-L2 against the engines, and the closed loop in every implementation."""

import math

import numpy as np
import pytest

from dynval.comparisons.ladder import l0
from dynval.comparisons.ladder.metrics import pair_metrics
from dynval.comparisons.landing_gear import audit
from dynval.comparisons.landing_gear.scenarios import SCENARIOS, run_one
from dynval.handrolled.landing_gear.model import Forms
from dynval.robots.generate import generated_files
from dynval.robots.landing_gear import descriptions
from dynval.robots.landing_gear.params import LEGS
from dynval.robots.landing_gear.params import PARAMS as p


def test_shipped_descriptions_are_generated_from_the_parameters():
    for path, text in generated_files().items():
        assert path.read_text() == text, f"{path} is stale"


def test_descriptions_agree_with_parameters_in_every_engine(lg_dir):
    for desc in descriptions().values():
        rows = l0.description_rows(desc, lg_dir)
        bad = [r for r in rows if not r["passed"]]
        assert not bad, bad


def test_leg_audit_corrected_round_off_and_printed_gravity_named(lg_dir):
    res = audit.leg_dynamics_audit(p, lg_dir, 1000, 0)
    assert {r.reference for r in res} == {"mujoco", "pybullet", "pinocchio", "drake"}
    for r in res:
        if r.form == "corrected":
            assert r.max_rel_error <= 1e-9, r
    printed_bad = {r.term for r in res if r.form == "printed" and not r.passed}
    assert printed_bad == {"G", "tau"}  # the erratum is in the gravity term only
    g = next(r for r in res if r.form == "printed" and r.term == "G")
    assert g.max_abs_error == pytest.approx(2 * p.m_L * p.g * p.l_U, rel=1e-6)


def test_kinematics_match_engines(lg_dir):
    for r in audit.leg_kinematics_audit(p, lg_dir, 100, 3):
        assert r.max_rel_error <= 1e-9, r


def test_audit_catches_a_wrong_mass(lg_dir):
    wrong = p.with_(m_L=p.m_L * 1.05)  # hand model with a 5 % heavier lower link
    res = audit.leg_dynamics_audit(wrong, lg_dir, 50, 0)
    assert any(r.term == "M" and not r.passed for r in res)


def _settled(df, sig):
    return float(df[df["time"] >= df["time"].iloc[-1] - 0.5][sig].mean())


@pytest.mark.parametrize("impl,contact", [("handrolled", "shared"), ("mujoco", "shared"),
                                          ("pybullet", "shared"), ("mujoco", "native"),
                                          ("pybullet", "native")])
def test_level_controller_levels_the_body_on_the_slope(lg_dir, impl, contact):
    df = run_one(p, SCENARIOS["slope_lc"], impl, contact, lg_dir)
    for sig in ("body.roll", "body.pitch"):
        assert abs(_settled(df, sig)) < math.radians(0.5), (sig, _settled(df, sig))
    Fy = sum(_settled(df, f"foot.{leg}.force.y") for leg in LEGS)
    assert Fy == pytest.approx(p.m * p.g, rel=0.01)  # the feet carry the weight
    if contact == "shared":
        # With the paper's spring law the four-point stance is resolved by the springs, so
        # equal leg heights mean equal forces.  Native contact leaves the statically
        # indeterminate split to the engine's solver; the report lists that spread.
        Fn = np.array([_settled(df, f"foot.{leg}.force.normal") for leg in LEGS])
        assert (Fn.max() - Fn.min()) / Fn.mean() < 0.05


def test_flat_landing_is_symmetric(lg_dir):
    df = run_one(p, SCENARIOS["flat"], "handrolled", "shared", lg_dir, duration=1.5)
    Fn = np.array([df[f"foot.{leg}.force.normal"].to_numpy() for leg in LEGS])
    assert np.max(np.abs(Fn - Fn[0])) < 1e-9
    assert np.max(np.abs(df["body.roll"])) < 1e-12


def test_hand_model_and_mujoco_agree_on_flat_ground(lg_dir):
    """On flat ground the decoupling matters little: the settled height agrees to 1 mm."""
    hand = run_one(p, SCENARIOS["flat"], "handrolled", "shared", lg_dir, duration=1.5)
    mj = run_one(p, SCENARIOS["flat"], "mujoco", "shared", lg_dir, duration=1.5)
    m = pair_metrics(mj["time"].to_numpy(), mj["com.y"].to_numpy(), hand["com.y"].to_numpy())
    assert abs(m["final_diff"]) < 1e-3


def test_printed_level_controller_fails_to_level(lg_dir):
    df = run_one(p, SCENARIOS["slope_lc"], "handrolled", "shared", lg_dir,
                 forms=Forms(level="printed"), duration=2.0)
    assert abs(_settled(df, "body.roll")) > math.radians(5)


def test_runs_are_deterministic(lg_dir):
    a = run_one(p, SCENARIOS["flat"], "mujoco", "shared", lg_dir, duration=0.3)
    b = run_one(p, SCENARIOS["flat"], "mujoco", "shared", lg_dir, duration=0.3)
    assert a.equals(b)


def test_paper_engine_frame_conversion_round_trips():
    from dynval.comparisons.landing_gear.frames import R_PB_from_R_WB, R_WB_from_R_PB, vec_P, vec_W
    from dynval.handrolled.landing_gear.state import rotation_from_angles

    R = rotation_from_angles(0.3, -0.2, 1.1)
    assert np.allclose(R_PB_from_R_WB(R_WB_from_R_PB(R)), R)
    assert np.allclose(vec_W([0.0, -1.0, 0.0]), [0.0, 0.0, -1.0])  # paper gravity is engine -z
    assert np.allclose(vec_P(vec_W([1.0, 2.0, 3.0])), [1.0, 2.0, 3.0])


@pytest.mark.parametrize("engine", ["mujoco", "pybullet"])
def test_whole_robot_feet_match_the_engines_through_the_frame_conversion(lg_dir, engine):
    """L1 on the floating robot: feet from eqs. (18)-(19) placed by the body pose vs the
    engine's feet, at random body poses and joint angles, through the one conversion."""
    from dynval.comparisons.landing_gear.loop import InitialState, make_plant
    from dynval.handrolled.landing_gear.state import rotation_from_angles

    rng = np.random.default_rng(7)
    hand = make_plant("handrolled", p, "as_derived", "shared", 0.0, 0.0, Forms(), lg_dir)
    eng = make_plant(engine, p, "as_derived", "shared", 0.0, 0.0, Forms(), lg_dir)
    for _ in range(20):
        s = InitialState(rng.uniform(-1, 1, 3), rotation_from_angles(*rng.uniform(-1, 1, 3)),
                         rng.uniform(-1, 1, 3), rng.uniform(-2, 2, 3),
                         rng.uniform(-2, 2, (4, 2)))
        hand.reset(s)
        eng.reset(s)
        a, b = hand.observe(), eng.observe()
        assert np.max(np.abs(a.p_PF - b.p_PF)) < 1e-12
        assert np.max(np.abs(a.v_PF - b.v_PF)) < 1e-12
        assert np.allclose(a.R_PB, b.R_PB, atol=1e-12)
        assert np.allclose(a.omega_B, b.omega_B, atol=1e-12)
