"""The values a paper does not give and the suite chose, for the report's first page.

A parameter is assumed where its declared source says so ("ASSUMPTION: ..." in the
robot's ``params.toml``), and a selectable form is listed where its source names an
erratum (the suite runs one form of a printed equation that it found wrong, or as
printed). Each row says over what the verdicts were measured to hold: a robot that
sweeps an assumption (a gain, an approximation) fills that in from its own runs; every
other row says it was not swept, so a reader knows the verdicts stand at that value only.
"""

from __future__ import annotations

from typing import Any

from dynval.results import AssumptionRow, BudgetRow
from dynval.robots.parameters import specs

NOT_SWEPT = "not swept: the verdicts were measured at this value only"


def _why(source: str) -> str:
    """The declared reason, one line, without its "ASSUMPTION" marker."""
    text = " ".join(source.split())
    for marker in ("ASSUMPTION:", "assumption:", "ASSUMPTION,", "ASSUMPTION"):
        if text.startswith(marker):
            return text[len(marker):].strip()
    return text


def assumed(params: Any) -> list[AssumptionRow]:
    """The parameters of ``params`` that the paper does not give, and the selected forms
    of its equations that are errata, each at its value and not (yet) swept."""
    rows = []
    for name, s in specs(type(params)).items():
        source = s.source.lower()
        chosen_form = s.range.kind == "choice" and "erratum" in source
        if "assumption" in source or chosen_form:
            value = getattr(params, name)
            rows.append(AssumptionRow(name, value if isinstance(value, str) else f"{value:g}",
                                      s.unit, _why(s.source), NOT_SWEPT))
    return rows


def measured(rows: list[AssumptionRow], sweeps: dict[str, str], until: float | None = None
             ) -> list[AssumptionRow]:
    """``rows`` with ``holds_over`` replaced by what a sweep measured, by symbol, said to
    come from runs cut at ``until`` seconds where they were (the ci tier); a sweep of a
    symbol that is not among the rows is a mistake of the declaration."""
    unknown = set(sweeps) - {r.symbol for r in rows}
    if unknown:
        raise KeyError(f"swept assumptions {sorted(unknown)} are not declared assumptions")
    cut = "" if until is None else f"runs cut at {until:g} s (ci tier), not the paper's: "
    return [AssumptionRow(r.symbol, r.value, r.unit, r.why,
                          cut + sweeps[r.symbol] if r.symbol in sweeps else r.holds_over)
            for r in rows]


def from_budget(budget: list[BudgetRow], components: dict[str, str]) -> dict[str, str]:
    """What the error budget measured of each assumption it toggles: ``components`` maps
    a symbol to the start of its budget component's name; a symbol whose component did not
    run (a tier without the budget's scenario) is left out."""
    out = {}
    for symbol, start in components.items():
        hits = [b for b in budget if b.component.startswith(start)]
        if hits:
            out[symbol] = (f"changed in the error budget ({hits[0].component}): "
                           + ", ".join(f"{b.scenario} {b.signal} {b.value:.3g} {b.unit}"
                                       for b in hits))
    return out
