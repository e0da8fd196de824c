"""The exit code and the one sentence of each expected failure of a command (SPEC's
command-line contract): a mistake in the command or its input is 2, a run that diverged
3, the machine or the cluster 4, an interruption 130 or 143. A failure not listed here is
a bug in dynval and keeps its traceback."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import typer

from dynval import _stored
from dynval.comparisons.commands.terminal import error
from dynval.comparisons.run import interrupts

if TYPE_CHECKING:
    from dynval.comparisons.ladder.overrides import Override

EXIT_INPUT = 2
EXIT_DIVERGED = 3
EXIT_INFRASTRUCTURE = 4  # the machine or the cluster failed, not the input or a figure


class UserError(Exception):
    """A mistake by the user: printed as one sentence, exit code 2."""


def _input_errors() -> tuple[type[BaseException], ...]:
    """The exceptions that are the user's to fix (imported here, when a command failed,
    so that a command's start pays for none of their modules)."""
    from dynval.comparisons.ladder.overrides import BadOverrideError
    from dynval.comparisons.run.check import BaselineError
    from dynval.comparisons.run.manifest import ForeignFileError, IncompleteRunError
    from dynval.comparisons.run.options import RunOptionError
    from dynval.comparisons.run.tasks import SourceChangedError
    from dynval.engines import DescriptionError, UnknownEngineError
    from dynval.model import ModelError
    from dynval.plugins import PluginError, UnknownRobotError

    return (UnknownRobotError, PluginError, UnknownEngineError, BadOverrideError, DescriptionError,
            BaselineError, UserError, ModelError, IncompleteRunError, ForeignFileError,
            SourceChangedError, RunOptionError)


def overridden(overrides: Sequence[Override] | None) -> str:
    """Where a run with overrides could not go on, the overrides it ran with: the likely
    cause, named (a stiffness of 1e308 shows up as a foot out of reach)."""
    return f" (this run's overrides: {', '.join(map(str, overrides))})" if overrides else ""


def failure(exc: BaseException, overrides: Sequence[Override] | None = None
            ) -> tuple[int, str] | None:
    """The exit code and sentence for ``exc``, raised by a command run with
    ``overrides``; None where it is not an expected failure (re-raise it)."""
    from dynval.comparisons.ladder.harness import DivergenceError
    from dynval.comparisons.run.tasks import InfrastructureError, WorkerDiedError, interrupted
    from dynval.handrolled import ModelInputError

    if interrupted(exc) or interrupts.received():  # an error after a Ctrl-C is its doing
        code = interrupts.exit_code(exc)
        return code, (f"{'terminated' if code == 143 else 'interrupted'}: nothing of this run "
                      "was written as complete")
    if isinstance(exc, _input_errors()):
        return EXIT_INPUT, str(exc)
    if isinstance(exc, ModelInputError):
        return EXIT_INPUT, f"{exc}{overridden(overrides)}"
    if isinstance(exc, DivergenceError):
        return EXIT_DIVERGED, f"{exc}{overridden(overrides)}; no result was written as complete"
    if isinstance(exc, WorkerDiedError):  # the machine's failure, not the run's result
        return EXIT_INFRASTRUCTURE, f"{exc}; no result was written as complete"
    if isinstance(exc, InfrastructureError):
        return EXIT_INFRASTRUCTURE, str(exc)
    if isinstance(exc, KeyError):  # unknown scenario and similar lookups
        return EXIT_INPUT, str(exc.args[0] if exc.args else exc)
    if isinstance(exc, OSError):
        if exc.errno not in _stored.UNWRITABLE:  # not the file system refusing a write
            return None
        return EXIT_INFRASTRUCTURE, (f"cannot write {exc.filename or 'a file'} "
                                     f"({exc.strerror}): the run stopped, nothing of it was "
                                     "written as complete")
    return None


def user_errors(fn: Callable[..., int]) -> Callable[..., None]:
    """Run a command (the wrapper of each in cli.py); its exit code ends it, and an
    expected failure is one sentence with its exit code (``failure``), never a traceback.
    ``--set`` is parsed here, where it enters, once, into typed overrides that everything
    after uses (the plan, the sweep, the spread runs, the manifest)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            if kwargs.get("set_"):
                from dynval.comparisons.ladder.overrides import parse_overrides

                kwargs["set_"] = list(parse_overrides(kwargs["set_"]))
            code = fn(*args, **kwargs)
        except BaseException as exc:
            said = failure(exc, kwargs.get("set_"))
            if said is None:
                raise
            if said[0] > 128:  # ended by a signal: a second one must not cut the exit short
                interrupts.ending()
            error(said[1])
            raise typer.Exit(said[0]) from None
        if code:
            raise typer.Exit(code)

    return wrapper
