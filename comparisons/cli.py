"""The ``dynval`` command line (the contract in SPEC.md): each command's options, parsed
and handed to its function in ``comparisons/commands/``, whose exit code it exits with;
an expected failure becomes one sentence and its exit code, and ``--set`` typed
overrides, in the wrapper every command runs in (commands.exits.user_errors).  The
defaults of the audit states are declared once, in run.defaults."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from dynval.comparisons.commands import options as opt
from dynval.comparisons.commands.exits import EXIT_INFRASTRUCTURE, UserError, user_errors
from dynval.comparisons.run import interrupts

__all__ = ["EXIT_INFRASTRUCTURE", "UserError", "app", "main"]

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
cache_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                        help="The results and compiled-code caches: info, verify, prune, "
                             "clear.")
app.add_typer(cache_app, name="cache")


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


@app.command("list")
@user_errors
def list_cmd() -> int:
    """Robots, their scenarios, the engines, and every parameter with its unit and range."""
    from dynval.comparisons.commands.validation import listing

    return listing()


@app.command()
@user_errors
def run(
    robot: str,
    scenario: Annotated[str | None, typer.Option()] = None,
    engine: Annotated[list[str] | None, typer.Option("--engine")] = None,
    contact: Annotated[str, typer.Option()] = "shared",
    out: opt.OutOpt = Path("dynval-out/run"),
    set_: opt.SetOpt = None,
    force: opt.ForceOpt = False,
) -> int:
    """Run one scenario of ROBOT with the hand-rolled model and the chosen engines."""
    from dynval.comparisons.commands.validation import run_one

    return run_one(robot, scenario, engine, contact, out, set_ or [], force)


@app.command()
@user_errors
def audit(
    robot: Annotated[str | None, typer.Argument(help="a built-in robot")] = None,
    samples: opt.SamplesOpt = opt.ROBOT_SAMPLES,
    seed: opt.SeedOpt = opt.SEED,
    model: opt.ModelOpt = None,
    description: opt.DescriptionOpt = None,
    package_path: opt.PackagePathOpt = None,
    base: opt.BaseOpt = None,
    out: opt.AuditOutOpt = None,
    force: opt.ForceOpt = False,
) -> int:
    """The dynamics audit (L1/L2) of ROBOT, hand-rolled terms against each engine; of your
    own --model against its --description (L0-L3); or of a --description alone, MuJoCo,
    PyBullet, Pinocchio and Drake against each other.  Exit 0 when everything compared agrees,
    1 when a figure differs (the model, or an engine's reading of the file), 5 when
    nothing could be compared, 6 when the file itself is at fault (an engine refuses an
    impossible inertia) and everything that could be compared agrees; an engine that
    cannot represent a sound file is listed as not checked."""
    from dynval.comparisons.commands.audit import audit as run_audit

    return run_audit(robot, samples, seed, model, description, package_path or [], base, out,
                     force)


@app.command()
@user_errors
def corpus(
    source: opt.SourceOpt = None,
    subset: opt.SubsetOpt = None,
    samples: opt.SamplesOpt = opt.MODEL_SAMPLES,
    seed: opt.SeedOpt = opt.SEED,
    workers: opt.WorkersOpt = None,
    out: opt.OutOpt = Path("dynval-out/corpus"),
    docs: opt.DocsOpt = None,
    mutants: opt.CorpusMutantsOpt = False,
    no_cache: opt.NoCacheOpt = False,
) -> int:
    """Every robot description of example-robot-data and pybullet_data audited engine
    against engine (MuJoCo, PyBullet, Pinocchio, Drake), as 'dynval audit --description' audits
    one; writes corpus.json and corpus.md.  Exit 1 when a description does not pass or a
    visible mutant is not caught."""
    from dynval.comparisons.commands.corpus import corpus as run_corpus

    return run_corpus(source, subset, samples, seed, workers, out, docs, mutants, no_cache)


@app.command()
@user_errors
def validate(
    out: opt.OutOpt = Path("dynval-out"),
    set_: opt.SetOpt = None,
    robot: opt.RobotOpt = None,
    scenario: opt.ScenarioOpt = None,
    samples: opt.SamplesOpt = opt.ROBOT_SAMPLES,
    seed: opt.SeedOpt = opt.SEED,
    tier: opt.TierOpt = "full",
    workers: opt.WorkersOpt = None,
    scheduler: opt.SchedulerOpt = None,
    no_cache: opt.NoCacheOpt = False,
    force: opt.ForceOpt = False,
    mutants: opt.MutantsOpt = None,
) -> int:
    """Every robot, default scenarios, all engines, then the report."""
    from dynval.comparisons.commands.validation import validate as run_validate

    return run_validate(out, set_ or [], robot, scenario, samples, seed, tier, workers,
                        scheduler, no_cache, force, mutants)


@app.command()
@user_errors
def sweep(
    robot: str,
    scenario: Annotated[str, typer.Option("--scenario", help="the scenario to sweep")],
    vary: Annotated[list[str], typer.Option(
        "--vary", help="ROBOT.NAME=LO:HI:N: a parameter or scenario field and its values")],
    out: opt.OutOpt = Path("dynval-out/sweep"),
    set_: opt.SetOpt = None,
    tier: opt.TierOpt = "full",
    workers: opt.WorkersOpt = None,
    scheduler: opt.SchedulerOpt = None,
    no_cache: opt.NoCacheOpt = False,
    force: opt.ForceOpt = False,
) -> int:
    """Run one scenario over a grid of parameter values, every implementation at every
    point; writes sweep.parquet and sweep.pdf (an interrupted sweep resumes from the
    cache)."""
    from dynval.comparisons.commands.validation import sweep as run_sweep

    return run_sweep(robot, scenario, vary, out, set_ or [], tier, workers, scheduler,
                     no_cache, force)


@app.command()
@user_errors
def report(out: opt.OutOpt = Path("dynval-out")) -> int:
    """Build the PDF from the runs stored under --out."""
    from dynval.comparisons.commands.validation import report as build

    return build(out)


@app.command()
@user_errors
def check(
    baseline: opt.BaselineOpt = None,
    junit: opt.JunitOpt = None,
    out: opt.OutOpt = Path("dynval-out/check"),
    set_: opt.SetOpt = None,
    robot: opt.RobotOpt = None,
    scenario: opt.ScenarioOpt = None,
    update: opt.UpdateOpt = False,
    tier: opt.TierOpt = "ci",
    run_dir: opt.RunDirOpt = None,
    workers: opt.WorkersOpt = None,
    scheduler: opt.SchedulerOpt = None,
    no_cache: opt.NoCacheOpt = False,
    model: opt.GateModelOpt = None,
    description: opt.GateDescriptionOpt = None,
    samples: opt.CheckSamplesOpt = None,
    seed: opt.SeedOpt = opt.SEED,
    force: opt.ForceOpt = False,
) -> int:
    """Recompute the figures (the ci tier unless told otherwise) and exit 1 when one moved
    past its baseline."""
    from dynval.comparisons.commands.check import check as run_check

    return run_check(baseline, junit, out, set_ or [], robot, scenario, update, tier, run_dir,
                     workers, scheduler, no_cache, model, description, samples, seed, force)


@app.command()
@user_errors
def warmup(robot: opt.RobotOpt = None, workers: opt.WorkersOpt = None) -> int:
    """Compile dynval's code once, on every core, so that the first validate or check on
    this machine does not: runs the robots' ci-tier tasks and keeps only the compiled code
    (no results are cached)."""
    from dynval.comparisons.commands.caches import warmup as compile_ahead

    return compile_ahead(robot, workers)


@cache_app.command("info")
@user_errors
def cache_info() -> int:
    """What the caches hold: the results (tasks, assembled chapters, drawn figures) and the
    compiled code of each source, with their sizes."""
    from dynval.comparisons.commands.caches import info

    return info()


@cache_app.command("prune")
@user_errors
def cache_prune(
    older_than: opt.OlderThanOpt = None,
    max_size: opt.MaxSizeOpt = None,
) -> int:
    """Remove the compiled code of older sources, results unused for --older-than, the
    least recently used results beyond --max-size (default: DYNVAL_CACHE_MAX_SIZE or 2G)
    and unfinished writes (*.tmp) an hour old. Exit 2, saying which, where a file could
    not be removed (a read-only cache)."""
    from dynval.comparisons.commands.caches import prune

    return prune(older_than, max_size)


@cache_app.command("clear")
@user_errors
def cache_clear() -> int:
    """Remove every cached result, every unfinished write (*.tmp) and all compiled code
    (the next run recomputes and recompiles everything). Exit 2, saying which, where a
    file could not be removed (a read-only cache)."""
    from dynval.comparisons.commands.caches import clear

    return clear()


@cache_app.command("verify")
@user_errors
def cache_verify(remove: Annotated[bool, typer.Option(
        "--remove", help="delete the entries that fail their check (default: only list them)")
] = False) -> int:
    """Read every results entry (task results, assembled chapters, drawn figures, import
    lists) and check it against the content hash written with it; list those that fail
    (path and kind). A run recomputes a failing entry when it reads it; --remove deletes
    them now. Exit 0 when every entry passes, 1 when any failed (removed or not)."""
    from dynval.comparisons.commands.caches import verify

    return verify(remove)


def main() -> None:
    interrupts.watch()  # a Ctrl-C lost on its way still keeps a run from completing
    app()


if __name__ == "__main__":
    main()
