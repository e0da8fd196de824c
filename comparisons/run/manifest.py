"""The manifest of an output folder: what made it (inputs, overrides, code and engine
versions, start and completion time) and a digest of every part, written last.

A folder is complete only when its manifest is there and every part it lists has the
digest it lists; ``report`` and ``check`` refuse anything else, naming the part.  Parts are
written to a temporary name and renamed, so a reader never sees half a file, and an
interrupted run (Ctrl-C, a crash, a divergence) leaves no manifest: nothing in the folder
can be taken as complete."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from dynval.comparisons.run import interrupts

MANIFEST = "manifest.json"
DERIVED = ("report.pdf", "sweep.pdf", MANIFEST)  # built from the parts, not parts


class IncompleteRunError(ValueError):
    """An output folder without a completed manifest, or with parts from another run."""


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


def begin(out: Path) -> None:
    """Mark ``out`` as being written: its old manifest (if any) goes first, and the folder
    is checked for being writable before any work starts."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / f".dynval-write-test.{os.getpid()}"
        probe.write_text("")
        probe.unlink()
        (out / MANIFEST).unlink(missing_ok=True)
    except OSError as exc:
        raise IncompleteRunError(f"cannot write to the output folder {out} "
                                 f"({exc.strerror or exc})") from None


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _parts(out: Path) -> list[Path]:
    return sorted(p for p in out.rglob("*") if p.is_file() and p.name not in DERIVED
                  and not p.name.startswith("."))


def finish(out: Path, kind: str, started: str, record: dict[str, Any]) -> dict[str, Any]:
    """Write the manifest last: ``record`` (inputs, overrides, versions) with the
    digest of every part now in the folder; never for a run that was interrupted, even
    where the interrupt was lost on its way (comparisons.interrupts)."""
    interrupts.check()
    manifest = {"kind": kind, "started": started, "completed": now(), **record,
                "parts": {str(p.relative_to(out)): _digest(p) for p in _parts(out)}}
    write_atomic(out / MANIFEST, lambda tmp: tmp.write_text(json.dumps(manifest, indent=1)))
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
    extra = [p for p in _parts(out) if str(p.relative_to(out)) not in parts]
    if extra:
        raise IncompleteRunError(f"{extra[0]} is not part of the run of {path} "
                                 "(another run's part); use a separate --out for it")
    return manifest
