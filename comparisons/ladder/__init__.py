"""The ladder framework: the rungs a robot declares (rungs.RobotLadder), the registry of
robots, the shared harness, metrics, signal vocabulary and term audit. It names no robot.

A robot's ``validate.py`` declares its ladder in this package's namespace
(``from dynval.comparisons import ladder``, then ``ladder.RobotLadder``,
``ladder.TimePlot``, ``ladder.check_row``): the declaration's types, the metrics its rows
are made with and the implementations it runs."""

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
    AuditResults,
    Context,
    Inputs,
    PathPlot,
    RobotLadder,
    TimePlot,
    Variant,
    rows_verdict,
)

__all__ = ["CONTACT_MODES", "IMPLEMENTATIONS", "AuditResults", "Context", "Inputs",
           "PathPlot", "RobotLadder", "TimePlot", "Tolerance", "Variant", "budget_rows",
           "check_row", "compare", "recomputed_row", "rms_diff", "rows_verdict"]
