"""The hexapod against the engines: descriptions, the audit of eqs. (4) and (6), the legs'
free swing (L3) and the closed walk with the shared controller, body springs and ground."""

import numpy as np
import pytest

from dynval.comparisons.hexapod import audit
from dynval.comparisons.hexapod.scenarios import SCENARIOS, run_one
from dynval.comparisons.ladder import l0
from dynval.robots import ROOT
from dynval.robots.hexapod import descriptions
from dynval.robots.hexapod.params import PARAMS as p

DESC = ROOT / "hexapod"


def test_descriptions_agree_with_parameters_in_every_engine():
    """L0, MuJoCo included: the segmented body's MJCF folds the massless slide links."""
    for desc in descriptions().values():
        rows = l0.description_rows(desc, DESC)
        assert {r["engine"] for r in rows} == {f"{e} vs parameters"
                                               for e in ("mujoco", "pybullet", "pinocchio")}
        assert not [r for r in rows if not r["passed"]], desc.name


def test_audit_of_eq_6_at_round_off_in_every_engine():
    res = audit.full_audit(p, DESC, 20, 5)
    refs = {r.reference for r in res}
    assert {f"{e} ({c})" for e in ("mujoco", "pybullet", "pinocchio", "drake")
            for c in ("one leg", "whole robot")} == refs
    assert {r.term for r in res} == {"p_F", "J_F", "J", "H", "c", "g", "Gamma"}
    for r in res:
        assert r.max_rel_error <= 1e-9, r


@pytest.mark.parametrize("impl", ["mujoco", "pybullet"])
def test_shared_laws_walk_matches_the_hand_model(impl):
    """0.2 s of WG_50: same tree, scheme and laws, so round-off only (1e-14 measured over
    the full cycle); 1 nm / 1 nrad and 0.1 mN are still far below anything the walk shows."""
    sc = SCENARIOS["WG_50"]
    hand = run_one(p, sc, "handrolled", "shared", DESC, until=0.2)
    eng = run_one(p, sc, impl, "shared", DESC, until=0.2)
    for sig in ("com.x", "com.y", "foot.LF.y", "foot.RF.x", "joint.LF.hip.angle",
                "joint.RB.knee.angle"):
        assert np.max(np.abs(eng[sig] - hand[sig])) < 1e-9, sig
    for sig in ("foot.RF.force.y", "foot.RF.force.x", "joint.LF.hip.torque"):
        assert np.max(np.abs(eng[sig] - hand[sig])) < 1e-4, sig
    assert hand["foot.RF.force.y"].max() > 100.0  # the support tripod carries the robot
    assert hand["foot.LF.y"].max() > 0.05  # and the swing tripod lifts
