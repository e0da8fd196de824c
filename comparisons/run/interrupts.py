"""Ctrl-C, noticed wherever it lands.

CPython raises KeyboardInterrupt wherever the main thread happens to be running Python
when the signal arrives.  Where that is a finalizer (an engine client's ``__del__`` at
the end of a task), CPython reports the exception as unraisable and drops it; where it
is the Python that numba's helpers call inside a compiled loop, the loop returns a
SystemError caused by it (comparisons.tasks.interrupted).  Either way the run could go
on and write a manifest that says it completed.  :func:`watch` notes every SIGINT the
process receives, and :func:`check` refuses to complete a run that received one.
"""

from __future__ import annotations

import signal
import threading

_received = False


def _note(signum: int, frame: object) -> None:
    """Python's own handler, which also remembers that the signal came."""
    global _received
    _received = True
    raise KeyboardInterrupt


def watch() -> None:
    """Note SIGINTs from now on, raising KeyboardInterrupt as Python does.  Only where
    SIGINT has Python's default handler: a process started with SIGINT ignored (in the
    background of a non-interactive shell) keeps ignoring it."""
    if threading.current_thread() is threading.main_thread() \
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _note)


def check() -> None:
    """Raise KeyboardInterrupt where a SIGINT came since :func:`watch`, even one that was
    lost on its way: called before a run is written down as complete."""
    if _received:
        raise KeyboardInterrupt("interrupted (Ctrl-C): the run is not complete")
