"""The validation ladder, written once: L0 descriptions, L1/L2 audit, L3 contact-free
trajectories, L4 scenarios, L5 published results, the error budget and the errata.

A robot declares what it has by subclassing :class:`RobotLadder` (its audit, scenarios
with their variants, figures, requirements, extra runs, recomputed tables, errata and
budget); the ladder does the rest in two steps.  :meth:`RobotLadder.tasks` lists every
independent piece of work (each scenario run of each implementation, the audit, L3, the
budget and errata runs) as pure function calls, which ``dynval.comparisons.run.tasks.execute`` runs
on any back end or reads from the cache; :meth:`RobotLadder.assembled` then returns the
traces' bytes, compares every implementation with the reference, judges each rung with one
verdict and returns the metric rows and the chapter (``dynval.comparisons.run.pipeline`` runs both
steps for every robot at once)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pandas as pd

from dynval.comparisons.ladder import (
    assumed,
    chapter,
    evidence,
    l0,
    plan,
    scenario_run,
    swing_rung,
)
from dynval.comparisons.ladder.audit import TermResult
from dynval.comparisons.ladder.declared import (  # noqa: F401 (the API)
    CI_SAMPLES,
    CI_SECONDS,
    KINEMATICS_SAMPLES,
    TIERS,
    Assembled,
    AuditResults,
    Context,
    Inputs,
    PathPlot,
    Swung,
    TimePlot,
    Variant,
    Wide,
    rows_verdict,
    scaled,
)
from dynval.comparisons.ladder.implementations import IMPLEMENTATIONS
from dynval.comparisons.ladder.work import Outcome, Task
from dynval.plugins import PluginError, spec
from dynval.results import (
    AssumptionRow,
    BudgetRow,
    DataTable,
    DescriptionRow,
    Erratum,
    Known,
    MetricRow,
    NotReproduced,
    Rung,
    TrajectoryRow,
)
from dynval.robots import robot_dir, robot_module


class RobotLadder:
    """A robot's declaration; override what the robot has.  Hooks that a robot leaves
    alone contribute nothing, and the rung says so (``not applicable``)."""

    robot: str = ""
    title: str = ""
    paper: str = ""
    # who runs the robot's scenarios: the hand-rolled model and the engines that simulate
    # its description (Drake, which dynval gives no ground, where a robot declares it)
    implementations: tuple[str, ...] = IMPLEMENTATIONS
    # an implementation that runs some scenarios only: its name -> their names (Drake,
    # stepped from Python, where the paper's figures are); read only, overridden whole
    only_in: dict[str, tuple[str, ...]] = {}
    contact_modes: tuple[str, ...] = ("shared",)
    l1_what: str = "kinematics vs engines"  # what the rung notes say was compared
    l2_what: str = "dynamics terms vs engines"
    audit_reason: str = "round-off: the hand model and the engines describe the same tree"
    budget_what: str = ""
    # an assumed parameter -> the start of the budget component that changes it alone
    assumption_budget: dict[str, str] = {}  # read only, overridden whole
    # how long the ci tier runs the hand-rolled model by its readable path to hold its
    # compiled copy to it (ladder.readable); None where the robot has no compiled copy
    readable_seconds: float | None = None
    # where a run may amplify round-off: how to perturb its start (ladder.evidence.Chaos);
    # an agreement figure within the declared factor of that spread is known (chaos)
    chaos: evidence.Chaos | None = None

    # --- found through the robot's spec (dynval.plugins.RobotSpec): its robots package's
    # params.py (PARAMS, table), its comparisons package's scenarios.py (SCENARIOS,
    # make_loop) and audit.py (full_audit) ----------------------------------------------
    def _module(self, layer: str, name: str) -> ModuleType:
        return spec(self.robot).module(layer, name)

    def _declared(self, layer: str, module: str, name: str, what: str) -> Any:
        """A part the robot's module must declare, or one sentence naming it
        (plugins.RobotSpec.declared)."""
        return spec(self.robot).declared(layer, module, name, what)

    @property
    def default_params(self) -> Any:
        return self._declared("robots", "params", "PARAMS",
                              "the parameter set, read from params.toml")

    @property
    def scenarios(self) -> dict[str, Any]:
        return self._declared("comparisons", "scenarios", "SCENARIOS", "its scenarios by name")

    def run_one(self, params: Any, scenario: Any, implementation: str, contact: str,
                desc_dir: Path, **kwargs: Any) -> pd.DataFrame:
        """One implementation's wide trace (time x signal) of one scenario: the loop of the
        robot's one hook, ``make_loop``, run by the framework (scenario_run.Runner).
        ``duration``, ``until`` and ``progress`` are the framework's keywords; any other is
        the robot's own option, and one its make_loop does not take is one sentence."""
        make_loop = self._declared(
            "comparisons", "scenarios", "make_loop", "make_loop(implementation, contact, "
            "scenario, params, desc_dir, **options): its loop and how it runs "
            "(ladder.ScenarioRun)")
        refused = scenario_run.refused(make_loop, kwargs)
        if refused:
            raise PluginError(f"the make_loop of robot {self.robot!r} takes no "
                              f"{', '.join(refused)}, which its ladder asks for")
        return scenario_run.Runner(make_loop)(params, scenario, implementation, contact,
                                              desc_dir, **kwargs)

    def scenario_params(self, params: Any, scenario: Any) -> Any:
        """The parameters a scenario runs with (``scenario_params`` of the robot's
        scenarios module where it has one: a scenario may replace some values)."""
        own = getattr(self._module("comparisons", "scenarios"), "scenario_params", None)
        return params if own is None else own(params, scenario)

    def full_audit(self, params: Any, desc_dir: Path, samples: int, seed: int
                   ) -> list[TermResult]:
        """Every audited term, for ``dynval audit``."""
        return self._module("comparisons", "audit").full_audit(params, desc_dir, samples, seed)

    # --- what a robot declares -------------------------------------------------------
    def supports(self, implementation: str, contact: str) -> bool:
        """Whether an implementation runs in a contact mode: one the robot declares
        (``implementations``), the hand-rolled model with the paper's (shared) contact
        only and the engines in every mode by default."""
        return (implementation in self.implementations
                and (implementation != "handrolled" or contact == "shared"))

    def shared_runs(self, sc: Any) -> tuple[str, ...]:
        """Who runs scenario ``sc`` with the paper's contact law: the implementations the
        robot declares, less those it runs on other scenarios only (``only_in``)."""
        return tuple(i for i in self.implementations
                     if sc.name in self.only_in.get(i, (sc.name,)))

    def descriptions(self, p: Any) -> dict:
        """The robot's descriptions (name -> dynval.robots.description.Description)."""
        return robot_module(self.robot).descriptions(p)

    def parameters(self, p: Any) -> list:
        """The parameter table (dynval.robots.Param) for the appendix."""
        return self._module("robots", "params").table(p)

    def audit_terms(self, inp: Inputs) -> AuditResults:
        """L1 and L2 from the robot's ``comparisons/<robot>/audit.py``: its
        ``kinematics_audit`` (at most KINEMATICS_SAMPLES states) and ``dynamics_audit``
        (every state). A robot with audits of other shapes declares its own."""
        audit = self._module("comparisons", "audit")
        p, d, n, seed = inp.params, inp.desc_dir, inp.samples, inp.seed
        return AuditResults(audit.kinematics_audit(p, d, min(n, KINEMATICS_SAMPLES), seed),
                            audit.dynamics_audit(p, d, n, seed))

    def swung(self, p: Any) -> list[Swung]:
        """The robot's models swung freely against its descriptions at L3 (the generic
        swing a user's model gets, ladder.swing_rung); none by default."""
        return []

    def trajectory_checks(self, inp: Inputs
                          ) -> tuple[list[TrajectoryRow], list[MetricRow], str] | None:
        """L3 rows beyond the free swing (a run with contact checked for its integrator's
        order, say): rows for the chapter, metric rows and what they showed in words."""
        return None

    def l3(self, inp: Inputs) -> tuple[list[TrajectoryRow], list[MetricRow], Rung] | None:
        """L3: the free swing of every declared model, then the robot's own trajectory
        checks; the rung holds where every judged row does."""
        swung, own = self.swung(inp.params), self.trajectory_checks(inp)
        if not swung and own is None:
            return None
        typed, metrics, said = swing_rung.swing_rows(self.robot, swung, inp.desc_dir,
                                                     inp.seed)
        if swung:
            said = [f"free swing (semi-implicit Euler at three steps, judged on the system's "
                    f"own sensitivity): {'; '.join(said)}"]
        if own is not None:
            typed, metrics, said = typed + own[0], metrics + own[1], [*said, own[2]]
        return typed, metrics, Rung(rows_verdict(metrics), "; ".join(said))

    def extra_tasks(self, inp: Inputs) -> dict[str, tuple[Callable[..., Any], tuple, dict]]:
        """The robot's own work beside the scenario runs (budget and errata runs, a
        paper's studies): name -> (function, args, kwargs); hooks read the results with
        ``ctx.result(name)``."""
        return {}

    def variants(self, scenario: Any) -> list[Variant]:
        raise NotImplementedError

    def compared_signals(self, scenario: Any, variant: Variant, wide: Wide) -> list[str]:
        """Signals compared with the reference: by default every recorded one."""
        return [s for s in wide[variant.reference].columns if s != "time"]

    def requirements(self, ctx: Context, scenario: Any, variant: Variant, implementation: str,
                     df: pd.DataFrame) -> list[MetricRow]:
        return []

    def scenario_extras(self, ctx: Context, scenario: Any, variant: Variant, wide: Wide
                        ) -> tuple[Wide, list[MetricRow], list[DataTable]]:
        """Extra traces stored and drawn beside the implementations' (e.g. a paper's
        assumed forces), extra metric rows and tables of one scenario run."""
        return {}, [], []

    def figures(self, ctx: Context, scenario: Any, variant: Variant
                ) -> list[TimePlot | PathPlot]:
        return []

    def figure_tag(self, scenario: Any, variant: Variant) -> str:
        """What a figure's title says about its run."""
        return f"{scenario.name}, {variant.name} contact"

    def scenario_description(self, scenario: Any) -> str:
        return scenario.description

    def known_difference(self, row: MetricRow, ctx: Context) -> Known | None:
        """A failing L4 row's declared cause with its measured evidence (``ctx`` holds the
        runs and task results that give it; ladder.evidence.ablation finds a
        counterfactual row). The ladder checks the evidence (evidence.verified) and
        measures chaos itself where the robot declares ``chaos``."""
        return None

    def premise(self, ctx: Context, scenario: Any, variant: Variant, wide: Wide
                ) -> NotReproduced | None:
        """The scenario's premise measured on a full-length run (the gait walks, the run
        settles, the event occurs): what failed and the evidence, or None where it holds
        or the robot declares none. A scenario not reproduced has its figures drawn and
        its requirement rows counted as not reproduced, not judged."""
        return None

    def recomputed(self, ctx: Context) -> None:
        """The paper's tables and studies recomputed (append to ctx.chapter.tables and
        ctx.rows)."""

    def l5(self, ctx: Context) -> Rung:
        raise NotImplementedError

    def budget(self, ctx: Context) -> list[BudgetRow]:
        return []

    def errata(self, ctx: Context) -> list[Erratum]:
        return []

    def notes(self, ctx: Context) -> list[str]:
        return []

    def assumptions(self, ctx: Context) -> list[AssumptionRow]:
        """The values the paper does not give that the suite chose (module assumed); a
        robot whose runs sweep one fills in what its verdicts do across it
        (:func:`assumed.measured`); an assumption the error budget toggles carries what
        the budget measured (``assumption_budget``). Called last: the budget and studies
        are in ``ctx``."""
        return assumed.measured(assumed.assumed(ctx.params),
                                assumed.from_budget(ctx.chapter.budget, self.assumption_budget),
                                ctx.inputs.until)

    def conventions(self, p: Any) -> list[str]:
        """The paragraphs of robots/<robot>/FRAMES.md, for the report appendix."""
        text = (robot_dir(self.robot) / "FRAMES.md").read_text()
        return [q.replace("\n", " ") for q in text.split("\n\n")[1:] if q.strip()]

    # --- the ladder itself --------------------------------------------------------------
    def inputs(self, p: Any, desc_dir: Path, scenarios: list[str] | None = None,
               samples: int = 1000, seed: int = 0, tier: str = "full") -> Inputs:
        if tier not in TIERS:
            raise ValueError(f"unknown tier {tier!r}; use one of {', '.join(TIERS)}")
        names = (list(self.scenarios) if scenarios is None
                 else [s for s in scenarios if s in self.scenarios])
        return Inputs(p, desc_dir, tuple(names), min(samples, CI_SAMPLES) if tier == "ci"
                      else samples, seed, tier)

    def tasks(self, inp: Inputs) -> list[Task]:
        """Every independent piece of work of this robot's chapter (ladder.plan)."""
        return plan.tasks(self, inp)

    def assembled(self, inp: Inputs, outcomes: dict[str, Outcome], out: Path) -> Assembled:
        """The chapter and metric rows from the tasks' outcomes, with the bytes of each part
        of the output folder, which the run layer writes (ladder.chapter)."""
        return chapter.assembled(self, inp, outcomes, out)

    def l0_rows(self, inp: Inputs) -> tuple[list[str], list[DescriptionRow]]:
        """L0: each description against the parameter set in every engine (ladder.l0)."""
        descs = self.descriptions(inp.params)
        return list(descs), [DescriptionRow(**r) for d in descs.values()
                             for r in l0.description_rows(d, inp.desc_dir)]
