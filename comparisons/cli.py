"""The ``dynval`` command line (the contract in SPEC.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Validate hand-derived robot models against MuJoCo, PyBullet, Pinocchio.",
)
console = Console(stderr=True, soft_wrap=True)  # one error, one line: no hard wraps
OutOpt = Annotated[Path, typer.Option("--out", help="output folder")]
SetOpt = Annotated[list[str] | None, typer.Option("--set", help="ROBOT.PARAMETER=VALUE override")]


class UserError(Exception):
    """A mistake by the user: printed as one sentence, exit code 2."""


def _progress() -> tuple[Progress, callable]:
    prog = Progress(
        TextColumn("{task.description:<48}"),
        BarColumn(),
        TextColumn("{task.percentage:>5.1f} %"),
        TimeElapsedColumn(),
        console=console,
        disable=not console.is_terminal and False,
    )
    tasks: dict[str, int] = {}

    def update(label: str, fraction: float) -> None:
        if label not in tasks:
            tasks[label] = prog.add_task(label, total=1.0)
        prog.update(tasks[label], completed=fraction)

    return prog, update


def _user_errors(fn):
    """Turn expected failures into one clear sentence and a non-zero exit."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from comparisons.check import BaselineError
        from comparisons.harness import DivergenceError
        from comparisons.registry import BadOverrideError
        from engines import DescriptionError, UnknownEngineError
        from handrolled import ModelInputError
        from robots import UnknownRobotError

        try:
            return fn(*args, **kwargs)
        except (
            UnknownRobotError,
            UnknownEngineError,
            BadOverrideError,
            DescriptionError,
            BaselineError,
            UserError,
            ModelInputError,
        ) as exc:
            console.print(f"[red]error:[/red] {exc}")
            raise typer.Exit(2) from None
        except DivergenceError as exc:
            console.print(f"[red]error:[/red] {exc}; no result was written as complete")
            raise typer.Exit(3) from None
        except KeyError as exc:  # unknown scenario and similar lookups
            console.print(f"[red]error:[/red] {exc.args[0] if exc.args else exc}")
            raise typer.Exit(2) from None

    return wrapper


@app.command("list")
def list_cmd() -> None:
    """Robots, their scenarios and the engines."""
    from comparisons.registry import comparison
    from engines import ENGINE_NAMES, TERM_ENGINES
    from robots import ROBOT_NAMES

    table = Table("robot", "scenario", "title")
    for robot in ROBOT_NAMES:
        for name, sc in comparison(robot).scenarios.items():
            table.add_row(robot, name, sc.title)
    Console().print(table)
    Console().print(
        f"simulation engines: {', '.join(ENGINE_NAMES)}; "
        f"dynamics-term engines: {', '.join(TERM_ENGINES)}"
    )


@app.command()
@_user_errors
def run(
    robot: str,
    scenario: Annotated[str | None, typer.Option()] = None,
    engine: Annotated[list[str] | None, typer.Option("--engine")] = None,
    contact: Annotated[str, typer.Option()] = "shared",
    out: OutOpt = Path("dynval-out"),
    set_: SetOpt = None,
) -> None:
    """Run one scenario of ROBOT with the hand-rolled model and the chosen engines."""
    from comparisons import harness
    from comparisons.registry import apply_overrides, comparison, description_dir
    from engines import check_engine

    comp = comparison(robot)
    if contact not in comp.contact_modes:
        raise UserError(
            f"unknown contact mode {contact!r}; use one of {', '.join(comp.contact_modes)}"
        )
    sc_name = scenario or next(iter(comp.scenarios))
    if sc_name not in comp.scenarios:
        raise UserError(
            f"unknown scenario {sc_name!r} for {robot}; known: {', '.join(comp.scenarios)}"
        )
    engines = [check_engine(e) for e in (engine or ["mujoco", "pybullet"])]
    impls = [i for i in ["handrolled", *engines] if comp.supports(i, contact)]
    refused = [e for e in engines if e not in impls]
    if engine and refused:
        raise UserError(f"{robot}: {refused[0]} does not run with {contact} contact; "
                        f"use --contact {'native' if contact == 'shared' else 'shared'}")
    for e in refused:
        console.print(f"{robot}: {e} runs with other contact than {contact!r}; not run")
    params = apply_overrides(robot, comp.default_params, set_ or [])
    desc = description_dir(robot, params, comp.default_params, out)
    prog, update = _progress()
    wide = {}
    with prog:
        for impl in impls:
            wide[impl] = comp.run_one(
                params,
                comp.scenarios[sc_name],
                impl,
                contact,
                desc,
                progress=lambda f, i=impl: update(f"{robot} {sc_name} {i}", f),
            )
    d = out / "runs" / robot / sc_name / contact
    d.mkdir(parents=True, exist_ok=True)
    harness.tidy(wide).to_parquet(d / "traces.parquet", index=False)
    console.print(f"wrote {d / 'traces.parquet'}")


