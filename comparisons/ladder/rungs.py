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

import io
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import pandas as pd

from dynval.comparisons.ladder import (
    assumed,
    description_check,
    evidence,
    harness,
    l4,
    readable,
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
    TimePlot,
    Variant,
    Wide,
    rows_verdict,
    scaled,
)
from dynval.comparisons.ladder.metrics import compare
from dynval.comparisons.ladder.work import Outcome, Task
from dynval.plugins import spec
from dynval.results import (
    AssumptionRow,
    BudgetRow,
    Chapter,
    DataTable,
    DescriptionRow,
    Erratum,
    Figure,
    Known,
    MetricRow,
    NotReproduced,
    ParameterRow,
    Rung,
    ScenarioInfo,
    TrajectoryRow,
    XYFigure,
    traces_path,
)
from dynval.robots import robot_dir, robot_module


class RobotLadder:
    """A robot's declaration; override what the robot has.  Hooks that a robot leaves
    alone contribute nothing, and the rung says so (``not applicable``)."""

    robot: str = ""
    title: str = ""
    paper: str = ""
    implementations: tuple[str, ...] = ("handrolled", "mujoco", "pybullet")
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
    # run_one) and audit.py (full_audit) ------------------------------------------------
    def _module(self, layer: str, name: str) -> ModuleType:
        return spec(self.robot).module(layer, name)

    @property
    def default_params(self) -> Any:
        return self._module("robots", "params").PARAMS

    @property
    def scenarios(self) -> dict[str, Any]:
        return self._module("comparisons", "scenarios").SCENARIOS

    def run_one(self, params: Any, scenario: Any, implementation: str, contact: str,
                desc_dir: Path, **kwargs: Any) -> pd.DataFrame:
        """One implementation's wide trace (time x signal) of one scenario."""
        return self._module("comparisons", "scenarios").run_one(
            params, scenario, implementation, contact, desc_dir, **kwargs)

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
        """Whether an implementation runs in a contact mode: by default the hand-rolled
        model has only the paper's (shared) contact and the engines have every mode."""
        return implementation != "handrolled" or contact == "shared"

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

    def l3(self, inp: Inputs) -> tuple[list[TrajectoryRow], list[MetricRow], Rung] | None:
        """Contact-free trajectories: rows for the chapter, metric rows and the rung."""
        return None

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
        """Every independent piece of work of this robot's chapter."""
        def task(name: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Task:
            return Task(f"{self.robot} {name}", self.robot, fn, args, kwargs,
                        inputs=(inp.desc_dir,))

        # a mutant reaches the hand-rolled runs only (its model tasks where it says so);
        # every other task takes the original inputs, and its cached result
        base, m = replace(inp, mutant=None), inp.mutant
        hand_p = inp.params if m is None else m.params(inp.params)
        hand_kw = {} if m is None else m.kwargs
        model = replace(base, params=hand_p) if m is not None and m.model_terms else base

        def run(key: str, sc: str, impl: str, contact: str, **kwargs: Any) -> Task:
            hand = impl == "handrolled"
            return task(key, self.run_one, hand_p if hand else inp.params, self.scenarios[sc],
                        impl, contact, inp.desc_dir, **kwargs, **(hand_kw if hand else {}))

        out = [task("L0 descriptions", self.l0_rows, base),
               task("L1/L2 audit", self.audit_terms, model), task("L3", self.l3, model)]
        for name in inp.scenarios:
            for variant in self.variants(self.scenarios[name]):
                out += [run(_run_name(name, variant.name, impl), name, impl, contact,
                            until=inp.until) for impl, contact in variant.runs]
        out += [task(name, fn, *args, **kwargs)
                for name, (fn, args, kwargs) in self.extra_tasks(base).items()]
        out += [task(evidence.task_name(name), self.run_one, inp.params, self.scenarios[name],
                     self.chaos.implementation, self.chaos.contact, inp.desc_dir,
                     until=inp.until, **{self.chaos.keyword: self.chaos.shift})
                for name in self._chaos_scenarios(inp)]
        out += [run(_readable_name(name), name, "handrolled", "shared",
                    until=self.readable_seconds, fast=False)
                for name in self._readable_scenarios(inp)]
        return out

    def _chaos_scenarios(self, inp: Inputs) -> list[str]:
        """The scenarios that have a perturbed run: where the robot declares ``chaos``,
        every one with a run of the declared implementation and contact."""
        if self.chaos is None:
            return []
        run = (self.chaos.implementation, self.chaos.contact)
        return [name for name in inp.scenarios
                if any(run in v.runs for v in self.variants(self.scenarios[name]))]

    def _readable_scenarios(self, inp: Inputs) -> list[str]:
        """The scenarios whose hand-rolled run is held to its readable path: in the ci
        tier, every one with a shared-contact hand-rolled run, where the robot has a
        compiled copy."""
        if inp.tier != "ci" or self.readable_seconds is None:
            return []
        return [name for name in inp.scenarios
                if _shared_variant(self.variants(self.scenarios[name])) is not None]

    def assembled(self, inp: Inputs, outcomes: dict[str, Outcome], out: Path) -> Assembled:
        """The chapter and metric rows from the tasks' outcomes, with the bytes of each part
        of the output folder (the traces under ``out/runs``), which the run layer writes."""
        p = inp.params
        chapter = Chapter(self.robot, self.title, self.paper,
                          conventions=self.conventions(p),
                          parameters=[ParameterRow(**pr.__dict__) for pr in self.parameters(p)])
        ctx = Context(inp, out, chapter, outcomes, self.robot)
        self._l0(ctx)
        self._audit(ctx)
        l3 = ctx.result("L3")
        if l3 is not None:
            chapter.trajectories, rows, chapter.rungs["L3"] = l3
            ctx.rows += rows
        else:
            chapter.rungs["L3"] = Rung("not applicable", "no contact-free trajectory rung")
        for name in ctx.scenarios:
            self._scenario(ctx, self.scenarios[name])
        if inp.until is not None:  # the readable parity is judged on its own short run
            ctx.rows = [_reported_only(r, inp.until)
                        if r.rung == "L4" and r.variant != readable.VARIANT else r
                        for r in ctx.rows]
        self._l4_rung(ctx)
        self.recomputed(ctx)
        chapter.rungs["L5"] = self.l5(ctx)
        chapter.budget = self.budget(ctx)
        if chapter.budget:
            ctx.rows += [MetricRow(self.robot, b.scenario, "budget", "-", b.signal, b.component,
                                   "-", "rms_diff", b.value, None, None,
                                   f"error budget component, {b.unit}", "budget")
                         for b in chapter.budget]
            chapter.rungs["budget"] = Rung("recomputed", self.budget_what)
        elif type(self).budget is RobotLadder.budget:
            chapter.rungs["budget"] = Rung("not applicable", "no error budget is declared "
                                           "for this robot: no model choice is toggled")
        else:
            chapter.rungs["budget"] = Rung("not applicable",
                                           "the budget's scenario was not run")
        chapter.errata = self.errata(ctx)
        chapter.notes = self.notes(ctx)
        chapter.assumptions = self.assumptions(ctx)
        return Assembled(ctx.rows, chapter, ctx.files)

    def l0_rows(self, inp: Inputs) -> tuple[list[str], list[DescriptionRow]]:
        """L0: each description against the parameter set in every engine."""
        descs = self.descriptions(inp.params)
        return list(descs), [DescriptionRow(**r) for d in descs.values()
                             for r in description_check.check_description(d, inp.desc_dir)]

    def _l0(self, ctx: Context) -> None:
        descs, rows = ctx.result("L0 descriptions")
        ctx.chapter.description_check = rows
        engines = sorted({r.engine for r in rows})
        worst = {e: max(r.max_error for r in rows if r.engine == e) for e in engines}
        ctx.chapter.rungs["L0"] = Rung(
            "agrees" if all(r.passed for r in rows) else "differs",
            f"{len(rows)} checks of {len(descs)} descriptions ({', '.join(descs)}) against "
            f"the parameter set in {', '.join(engines)}; worst "
            + ", ".join(f"{e} {worst[e]:.1e}" for e in engines)
            + "; failing: " + (", ".join(f"{r.file} {r.engine} {r.quantity}"
                                         for r in rows if not r.passed) or "none"))

    def _audit(self, ctx: Context) -> None:
        res = ctx.audit = ctx.result("L1/L2 audit")
        ctx.chapter.audit = res.kinematics + res.dynamics
        for rung, results, what in (("L1", res.kinematics, self.l1_what),
                                    ("L2", res.dynamics, self.l2_what)):
            ctx.rows += [self._audit_row(rung, r, res.is_erratum(r)) for r in results]
            ctx.chapter.rungs[rung] = _audit_rung(results, res.is_erratum, what)

    def _audit_row(self, rung: str, r: TermResult, erratum: bool) -> MetricRow:
        return MetricRow(self.robot, "audit", rung, r.form, r.term, r.reference, "handrolled",
                         "max_rel_error", r.max_rel_error, None if erratum else r.tolerance,
                         None if erratum else r.passed,
                         "the printed form, measured for its erratum" if erratum
                         else self.audit_reason, "erratum" if erratum else "agreement")

    def _scenario(self, ctx: Context, sc: Any) -> None:
        variants = self.variants(sc)
        ctx.chapter.scenarios.append(ScenarioInfo(sc.name, sc.title,
                                                  [v.name for v in variants],
                                                  self.scenario_description(sc)))
        self._readable(ctx, sc, variants)
        for variant in variants:
            wide: Wide = {}
            for impl, _ in variant.runs:
                wide[impl] = ctx.result(_run_name(sc.name, variant.name, impl))
                ctx.rows += self.requirements(ctx, sc, variant, impl, wide[impl])
            ctx.wide[(sc.name, variant.name)] = wide
            failed = (self.premise(ctx, sc, variant, wide) if ctx.inputs.until is None
                      else None)  # a shortened run (ci) is not the scenario's premise
            if failed is not None and sc.name not in l4.not_reproduced(ctx):
                ctx.chapter.not_reproduced.append(failed)
            extra, rows, tables = self.scenario_extras(ctx, sc, variant, wide)
            traces = harness.tidy({**wide, **extra})
            stored = traces.assign(robot=self.robot, scenario=sc.name, variant=variant.name)
            buf = io.BytesIO()
            stored.to_parquet(buf, index=False)
            ctx.write(traces_path(ctx.out, self.robot, sc.name, variant.name), buf.getvalue())
            ctx.rows += compare(wide, self.robot, sc.name, variant.name,
                                self.compared_signals(sc, variant, wide), variant.reference,
                                [i for i in variant.implementations if i != variant.reference],
                                variant.tolerances)
            ctx.rows += rows
            ctx.chapter.tables += tables
            tag = self.figure_tag(sc, variant) + ("; not reproduced"
                                                  if sc.name in l4.not_reproduced(ctx) else "")
            for fig in self.figures(ctx, sc, variant):
                if isinstance(fig, PathPlot):
                    ctx.chapter.xy_figures.append(XYFigure(
                        f"{fig.title} ({tag})", sc.name, variant.name, fig.x, fig.y, fig.unit,
                        fig.scale, fig.relative, fig.caption))
                else:
                    units, scales = scaled(fig.signals)
                    ctx.chapter.figures.append(Figure(
                        f"{fig.title} ({tag})", sc.name, variant.name, fig.signals, units,
                        scales, fig.caption))

    def _readable(self, ctx: Context, sc: Any, variants: list[Variant]) -> None:
        """The compiled hand-rolled run held to the readable one (ladder.readable), where
        the readable one ran."""
        key = f"{self.robot} {_readable_name(sc.name)}"
        if key not in ctx.outcomes:
            return
        variant = _shared_variant(variants)
        compiled = ctx.result(_run_name(sc.name, variant.name, "handrolled"))
        ctx.rows += readable.parity_rows(self.robot, sc.name, compiled,
                                         ctx.result(_readable_name(sc.name)))

    def _l4_rung(self, ctx: Context) -> None:
        """L4's verdict and note (ladder.l4.l4_rung)."""
        l4.l4_rung(self, ctx)


def _reported_only(row: MetricRow, until: float) -> MetricRow:
    """A scenario figure of a shortened run: tracked by its tier's baseline, not judged."""
    if row.tolerance is None:
        return row
    return replace(row, tolerance=None, passed=None,
                   reason=f"ci tier, first {until:g} s only: reported and tracked by the ci "
                          f"baseline (tolerance {row.tolerance:.3g} applies to the full run: "
                          f"{row.reason})")


def _run_name(scenario: str, variant: str, implementation: str) -> str:
    return f"{scenario} {variant} {implementation}"


def _readable_name(scenario: str) -> str:
    return f"{scenario} handrolled readable"


def _shared_variant(variants: list[Variant]) -> Variant | None:
    """The first variant in which the hand-rolled model runs with shared contact."""
    return next((v for v in variants if ("handrolled", "shared") in v.runs), None)


def _audit_rung(results: list[TermResult], is_erratum: Callable[[TermResult], bool],
                what: str) -> Rung:
    judged = [r for r in results if not is_erratum(r)]
    printed_bad = [r for r in results if is_erratum(r) and not r.passed]
    if not judged:
        return Rung("not applicable", f"{what}: nothing to compare")
    worst = max(judged, key=lambda r: r.max_rel_error)
    note = (f"{what}: worst relative {worst.max_rel_error:.1e} ({worst.term} vs "
            f"{worst.reference}) over {max(r.samples for r in judged)} states")
    if printed_bad:
        w = max(printed_bad, key=lambda r: r.max_rel_error)
        note += (f"; the printed {', '.join(sorted({r.term for r in printed_bad}))} off by up "
                 f"to relative {w.max_rel_error:.2g} (erratum)")
    return Rung("agrees" if all(r.passed for r in judged) else "differs", note)
