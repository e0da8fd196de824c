"""The hexapod's assumptions measured: the paper gives no G_c2 (Fig. 3's P controller in
series with Table IV's G_c1), and the wave gait walks on its feet only in a narrow window
of the gain K_c2 the suite chose. The first page lists K_c2 with the airborne samples of
the judged cycle at every gain tried, and with the other forms of the fractional
derivative (15b) and (16), so a reader sees how far the walking verdicts carry."""

from __future__ import annotations

from dynval.comparisons import ladder
from dynval.comparisons.hexapod import walking
from dynval.comparisons.hexapod.scenarios import SCENARIOS, scenario_params
from dynval.comparisons.ladder import assumed
from dynval.results import AssumptionRow


def assumptions(ctx: ladder.Context, rows: list[AssumptionRow], scenario: str,
                gains: dict[float, str], forms: dict[str, str]) -> list[AssumptionRow]:
    """``rows`` with K_c2's sweep: ``gains`` maps a K_c2 tried on ``scenario`` to its
    hand-rolled run's task, ``forms`` a fractional-derivative form to its run's task (at
    the chosen K_c2). Without the scenario's run there is nothing measured to add."""
    runs = ctx.runs("shared")
    if scenario not in runs:
        return rows
    p = scenario_params(ctx.params, SCENARIOS[scenario])
    air = {p.K_c2: walking.airborne(runs[scenario]["handrolled"], p)}
    air |= {k: walking.airborne(ctx.result(task), p.with_(K_c2=k)) for k, task in gains.items()}
    text = (f"{scenario} airborne samples of the judged cycle (0: it walks): "
            + ", ".join(f"K_c2 = {k:g}{' (chosen)' if k == p.K_c2 else ''}: {n}"
                        for k, n in sorted(air.items()))
            + f"; at K_c2 = {p.K_c2:g} with the fractional derivative as "
            + ", ".join(f"{form}: {walking.airborne(ctx.result(task), p)}"
                        for form, task in forms.items())
            + f"; walks at {_walks(air)} of the gains tried")
    return assumed.measured(rows, {"K_c2": text}, ctx.inputs.until)


def _walks(air: dict[float, int]) -> str:
    walking_gains = [f"{k:g}" for k, n in sorted(air.items()) if n == 0]
    return ", ".join(walking_gains) if walking_gains else "none"
