"""The caches on disk, seen and kept in bounds: the results cache (the tasks' outcomes,
the assembled chapters, the drawn figures) and numba's compiled code (one folder per
version of the framework's source, holding one folder per version of each robot's).

A results entry's modification time is its last use (a hit touches it), so pruning by
age or by size removes the least recently used first. After every run the results cache
is held to a size cap (``DYNVAL_CACHE_MAX_SIZE``, default 2G), evicting only entries the
run did not use. Every entry can be checked against the content hash written with it
(:func:`verify`), and the unfinished writes a stopped writer or a full disk left
(:func:`leftovers`) are removed by ``prune`` and ``clear``."""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from dynval import _stored

DEFAULT_MAX_SIZE = 2 * 1024**3
KINDS = {"assembled": "assembled chapters", "figures": "drawn figures",
         "imports": "module import lists"}  # else: task results (imports: earlier versions')

_UNITS = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3, "t": 1024**4}
_SECONDS = {"s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0, "w": 7 * 86400.0}


class CacheOptionError(ValueError):
    """A size or an age that cannot be read."""


def parse_size(text: str) -> int:
    """Bytes from "500M", "2G", "1.5GB", "100k", "64KiB" or a plain number of bytes."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d*)?)\s*(?:([kmgt])(?:i?b)?|b)?\s*", text.lower())
    if not m:
        raise CacheOptionError(f"cannot read the size {text!r}; write it as 500M, 2G or a "
                               "number of bytes")
    return int(float(m.group(1)) * _UNITS[m.group(2) or ""])


def parse_age(text: str) -> float:
    """Seconds from "7d", "12h", "30m", "90s" or "2w"."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d*)?)\s*([smhdw])\s*", text.lower())
    if not m:
        raise CacheOptionError(f"cannot read the age {text!r}; write it as 7d, 12h, 30m or "
                               "90s")
    return float(m.group(1)) * _SECONDS[m.group(2)]


def max_size() -> int:
    """The results cache's cap: ``DYNVAL_CACHE_MAX_SIZE`` or 2G."""
    text = os.environ.get("DYNVAL_CACHE_MAX_SIZE")
    return DEFAULT_MAX_SIZE if not text else parse_size(text)


@dataclass(frozen=True)
class Entry:
    path: Path
    size: int
    used: float  # last use: the file's modification time


# dynval's own entries, and nothing else a folder named by DYNVAL_CACHE may hold: a task's
# outcome at <2 hex>/<64 hex>.pkl, an assembled chapter or a drawn figure by its digest
_ENTRY = re.compile(r"(?:[0-9a-f]{2}|assembled|figures|imports)/[0-9a-f]{64}\.pkl")
# dynval's own unfinished writes: an entry's name with its writer's process id
# (dynval._stored.write), or the task timings' (pipeline._store_timings)
_LEFTOVER = re.compile(
    r"(?:(?:[0-9a-f]{2}|assembled|figures|imports)/[0-9a-f]{64}\.[0-9]+|timings-\w+)\.tmp")
LEFTOVER_AGE = 3600.0  # seconds: an unfinished write this old has no writer left (prune)


class CacheRemoveError(Exception):
    """Files or folders of a cache that could not be removed (a read-only cache), in one
    sentence: the first path and its error, and how many more."""

    def __init__(self, failed: list[tuple[Path, OSError]]) -> None:
        path, exc = failed[0]
        more = f", nor {len(failed) - 1} more" if len(failed) > 1 else ""
        super().__init__(f"could not remove {path} from the cache "
                         f"({exc.strerror or exc}){more}")
        self.failed = failed


def _found(results: Path, pattern: re.Pattern, globs: tuple[str, ...]) -> list[Entry]:
    """The files under ``results`` whose relative path ``pattern`` matches, least recently
    used first."""
    out = []
    for f in (f for g in globs for f in Path(results).glob(g)):
        if not pattern.fullmatch(f.relative_to(results).as_posix()):
            continue
        try:
            st = f.stat()
        except OSError:
            continue  # removed meanwhile
        out.append(Entry(f, st.st_size, st.st_mtime))
    return sorted(out, key=lambda e: (e.used, str(e.path)))


def entries(results: Path) -> list[Entry]:
    """Every stored results entry, least recently used first."""
    return _found(results, _ENTRY, ("*/*.pkl",))


def leftovers(results: Path) -> list[Entry]:
    """dynval's unfinished writes in the results cache (``*.tmp``: a writer killed, or a
    full disk), oldest first; another program's files are never among them."""
    return _found(results, _LEFTOVER, ("*.tmp", "*/*.tmp"))


