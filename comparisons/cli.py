"""The ``dynval`` command line (the contract in SPEC.md)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from dynval import _stored
from dynval.comparisons.run import interrupts
from dynval.comparisons.run.progress import StepProgress, TaskProgress  # noqa: E402

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Validate hand-derived robot models against MuJoCo, PyBullet, Pinocchio.",
    epilog="Exit codes: 0 done; 1 a figure failed or moved past its baseline; 2 a mistake "
           "in the command or its input; 3 a run that diverged; 4 the infrastructure (no "
           "Dask scheduler answers, the local worker processes cannot be started, a "
           "task's worker process died twice, the file system refused a write); 130 "
           "Ctrl-C; 143 SIGTERM.",
    rich_markup_mode=None,  # click's plain help: flags shown as flags, whole sentences
)
# one error, one line: no hard wraps; no emoji codes (":a:" in a name stays ":a:")
console = Console(stderr=True, soft_wrap=True, emoji=False)
EXIT_INFRASTRUCTURE = 4  # the machine or the cluster failed, not the input or a figure


def _out_folder(text: str | Path) -> Path:
    """``--out`` as a folder a run may fill: never empty, the file system's root or the
    home folder, where a run's files would land among everything else."""
    if not str(text).strip():
        raise typer.BadParameter("it is empty; name the folder the results go to")
    path = Path(text)
    for shared, what in ((Path("/"), "the root folder"), (Path.home(), "your home folder")):
        if path.resolve() == shared.resolve():
            raise typer.BadParameter(f"{text} is {what}; name a folder of its own for the "
                                     "results")
    return path


OutOpt = Annotated[Path, typer.Option("--out", metavar="DIR", help="output folder",
                                      parser=_out_folder)]
SetOpt = Annotated[list[str] | None, typer.Option(
    "--set", metavar="ROBOT.PARAMETER=VALUE",
    help="a parameter's value for this run (repeatable; 'dynval list' names them)")]
RobotOpt = Annotated[list[str] | None, typer.Option(
    "--robot", metavar="ROBOT", help="only this robot (repeatable; default: all)")]
ScenarioOpt = Annotated[list[str] | None, typer.Option(
    "--scenario", metavar="NAME", help="only this scenario (repeatable; default: all)")]
WorkersOpt = Annotated[int | None, typer.Option(
    "--workers", metavar="N", help="processes on this machine (default: every core); a "
    "task whose process dies runs once more in a fresh one")]
SchedulerOpt = Annotated[str | None, typer.Option(
    "--scheduler", envvar="DYNVAL_SCHEDULER", metavar="tcp://HOST:PORT",
    help="a Dask scheduler to run the tasks on")]
TierOpt = Annotated[str, typer.Option(
    "--tier", metavar="full|ci",
    help="full: every scenario to its end; ci: the first seconds of each, fewer audit "
         "states, with baselines of its own")]
SamplesOpt = Annotated[int, typer.Option("--samples", metavar="N",
                                         help="audit states (at least 1)")]
SeedOpt = Annotated[int, typer.Option("--seed", metavar="K",
                                      help="seed of the audit states (0 or more)")]
ForceOpt = Annotated[bool, typer.Option(
    "--force", help="overwrite results files in --out that no dynval run wrote")]
NoCacheOpt = Annotated[bool, typer.Option(
    "--no-cache", help="recompute every task (the results cache is neither read nor written)")]


def _print_version(value: bool) -> None:
    if value:
        from dynval import __version__

        print(f"dynval {__version__}")
        raise typer.Exit()


@app.callback()
def _options(version: Annotated[bool, typer.Option(
        "--version", callback=_print_version, is_eager=True,
        help="print dynval's version and exit")] = False) -> None:
    """Validate hand-derived robot models against MuJoCo, PyBullet and Pinocchio, rung by
    rung; 'dynval COMMAND --help' says more."""


def _stdout() -> Console:
    """Standard output for tables: at a terminal its width; otherwise (a pipe, a CI log)
    wide enough that no table is ever cut or wrapped."""
    import sys

    return Console() if sys.stdout.isatty() else Console(width=10_000, no_color=True)


class UserError(Exception):
    """A mistake by the user: printed as one sentence, exit code 2."""


