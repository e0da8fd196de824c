"""The chapters' audit rows from a paper's model given through the model protocol
(``protocol_rows``): labelled with the paper's symbols, its worst entry named, each model
answer computed once per state, and a printed erratum failing exactly the rows it
touches."""

from __future__ import annotations

import numpy as np

from dynval.comparisons.ladder.audit import random_states
from dynval.comparisons.ladder.terms import ModelCalls, protocol_rows
from dynval.engines import load_terms
from dynval.handrolled.hexapod.protocol import HexapodRobot
from dynval.handrolled.landing_gear.protocol import LandingGearLeg
from dynval.robots import ROOT
from dynval.robots.hexapod.params import PARAMS as HEXAPOD
from dynval.robots.landing_gear.params import PARAMS as LANDING_GEAR

TERMS = {"M": ("M", "(12)-(13) inertia"), "C v": ("C", "(12)-(13) Coriolis"),
         "G": ("G", "(12)-(13) gravity"), "tau": ("tau", "(12)-(13) inverse dynamics")}
LEG = ROOT / "landing_gear" / "landing_gear_leg_as_derived"


def _leg_engines() -> dict:
    return load_terms(LEG.with_suffix(".xml"), LEG.with_suffix(".urdf"),
                      (0.0, 0.0, -LANDING_GEAR.g), list(LandingGearLeg.joint_names))


class _Counting:
    """A model that counts its calls."""

    def __init__(self, model) -> None:
        self.model, self.calls = model, {}
        self.joint_names = model.joint_names

    def __getattr__(self, name):
        method = getattr(self.model, name)

        def counted(*args):
            self.calls[name] = self.calls.get(name, 0) + 1
            return method(*args)
        return counted


def test_rows_are_labelled_and_the_corrected_leg_passes() -> None:
    engines = _leg_engines()
    rows = protocol_rows(ModelCalls(LandingGearLeg()), engines, random_states(30, 0, 2), 0,
                         TERMS, "corrected")
    assert [(r.reference, r.term, r.equation) for r in rows] == [
        (e, term, eq) for e in engines for term, eq in TERMS.values()]
    assert all(r.form == "corrected" and r.samples == 30 for r in rows)
    assert all(r.passed for r in rows), [(r.term, r.reference, r.max_rel_error) for r in rows]
    assert {r.worst_name for r in rows if r.term == "M"} <= {
        f"{a}, {b}" for a in ("LF_hip", "LF_knee") for b in ("LF_hip", "LF_knee")}


def test_the_printed_gravity_fails_exactly_the_rows_it_touches() -> None:
    """Eq. (12)'s printed hip gravity: G and tau fail against every engine, M and C pass."""
    rows = protocol_rows(ModelCalls(LandingGearLeg(form="printed")), _leg_engines(),
                         random_states(30, 0, 2), 0, TERMS, "printed")
    assert {(r.term, r.reference) for r in rows if not r.passed} == {
        (t, e) for t in ("G", "tau") for e in ("mujoco", "pybullet", "pinocchio", "drake")}


def test_each_answer_is_computed_once_per_state() -> None:
    """Three engines and C v = bias - gravity: the model is still asked once per state
    and method."""
    model = _Counting(LandingGearLeg())
    protocol_rows(ModelCalls(model), _leg_engines(), random_states(7, 0, 2), 0,
                  {**TERMS, "bias": ("h", "(12)-(13) C + G")}, "corrected")
    assert model.calls == {"mass_matrix": 7, "bias": 7, "gravity": 7, "inverse_dynamics": 7}


def test_stacked_feet_name_their_worst_entry() -> None:
    """All six feet in one row ("p"), and the entry that differs most named by foot and
    axis; a foot moved by 1 mm fails the row and is the one named."""
    robot = HexapodRobot()
    engines = load_terms(ROOT / "hexapod" / "hexapod.xml", ROOT / "hexapod" / "hexapod.urdf",
                         (0.0, 0.0, -HEXAPOD.g), list(robot.joint_names))
    states = random_states(10, 0, len(robot.joint_names))
    feet = {"p": ("p_F", "(4) foot centre")}
    rows = protocol_rows(ModelCalls(robot), engines, states, 0, feet, "closed form")
    assert all(r.passed for r in rows)

    class Moved(HexapodRobot):
        def frame_position(self, name: str, q: np.ndarray) -> np.ndarray:
            shift = np.array([0.0, 0.0, 1e-3]) if name == "RM_foot" else 0.0
            return super().frame_position(name, q) + shift

    rows = protocol_rows(ModelCalls(Moved()), engines, states, 0, feet, "closed form")
    assert all(not r.passed and r.worst_name == "RM_foot z" for r in rows)
