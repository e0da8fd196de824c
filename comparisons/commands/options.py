"""The options several commands share, declared once: their flags, help and parsing
(``--out`` is refused where a run's files would land among everything else)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from dynval.comparisons.run.defaults import MODEL_SAMPLES, ROBOT_SAMPLES, SEED

__all__ = ["MODEL_SAMPLES", "ROBOT_SAMPLES", "SEED"]  # the defaults the commands declare


def out_folder(text: str | Path) -> Path:
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
                                      parser=out_folder)]
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
CheckSamplesOpt = Annotated[int | None, typer.Option(
    "--samples", metavar="N", show_default=False,
    help=f"audit states (at least 1; default: {ROBOT_SAMPLES} for the robots, "
         f"{MODEL_SAMPLES} for --model, as the shipped baselines were computed; figures "
         "computed from other states move against those baselines)")]
ForceOpt = Annotated[bool, typer.Option(
    "--force", help="overwrite results files in --out that no dynval run wrote")]
MutantsOpt = Annotated[str | None, typer.Option(
    "--mutants", metavar="all|NAME,...",
    help="also run each declared mutant of the hand-rolled models (all, or names) and "
         "show which rows catch it (mutants.parquet, the report's mutation table)")]
NoCacheOpt = Annotated[bool, typer.Option(
    "--no-cache", help="recompute every task (the results cache is neither read nor written)")]

# dynval audit
ModelOpt = Annotated[str | None, typer.Option(
    metavar="PATH.py:OBJECT", help="your own model (or package.module:OBJECT)")]
DescriptionOpt = Annotated[Path | None, typer.Option(
    metavar="FILE", help="a URDF or MJCF, or an example-robot-data robot's name (ur5, "
                         "panda): with --model, its description; alone, the engines "
                         "audited against each other")]
PackagePathOpt = Annotated[list[Path] | None, typer.Option(
    "--package-path", metavar="DIR",
    help="where package://NAME/ paths are looked up (repeatable; then ROS_PACKAGE_PATH "
         "and installed description packages)")]
BaseOpt = Annotated[str | None, typer.Option(
    metavar="fixed|free", help="without --model: the root fixed (a URDF's default) or "
                               "free (an MJCF with a free joint is free)")]
AuditOutOpt = Annotated[Path | None, typer.Option(
    "--out", metavar="DIR", help="with --description: write the figures and report.pdf "
                                 "here")]
# dynval corpus
SourceOpt = Annotated[list[str] | None, typer.Option(
    "--source", metavar="example-robot-data|pybullet_data|gymnasium|dm_control",
    help="where the descriptions come from (repeatable; default: every one installed)")]
SubsetOpt = Annotated[str | None, typer.Option(
    metavar="ci", help="a small fixed subset of pybullet_data and gymnasium (CI runs it)")]
DocsOpt = Annotated[Path | None, typer.Option(
    metavar="FILE", help="also write the table there (docs/corpus.md)")]
CorpusMutantsOpt = Annotated[bool, typer.Option(
    "--mutants", help="also break a correct model of each description ten ways (a mass, a centre "
                      "of mass, an axis, a welded child's mass or its inertia's axes, an "
                      "inertia's rotation, the root's mass, the sign of C v, an armature, "
                      "a damping) and check that each visible one is caught")]
# dynval check
BaselineOpt = Annotated[Path | None, typer.Option(
    "--baseline", metavar="DIR", help="baselines to check against (default: the tier's "
                                     "shipped ones)")]
JunitOpt = Annotated[Path | None, typer.Option(
    "--junit", metavar="FILE.xml", help="also write the figures as JUnit XML")]
UpdateOpt = Annotated[bool, typer.Option("--update", help="rewrite the baselines")]
RunDirOpt = Annotated[Path | None, typer.Option(
    "--run", metavar="DIR",
    help="check the figures of a finished 'dynval validate --out DIR' instead of "
         "recomputing")]
GateModelOpt = Annotated[str | None, typer.Option(
    metavar="PATH.py:OBJECT",
    help="gate your own model instead of the built-in robots; baselines in --baseline "
         "(default ./dynval-baselines)")]
GateDescriptionOpt = Annotated[Path | None, typer.Option(
    metavar="FILE", help="the --model's URDF or MJCF")]
# dynval cache prune
OlderThanOpt = Annotated[str | None, typer.Option(
    "--older-than", metavar="AGE", help="remove results unused for AGE (7d, 12h, 30m)")]
MaxSizeOpt = Annotated[str | None, typer.Option(
    "--max-size", metavar="SIZE",
    help="then the least recently used until SIZE is left (500M, 2G; default: the cap)")
    ]
