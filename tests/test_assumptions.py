"""The first page lists what the suite chose where a paper is silent: every parameter
whose declared source says it is assumed, and every selected form of a printed equation
that is an erratum, each with what the runs measured of the verdicts across it (or that
nothing was swept)."""

from __future__ import annotations

import importlib
import json
import math

import pytest
from typer.testing import CliRunner

from dynval.comparisons.cli import app
from dynval.comparisons.ladder import assumed
from dynval.results import AssumptionRow, BudgetRow
from dynval.robots.parameters import specs


def _params(robot: str):
    return importlib.import_module(f"dynval.robots.{robot}.params").PARAMS


ROBOTS = ("landing_gear", "quadruped", "hopper", "hexapod", "rover")


@pytest.mark.parametrize("robot", ROBOTS)
def test_every_assumed_parameter_and_no_other_is_listed(robot: str) -> None:
    """The rows are exactly the parameters declared as assumed (or erratum forms): a value
    from the paper is never listed, and each row shows the value the run used."""
    p = _params(robot)
    rows = {r.symbol: r for r in assumed.assumed(p)}
    assert rows, f"{robot} declares no assumption"
    for name, s in specs(type(p)).items():
        source = s.source.lower()
        listed = "assumption" in source or (s.range.kind == "choice" and "erratum" in source)
        assert (name in rows) == listed, name
        if listed:
            value = getattr(p, name)
            shown = rows[name].value
            assert shown == value if isinstance(value, str) else math.isclose(
                float(shown), value, rel_tol=1e-5)
            assert rows[name].holds_over == assumed.NOT_SWEPT
            assert "ASSUMPTION" not in rows[name].why[:12]


def test_the_hopper_lists_its_printed_contact_law_and_the_hexapod_its_gain() -> None:
    hopper = {r.symbol: r for r in assumed.assumed(_params("hopper"))}
    assert hopper["contact_law"].value == "printed" and "erratum" in hopper["contact_law"].why
    assert {"c_max", "d"} <= set(hopper)
    hexapod = {r.symbol for r in assumed.assumed(_params("hexapod"))}
    assert "K_c2" in hexapod


def test_a_sweep_replaces_only_its_row_and_an_undeclared_one_is_refused() -> None:
    rows = [AssumptionRow("a", "1", "m", "why", assumed.NOT_SWEPT),
            AssumptionRow("b", "2", "m", "why", assumed.NOT_SWEPT)]
    out = assumed.measured(rows, {"b": "walks at 2 only"})
    assert [r.holds_over for r in out] == [assumed.NOT_SWEPT, "walks at 2 only"]
    with pytest.raises(KeyError, match="c"):
        assumed.measured(rows, {"c": "x"})


def test_the_budget_gives_what_toggling_an_assumption_moved() -> None:
    budget = [BudgetRow("height", "com.z", "contact law (24) printed vs clipped", 5.13, "mm"),
              BudgetRow("speed", "com.x", "contact law (24) printed vs clipped", 0.5, "mm"),
              BudgetRow("speed", "com.x", "integrator step (dt vs dt/2)", 0.1, "mm")]
    out = assumed.from_budget(budget, {"contact_law": "contact law (24)", "v_eps": "friction"})
    assert set(out) == {"contact_law"}  # v_eps's component did not run: nothing claimed
    assert "height com.z 5.13 mm" in out["contact_law"] and "speed com.x 0.5 mm" in \
        out["contact_law"] and "0.1" not in out["contact_law"]


def test_a_run_lists_the_assumptions_with_the_budgets_measure(tmp_path) -> None:
    """A ci-tier hopper run: its summary carries the assumptions, the contact law's row
    the error budget's measured effect of the other form, and c_max (not swept) says so;
    the PDF's first page names them."""
    res = CliRunner().invoke(app, ["validate", "--robot", "hopper", "--tier", "ci",
                                   "--samples", "20", "--workers", "1", "--out",
                                   str(tmp_path / "out")])
    assert res.exit_code == 0, res.output
    rows = {a["symbol"]: a for a in json.loads(
        (tmp_path / "out" / "summary.json").read_text())["robots"]["hopper"]["assumptions"]}
    assert rows["contact_law"]["holds_over"].startswith("changed in the error budget")
    assert "height com.z" in rows["contact_law"]["holds_over"]
    assert rows["c_max"]["holds_over"] == assumed.NOT_SWEPT
