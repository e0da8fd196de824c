"""The caches on disk, seen and kept in bounds: the results cache (the tasks' outcomes,
the assembled chapters, the drawn figures) and numba's compiled code (one folder per
version of dynval's source).

A results entry's modification time is its last use (a hit touches it), so pruning by
age or by size removes the least recently used first. After every run the results cache
is held to a size cap (``DYNVAL_CACHE_MAX_SIZE``, default 2G), evicting only entries the
run did not use."""

from __future__ import annotations

import os
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

DEFAULT_MAX_SIZE = 2 * 1024**3
KINDS = {"assembled": "assembled chapters", "figures": "drawn figures",
         "imports": "module import lists"}  # else: task results

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


def entries(results: Path) -> list[Entry]:
    """Every stored results entry, least recently used first."""
    out = []
    for f in Path(results).glob("*/*.pkl"):
        if not _ENTRY.fullmatch(f.relative_to(results).as_posix()):
            continue
        try:
            st = f.stat()
        except OSError:
            continue  # removed meanwhile
        out.append(Entry(f, st.st_size, st.st_mtime))
    return sorted(out, key=lambda e: (e.used, str(e.path)))


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


def numba_folders(root: Path, current: str) -> list[NumbaFolder]:
    """The compiled-code folders, one per source digest."""
    if not root.is_dir():
        return []
    return [NumbaFolder(d, folder_size(d), d.name == current)
            for d in sorted(root.iterdir()) if d.is_dir()]


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
    for e in removed:
        e.path.unlink(missing_ok=True)
    return len(removed), sum(e.size for e in removed)


def prune_numba(root: Path, current: str) -> tuple[int, int]:
    """Remove the compiled code of every source but the one installed now."""
    old = [f for f in numba_folders(root, current) if not f.current]
    for f in old:
        shutil.rmtree(f.path, ignore_errors=True)
    return len(old), sum(f.size for f in old)


def clear(results: Path, numba_root: Path) -> tuple[int, int]:
    """Remove every results entry and every compiled-code folder; (entries, bytes)."""
    n, freed = prune(results, older_than=-1.0)
    for f in numba_folders(numba_root, ""):
        shutil.rmtree(f.path, ignore_errors=True)
        n, freed = n + 1, freed + f.size
    return n, freed


def human(n: float) -> str:
    """Bytes in words: 512 B, 1.5 MB."""
    if n < 1024:
        return f"{n:.0f} B"
    for unit in ("kB", "MB", "GB"):
        n /= 1024
        if n < 1024:
            return f"{n:.1f} {unit}"
    return f"{n / 1024:.1f} TB"
