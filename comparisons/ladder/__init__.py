"""The ladder framework: the rungs a robot declares (rungs.RobotLadder), the registry of
robots, the shared harness, metrics, signal vocabulary and term audit. It names no robot.

A robot's ``validate.py`` declares its ladder in this package's namespace
(``from dynval.comparisons import ladder``, then ``ladder.RobotLadder``,
``ladder.TimePlot``, ``ladder.check_row``): the declaration's types, the metrics its rows
are made with and the implementations it runs. They are loaded on first use, so a module
that needs one part of the framework (``dynval.testing`` reads ``ladder.audit``) does not
load the rungs, pandas and the run layer with it."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names below, as __getattr__ finds them, for type checkers
    from dynval.comparisons.ladder.evidence import Chaos, ablation
    from dynval.comparisons.ladder.implementations import CONTACT_MODES, IMPLEMENTATIONS
    from dynval.comparisons.ladder.metrics import (
        Tolerance,
        budget_rows,
        check_row,
        compare,
        recomputed_row,
        rms_diff,
    )
    from dynval.comparisons.ladder.rungs import (
        CI_SECONDS,
        AuditResults,
        Context,
        Inputs,
        PathPlot,
        RobotLadder,
        Swung,
        TimePlot,
        Variant,
        rows_verdict,
    )
    from dynval.comparisons.ladder.scenario_run import ScenarioRun, Warmup

__all__ = ["CI_SECONDS", "CONTACT_MODES", "IMPLEMENTATIONS", "AuditResults", "Chaos", "Context",
           "Inputs", "ablation", "PathPlot", "RobotLadder", "ScenarioRun", "Swung", "TimePlot",
           "Tolerance", "Variant", "Warmup", "budget_rows", "check_row", "compare",
           "recomputed_row", "rms_diff", "rows_verdict"]
# where the names of __all__ are defined
_PARTS = ("rungs", "metrics", "implementations", "evidence", "scenario_run")


def __getattr__(name: str) -> Any:
    """A name of the declaration API, imported from its module when first asked for."""
    if name in __all__:
        for part in _PARTS:
            module = importlib.import_module(f"{__name__}.{part}")
            if name in vars(module):
                globals()[name] = vars(module)[name]
                return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