def _user_errors(fn):
    """Turn expected failures into one clear sentence and a non-zero exit."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from dynval.comparisons.ladder.harness import DivergenceError
        from dynval.comparisons.ladder.registry import BadOverrideError
        from dynval.comparisons.run.check import BaselineError
        from dynval.comparisons.run.manifest import ForeignFileError, IncompleteRunError
        from dynval.comparisons.run.options import RunOptionError
        from dynval.comparisons.run.tasks import (
            InfrastructureError,
            SourceChangedError,
            WorkerDiedError,
        )
        from dynval.engines import DescriptionError, UnknownEngineError
        from dynval.handrolled import ModelInputError
        from dynval.model import ModelError
        from dynval.robots import UnknownRobotError

        try:
            return fn(*args, **kwargs)
        except (
            UnknownRobotError,
            UnknownEngineError,
            BadOverrideError,
            DescriptionError,
            BaselineError,
            UserError,
            ModelError,
            IncompleteRunError,
            ForeignFileError,
            SourceChangedError,
            RunOptionError,
        ) as exc:
            _error(str(exc))
            raise typer.Exit(2) from None
        except ModelInputError as exc:
            _error(f"{exc}{_overridden(kwargs.get('set_'))}")
            raise typer.Exit(2) from None
        except DivergenceError as exc:
            _error(f"{exc}{_overridden(kwargs.get('set_'))}; no result was written as "
                   "complete")
            raise typer.Exit(3) from None
        except WorkerDiedError as exc:  # the machine's failure, not the run's result
            _error(f"{exc}; no result was written as complete")
            raise typer.Exit(EXIT_INFRASTRUCTURE) from None
        except InfrastructureError as exc:
            _error(str(exc))
            raise typer.Exit(EXIT_INFRASTRUCTURE) from None
        except KeyError as exc:  # unknown scenario and similar lookups
            _error(str(exc.args[0] if exc.args else exc))
            raise typer.Exit(2) from None
        except OSError as exc:
            if exc.errno not in _stored.UNWRITABLE:  # the file system refused a write
                raise
            _error(f"cannot write {exc.filename or 'a file'} ({exc.strerror}): the run "
                   "stopped, nothing of it was written as complete")
            raise typer.Exit(EXIT_INFRASTRUCTURE) from None
        except BaseException as exc:
            from dynval.comparisons.run.tasks import interrupted

            if not interrupted(exc):
                raise
            what = "terminated" if interrupts.exit_code(exc) == 143 else "interrupted"
            _error(f"{what}: nothing of this run was written as complete")
            raise typer.Exit(interrupts.exit_code(exc)) from None

    return wrapper


def _overridden(overrides: list[str] | None) -> str:
    """Where a run with overrides could not go on, the overrides it ran with: the likely
    cause, named (a stiffness of 1e308 shows up as a foot out of reach)."""
    return f" (this run's overrides: {', '.join(overrides)})" if overrides else ""


def _say(text: str) -> None:
    """A line on stderr as written: no markup, no highlighting (paths and names are the
    user's)."""
    console.print(text, markup=False, highlight=False)


def _error(message: str) -> None:
    """One error sentence on stderr, the message's own text as written (a name such as
    "[draft]" is not read as markup)."""
    console.print(f"[red]error:[/red] {escape(message)}")


def _check_run_options(workers: int | None, scheduler: str | None, tier: str | None = None,
                       samples: int = 1, seed: int = 0) -> None:
    from dynval.comparisons.run.options import check_options

    check_options(workers, scheduler, tier, samples, seed)


def _cache_cap() -> int:
    from dynval.comparisons.run.options import cache_cap

    return cache_cap()


def _cache_held(no_cache: bool) -> contextlib.AbstractContextManager[None]:
    """Around a run: once it is done, the results cache back under its cap, least
    recently used first, keeping everything the run used."""
    from dynval.comparisons.run.validation import cache_held

    return cache_held(not no_cache, _say, _warn)


def _warn(line: str) -> None:
    """A warning on stderr, the line as written."""
    console.print(f"[yellow]warning:[/yellow] {escape(line)}")


def _prepare_junit(path: Path | None) -> None:
    """Before a check runs: the JUnit file's folder must take a file, and a report left by
    an earlier check is removed, so a check that fails to run never leaves a passing one."""
    import tempfile

    if path is None:
        return
    folder = path.parent
    if not folder.is_dir():
        raise UserError(f"cannot write the JUnit report {path}: the folder {folder} does not "
                        "exist")
    if path.is_dir():
        raise UserError(f"cannot write the JUnit report {path}: it is a folder")
    try:
        tempfile.TemporaryFile(dir=folder).close()
        path.unlink(missing_ok=True)
    except OSError as exc:
        raise UserError(f"cannot write the JUnit report {path}: {exc.strerror or exc}") from None


@app.command("list")
def list_cmd() -> None:
    """Robots, their scenarios, the engines, and every parameter with its unit and range."""
    from dynval.comparisons.ladder.registry import comparison
    from dynval.engines import ENGINE_NAMES, TERM_ENGINES
    from dynval.robots import ROBOT_NAMES
    from dynval.robots.parameters import describe

    table = Table("robot", "scenario", "title")
    for robot in ROBOT_NAMES:
        for name, sc in comparison(robot).scenarios.items():
            table.add_row(robot, name, sc.title)
    _stdout().print(table)
    _stdout().print(
        f"simulation engines: {', '.join(ENGINE_NAMES)}; "
        f"dynamics-term engines: {', '.join(TERM_ENGINES)}"
    )
    rows = [row for robot in ROBOT_NAMES for row in describe(comparison(robot).default_params)]
    params = Table(title="parameters (--set ROBOT.PARAMETER=VALUE)")
    # the names --set needs, whole on any terminal; the descriptions wrap
    params.add_column("parameter", no_wrap=True,
                      min_width=max(len(r["parameter"]) for r in rows))
    for name in ("value", "unit", "valid range"):
        params.add_column(name, overflow="fold")
    params.add_column("description")
    for row in rows:
        params.add_row(row["parameter"], row["value"], row["unit"], row["range"],
                       row["description"])
    _stdout().print(params)


@app.command()
@_user_errors
def run(
    robot: str,
    scenario: Annotated[str | None, typer.Option()] = None,
    engine: Annotated[list[str] | None, typer.Option("--engine")] = None,
    contact: Annotated[str, typer.Option()] = "shared",
    out: OutOpt = Path("dynval-out/run"),
    set_: SetOpt = None,
    force: ForceOpt = False,
) -> None:
    """Run one scenario of ROBOT with the hand-rolled model and the chosen engines."""
    from dynval.comparisons.run.single import prepare, run_scenario

    plan = prepare(robot, scenario, engine, contact, set_)
    for e in plan.refused:
        _say(f"{robot}: {e} runs with other contact than {contact!r}; not run")
    _warn_unused([robot], set_, [plan.scenario])
    with StepProgress(console) as prog:
        path = run_scenario(plan, out, force, prog.step)
    _say(f"wrote {path}")


@app.command()
@_user_errors
def audit(
    robot: Annotated[str | None, typer.Argument(help="a built-in robot")] = None,
    samples: SamplesOpt = 1000,
    seed: SeedOpt = 0,
    model: Annotated[str | None, typer.Option(
        metavar="PATH.py:OBJECT", help="your own model (or package.module:OBJECT)")] = None,
    description: Annotated[Path | None, typer.Option(
        metavar="FILE", help="a URDF or MJCF, or an example-robot-data robot's name (ur5, "
                             "panda): with --model, its description; alone, the engines "
                             "audited against each other")] = None,
    package_path: Annotated[list[Path] | None, typer.Option(
        "--package-path", metavar="DIR",
        help="where package://NAME/ paths are looked up (repeatable; then ROS_PACKAGE_PATH "
             "and installed description packages)")] = None,
    base: Annotated[str | None, typer.Option(
        metavar="fixed|free", help="without --model: the root fixed (a URDF's default) or "
                                   "free (an MJCF with a free joint is free)")] = None,
    out: Annotated[Path | None, typer.Option(
        "--out", metavar="DIR", help="with --description: write the figures and report.pdf "
                                     "here")] = None,
    force: ForceOpt = False,
) -> None:
    """The dynamics audit (L1/L2) of ROBOT, hand-rolled terms against each engine; of your
    own --model against its --description (L0-L3); or of a --description alone, MuJoCo,
    PyBullet and Pinocchio against each other.  Exit 0 when everything compared agrees,
    1 when a figure differs (the model, or an engine's reading of the file), 5 when
    nothing could be compared, 6 when the file itself is at fault (an engine refuses an
    impossible inertia) and everything that could be compared agrees; an engine that
    cannot represent a sound file is listed as not checked."""
    _check_run_options(None, None, samples=samples, seed=seed)
    if model is not None or description is not None:
        if robot is not None or description is None:
            raise UserError("audit either a built-in ROBOT, or a --description (with or "
                            "without --model)")
        from dynval.comparisons.own_model.audit import OUTCOMES
        from dynval.comparisons.own_model.run import audit_files

        res = audit_files(model, description, samples, seed, package_path or [], base)
        _print_own_audit(res, samples, seed, out)
        if out is not None:
            from dynval.comparisons.own_model.run import write_run
            from dynval.reports import build_report

            write_run(res, out, model or "-", samples, seed, force)
            _say(f"wrote {build_report(out)}")
        code, meaning = OUTCOMES[res.outcome]
        if code:
            _say(f"{res.label} against {res.description.name}: {meaning} (exit {code})")
            raise typer.Exit(code)
        return
    if robot is None:
        raise UserError("name a ROBOT to audit, or give --description (and --model)")
    from dynval.comparisons.ladder.registry import comparison

    comp = comparison(robot)
    from dynval.comparisons.run.descriptions import description_dir

    desc = description_dir(robot, comp.default_params, comp.default_params, Path("."))
    results = comp.full_audit(comp.default_params, desc, samples, seed)
    table = Table(
        "term",
        "equation",
        "form",
        "reference",
        "max rel error",
        "max abs error",
        "worst at",
        "verdict",
        title=f"{robot} audit, {samples} states, seed {seed}",
    )
    for r in results:
        verdict = "agrees" if r.passed else ("erratum" if r.form == "printed" else "DIFFERS")
        table.add_row(
            r.term,
            r.equation,
            r.form,
            r.reference,
            f"{r.max_rel_error:.2e}",
            f"{r.max_abs_error:.2e}",
            r.worst_name or "-",
            verdict,
        )
    _stdout().print(table)
    if any(not r.passed and r.form != "printed" for r in results):
        raise typer.Exit(1)


def _print_own_audit(res, samples: int, seed: int, out_dir: Path | None = None) -> None:
    """An audit's L0 summary, term table, L3 table, what was not checked, the notes, the
    findings and a screenful of failures in words (the rest are in the metric table,
    written to ``out_dir`` where given)."""
    out = _stdout()
    name = res.description.name
    out.print(f"engines compared with {res.label}: {', '.join(res.engines) or 'none'}")
    out.print(f"L0: {len(res.l0)} readings of {name} compared across engines, "
              f"{len(res.l0_failures)} differ")
    table = Table("term", "computed by", "reference", "error / scale", "max abs error",
                  "unit", "worst at", "verdict",
                  title=f"{res.label} vs {name}, {samples} states, seed {seed}")
    for r in res.results:
        table.add_row(escape(r.term), escape(r.equation), r.reference,
                      f"{r.max_rel_error:.2e}", f"{r.max_abs_error:.2e}", r.unit or "-",
                      escape(r.worst_name or "-"),
                      "agrees" if r.passed else "DIFFERS")
    if res.results:
        out.print(table)
    else:
        out.print(f"no term of {res.label} could be compared with an engine (see what was "
                  "not checked below)")
    if res.l3:
        swing = Table("step [s]", "comparison", "max |diff| [rad or m]", "at [s]",
                      "envelope there", "judged over [s]", "verdict",
                      title="L3: free swing (from rest; a free root from a seeded state)")
        for r in res.l3:
            swing.add_row(f"{r['step']:g}", r["comparison"], f"{r['max_abs']:.2e}",
                          f"{r['at']:g}" if "at" in r else "-",
                          "-" if r["tolerance"] is None else f"{r['tolerance']:.2g}",
                          f"{r['horizon']:g}" if "horizon" in r else "-", _l3_word(r))
        out.print(swing)
    said = [f"not checked: {line}" for line in res.unchecked]
    said += [f"note: {line}" for line in res.notes]
    failures, more = res.first_failures()
    lead = min(len(res.diagnoses), len(failures))  # what the failures point at, first
    said += failures[:lead] + [f"finding: {line}" for line in res.findings] + failures[lead:]
    for line in said:
        out.print(line, markup=False, highlight=False)
    if more:
        where = (f"{out_dir / 'metrics.parquet'} and {out_dir / 'report.pdf'}" if out_dir
                 else "metrics.parquet and the report (--out DIR writes them)")
        out.print(f"... and {more} more failing figure{'s' * (more != 1)}, all in {where}",
                  markup=False, highlight=False)


def _l3_word(row: dict) -> str:
    """An L3 row's verdict in one word."""
    from dynval.comparisons.own_model.audit import l3_passed

    if l3_passed(row):
        return "reported" if row["tolerance"] is None and "ratio_to_half_step" not in row \
            else "agrees"
    return f"known ({row['evidence']})" if row.get("evidence") else "DIFFERS"


@app.command()
@_user_errors
def corpus(
    source: Annotated[list[str] | None, typer.Option(
        "--source", metavar="example-robot-data|pybullet_data",
        help="where the descriptions come from (repeatable; default: both, where "
             "installed)")] = None,
    subset: Annotated[str | None, typer.Option(
        metavar="ci", help="a small fixed subset of pybullet_data (CI runs it)")] = None,
    samples: SamplesOpt = 200,
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    out: OutOpt = Path("dynval-out/corpus"),
    docs: Annotated[Path | None, typer.Option(
        metavar="FILE", help="also write the table there (docs/corpus.md)")] = None,
    variants: Annotated[bool, typer.Option(
        "--variants", help="also break a correct model of each URDF five ways (a mass, a "
                           "centre of mass, an axis, a welded child's mass, the sign of C v) "
                           "and check that each is caught")] = False,
    no_cache: NoCacheOpt = False,
) -> None:
    """Every robot description of example-robot-data and pybullet_data audited engine
    against engine (MuJoCo, PyBullet, Pinocchio), as 'dynval audit --description' audits
    one; writes corpus.json and corpus.md.  Exit 1 when a description does not pass or a
    broken variant is not caught."""
    import os

    from dynval.comparisons.own_model import corpus as corpus_
    from dynval.comparisons.run.tasks import default_cache_dir
    from dynval.engines import versions
    from dynval.engines.description_files import example_robot_data_robots
    from dynval.reports.corpus import markdown

    _check_run_options(workers, None, samples=samples, seed=seed)
    sources = tuple(source or [s for s in corpus_.SOURCES
                               if s != "example-robot-data" or example_robot_data_robots()])
    chosen = corpus_.select(sources, subset)
    command = "dynval corpus" + (f" --subset {subset}" if subset else "") + "".join(
        f" --source {s}" for s in source or [])
    if variants:
        command += " --variants"
    cache = None if no_cache else default_cache_dir()
    workers = workers or os.cpu_count() or 1
    with _cache_held(no_cache):
        with TaskProgress(console, "descriptions") as prog:
            rows = corpus_.run(chosen, samples, seed, workers, cache, prog.report)
        broken = []
        if variants:
            from dynval.comparisons.own_model import variants as variants_

            with TaskProgress(console, "broken variants") as prog:
                broken = variants_.run(chosen, samples, seed, workers, cache, prog.report)
    page = markdown(rows, "Robot descriptions from the wild, audited", command, versions())
    if variants:
        from dynval.reports.corpus import variants_markdown

        page += "\n" + variants_markdown(broken)
    for path in corpus_.write_tables(out, rows, broken, page, docs):
        _say(f"wrote {path}")
    audited = [r for r in rows if not r.error]
    bad = [r.name for r in audited if not r.passed]
    missed = [f"{r.name} [{r.variant}]" for r in broken if not r.error and not r.caught]
    if variants:
        _say(f"{sum(not r.error for r in broken) - len(missed)} of "
             f"{sum(not r.error for r in broken)} broken variants caught")
    _say(f"{len(audited) - len(bad)} of {len(audited)} audited descriptions pass"
         + (f"; {len(rows) - len(audited)} not audited" if len(rows) > len(audited) else ""))
    if bad or missed:
        raise typer.Exit(1)


@app.command()
@_user_errors
def validate(
    out: OutOpt = Path("dynval-out"),
    set_: SetOpt = None,
    robot: RobotOpt = None,
    scenario: ScenarioOpt = None,
    samples: SamplesOpt = 1000,
    seed: SeedOpt = 0,
    tier: TierOpt = "full",
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    no_cache: NoCacheOpt = False,
    force: ForceOpt = False,
) -> None:
    """Every robot, default scenarios, all engines, then the report."""
    import os

    from dynval.comparisons.run.tasks import default_cache_dir
    from dynval.reports import build_report
    from dynval.reports.figures import Prerender

    with _cache_held(no_cache):
        n, cache_dir = workers or os.cpu_count() or 1, None if no_cache else default_cache_dir()
        with Prerender(out, n, cache_dir) as ahead:  # each chapter's figures, once written
            metrics = _validate(out, set_, robot, scenario, samples, seed, tier, workers,
                                scheduler, no_cache, force, assembled=ahead.chapter)
        pdf = _checked_report(lambda: build_report(out, workers=n, cache_dir=cache_dir))
        _say(f"wrote {pdf}")
    line, failed = verdict_line(out, metrics)
    _say(line)
    if failed:
        raise typer.Exit(1)


def _checked_report(build: Callable[[], Path]) -> Path:
    """Build a report, then say how many of the drawn figures it read from the cache
    failed their content check and were drawn again, where any did (the cover says so
    too; the tasks' and chapters' count is the progress line's)."""

    before = _stored.failures()
    pdf = build()
    if _stored.failures() > before:
        _say(f"the report's figures: {_stored.failed_sentence(_stored.failures() - before)}")
    return pdf


def verdict_line(out: Path, metrics) -> tuple[str, int]:
    """One line of counts per rung verdict and of figures outside tolerance, and how many
    of those are not declared as known, explained differences."""
    import json

    from dynval.results import summary_verdict

    v = summary_verdict(json.loads((out / "summary.json").read_text()), metrics)
    line = (f"verdict: {v.rung_counts()} (rungs); {v.outside} figures outside tolerance, "
            f"{v.known} of them known differences" + v.statements_clause()
            + (f"; {v.unexplained} unexplained: exit 1" if v.unexplained else ""))
    return line, v.unexplained


def _warn_unused(robots: list[str], overrides: list[str] | None,
                 scenarios: list[str] | None) -> None:
    """Say which overrides what runs will not use (ladder.registry.unused_overrides)."""
    from dynval.comparisons.ladder.registry import unused_overrides

    for line in unused_overrides(robots, overrides or [], scenarios):
        _warn(line)


def _validate(out, set_, robot, scenario, samples, seed, tier="full", workers=None,
              scheduler=None, no_cache=False, force=False, assembled=None, perturb=()):
    from dynval.comparisons.run.validation import check_validation, run_validation

    robots = check_validation(robot, scenario, set_, samples, seed, tier, workers, scheduler)
    _warn_unused(robots, set_, scenario)
    with TaskProgress(console) as prog:
        metrics = run_validation(out, robot, scenario, [*(set_ or []), *perturb], samples,
                                 seed, tier=tier, workers=workers, scheduler=scheduler,
                                 cache=not no_cache, report=prog.report, force=force,
                                 assembled=assembled)
    return metrics


@app.command()
@_user_errors
def sweep(
    robot: str,
    scenario: Annotated[str, typer.Option("--scenario", help="the scenario to sweep")],
    vary: Annotated[list[str], typer.Option(
        "--vary", help="ROBOT.NAME=LO:HI:N: a parameter or scenario field and its values")],
    out: OutOpt = Path("dynval-out/sweep"),
    set_: SetOpt = None,
    tier: TierOpt = "full",
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    no_cache: NoCacheOpt = False,
    force: ForceOpt = False,
) -> None:
    """Run one scenario over a grid of parameter values, every implementation at every
    point; writes sweep.parquet and sweep.pdf (an interrupted sweep resumes from the
    cache)."""
    import os

    from dynval.comparisons.run.sweep import sweep as run_sweep
    from dynval.comparisons.run.tasks import default_cache_dir
    from dynval.reports.sweep import build_sweep_report

    _check_run_options(workers, scheduler, tier)
    from dynval.comparisons.run.manifest import verify

    with _cache_held(no_cache):
        with TaskProgress(console) as prog:
            table = run_sweep(out, robot, scenario, vary, set_ or [], tier,
                              workers=workers or os.cpu_count() or 1, scheduler=scheduler,
                              cache_dir=None if no_cache else default_cache_dir(),
                              report=prog.report, force=force)
        pdf = build_sweep_report(out, table, verify(out, kind="sweep"))
        _say(f"wrote {out / 'sweep.parquet'} ({len(table)} rows) and {pdf}")


@app.command()
@_user_errors
def report(out: OutOpt = Path("dynval-out")) -> None:
    """Build the PDF from the runs stored under --out."""
    import os

    from dynval.comparisons.run.manifest import verify
    from dynval.comparisons.run.tasks import default_cache_dir
    from dynval.reports import build_report
    from dynval.reports.pdf import ReportInputError

    try:
        if (out / "sweep.parquet").is_file():  # a sweep folder: its own section
            from dynval.comparisons.run.sweep import load
            from dynval.reports.sweep import build_sweep_report

            table, m = load(out)
            _say(f"wrote {build_sweep_report(out, table, m)}")
            return
        verify(out)
        pdf = _checked_report(lambda: build_report(out, workers=os.cpu_count() or 1,
                                                   cache_dir=default_cache_dir()))
    except ReportInputError as exc:
        raise UserError(str(exc)) from None
    _say(f"wrote {pdf}")


@app.command()
@_user_errors
def check(
    baseline: Annotated[Path | None, typer.Option(
        "--baseline", metavar="DIR", help="baselines to check against (default: the tier's "
                                         "shipped ones)")] = None,
    junit: Annotated[Path | None, typer.Option(
        "--junit", metavar="FILE.xml", help="also write the figures as JUnit XML")] = None,
    out: OutOpt = Path("dynval-out/check"),
    set_: SetOpt = None,
    robot: RobotOpt = None,
    scenario: ScenarioOpt = None,
    update: Annotated[bool, typer.Option("--update", help="rewrite the baselines")] = False,
    tier: TierOpt = "ci",
    run_dir: Annotated[Path | None, typer.Option(
        "--run", metavar="DIR",
        help="check the figures of a finished 'dynval validate --out DIR' instead of "
             "recomputing")] = None,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    no_cache: NoCacheOpt = False,
    model: Annotated[str | None, typer.Option(
        metavar="PATH.py:OBJECT",
        help="gate your own model instead of the built-in robots; baselines in --baseline "
             "(default ./dynval-baselines)")] = None,
    description: Annotated[Path | None, typer.Option(
        metavar="FILE", help="the --model's URDF or MJCF")] = None,
    force: ForceOpt = False,
) -> None:
    """Recompute the figures (the ci tier unless told otherwise) and exit 1 when one moved
    past its baseline."""
    from dynval.comparisons.run.check import (
        SPREAD_STEPS,
        finished_run,
        load_baselines,
        perturbed_overrides,
        spreads,
        subset_scope,
        write_baselines,
    )
    from dynval.robots import ROBOT_NAMES, robot_module

    _prepare_junit(junit)
    if run_dir is None:
        _check_run_options(workers, scheduler, tier)
    if model is not None or description is not None:
        if model is None or description is None or robot or run_dir is not None:
            raise UserError("check --model takes --description, and no --robot or --run")
        from dynval.comparisons.own_model.run import audit_files, rows_and_chapter
        from dynval.results import metrics_frame

        audit = audit_files(model, description, 200, 0)
        metrics = metrics_frame(rows_and_chapter(audit)[0])
        directory = baseline or Path("dynval-baselines")
        if update:
            for path in write_baselines(metrics, directory, tier):
                _say(f"wrote {path}")
            return
        _gate(metrics, load_baselines(directory, [audit.label]), (), directory, tier, junit)
        return
    for r in robot or []:
        robot_module(r)  # an unknown robot is named as such, not as a missing baseline
    robots = robot or list(ROBOT_NAMES)
    if run_dir is not None:
        if update:
            raise UserError("--update recomputes the figures; it does not take --run")
        metrics, tier = finished_run(run_dir)
        robots = robot or sorted(set(metrics["robot"]))
    directory = baseline
    if not update:
        base = load_baselines(directory, robots, tier)  # fail fast on a corrupt baseline
    if run_dir is None:
        with _cache_held(no_cache):
            metrics = _validate(out, set_, robots, scenario, 1000, 0, tier, workers,
                                scheduler, no_cache, force)
            if update:  # each figure's spread, from runs with every parameter moved
                moved = [_validate(out / f"spread{step:g}", set_, robots, scenario, 1000, 0,
                                   tier, workers, scheduler, no_cache, force,
                                   perturb=perturbed_overrides(robots, set_ or [], step))
                         for step in SPREAD_STEPS]
    if update:
        for path in write_baselines(metrics, directory, tier, spreads(metrics, moved)):
            _say(f"wrote {path}")
        return
    skipped, partial = subset_scope(robots, scenario, metrics, base)
    _gate(metrics, base, skipped, directory, tier, junit, partial)


def _gate(metrics, base: dict, skipped: tuple[str, ...], directory: Path | None, tier: str,
          junit: Path | None, partial: tuple[str, ...] = ()) -> None:
    """Every figure against its baseline: the table of those that moved; exit 1 if any."""
    from dynval.comparisons.run.check import (
        KEY,
        REGRESSIONS,
        SPREAD_DELTA,
        baselines_named,
        compare_to_baseline,
        write_junit,
    )

    findings = compare_to_baseline(metrics, base, skipped, partial)
    not_run = sum(f.status == "not run" for f in findings)
    if not_run:
        _say(f"{not_run} figures of studies this subset ran in part were not run "
             "(a check without --scenario runs them all)")
    findings = [f for f in findings if f.status != "not run"]
    bad = [f for f in findings if f.status in REGRESSIONS]
    loose = sum(f.status == "ill-posed" for f in findings)
    if loose:
        _say(f"{loose} figures are reported, not gated: a change of {SPREAD_DELTA:g} of the "
             "parameters moved each by its own size when the baselines were written "
             "(ill-posed: amplified round-off)")
    table = Table("status", *KEY, "baseline", "current",
                  title=f"{len(bad)} of {len(findings)} figures moved")
    for f in bad:
        table.add_row(f.status, *[str(k) for k in f.key], _fmt(f.baseline), _fmt(f.current))
    if bad:
        _stdout().print(table)
    _say(f"{len(bad)} of {len(findings)} figures moved, failed, went missing or "
         f"are new against {baselines_named(directory, tier)}")
    if junit:
        write_junit(findings, junit)
    if bad:
        raise typer.Exit(1)


def _fmt(v) -> str:
    return "-" if v is None else f"{v:.6g}"


cache_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                        help="The results and compiled-code caches: info, verify, prune, "
                             "clear.")
