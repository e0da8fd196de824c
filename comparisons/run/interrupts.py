"""Ctrl-C, noticed wherever it lands.

CPython raises KeyboardInterrupt wherever the main thread happens to be running Python
when the signal arrives.  Where that is a finalizer (an engine client's ``__del__`` at
the end of a task), CPython reports the exception as unraisable and drops it; where it
is the Python that numba's helpers call inside a compiled loop, the loop returns a
SystemError caused by it (run.tasks.interrupted).  Either way the run could go
on and write a manifest that says it completed.  :func:`watch` notes every SIGINT the
process receives, and :func:`check` refuses to complete a run that received one.

SIGTERM (``kill``, a CI runner's timeout) is taken the same way: Python's default would end
the process at once and leave the pool's workers computing; raised as an interrupt, the
executor stops its workers and the run ends with one line (:func:`exit_code`).

SIGKILL (``kill -9``, the out-of-memory killer) cannot be taken at all: the pool's workers
end themselves once the process that started them is gone (:func:`die_with_parent`).
"""

from __future__ import annotations

import os
import signal
import sys
import threading

from dynval._orphans import die_with_parent

_received: int = 0  # the last signal received, 0 for none


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Python raises a Ctrl-C's KeyboardInterrupt."""


def _note(signum: int, frame: object) -> None:
    """Python's own handler, which also remembers that the signal came."""
    global _received
    _received = signum
    if signum == signal.SIGTERM:
        raise Terminated("terminated (SIGTERM)")
    raise KeyboardInterrupt


def watch() -> None:
    """Note SIGINTs and SIGTERMs from now on, raising KeyboardInterrupt (Terminated) as
    Python raises a Ctrl-C's.  Only where the signal has Python's default handling: a
    process started with SIGINT ignored (in the background of a non-interactive shell)
    keeps ignoring it."""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _note)
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _note)
    if sys.unraisablehook is not _unraisable:
        _hooks.append(sys.unraisablehook)
        sys.unraisablehook = _unraisable


_hooks: list = []  # the unraisable hook that was in place before watch()


def _unraisable(u) -> None:
    """Once a signal came, a finalizer's failure is not printed: an interrupt raised inside
    one is lost there but noted (:func:`check` acts on it at the next task), and an object
    the interrupt left half-built fails in its finalizer (PyBullet's BulletClient without
    its _client)."""
    if _received:
        return
    _hooks[-1](u)


def in_worker(parent: int = 0) -> None:
    """A pool worker's signals and lifetime: SIGTERM at its default, so that the executor's
    terminate() ends the worker at once, even inside a compiled loop; and the worker ends
    with ``parent``, the pid of the process that started it (0: its parent now), however
    that ends (:func:`die_with_parent`)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with_parent(parent or os.getppid())


def received() -> bool:
    """Whether a SIGINT or SIGTERM came since :func:`watch`: whatever a run raised after it
    (numba's compiler stopped mid-build fails later on its half-built library with an
    error of its own, a RuntimeError that names no interrupt) is the interrupt's doing."""
    return bool(_received)


def ending() -> None:
    """The command is ending on a signal, its line said: further SIGINTs and SIGTERMs are
    ignored while the process shuts down. The engines' and numba's clean-up at exit takes
    a few hundred milliseconds, after Python has put the signals back to their defaults;
    a second Ctrl-C there killed the process by the signal (status -2, not 130). SIGKILL
    still ends it."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)


def exit_code(exc: BaseException) -> int:
    """The shell's code for a run ended by a signal: 128 + SIGTERM's or SIGINT's number."""
    term = isinstance(exc, Terminated) or _received == signal.SIGTERM
    return 128 + (signal.SIGTERM if term else signal.SIGINT)


def check() -> None:
    """Raise KeyboardInterrupt where a SIGINT came since :func:`watch` (Terminated for a
    SIGTERM), even one that was lost on its way: called after each task and before a run
    is written down as complete."""
    if _received == signal.SIGTERM:
        raise Terminated("terminated (SIGTERM): the run is not complete")
    if _received:
        raise KeyboardInterrupt("interrupted (Ctrl-C): the run is not complete")
