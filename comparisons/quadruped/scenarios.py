"""The quadruped's scenarios (L4): the planned trot and static walk tracked by the
hand-rolled feedforward torques plus joint PD, in the paper's model (supporting feet
pinned: contact "shared") and in MuJoCo and PyBullet with their own foot contact
("native")."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from dynval.comparisons.ladder.scenario_run import Runner, ScenarioRun
from dynval.comparisons.quadruped.loop import QuadrupedLoop, make_plant
from dynval.handrolled.quadruped.gait import GAITS
from dynval.robots.quadruped.params import QuadrupedParams

# How far the body may move from where a gait starts before the run is called diverged:
# one cycle covers one stride (centimetres), the body stays at its standing height [m].
WORKSPACE = {"body.x": 2.0, "body.y": 2.0, "body.z": 0.5}


@dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    gait: str  # "trot" (section 6, Fig. 4) or "walk" (section 4.2)
    cycles: int  # gait cycles run
    description: str


SCENARIOS: dict[str, Scenario] = {
    "trot": Scenario("trot", "Trot, one cycle", "trot", 1,
                     "Section 6's dynamic trot (Fig. 4): RB+LF then LB+RF, one cycle (the "
                     "body is not controlled about the support diagonal and falls later)."),
    "walk": Scenario("walk", "Static walk, one cycle", "walk", 1,
                     "Section 4.2's static walk: one leg at a time, RB, RF, LB, LF."),
}


def supports(implementation: str, contact: str) -> bool:
    """The paper's model has only its pinned feet ("shared"); the engines only their own
    contact ("native")."""
    return (implementation == "handrolled") == (contact == "shared")


def check_contact(implementation: str, contact: str) -> None:
    """Refuse, in one sentence, a pairing ``supports`` rules out."""
    if supports(implementation, contact):
        return
    if implementation == "handrolled":
        raise ValueError("the hand-rolled quadruped has no native contact; its supporting "
                         "feet are pinned (use contact 'shared')")
    raise ValueError(f"{implementation} runs the quadruped with its own foot contact "
                     "only (use contact 'native'); pinning its feet is not implemented")


def make_loop(implementation: str, contact: str, sc: Scenario, p: QuadrupedParams,
              desc_dir: Path, fast: bool = True, frame0: str = "corrected") -> ScenarioRun:
    """One implementation's closed loop in one scenario, for its gait's cycles, sampled
    every 10 steps (``fast`` False steps the hand-rolled model by its printed recursions
    instead of their compiled copy, and every implementation by advance() with the
    printed plan and feedforward; ``frame0`` "printed" steps it with section 2's frame 0
    as printed)."""
    check_contact(implementation, contact)
    gait = GAITS[sc.gait]
    loop = QuadrupedLoop(make_plant(implementation, p, desc_dir, fast, frame0), p, gait, fast)
    return ScenarioRun(loop, p.dt, sc.cycles * gait.period, record_every=10,
                       workspace=WORKSPACE)


# one implementation's wide trace of one scenario (make_loop, run by the framework)
run_one = Runner(make_loop)
