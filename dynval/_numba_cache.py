"""dynval's compiled functions: where numba keeps them, and one compiler per function.

numba's on-disk cache (``@njit(cache=True)``) is invalidated only when the file of the
cached function itself changes. A compiled function that calls compiled functions of
other files (the engine loops call the laws, the laws call the kinematics) would keep the
old callees' machine code when only a callee's file is edited, run it silently, and
dynval's results cache, keyed by the new source, would store what it computed. So every
dynval function is cached under a digest of the source set it belongs to
(``dynval._layout.source_sets``):

- ``<base>/<framework digest>/`` for the framework's functions (the engines' C calls,
  the shared laws), ``<base>/<framework digest>/<robot>-<digest>/`` for a robot's, the
  robot's digest covering the framework's files and that robot's own folders;
- ``<base>`` is ``~/.cache/dynval-numba`` (``XDG_CACHE_HOME`` respected), or
  ``$NUMBA_CACHE_DIR/dynval-numba`` where the user chose a numba cache folder;
- an edit to one robot names a fresh folder for that robot, an edit to the framework a
  fresh folder for everything, and a run recompiles what it uses, once. A robot's modules
  are imported by that robot's modules only (never by the framework's, nor by another
  robot's), so a compiled function calls code of its own set only (tests/test_layers.py
  holds this with the import graph).

A first run compiles in every worker process at once; two workers that reach the same
function would both compile it (seconds each) and one would throw its work away. So a
process compiles one of dynval's functions only while it holds that function's lock
(a file lock next to numba's index file); another process that needs it waits, then
reads it from the cache.

Both are properties of :func:`njit`, the decorator every dynval module compiles with:
a user's own compiled functions, and numba's settings for them, are left alone. It also leaves out
the C-callable wrapper numba builds beside every function by default, for passing it as a
first-class function or a C callback: dynval never does, and building the wrappers took
about 4 % of a first run's compiling. And it optimises dynval's functions at LLVM's level
2 rather than numba's default 3 (:class:`_OptimiseAt`), unless the user chose a level
with ``NUMBA_OPT``: a user's functions compile at numba's level, also when they call
dynval's.
"""

from __future__ import annotations

import fcntl
import os
import tempfile
import time
from functools import cache
from pathlib import Path
from typing import Any

import numba
from numba.core import caching, config, event

from dynval import _layout


@cache
def _loaded() -> tuple[str, dict[str | None, str]]:
    """The digests of the source this process runs (the whole, and each source set), taken
    once, when dynval's first compiled function is placed (or a caller asks)."""
    return _layout.source_digest(), _layout.source_sets()


def loaded_digest(robot: str | None = None) -> str:
    """The digest of a source set as this process loaded it: the framework's (no robot,
    or one that is not registered), else the framework's and the robot's own folders'."""
    sets = _loaded()[1]
    return sets.get(robot, sets[None])


def loaded_source() -> str:
    """The digest of all of dynval's source as this process loaded it: the name of the
    code it runs."""
    return _loaded()[0]


def cache_root() -> Path:
    """The folder holding one numba cache per version of the framework's source."""
    if config.CACHE_DIR:
        return Path(config.CACHE_DIR) / "dynval-numba"
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "dynval-numba"


def cache_dir(robot: str | None = None) -> Path:
    """Where this process's dynval functions are cached: the framework's in
    ``cache_root()/<framework digest>``, a robot's in ``<robot>-<its set digest>`` inside
    that folder."""
    base = cache_root() / loaded_digest()
    if robot is None or robot not in _loaded()[1]:
        return base
    return base / f"{robot}-{loaded_digest(robot)}"


class SourceKeyedLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """numba's cache locator for dynval's files: ``cache_dir(<the file's robot>)/<folder of
    the file>``.
    A folder that cannot be written falls back to one that lives as long as the process,
    never to numba's other locators (which key by the file alone)."""

    def __init__(self, py_func, py_file: str) -> None:
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = str(cache_dir(_layout.file_owner(py_file))
                               / self.get_suitable_cache_subpath(py_file))

    def get_cache_path(self) -> str:
        return self._cache_path

    @classmethod
    def from_function(cls, py_func, py_file: str):
        if not os.path.exists(py_file) or not _layout.owns(py_file):
            return None
        self = cls(py_func, py_file)
        try:
            self.ensure_cache_path()
        except OSError:
            self._cache_path = _process_folder()
        return self


class _CompileClock(event.Listener):
    """The CPU seconds this process has spent in numba's compile events, counting only the
    outermost of nested ones (compiling a function compiles its callees inside it); a
    compile answered from the on-disk cache counts its (short) loading time. The compiling
    thread's CPU time, so that waiting for another process's compile of a callee
    (:class:`OneCompilerCache`) or for a core, and other threads' work, are not counted."""

    def __init__(self) -> None:
        self.depth, self.started, self.total = 0, 0.0, 0.0

    def on_start(self, ev: event.Event) -> None:
        if self.depth == 0:
            self.started = time.thread_time()
        self.depth += 1

    def on_end(self, ev: event.Event) -> None:
        self.depth -= 1
        if self.depth == 0:
            self.total += time.thread_time() - self.started


@cache
def _compile_clock() -> _CompileClock:
    clock = _CompileClock()
    event.register("numba:compile", clock)
    return clock


def compile_seconds() -> float:
    """CPU seconds this process has spent compiling with numba since its first call here (the
    clock starts then: a task runner calls it before its first task)."""
    return _compile_clock().total


