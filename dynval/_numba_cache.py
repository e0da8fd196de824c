"""Where numba keeps dynval's compiled functions: a folder named by the digest of dynval's
whole source, so that compiled code never outlives the source it was compiled from.

numba's on-disk cache (``@njit(cache=True)``) is invalidated only when the file of the
cached function itself changes. A compiled function that calls compiled functions of
other files (the engine loops call the laws, the laws call the kinematics) would keep the
old callees' machine code when only a callee's file is edited, run it silently, and
dynval's results cache, keyed by the new source, would store what it computed. So every
dynval function is cached under ``<base>/<digest of the source>/``:

- ``<base>`` is ``~/.cache/dynval-numba`` (``XDG_CACHE_HOME`` respected), or
  ``$NUMBA_CACHE_DIR/dynval-numba`` where the user chose a numba cache folder;
- an edit anywhere in dynval names a fresh folder, and a run recompiles what it uses, once.

Only dynval's own functions are placed this way (a numba cache locator that claims
dynval's files): numba's settings, and a user's own compiled functions, are left alone.
"""

from __future__ import annotations

import os
import tempfile
import time
from functools import cache
from pathlib import Path

from numba.core import caching, config, event

from dynval import _layout


@cache
def loaded_digest() -> str:
    """The source digest of the dynval this process runs, taken once, when dynval's first
    compiled function is placed (or a caller asks): the name of the code it loaded."""
    return _layout.source_digest()


def cache_root() -> Path:
    """The folder holding one numba cache per source digest."""
    if config.CACHE_DIR:
        return Path(config.CACHE_DIR) / "dynval-numba"
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "dynval-numba"


def cache_dir() -> Path:
    """Where this process's dynval functions are cached: cache_root()/<source digest>."""
    return cache_root() / loaded_digest()


class SourceKeyedLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """numba's cache locator for dynval's files: ``cache_dir()/<folder of the file>``.
    A folder that cannot be written falls back to one that lives as long as the process,
    never to numba's other locators (which key by the file alone)."""

    def __init__(self, py_func, py_file: str) -> None:
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = str(cache_dir() / self.get_suitable_cache_subpath(py_file))

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
    """The seconds this process has spent in numba's compile events, counting only the
    outermost of nested ones (compiling a function compiles its callees inside it); a
    compile answered from the on-disk cache counts its (short) loading time."""

    def __init__(self) -> None:
        self.depth, self.started, self.total = 0, 0.0, 0.0

    def on_start(self, ev: event.Event) -> None:
        if self.depth == 0:
            self.started = time.perf_counter()
        self.depth += 1

    def on_end(self, ev: event.Event) -> None:
        self.depth -= 1
        if self.depth == 0:
            self.total += time.perf_counter() - self.started


@cache
def _compile_clock() -> _CompileClock:
    clock = _CompileClock()
    event.register("numba:compile", clock)
    return clock


def compile_seconds() -> float:
    """Seconds this process has spent compiling with numba since its first call here (the
    clock starts then: a task runner calls it before its first task)."""
    return _compile_clock().total


@cache
def _process_folder() -> str:
    return tempfile.mkdtemp(prefix="dynval-numba-")


def use_source_keyed_cache() -> None:
    """Put SourceKeyedLocator first among numba's locators, once. Runs when dynval is
    imported, before any of its modules defines a compiled function."""
    if SourceKeyedLocator not in caching.CacheImpl._locator_classes:
        caching.CacheImpl._locator_classes.insert(0, SourceKeyedLocator)
    name = f"{__name__}.SourceKeyedLocator"
    if config.CACHE_LOCATOR_CLASSES and name not in config.CACHE_LOCATOR_CLASSES:
        # a user's own list of locators replaces numba's: dynval's files still go first
        config.CACHE_LOCATOR_CLASSES = f"{name},{config.CACHE_LOCATOR_CLASSES}"
