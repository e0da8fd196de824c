"""Progress of long work, for a person at a terminal and for a log.

On a terminal a live display (rich); otherwise one plain line per finished piece of work
(``[12/87] rover drawbar_175 shared mujoco 14.2 s``) and a closing line with the counts,
so that a CI log reads top to bottom without control sequences."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from types import TracebackType

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from dynval import _stored
from dynval.comparisons.run.tasks import Outcome


class TaskProgress(AbstractContextManager):
    """Reports each finished task of a graph (``report`` is the executor's callback)."""

    def __init__(self, console: Console, what: str = "tasks") -> None:
        self.console, self.what = console, what
        self.live = console.is_terminal
        self.counts = {"ran": 0, "cached": 0}
        self.failed: list[str] = []  # "key (ErrorType)" of each task that ended in an error
        self.compiling = 0.0  # CPU seconds the tasks that ran spent compiling (numba)
        self._bar = Progress(TextColumn("{task.description:<44}"), BarColumn(),
                             MofNCompleteColumn(), TimeElapsedColumn(), console=console,
                             disable=not self.live)
        self._id: int | None = None
        self._checks_failed = _stored.failures()  # entries that failed their check before

    def __enter__(self) -> TaskProgress:
        self._bar.__enter__()
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._bar.__exit__(et, ev, tb)
        if et is None:
            c = self.counts
            ended = ("none ended in an error" if not self.failed else
                     f"{len(self.failed)} ended in an error, each reported in its chapter or "
                     "as the run's error: " + "; ".join(self.failed[:5])
                     + (f"; and {len(self.failed) - 5} more" if len(self.failed) > 5 else ""))
            compiled = (f"; {self.compiling:.1f} s of the tasks' CPU time spent compiling "
                        "(numba)" if c["ran"] else "")
            self.console.print(f"{c['ran'] + c['cached']} {self.what} done: {c['ran']} ran, "
                               f"{c['cached']} from the cache{self._checks()}; {ended}"
                               f"{compiled}", highlight=False, markup=False)

    def _checks(self) -> str:
        """The cache entries that failed their content check while the work ran (task
        results, assembled chapters), when any did: recomputed, and said so."""
        n = _stored.failures() - self._checks_failed
        return f"; {_stored.failed_sentence(n)}" if n else ""

    def report(self, o: Outcome, done: int, total: int) -> None:
        self.counts["cached" if o.cached else "ran"] += 1
        if not o.cached:
            self.compiling += o.compile_seconds
        if o.error is not None:
            self.failed.append(f"{o.key} ({type(o.error).__name__})")
        how = "cached" if o.cached else f"{o.seconds:.1f} s"
        if o.error is not None:
            how += f", ended: {type(o.error).__name__}"
        if self.live:
            if self._id is None:
                self._id = self._bar.add_task(self.what, total=total)
            self._bar.update(self._id, completed=done, description=escape(f"{o.key} ({how})"[:44]))
        else:
            self.console.print(f"[{done}/{total}] {o.key} {how}", highlight=False, markup=False)


class StepProgress(AbstractContextManager):
    """Fractions of a few named steps (``dynval run``): bars on a terminal, a line per
    finished step otherwise."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.live = console.is_terminal
        self._bar = Progress(TextColumn("{task.description:<48}"), BarColumn(),
                             TextColumn("{task.percentage:>5.1f} %"), TimeElapsedColumn(),
                             console=console, disable=not self.live)
        self._ids: dict[str, int] = {}
        self._finished: set[str] = set()

    def __enter__(self) -> StepProgress:
        self._bar.__enter__()
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._bar.__exit__(et, ev, tb)

    def update(self, label: str, fraction: float) -> None:
        if self.live:
            if label not in self._ids:
                self._ids[label] = self._bar.add_task(label, total=1.0)
            self._bar.update(self._ids[label], completed=fraction)
        elif fraction >= 1.0 and label not in self._finished:
            self._finished.add(label)
            self.console.print(f"{label}: done", highlight=False, markup=False)

    def step(self, label: str) -> Callable[[float], None]:
        return lambda f: self.update(label, f)