@cache
def _process_folder() -> str:
    return tempfile.mkdtemp(prefix="dynval-numba-")


class _SourceKeyedImpl(caching.CompileResultCacheImpl):
    """numba's cache implementation with :class:`SourceKeyedLocator` as the only locator
    (a user's ``NUMBA_CACHE_LOCATOR_CLASSES`` governs the user's functions, not dynval's)."""

    _locator_classes = [SourceKeyedLocator]

    def __init__(self, py_func) -> None:
        chosen, config.CACHE_LOCATOR_CLASSES = config.CACHE_LOCATOR_CLASSES, None
        try:
            super().__init__(py_func)
        finally:
            config.CACHE_LOCATOR_CLASSES = chosen


class OneCompilerCache(caching.FunctionCache):
    """numba's on-disk cache of one dynval function, for several processes at once: a
    signature missing from the cache is compiled by the process that holds the function's
    lock; the others wait and load what it saved. The lock is released when the result is
    saved (or the compile fails: :class:`_CompileFailed`), and by the system when its
    process ends, however it ends."""

    _impl_class = _SourceKeyedImpl

    def __init__(self, py_func) -> None:
        super().__init__(py_func)
        self._held: tuple[int, Any] | None = None  # (lock file descriptor, signature)

    def load_overload(self, sig, target_context):
        found = super().load_overload(sig, target_context)
        if found is not None or not self._enabled or self._held is not None:
            return found
        fd = _locked(os.path.join(self._cache_path, self._cache_file._index_name + ".lock"))
        found = super().load_overload(sig, target_context)  # saved while we waited?
        if found is not None or fd is None:
            _unlock(fd)
            return found
        self._held = (fd, sig)
        return None  # numba compiles now, then calls save_overload

    def save_overload(self, sig, data) -> None:
        try:
            super().save_overload(sig, data)
        finally:
            if self._held is not None and self._held[1] == sig:
                self.release()

    def release(self) -> None:
        """Let the next process compile or load this function."""
        held, self._held = self._held, None
        if held is not None:
            _unlock(held[0])


def _locked(path: str) -> int | None:
    """An open descriptor holding the exclusive lock on ``path`` (waiting for it), or None
    where the file cannot be made (then the process compiles without waiting)."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        return None
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def _unlock(fd: int | None) -> None:
    if fd is not None:
        os.close(fd)  # closing the descriptor releases its lock


class _CompileFailed(event.Listener):
    """Releases a dynval function's lock when its compile raises (a typing error, an
    interrupt): save_overload, which releases it otherwise, is then never called."""

    def on_start(self, ev: event.Event) -> None:
        pass

    def on_end(self, ev: event.Event) -> None:
        cache_ = getattr(ev.data["dispatcher"], "_cache", None)
        # the exception itself: numba 0.68's Event.is_failed answers the opposite
        failed = getattr(ev, "_exc_details", None) is not None
        if failed and isinstance(cache_, OneCompilerCache):
            cache_.release()


@cache
def _watch_failed_compiles() -> None:
    event.register("numba:compile", _CompileFailed())


OPT_LEVEL = 2  # LLVM's optimisation level for dynval's functions (numba's default: 3)


class _OptimiseAt(event.Listener):
    """Runs LLVM's optimisation passes at ``level`` while one of dynval's functions compiles
    (its callees with it), and at numba's level otherwise. A cold ``dynval check``
    compiled in about 10 % less CPU time at level 2, the compiled loops ran in the same
    time (within 3 %), and every result stayed bit-identical (no fast-math: LLVM keeps
    IEEE arithmetic at every level). A level the user chose with ``NUMBA_OPT`` is left
    in force. numba reads the level when it builds each compile's pass managers, and
    compiles under its global lock, so the change reaches no other compile."""

    def __init__(self, level: int) -> None:
        self.level, self.depth, self.saved = level, 0, None

    def on_start(self, ev: event.Event) -> None:
        if self.depth == 0 and not getattr(ev.data["dispatcher"], "_dynval", False):
            return
        if self.depth == 0:
            self.saved, config.OPT = config.OPT, config._OptLevel(self.level)
        self.depth += 1

    def on_end(self, ev: event.Event) -> None:
        if self.depth == 0:
            return
        self.depth -= 1
        if self.depth == 0:
            config.OPT, self.saved = self.saved, None


@cache
def _optimise_dynval_at_level() -> None:
    if "NUMBA_OPT" not in os.environ:
        event.register("numba:compile", _OptimiseAt(OPT_LEVEL))


def njit(*args: Any, **options: Any) -> Any:
    """``numba.njit`` for dynval's modules, used as ``@njit(cache=True)``: with
    ``cache=True`` the function is cached under its source set's digest (:func:`cache_dir`) and
    compiled by one process at a time (:class:`OneCompilerCache`)."""
    _watch_failed_compiles()
    _optimise_dynval_at_level()
    cached = options.pop("cache", False)
    options.setdefault("no_cfunc_wrapper", True)  # never called as a C callback
    # numba's own cache is never made (its locators would make folders by the file); the
    # dispatcher's cache is what Dispatcher.enable_caching would set, placed here
    if args and callable(args[0]):
        return _placed(numba.njit(**options)(args[0]), cached)
    jit = numba.njit(*args, **options)
    return lambda fn: _placed(jit(fn), cached)


def _placed(dispatcher: Any, cached: bool) -> Any:
    dispatcher._dynval = True  # compiled at OPT_LEVEL (_OptimiseAt)
    if cached:
        dispatcher._cache = OneCompilerCache(dispatcher.py_func)
    return dispatcher
