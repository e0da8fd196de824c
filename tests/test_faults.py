"""Under faults nothing is silently wrong: a read-only results cache is read and never
written, a full or read-only disk is the machine's failure (its own exit code, one
sentence naming the path and the errno), never a traceback."""

from __future__ import annotations

import contextlib
import errno
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from dynval import _stored
from dynval.comparisons import cli
from dynval.comparisons.commands.exits import user_errors
from dynval.comparisons.run import manifest
from dynval.comparisons.run.tasks import Task, execute
from tests.test_cache_checks import ramp

runner = CliRunner()


def _tasks() -> list[Task]:
    return [Task(f"ramp {i}", "toy", ramp, (i,)) for i in range(4)]


@contextlib.contextmanager
def read_only(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """``folder`` seen read-only: a read-only bind mount of it where this machine lets
    root mount, else every write under it refused as a read-only file system would."""
    view = folder.parent / f"{folder.name}-ro"
    view.mkdir()
    mounted = subprocess.run(["mount", "--bind", str(folder), str(view)],
                             capture_output=True).returncode == 0 and subprocess.run(
        ["mount", "-o", "remount,ro,bind", str(view)], capture_output=True).returncode == 0
    if not mounted:
        subprocess.run(["umount", str(view)], capture_output=True)
        original = Path.write_bytes

        def refuse(self: Path, data: bytes) -> int:
            if str(self).startswith(str(view)):
                raise OSError(errno.EROFS, "Read-only file system", str(self))
            return original(self, data)
        monkeypatch.setattr(Path, "write_bytes", refuse)
        view.rmdir()
        view.symlink_to(folder)
    try:
        yield view
    finally:
        if mounted:
            subprocess.run(["umount", str(view)], check=True)


@pytest.fixture(autouse=True)
def _writable_again(monkeypatch):
    monkeypatch.setattr(_stored, "_unwritable", [])


def test_a_read_only_cache_is_read_and_never_written(tmp_path, monkeypatch):
    """A warm run on a read-only cache takes every result from it, stores nothing, says
    so once; a cold task there is computed and not stored, and nothing fails."""
    cache = tmp_path / "cache"
    first = execute(_tasks()[:3], cache_dir=cache)
    with read_only(cache, monkeypatch) as ro:
        again = execute(_tasks(), cache_dir=ro)
    assert [again[f"ramp {i}"].cached for i in range(4)] == [True, True, True, False]
    assert all((again[k].get() == first[k].get()).all() for k in first)
    said = _stored.unwritable()
    assert "could not be written" in said and "none stored" in said, said
    assert len(list(cache.glob("*/*.pkl"))) == 3  # the fourth was not stored


def test_a_full_disk_under_the_output_is_the_machines_failure(tmp_path):
    """ENOSPC in the middle of a run: exit 4 and one sentence naming the file and the
    errno, no traceback."""
    app = typer.Typer()

    @app.command()
    @user_errors
    def write() -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "traces.parquet"))

    res = runner.invoke(app, [])
    assert res.exit_code == cli.EXIT_INFRASTRUCTURE
    assert "traces.parquet" in res.output and "No space left on device" in res.output
    assert "Traceback" not in res.output and len(res.output.strip().splitlines()) == 1


def test_a_read_only_output_folder_is_named_with_its_errno(tmp_path, monkeypatch):
    (tmp_path / "out").mkdir()
    with read_only(tmp_path / "out", monkeypatch) as ro:
        if ro.is_symlink():  # no mount here: the probe's write refused the same way
            monkeypatch.setattr(Path, "write_bytes", lambda self, *a, **k: (_ for _ in ()).throw(
                OSError(errno.EROFS, "Read-only file system", str(self))))
        with pytest.raises(OSError) as caught:
            manifest.begin(ro)
    assert caught.value.errno == errno.EROFS and caught.value.filename == str(ro)


def test_an_output_folder_this_user_may_not_write_is_the_machines_failure(tmp_path,
                                                                         monkeypatch):
    """EACCES on the output folder (root may write anywhere, so the refusal is injected):
    exit 4, one sentence naming the folder and the errno, before any work."""
    from dynval.comparisons.run import manifest as m

    def refuse(self, *args, **kwargs):
        raise OSError(errno.EACCES, "Permission denied", str(self))

    monkeypatch.setattr(Path, "write_bytes", refuse)
    with pytest.raises(OSError) as caught:
        m.begin(tmp_path / "out")
    assert caught.value.errno == errno.EACCES
    assert caught.value.filename == str(tmp_path / "out")
