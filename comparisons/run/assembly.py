"""A robot's assembled chapter, cached by content.

Assembling a chapter from the tasks' outcomes (comparisons, tidy traces, Parquet) is a
pure function of those outcomes, the robot's inputs and the assembling code, so a warm
``validate`` (every task read from the results cache) need not redo it. The entry's
address is derived from the outcomes' own content addresses (``Outcome.digest``), the
inputs and the robot's source set (the framework's files and the robot's own folders:
``dynval.comparisons.run.tasks.code_digest``); the entry holds the metric rows, the
chapter and the bytes of every part written under the output folder, which a hit writes
again unchanged. Without a digest for every outcome (``--no-cache``) nothing is read or
stored; an entry that fails its content check (``dynval._stored``) is removed, counted
and assembled again, never trusted."""

from __future__ import annotations

import hashlib
import pickle
from dataclasses import replace
from pathlib import Path

from dynval import _stored
from dynval.comparisons.ladder.rungs import Assembled, Inputs, RobotLadder
from dynval.comparisons.run.manifest import write_atomic
from dynval.comparisons.run.tasks import Outcome, Task, code_digest, inputs_digest
from dynval.results import Chapter, MetricRow

ASSEMBLY_FORMAT = 2  # bump when the stored form of an assembly changes (2: hashed)


def assembly_digest(ladder: RobotLadder, inp: Inputs, tasks: list[Task],
                    outcomes: dict[str, Outcome]) -> str | None:
    """The content address of a robot's assembly, or None when an outcome has none (the
    results cache was not used)."""
    digests = [(t.key, outcomes[t.key].digest) for t in tasks]
    if not digests or not all(d for _, d in digests):
        return None
    code = code_digest(ladder.robot)
    h = hashlib.sha256(f"{ASSEMBLY_FORMAT}:{ladder.robot}:{code}".encode())
    h.update(repr(digests).encode())
    # the inputs themselves (hooks read the parameters; the description folder counts by
    # its content, as in a task's address, and by where it lies, as the tasks' own calls do)
    h.update(pickle.dumps(replace(inp, desc_dir=str(inp.desc_dir)), protocol=4))
    h.update(inputs_digest(Path(inp.desc_dir)).encode())
    return h.hexdigest()


def _path(cache_dir: Path, digest: str) -> Path:
    return Path(cache_dir) / "assembled" / f"{digest}.pkl"


def load(cache_dir: Path, digest: str) -> Assembled | None:
    """The stored assembly, or None (an entry that fails its check is removed)."""
    return _stored.read(_path(cache_dir, digest), _is_assembly)


def _is_assembly(stored: object) -> bool:
    """Whether an assembly entry has the form of an assembled chapter."""
    return (isinstance(stored, Assembled) and isinstance(stored.chapter, Chapter)
            and isinstance(stored.rows, list)
            and all(isinstance(r, MetricRow) for r in stored.rows)
            and isinstance(stored.files, dict)
            and all(isinstance(k, str) and isinstance(v, bytes)
                    for k, v in stored.files.items()))


def store(cache_dir: Path, digest: str, done: Assembled) -> None:
    _stored.write(_path(cache_dir, digest), done)


def assemble(ladder: RobotLadder, inp: Inputs, tasks: list[Task],
             outcomes: dict[str, Outcome], out: Path, cache_dir: Path | None
             ) -> tuple[list[MetricRow], Chapter, bool]:
    """The robot's metric rows and chapter, with its parts written under ``out`` (each
    atomically, as a part of the run's manifest), and whether they came from the assembly
    cache (where the same outcomes were assembled by the same code before); else they are
    assembled (and stored)."""
    digest = (assembly_digest(ladder, inp, tasks, outcomes) if cache_dir is not None
              else None)
    hit = load(cache_dir, digest) if digest else None
    done = hit if hit is not None else ladder.assembled(inp, outcomes, out)
    if hit is None and digest:
        store(cache_dir, digest, done)
    for rel, data in done.files.items():  # the ladder returns the bytes; they are written here
        write_atomic(out / rel, lambda tmp, d=data: tmp.write_bytes(d))
    return done.rows, done.chapter, hit is not None