def verify(results: Path) -> tuple[list[Entry], list[tuple[Entry, str]]]:
    """Every results entry, and those that fail their content check (their bytes are not
    the bytes written: ``dynval._stored``) with what is wrong, read without unpickling."""
    found = entries(results)
    return found, [(e, why) for e in found if (why := _stored.problem(e.path))]


def remove(found: Sequence[Entry | NumbaFolder]) -> tuple[int, int]:
    """Remove each entry (a file) or compiled-code folder; (how many, bytes freed).
    :class:`CacheRemoveError` after trying them all, when any could not be removed."""
    failed: list[tuple[Path, OSError]] = []
    for e in found:
        try:
            if e.path.is_dir():
                shutil.rmtree(e.path)
            else:
                e.path.unlink(missing_ok=True)
        except FileNotFoundError:
            continue  # removed meanwhile
        except OSError as exc:
            failed.append((e.path, exc))
    if failed:
        raise CacheRemoveError(failed)
    return len(found), sum(e.size for e in found)


def kind(results: Path, e: Entry) -> str:
    """What an entry holds, in words."""
    top = e.path.relative_to(results).parts[0]
    return KINDS.get(top, "task results")


def folder_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


@dataclass(frozen=True)
class NumbaFolder:
    path: Path
    size: int
    current: bool  # compiled from the source installed now


# a robot's compiled code inside its framework's folder: <robot>-<its source set's digest>
_ROBOT_FOLDER = re.compile(r"[a-z0-9_]+-[0-9a-f]{16}")


def numba_folders(root: Path, current: str) -> list[NumbaFolder]:
    """The compiled-code folders: one per version of the framework's source, and inside
    the ``current`` one, each robot's older versions (a robot edited since) on their own."""
    if not root.is_dir():
        return []
    out = []
    for d in sorted(root.iterdir()):
        if not d.is_dir():
            continue
        older = _older_robot_folders(d) if d.name == current else []
        out.append(NumbaFolder(d, folder_size(d) - sum(o.size for o in older),
                               d.name == current))
        out += older
    return out


def _older_robot_folders(folder: Path) -> list[NumbaFolder]:
    """The robots' compiled-code folders in ``folder`` that no robot's source set names now."""
    from dynval import _layout, _numba_cache

    now = {_numba_cache.cache_dir(r).name for r in _layout.robot_names()}
    return [NumbaFolder(d, folder_size(d), False) for d in sorted(folder.iterdir())
            if d.is_dir() and _ROBOT_FOLDER.fullmatch(d.name) and d.name not in now]


def prune(results: Path, older_than: float | None = None, size: int | None = None,
          keep_since: float | None = None) -> tuple[int, int]:
    """Remove results entries unused for ``older_than`` seconds, then the least recently
    used until the rest takes at most ``size`` bytes; never one used since
    ``keep_since`` (a run's own). Returns (entries removed, bytes freed)."""
    now = time.time()
    kept = entries(results)
    removed: list[Entry] = []
    if older_than is not None:
        removed = [e for e in kept if e.used < now - older_than]
        kept = [e for e in kept if e.used >= now - older_than]
    if size is not None:
        total = sum(e.size for e in kept)
        while kept and total > size and (keep_since is None or kept[0].used < keep_since):
            e = kept.pop(0)
            removed.append(e)
            total -= e.size
    return remove(removed)


def remove_leftovers(results: Path, older_than: float = LEFTOVER_AGE) -> tuple[int, int]:
    """Remove dynval's unfinished writes older than ``older_than`` seconds (younger ones
    may be a running writer's); (files removed, bytes freed)."""
    return remove([e for e in leftovers(results) if e.used < time.time() - older_than])


def prune_numba(root: Path, current: str) -> tuple[int, int]:
    """Remove the compiled code of every source but the one installed now."""
    return remove([f for f in numba_folders(root, current) if not f.current])


def clear(results: Path, numba_root: Path) -> tuple[int, int]:
    """Remove every results entry, every unfinished write and every compiled-code folder;
    (how many, bytes)."""
    return remove(entries(results) + leftovers(results) + numba_folders(numba_root, ""))


def human(n: float) -> str:
    """Bytes in words: 512 B, 1.5 MB."""
    if n < 1024:
        return f"{n:.0f} B"
    for unit in ("kB", "MB", "GB"):
        n /= 1024
        if n < 1024:
            return f"{n:.1f} {unit}"
    return f"{n / 1024:.1f} TB"