app.add_typer(cache_app, name="cache")


@app.command()
@_user_errors
def warmup(robot: RobotOpt = None, workers: WorkersOpt = None) -> None:
    """Compile dynval's code once, on every core, so that the first validate or check on
    this machine does not: runs the robots' ci-tier tasks and keeps only the compiled code
    (no results are cached)."""
    import os

    from dynval.comparisons.run import cache
    from dynval.comparisons.run.warmup import WarmupError
    from dynval.comparisons.run.warmup import warmup as run_warmup
    from dynval.robots import robot_module

    for r in robot or []:
        robot_module(r)
    _check_run_options(workers, None)
    try:
        with TaskProgress(console) as prog:
            run_warmup(workers or os.cpu_count() or 1, robot, prog.report)
    except WarmupError as exc:
        raise UserError(str(exc)) from None
    _, numba_root, current = _cache_places()
    held = next((f for f in cache.numba_folders(numba_root, current) if f.current), None)
    _say(f"compiled code in {numba_root / current}: {cache.human(held.size if held else 0)}")


def _cache_places():
    from dynval import _numba_cache
    from dynval.comparisons.run.tasks import default_cache_dir

    return default_cache_dir(), _numba_cache.cache_root(), _numba_cache.loaded_digest()


@cache_app.command("info")
@_user_errors
def cache_info() -> None:
    """What the caches hold: the results (tasks, assembled chapters, drawn figures) and the
    compiled code of each source, with their sizes."""
    import datetime

    from dynval.comparisons.run import cache

    results, numba_root, current = _cache_places()
    found = cache.entries(results)
    total = sum(e.size for e in found)
    out = _stdout()
    out.print(f"results cache {results}: {len(found)} entries, {cache.human(total)} "
              f"(cap {cache.human(_cache_cap())}, DYNVAL_CACHE_MAX_SIZE)", markup=False)
    by_kind: dict[str, list] = {}
    for e in found:
        by_kind.setdefault(cache.kind(results, e), []).append(e)
    for k, es in sorted(by_kind.items()):
        out.print(f"  {k}: {len(es)} entries, {cache.human(sum(e.size for e in es))}",
                  markup=False)
    if found:
        oldest = datetime.datetime.fromtimestamp(found[0].used).strftime("%Y-%m-%d %H:%M")
        out.print(f"  least recently used: {oldest}", markup=False)
    left = cache.leftovers(results)
    if left:
        out.print(f"  unfinished writes (*.tmp, a writer stopped or a full disk): {len(left)} "
                  f"files, {cache.human(sum(e.size for e in left))}; prune removes those an "
                  "hour old, clear all", markup=False)
    folders = cache.numba_folders(numba_root, current)
    out.print(f"compiled code {numba_root}: {len(folders)} source versions, "
              f"{cache.human(sum(f.size for f in folders))}", markup=False)
    for f in folders:
        out.print(f"  {f.path.name}: {cache.human(f.size)}"
                  + (" (the source installed now)" if f.current else " (an older source)"),
                  markup=False)


