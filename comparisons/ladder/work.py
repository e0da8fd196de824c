"""The work a robot's ladder lists and what each piece gave, as plain data: a
:class:`Task` names a pure function call, an :class:`Outcome` holds its value or its
exception. The ladder lists tasks and reads outcomes; the run layer
(``dynval.comparisons.run.tasks``) executes them, caches them and writes every file."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Task:
    """One unit of work: ``fn(*args, **kwargs)`` for robot ``robot``; ``key`` names it in
    progress lines and in the chapter's lookups."""

    key: str
    robot: str
    fn: Callable[..., Any]
    args: tuple = ()
    kwargs: dict[str, Any] = field(default_factory=dict)
    inputs: tuple[Path, ...] = ()  # files or folders the result depends on besides code


@dataclass
class Outcome:
    """What a task gave: its value, or the exception it raised; where it came from."""

    key: str
    value: Any = None
    error: BaseException | None = None
    seconds: float = 0.0
    cached: bool = False
    digest: str = ""  # the task's content address where the cache is used, else ""
    source: str = ""  # the digest of the source the computing process loaded for the task
    compile_seconds: float = 0.0  # of ``seconds``, spent compiling with numba

    def get(self) -> Any:
        """The value, or the task's exception raised again."""
        if self.error is not None:
            raise self.error
        return self.value
