"""One stored cache entry (a task's outcome, an assembled chapter, a drawn figure): the
pickled payload behind a header that carries its content hash.

A cached entry is trusted to be the same bits as a recomputation, so every read proves
it: the header (``MAGIC``, the SHA-256 of the payload in hex, a newline) is checked
before the payload is unpickled. An entry whose bytes changed on disk (a flipped bit, a
truncated or foreign file) fails its check: it is removed, counted (:func:`failures`) so
that the run can say so, and the caller computes it again. One module for every kind of
entry, beside the layers that read them (the run layer and the report), since the
report may import nothing of the run layer."""

from __future__ import annotations

import errno
import hashlib
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

MAGIC = b"dynval cache entry, sha256 checked\n"  # change it when the stored form changes
_HEAD = len(MAGIC) + 64 + 1  # the magic, the hex digest, a newline

_failed: list[Path] = []  # entries of this process that failed their check, in order
_unwritable: list[str] = []  # why this process cannot write to the cache: a sentence, once


class EntryCheckError(ValueError):
    """An entry whose bytes are not the bytes written: no header, or another hash."""


def seal(payload: bytes) -> bytes:
    """The payload behind its header: what is written to disk."""
    return MAGIC + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload


def unseal(data: bytes) -> bytes:
    """The payload of a stored entry, proved by its header; :class:`EntryCheckError`
    where the header is missing or the payload's hash is not the one written."""
    if not data.startswith(MAGIC) or data[_HEAD - 1:_HEAD] != b"\n":
        raise EntryCheckError("no content-hash header: an older dynval's entry, or its "
                              "header damaged")
    payload = data[_HEAD:]
    if data[len(MAGIC):_HEAD - 1] != hashlib.sha256(payload).hexdigest().encode():
        raise EntryCheckError("its content hash differs from the one written with it")
    return payload


def write(path: Path, value: object) -> None:
    """Store ``value`` at ``path``, sealed, atomically: written under a name of this
    process (``<name>.<pid>.tmp``), then renamed, so a reader sees the whole entry or none;
    a write that fails (a full disk) leaves no partial file behind, and one whose
    unfinished file a ``dynval cache clear`` removed meanwhile keeps nothing."""
    if _unwritable:
        return  # a read-only or full cache is read, not written
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(seal(pickle.dumps(value, protocol=4)))
        tmp.replace(path)
    except FileNotFoundError:
        pass  # the unfinished write was removed meanwhile (`dynval cache clear`): not kept
    except OSError as exc:
        _discard(tmp)
        if exc.errno not in UNWRITABLE:
            raise
        cannot_write(path, exc)
    except BaseException:
        _discard(tmp)
        raise


# A folder the process cannot write to (read-only, not its own, full, failing): the
# machine's state, not the input's.  A cache in that state is still read.
UNWRITABLE = (errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOSPC, errno.EDQUOT, errno.EIO)


def try_write(folder: Path) -> None:
    """Create ``folder`` and write and remove a file in it: an OSError where the folder
    cannot take files (asked before a run, not halfway through it)."""
    marker = folder / f".dynval-write-test.{os.getpid()}"
    folder.mkdir(parents=True, exist_ok=True)
    marker.write_bytes(b"")
    marker.unlink()


def cannot_write(path: Path, exc: OSError) -> None:
    """Note, once, that the cache cannot be written (``path`` the first write refused):
    the run goes on reading it and writes nothing more there."""
    if not _unwritable:
        _unwritable.append(f"the cache could not be written at {path} "
                           f"({exc.strerror or exc}): results were read from it, none "
                           "stored")


def probe(directory: Path) -> None:
    """Find out before a run whether the cache at ``directory`` takes files, so that a
    read-only one is read and never written (cannot_write), by every process of the run
    that asks this one."""
    _unwritable.clear()  # a new run: this cache is asked afresh
    try:
        try_write(Path(directory))
    except OSError as exc:
        if exc.errno not in UNWRITABLE:
            raise
        cannot_write(Path(directory), exc)


def unwritable() -> str:
    """Why this process writes nothing to the cache, in one sentence; "" where it does."""
    return _unwritable[0] if _unwritable else ""


def _discard(tmp: Path) -> None:
    """Remove an unfinished write, where the file system lets it."""
    try:
        tmp.unlink(missing_ok=True)
    except OSError:
        pass


def read(path: Path | None, accept: Callable[[Any], bool], default: Any = None) -> Any:
    """The value stored at ``path``, or ``default`` where there is none. An entry that
    fails its check, cannot be unpickled or is not of the form ``accept`` takes is
    removed and counted, and ``default`` returned: the caller computes it again, never
    trusting it. A hit marks its entry as used, so that pruning keeps it longest."""
    if path is None:
        return default
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return default
    except OSError:
        return _rejected(path, default)
    try:
        value = pickle.loads(unseal(data))
        if not accept(value):
            raise EntryCheckError("not the form this entry holds")
    except Exception:  # noqa: BLE001 - whatever is wrong with it, it is computed again
        return _rejected(path, default)
    _touch(path)
    return value


def problem(path: Path) -> str:
    """What is wrong with the entry at ``path`` in words, or "" where it passes its check
    (its header and hash, read without unpickling it)."""
    try:
        unseal(path.read_bytes())
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}"
    except EntryCheckError as exc:
        return str(exc)
    return ""


def failures() -> int:
    """How many entries this process has found failing their check so far: a run takes
    the difference across what it did."""
    return len(_failed)


def failed_sentence(n: int) -> str:
    """The count in words, for the progress line, the command line and the report."""
    return (f"{n} cache {'entry' if n == 1 else 'entries'} failed "
            f"{'its' if n == 1 else 'their'} check and {'was' if n == 1 else 'were'} "
            "recomputed")


def _rejected(path: Path, default: Any) -> Any:
    """Count a failed entry and remove it (a read-only cache keeps it: it fails again)."""
    _failed.append(path)
    try:
        path.unlink(missing_ok=True)
    except OSError:
        pass
    return default


def _touch(path: Path) -> None:
    """Mark an entry as used now (a cache hit)."""
    try:
        os.utime(path)
    except OSError:
        pass  # a read-only cache is still a cache