@cache_app.command("prune")
@_user_errors
def cache_prune(
    older_than: Annotated[str | None, typer.Option(
        "--older-than", metavar="AGE", help="remove results unused for AGE (7d, 12h, 30m)")] = None,
    max_size: Annotated[str | None, typer.Option(
        "--max-size", metavar="SIZE",
        help="then the least recently used until SIZE is left (500M, 2G; default: the cap)")
    ] = None,
) -> None:
    """Remove the compiled code of older sources, results unused for --older-than, the
    least recently used results beyond --max-size (default: DYNVAL_CACHE_MAX_SIZE or 2G)
    and unfinished writes (*.tmp) an hour old. Exit 2, saying which, where a file could
    not be removed (a read-only cache)."""
    from dynval.comparisons.run import cache

    try:
        age = None if older_than is None else cache.parse_age(older_than)
        size = _cache_cap() if max_size is None else cache.parse_size(max_size)
    except cache.CacheOptionError as exc:
        raise UserError(str(exc)) from None
    results, numba_root, current = _cache_places()
    with _removing():
        n, freed = cache.prune(results, age, size)
        left, _ = cache.remove_leftovers(results)
        m, freed_code = cache.prune_numba(numba_root, current)
    _say(f"removed {n} results entries ({cache.human(freed)}) and the compiled code of {m} "
         f"older sources ({cache.human(freed_code)})"
         + (f"; and {left} unfinished writes (*.tmp)" if left else ""))


