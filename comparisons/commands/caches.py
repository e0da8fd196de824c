"""``dynval cache`` and ``dynval warmup``: what the results and compiled-code caches
hold, their pruning, clearing and checking, and compiling everything once ahead."""

from __future__ import annotations

import contextlib
import datetime
from collections.abc import Iterator
from pathlib import Path

from dynval.comparisons.commands.exits import UserError
from dynval.comparisons.commands.terminal import console, say, stdout
from dynval.comparisons.commands.validation import cores
from dynval.comparisons.run import cache
from dynval.comparisons.run.progress import TaskProgress


def places() -> tuple[Path, Path, str]:
    """The results cache, the compiled code's root and the installed source's digest."""
    from dynval import _numba_cache
    from dynval.comparisons.run.tasks import default_cache_dir

    return default_cache_dir(), _numba_cache.cache_root(), _numba_cache.loaded_digest()


def info() -> int:
    """What the caches hold, by kind, with sizes."""
    from dynval.comparisons.run.options import cache_cap

    results, numba_root, current = places()
    found = cache.entries(results)
    out = stdout()

    def line(text: str) -> None:
        out.print(text, markup=False)

    line(f"results cache {results}: {len(found)} entries, "
         f"{cache.human(sum(e.size for e in found))} (cap {cache.human(cache_cap())}, "
         "DYNVAL_CACHE_MAX_SIZE)")
    by_kind: dict[str, list] = {}
    for e in found:
        by_kind.setdefault(cache.kind(results, e), []).append(e)
    for k, es in sorted(by_kind.items()):
        line(f"  {k}: {len(es)} entries, {cache.human(sum(e.size for e in es))}")
    if found:
        oldest = datetime.datetime.fromtimestamp(found[0].used).strftime("%Y-%m-%d %H:%M")
        line(f"  least recently used: {oldest}")
    left = cache.leftovers(results)
    if left:
        line(f"  unfinished writes (*.tmp, a writer stopped or a full disk): {len(left)} "
             f"files, {cache.human(sum(e.size for e in left))}; prune removes those an hour "
             "old, clear all")
    folders = cache.numba_folders(numba_root, current)
    line(f"compiled code {numba_root}: {len(folders)} source versions, "
         f"{cache.human(sum(f.size for f in folders))}")
    for f in folders:
        line(f"  {f.path.name}: {cache.human(f.size)}"
             + (" (the source installed now)" if f.current else " (an older source)"))
    return 0


def prune(older_than: str | None, max_size: str | None) -> int:
    """Older sources' compiled code, results unused for ``older_than`` or beyond
    ``max_size``, and hour-old unfinished writes, removed."""
    from dynval.comparisons.run.options import cache_cap

    try:
        age = None if older_than is None else cache.parse_age(older_than)
        size = cache_cap() if max_size is None else cache.parse_size(max_size)
    except cache.CacheOptionError as exc:
        raise UserError(str(exc)) from None
    results, numba_root, current = places()
    with _removing():
        n, freed = cache.prune(results, age, size)
        left, _ = cache.remove_leftovers(results)
        m, freed_code = cache.prune_numba(numba_root, current)
    say(f"removed {n} results entries ({cache.human(freed)}) and the compiled code of {m} "
        f"older sources ({cache.human(freed_code)})"
        + (f"; and {left} unfinished writes (*.tmp)" if left else ""))
    return 0


def clear() -> int:
    """Every cached result, unfinished write and all compiled code removed."""
    results, numba_root, _ = places()
    with _removing():
        n, freed = cache.clear(results, numba_root)
    say(f"removed {n} entries, unfinished writes and folders ({cache.human(freed)}) from "
        f"{results} and {numba_root}")
    return 0


def verify(remove: bool) -> int:
    """Every results entry checked against its content hash; 1 when any failed."""
    results, _, _ = places()
    found, bad = cache.verify(results)
    out = stdout()
    out.print(f"checked {len(found)} results entries in {results}: "
              + (f"{len(bad)} failed their check" if bad else "every one passed its check"),
              markup=False)
    for e, why in bad:
        out.print(f"  {e.path} ({cache.kind(results, e)}): {why}", markup=False)
    if bad and remove:
        with _removing():
            cache.remove([e for e, _ in bad])
        out.print(f"removed the {len(bad)} that failed", markup=False)
    elif bad:
        out.print("a run recomputes each as it reads it; `dynval cache verify --remove` "
                  "deletes them now", markup=False)
    return 1 if bad else 0


def warmup(robot: list[str] | None, workers: int | None) -> int:
    """The robots' ci-tier tasks run for their compiled code only (no results kept)."""
    from dynval.comparisons.run.options import check_options
    from dynval.comparisons.run.warmup import WarmupError
    from dynval.comparisons.run.warmup import warmup as run_warmup
    from dynval.robots import robot_module

    for r in robot or []:
        robot_module(r)
    check_options(workers, None)
    try:
        with TaskProgress(console) as prog:
            run_warmup(cores(workers), robot, prog.report)
    except WarmupError as exc:
        raise UserError(str(exc)) from None
    _, numba_root, current = places()
    held = next((f for f in cache.numba_folders(numba_root, current) if f.current), None)
    say(f"compiled code in {numba_root / current}: {cache.human(held.size if held else 0)}")
    return 0


@contextlib.contextmanager
def _removing() -> Iterator[None]:
    """Around the removal of cache files: one that cannot be removed (a read-only cache)
    is the user's to fix, said in one sentence (exit 2), never a traceback."""
    from dynval.comparisons.run.cache import CacheRemoveError

    try:
        yield
    except CacheRemoveError as exc:
        raise UserError(str(exc)) from None
