"""The manifest of an output folder: what made it (inputs, overrides, code and engine
versions, start and completion time) and a digest of every part, written last.

A folder is complete only when its manifest is there and every part it lists has the
digest it lists; ``report`` and ``check`` refuse anything else, naming the part.  Parts are
written to a temporary name and renamed, so a reader never sees half a file, and an
interrupted run (Ctrl-C, a crash, a divergence) leaves no manifest: nothing in the folder
can be taken as complete.

A run owns only what it wrote: its parts are the files it wrote (:func:`write_atomic`),
not whatever else lies in the folder (a check's output inside a validate's folder, a
user's notes), which is left alone and not judged.  Each part written is noted in the
folder's ledger (``.dynval-parts``) as it is written, so a later run knows which files a
dynval run made even where that run was interrupted; a file of the names a run writes
(``metrics.parquet``, ``summary.json``, ``report.pdf``, ...) that no dynval run made is
not overwritten without ``--force``."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from dynval import _stored
from dynval.comparisons.run import interrupts

MANIFEST = "manifest.json"
LEDGER = ".dynval-parts"  # every part a dynval run wrote here, one relative path a line
DERIVED = ("report.pdf", "sweep.pdf", MANIFEST)  # built from the parts, not parts
# The files at a folder's top that runs write: a user's file of one of these names is not
# overwritten without --force.
RESULTS = ("metrics.parquet", "metrics.json", "summary.json", "report.pdf", "sweep.parquet",
           "mutants.parquet",
           "sweep.pdf", MANIFEST)

_run: dict[str, Any] = {}  # the run being written by this process: its folder and parts


class IncompleteRunError(ValueError):
    """An output folder without a completed manifest, or with parts from another run."""


class ForeignFileError(ValueError):
    """A file in the output folder that a run would overwrite and no dynval run made."""


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def write_atomic(path: Path, write: Callable[[Path], Any]) -> None:
    """Call ``write(tmp)`` and rename ``tmp`` to ``path``: readers see all or nothing."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        write(tmp)
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)
    _note_part(path)


def _note_part(path: Path) -> None:
    """Note a file the current run wrote as one of its parts (and in the folder's ledger)."""
    out = _run.get("out")
    if out is None or path.name in DERIVED:
        return
    try:
        rel = path.resolve().relative_to(out).as_posix()
    except ValueError:
        return  # outside the run's folder (a cache entry, a baseline)
    if rel not in _run["parts"]:
        _run["parts"].add(rel)
        with (out / LEDGER).open("a") as f:
            f.write(rel + "\n")


def _made_by_dynval(out: Path) -> set[str]:
    """The files of ``out`` that a dynval run wrote: its ledger's, and a manifest's parts
    and derived files."""
    made: set[str] = set()
    ledger = out / LEDGER
    if ledger.is_file():
        made.update(line for line in ledger.read_text().splitlines() if line)
    try:
        old = json.loads((out / MANIFEST).read_text())
        made.update(old["parts"])
        made.update(DERIVED)
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return made


def begin(out: Path, force: bool = False) -> None:
    """Mark ``out`` as being written by this process's run: the folder is checked for
    being writable and for files of the names a run writes that no dynval run made
    (refused unless ``force``), all before any work starts; then its old manifest goes."""
    try:
        _stored.try_write(out)
    except OSError as exc:
        if exc.errno in _stored.UNWRITABLE:  # the machine's state, named with the folder
            raise OSError(exc.errno, exc.strerror, str(out)) from None
        raise IncompleteRunError(f"cannot write to the output folder {out} "
                                 f"({exc.strerror or exc})") from None
    made = _made_by_dynval(out)
    foreign = [n for n in RESULTS if (out / n).is_file() and n not in made]
    if foreign and not force:
        raise ForeignFileError(
            f"{out / foreign[0]} was not written by a dynval run and would be overwritten; "
            "use another --out, or --force to overwrite it")
    others = [] if made or (out / LEDGER).is_file() or force else sorted(
        p.name for p in out.iterdir() if not p.name.startswith(".dynval"))
    if others:  # a folder of the user's own: a run's files would land among them
        raise ForeignFileError(
            f"{out} already holds files no dynval run wrote ({others[0]}"
            f"{f' and {len(others) - 1} more' if len(others) > 1 else ''}); use a new or "
            "empty folder for --out, or --force to write among them")
    # the ledger keeps what dynval made here (a report built from the old manifest too),
    # so that a run interrupted before its manifest leaves nothing that looks foreign
    _run.clear()  # no run of this process is being written while the ledger is
    kept = sorted(n for n in made if (out / n).is_file())
    write_atomic(out / LEDGER, lambda tmp: tmp.write_text("".join(f"{n}\n" for n in kept)))
    (out / MANIFEST).unlink(missing_ok=True)
    _run.update(out=out.resolve(), parts=set())


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def finish(out: Path, kind: str, started: str, record: dict[str, Any]) -> dict[str, Any]:
    """Write the manifest last: ``record`` (inputs, overrides, versions) with the digest of
    every part this run wrote; never for a run that was interrupted, even where the
    interrupt was lost on its way (run.interrupts)."""
    interrupts.check()
    if _run.get("out") != out.resolve():
        raise RuntimeError(f"finish({out}) without begin({out}) in this process")
    parts = sorted(_run["parts"])
    manifest = {"kind": kind, "started": started, "completed": now(), **record,
                "parts": {rel: _digest(out / rel) for rel in parts}}
    write_atomic(out / MANIFEST, lambda tmp: tmp.write_text(json.dumps(manifest, indent=1)))
    _run.clear()
    return manifest


def verify(out: Path, kind: str = "validate") -> dict[str, Any]:
    """The folder's manifest, after checking that it is complete and that every part is
    the one it lists and no other part was added since."""
    path = out / MANIFEST
    if not path.is_file():
        raise IncompleteRunError(
            f"{out} has no completed manifest ({MANIFEST}): the run that wrote it did not "
            f"finish, or it is not a dynval output folder; run 'dynval validate --out {out}'")
    try:
        manifest = json.loads(path.read_text())
        parts = manifest["parts"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise IncompleteRunError(f"{path} cannot be read ({exc})") from None
    if manifest.get("kind") != kind:
        raise IncompleteRunError(f"{out} holds the output of 'dynval {manifest.get('kind')}', "
                                 f"not of 'dynval {kind}'")
    for rel, digest in parts.items():
        p = out / rel
        if not p.is_file():
            raise IncompleteRunError(f"{p} is listed in {path} but missing")
        if _digest(p) != digest:
            raise IncompleteRunError(f"{p} was written after the run of {path} "
                                     "(another run's part); run validate again")
    return manifest