@cache_app.command("clear")
@_user_errors
def cache_clear() -> None:
    """Remove every cached result, every unfinished write (*.tmp) and all compiled code
    (the next run recomputes and recompiles everything). Exit 2, saying which, where a
    file could not be removed (a read-only cache)."""
    from dynval.comparisons.run import cache

    results, numba_root, _ = _cache_places()
    with _removing():
        n, freed = cache.clear(results, numba_root)
    _say(f"removed {n} entries, unfinished writes and folders ({cache.human(freed)}) from "
         f"{results} and {numba_root}")


@cache_app.command("verify")
@_user_errors
def cache_verify(remove: Annotated[bool, typer.Option(
        "--remove", help="delete the entries that fail their check (default: only list them)")
] = False) -> None:
    """Read every results entry (task results, assembled chapters, drawn figures, import
    lists) and check it against the content hash written with it; list those that fail
    (path and kind). A run recomputes a failing entry when it reads it; --remove deletes
    them now. Exit 0 when every entry passes, 1 when any failed (removed or not)."""
    from dynval.comparisons.run import cache

    results, _, _ = _cache_places()
    found, bad = cache.verify(results)
    out = _stdout()
    out.print(f"checked {len(found)} results entries in {results}: "
              + (f"{len(bad)} failed their check" if bad else "every one passed its check"),
              markup=False)
    for e, why in bad:
        out.print(f"  {e.path} ({cache.kind(results, e)}): {why}", markup=False)
    if bad and remove:
        with _removing():
            cache.remove([e for e, _ in bad])
        out.print(f"removed the {len(bad)} that failed", markup=False)
    elif bad:
        out.print("a run recomputes each as it reads it; `dynval cache verify --remove` "
                  "deletes them now", markup=False)
    if bad:
        raise typer.Exit(1)


@contextlib.contextmanager
def _removing() -> Iterator[None]:
    """Around the removal of cache files: one that cannot be removed (a read-only cache)
    is the user's to fix, said in one sentence (exit 2), never a traceback."""
    from dynval.comparisons.run.cache import CacheRemoveError

    try:
        yield
    except CacheRemoveError as exc:
        raise UserError(str(exc)) from None


def main() -> None:
    interrupts.watch()  # a Ctrl-C lost on its way still keeps a run from completing
    app()


if __name__ == "__main__":
    main()
