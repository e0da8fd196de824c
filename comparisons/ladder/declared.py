"""What a robot's ladder declares and what the rungs hand it: the variants of a scenario,
the audit's results, the run's inputs and context, the figures it draws, the tiers, and
what assembling a chapter gives.  The types of the declaration API
(``dynval.comparisons.ladder``), apart from the ladder itself (``rungs.RobotLadder``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from dynval.comparisons.ladder.audit import TermResult
from dynval.comparisons.ladder.implementations import ENGINES, IMPLEMENTATIONS
from dynval.comparisons.ladder.metrics import Tolerance
from dynval.comparisons.ladder.signals import display
from dynval.comparisons.ladder.work import Outcome
from dynval.results import Chapter, MetricRow

Wide = dict[str, pd.DataFrame]  # implementation -> wide trace (time x signal)


@dataclass(frozen=True)
class Variant:
    """One way of running a scenario: which implementation runs with which contact mode,
    the reference the others are compared with, and the tolerances that apply."""

    name: str
    runs: tuple[tuple[str, str], ...]  # (implementation, contact mode)
    tolerances: dict[tuple[str, str], Tolerance] = field(default_factory=dict)
    reference: str = "mujoco"

    @property
    def implementations(self) -> list[str]:
        return [impl for impl, _ in self.runs]

    @classmethod
    def shared(cls, tolerances: dict[tuple[str, str], Tolerance] | None = None,
               implementations: tuple[str, ...] = IMPLEMENTATIONS) -> Variant:
        """Every implementation (the robot's, where it declares others: Drake) with the
        paper's contact law."""
        return cls("shared", tuple((i, "shared") for i in implementations),
                   {} if tolerances is None else tolerances)

    @classmethod
    def native(cls, tolerances: dict[tuple[str, str], Tolerance] | None = None) -> Variant:
        """The engines, each with its own contact."""
        return cls("native", tuple((i, "native") for i in ENGINES),
                   {} if tolerances is None else tolerances)


@dataclass(frozen=True)
class Swung:
    """One of a robot's models (``dynval.model``'s protocol) swung freely against one of
    its descriptions (L3, ladder.swing_rung): what it is in a few words, the model, the
    description's file name and the gravity vector [m/s^2] the model assumes. A fixed
    root swings from rest at a seeded pose (a body floating on explicit base joints
    released at rest only falls, every body alike, and tests nothing); a free root from
    a seeded state."""

    label: str
    model: Any
    description: str
    gravity: tuple[float, float, float]


@dataclass
class AuditResults:
    """L1 (kinematics) and L2 (dynamics terms) results.  A term audited in its
    ``printed`` form next to a ``corrected`` one is measured for its erratum; every other
    result (including a printed form that has no correction) is held to its tolerance."""

    kinematics: list[TermResult]
    dynamics: list[TermResult]

    def is_erratum(self, r: TermResult) -> bool:
        return r.form == "printed" and any(
            c.form == "corrected" and c.term == r.term and c.reference == r.reference
            for c in self.kinematics + self.dynamics)


# The ci tier: every rung at full fidelity on a subset (SPEC, Running at scale): the first
# CI_SECONDS of each scenario run, CI_SAMPLES audit states.  Its figures have their own
# baselines; tolerances that judge a whole run (settling, final values) do not apply.
TIERS = ("full", "ci")
# L1's states: a forward-kinematics or Jacobian error shows at a few states already, and
# each state costs an engine query per frame and leg
KINEMATICS_SAMPLES = 200
CI_SECONDS = 1.0  # [s]
CI_SAMPLES = 100


@dataclass(frozen=True)
class Inputs:
    """Everything a robot's tasks depend on (picklable: tasks may run in other
    processes or on other machines)."""

    params: Any
    desc_dir: Path
    scenarios: tuple[str, ...]
    samples: int
    seed: int
    tier: str = "full"
    # a wrong hand-rolled model (ladder.mutation.Mutant) run against the original engines
    mutant: Any = None

    @property
    def until(self) -> float | None:
        """Where scenario runs stop early (the ci tier), or None for their full length."""
        return CI_SECONDS if self.tier == "ci" else None


@dataclass
class Context:
    """What a robot's hooks see while the chapter is assembled: the inputs, the tasks'
    outcomes, and what earlier rungs gave."""

    inputs: Inputs
    out: Path
    chapter: Chapter
    outcomes: dict[str, Outcome]
    robot: str
    rows: list[MetricRow] = field(default_factory=list)
    wide: dict[tuple[str, str], Wide] = field(default_factory=dict)
    audit: AuditResults | None = None
    store: dict[str, Any] = field(default_factory=dict)  # a robot's results between hooks
    files: dict[str, bytes] = field(default_factory=dict)  # parts written under out

    def write(self, path: Path, data: bytes) -> None:
        """A part of the output folder, as bytes: the run layer writes every part once the
        chapter is assembled (``dynval.comparisons.run.assembly``), the same bytes whether
        assembled now or read from the assembly cache."""
        self.files[path.relative_to(self.out).as_posix()] = data

    @property
    def params(self) -> Any:
        return self.inputs.params

    @property
    def desc_dir(self) -> Path:
        return self.inputs.desc_dir

    @property
    def scenarios(self) -> list[str]:
        return list(self.inputs.scenarios)

    def result(self, name: str) -> Any:
        """The value of the robot's task ``name`` (its exception raised again if it
        failed)."""
        return self.outcomes[f"{self.robot} {name}"].get()

    def runs(self, variant: str) -> dict[str, Wide]:
        """Scenario -> implementation -> trace, for one variant."""
        return {sc: w for (sc, v), w in self.wide.items() if v == variant}


def scaled(signals: list[str]) -> tuple[list[str], list[float]]:
    """Display units and SI-to-display factors of declared signals (angles in degrees)."""
    pairs = [display(s) for s in signals]
    return [u for u, _ in pairs], [k for _, k in pairs]


@dataclass(frozen=True)
class TimePlot:
    """A figure of signals over time in a scenario run; the ladder names the run and takes
    the display units from the signal declarations."""

    title: str
    signals: list[str]
    caption: str


@dataclass(frozen=True)
class PathPlot:
    """A figure of one signal against another (a path) in a scenario run."""

    title: str
    x: str
    y: str
    unit: str
    scale: float
    relative: bool
    caption: str


@dataclass
class Assembled:
    """What assembling a robot's chapter gives: the metric rows, the chapter, and the bytes
    of every part it wrote under the output folder (by path relative to the folder)."""

    rows: list[MetricRow]
    chapter: Chapter
    files: dict[str, bytes]


def rows_verdict(rows: list[MetricRow]) -> str:
    """``agrees`` when every toleranced row is within its tolerance, ``known`` when each
    one outside it carries measured evidence of its cause, else ``differs``; ``not
    applicable`` where no row has a tolerance (nothing was judged)."""
    judged = [r for r in rows if r.tolerance is not None]
    if not judged:
        return "not applicable"
    return judged_verdict(judged)


def judged_verdict(judged: list[MetricRow]) -> str:
    """The verdict of judged rows: ``agrees`` (all within tolerance), ``known`` (every
    row outside it explained by measured evidence) or ``differs`` (one is not)."""
    failed = [r for r in judged if not r.passed]
    if not failed:
        return "agrees"
    return "known" if all(r.known for r in failed) else "differs"