@app.command()
@_user_errors
def audit(
    robot: str,
    samples: Annotated[int, typer.Option()] = 1000,
    seed: Annotated[int, typer.Option()] = 0,
) -> None:
    """The dynamics audit (L1/L2) of ROBOT: hand-rolled terms against each engine."""
    from comparisons.registry import comparison

    comp = comparison(robot)
    if samples < 1:
        raise UserError("--samples must be at least 1")
    from comparisons.registry import description_dir

    desc = description_dir(robot, comp.default_params, comp.default_params, Path("."))
    results = comp.audit(comp.default_params, desc, samples, seed)
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
        verdict = "pass" if r.passed else ("erratum" if r.form == "printed" else "FAIL")
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
    Console().print(table)
    if any(not r.passed and r.form != "printed" for r in results):
        raise typer.Exit(1)


@app.command()
@_user_errors
def validate(
    out: OutOpt = Path("dynval-out"),
    set_: SetOpt = None,
    robot: Annotated[list[str] | None, typer.Option("--robot")] = None,
    scenario: Annotated[list[str] | None, typer.Option("--scenario")] = None,
    samples: Annotated[int, typer.Option()] = 1000,
    seed: Annotated[int, typer.Option()] = 0,
) -> None:
    """Every robot, default scenarios, all engines, then the report."""
    _validate(out, set_, robot, scenario, samples, seed)
    from reports import build_report

    pdf = build_report(out)
    console.print(f"wrote {pdf}")


def _validate(out, set_, robot, scenario, samples, seed):
    from comparisons.pipeline import validate_all
    from comparisons.registry import comparison
    from robots import ROBOT_NAMES

    robots = robot or list(ROBOT_NAMES)
    known = {r: comparison(r).scenarios for r in robots}
    for s in scenario or []:
        # with --robot each named robot must have it; without, at least one robot must
        owners = [r for r in robots if s in known[r]]
        missing = [r for r in robots if s not in known[r]]
        if not owners:
            raise UserError(f"no robot has a scenario {s!r}; 'dynval list' shows them all")
        if robot and missing:
            r = missing[0]
            raise UserError(
                f"unknown scenario {s!r} for {r}; known: {', '.join(known[r])}"
            )
    prog, update = _progress()
    with prog:
        metrics = validate_all(out, update, robot, scenario, set_ or [], samples, seed)
    return metrics


@app.command()
@_user_errors
def report(out: OutOpt = Path("dynval-out")) -> None:
    """Build the PDF from the runs stored under --out."""
    from reports import build_report
    from reports.pdf import ReportInputError

    try:
        pdf = build_report(out)
    except ReportInputError as exc:
        raise UserError(str(exc)) from None
    console.print(f"wrote {pdf}")


@app.command()
@_user_errors
def check(
    baseline: Annotated[Path | None, typer.Option("--baseline")] = None,
    junit: Annotated[Path | None, typer.Option("--junit")] = None,
    out: OutOpt = Path("dynval-out/check"),
    set_: SetOpt = None,
    robot: Annotated[list[str] | None, typer.Option("--robot")] = None,
    scenario: Annotated[list[str] | None, typer.Option("--scenario")] = None,
    update: Annotated[bool, typer.Option("--update", help="rewrite the baselines")] = False,
) -> None:
    """Recompute the figures and exit 1 when one moved past its baseline."""
    from comparisons.check import (
        BASELINE_DIR,
        compare_to_baseline,
        load_baselines,
        write_baselines,
        write_junit,
    )
    from robots import ROBOT_NAMES

    directory = baseline or BASELINE_DIR
    robots = robot or list(ROBOT_NAMES)
    if not update:
        base = load_baselines(directory, robots)  # fail fast on a corrupt baseline
    metrics = _validate(out, set_, robots, scenario, 1000, 0)
    if update:
        for path in write_baselines(metrics, directory):
            console.print(f"wrote {path}")
        return
    from comparisons.registry import comparison

    skipped = tuple(s for r in robots for s in comparison(r).scenarios
                    if scenario and s not in scenario)
    findings = compare_to_baseline(metrics, base, skipped)
    bad = [f for f in findings if f.status != "ok"]
    table = Table(
        "status",
        "robot",
        "scenario",
        "variant",
        "signal",
        "candidate",
        "metric",
        "baseline",
        "current",
        title=f"{len(bad)} of {len(findings)} figures moved",
    )
    for f in bad:
        table.add_row(
            f.status,
            *[str(k) for k in f.key[:4]],
            str(f.key[5]),
            str(f.key[6]),
            _fmt(f.baseline),
            _fmt(f.current),
        )
    Console().print(table)
    if junit:
        write_junit(findings, junit)
    if bad:
        raise typer.Exit(1)


def _fmt(v) -> str:
    return "-" if v is None else f"{v:.6g}"


def main() -> None:
    app()


if __name__ == "__main__":
    main()
