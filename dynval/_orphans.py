"""Processes that end with the process that started them.

A pool worker left alone when its parent is killed (``kill -9``, the out-of-memory
killer) waits for work forever, orphaned, holding hundreds of MB. Every pool dynval
starts (the tasks' and the report's figures') asks for its workers to end with it: this
module is below every layer, so that both may ask.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>: set the signal to get when the parent dies
PARENT_POLL_SECONDS = 0.5


def die_with_parent(parent: int) -> None:
    """End this process when ``parent`` ends, even by SIGKILL, which gives the parent no
    chance to stop it: a pool worker left alone waits for work forever, orphaned, holding
    hundreds of MB.  On Linux the kernel kills it (:func:`_killed_with_parent`); everywhere
    a thread also watches the parent's pid (:func:`_watch_parent`), the only guard where
    the kernel offers none (it needs the GIL: a compiled loop holding it delays the end).
    A parent already gone when this runs ends the process now."""
    _killed_with_parent()
    if os.getppid() != parent:  # after the request: a parent dying now is not missed
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), name="dynval-parent-watch",
                     daemon=True).start()


def _killed_with_parent() -> None:
    """Ask Linux to SIGKILL this process when its parent dies (PR_SET_PDEATHSIG).  The
    kernel means the parent *thread*: with fork or spawn, a pool's processes are started
    by the thread that runs the executor, which outlives the pool; with forkserver, by the
    server, which ends with the main process.  Elsewhere, or where libc refuses,
    :func:`_watch_parent` alone does it."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(ctypes.c_int(PR_SET_PDEATHSIG), ctypes.c_ulong(signal.SIGKILL),
                   ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0))
    except (OSError, AttributeError):
        return


def _watch_parent(parent: int) -> None:
    """Wait until this process's parent is no longer ``parent`` (a dead parent's children
    pass to init or a subreaper), then end the process at once: no cleanup is owed to a
    run that is gone."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)


def parent_pid(ctx: multiprocessing.context.BaseContext) -> int:
    """The pid a worker started by ``ctx`` watches: this process's, or, with forkserver,
    0 (the worker's parent then, the server, which ends with this process)."""
    return 0 if ctx.get_start_method() == "forkserver" else os.getpid()


def _die_with(parent: int) -> None:
    die_with_parent(parent or os.getppid())


def pool(workers: int) -> ProcessPoolExecutor:
    """A process pool of ``workers`` whose workers end with this process."""
    ctx = multiprocessing.get_context()
    return ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_die_with,
                               initargs=(parent_pid(ctx),))
