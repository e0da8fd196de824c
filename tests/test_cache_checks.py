"""Every cache entry proves its content: a stored task result, assembled chapter or drawn
figure carries the hash of its bytes, checked on every read (dynval._stored). An entry
whose bytes changed on disk is removed, counted and recomputed, the count reaches the
progress line, summary.json and the report's cover, and `dynval cache verify` finds it."""

from __future__ import annotations

import pickle

import numpy as np

from dynval import _stored
from dynval.comparisons.run.tasks import Outcome, ResultCache, Task, execute, task_digest


def ramp(i: int) -> np.ndarray:
    """A task's value: floats enough that a flipped byte in the middle of the stored
    entry lands in one of them (a silently different number, not an unreadable file)."""
    return np.linspace(0.0, 1.0 + i, 2000)


def _tasks() -> list[Task]:
    return [Task(f"ramp {i}", "landing_gear", ramp, (i,)) for i in range(3)]


def test_a_flipped_byte_in_a_task_result_is_recomputed_and_counted(tmp_path,
                                                                    flip_middle_byte):
    tasks = _tasks()
    execute(tasks, cache_dir=tmp_path)
    victim = tasks[1]
    flip_middle_byte(ResultCache(tmp_path)._path(task_digest(victim)))
    before = _stored.failures()
    again = execute(tasks, cache_dir=tmp_path)
    assert _stored.failures() - before == 1
    assert not again[victim.key].cached
    assert [again[t.key].cached for t in tasks if t is not victim] == [True, True]
    assert np.array_equal(again[victim.key].get(), ramp(1))  # a fresh computation's bits
    # stored again, intact: the next run reads it back and counts nothing
    third = execute(tasks, cache_dir=tmp_path)
    assert third[victim.key].cached and _stored.failures() - before == 1


def test_an_entry_without_its_header_is_never_trusted(tmp_path):
    """An entry written without the content hash (an older dynval, another program) is a
    miss: removed and counted, never read as a result."""
    results = ResultCache(tmp_path)
    path = results._path("ab" * 32)
    path.parent.mkdir(parents=True)
    path.write_bytes(pickle.dumps(execute(_tasks()[:1])["ramp 0"], protocol=4))
    before = _stored.failures()
    assert results.load("ab" * 32) is None
    assert _stored.failures() - before == 1 and not path.exists()


def test_a_failed_write_leaves_no_partial_file(tmp_path, monkeypatch):
    """A write that fails halfway (a full disk) removes its temporary file, and the cache
    is read, not written, for the rest of the run (said once)."""
    import errno
    from pathlib import Path

    real = Path.write_bytes

    def full(self, data):
        real(self, data[:10])
        raise OSError(errno.ENOSPC, "No space left on device", str(self))

    monkeypatch.setattr(Path, "write_bytes", full)
    monkeypatch.setattr(_stored, "_unwritable", [])
    _stored.write(tmp_path / "ab" / f"{'ab' * 32}.pkl", 1.0)
    assert list(tmp_path.rglob("*")) == [tmp_path / "ab"]
    assert "No space left on device" in _stored.unwritable()


def test_the_progress_line_counts_the_entries_that_failed(tmp_path, flip_middle_byte):
    import io

    from rich.console import Console

    from dynval.comparisons.run.progress import TaskProgress

    tasks = _tasks()
    execute(tasks, cache_dir=tmp_path)
    for t in tasks[:2]:
        flip_middle_byte(ResultCache(tmp_path)._path(task_digest(t)))
    log = io.StringIO()
    with TaskProgress(Console(file=log, width=10_000)) as prog:
        execute(tasks, cache_dir=tmp_path, report=prog.report)
    assert ("3 tasks done: 2 ran, 1 from the cache; 2 cache entries failed their check and "
            "were recomputed; none ended in an error") in log.getvalue()
    log = io.StringIO()
    with TaskProgress(Console(file=log, width=10_000)) as prog:
        execute(tasks, cache_dir=tmp_path, report=prog.report)
    assert "3 tasks done: 0 ran, 3 from the cache; none ended" in log.getvalue()


def test_the_cover_claims_a_recomputations_bits_only_when_every_entry_passed():
    from dynval.reports.pdf import _run_line

    summary = {"tier": "ci", "samples": 20, "seed": 0, "overrides": [],
               "tasks": {"total": 25, "from_cache": 23}, "cache": {"checks_failed": 0}}
    assert "the same bits as a recomputation" in _run_line(summary)
    assert _run_line(summary, figures_failed=1).endswith(
        "23 of 25 tasks from the results cache; 1 cache entry failed its check and was "
        "recomputed.")
    summary["cache"]["checks_failed"] = 2
    line = _run_line(summary, figures_failed=1)
    assert "same bits" not in line and "3 cache entries failed their check" in line
    del summary["cache"]  # an older dynval's summary: its entries were never checked
    assert "same bits" not in _run_line(summary)


def test_cache_verify_lists_the_entries_that_fail_and_removes_them_on_request(
        tmp_path, flip_middle_byte):
    """`dynval cache verify` checks every entry's hash: exit 0 on a clean cache; 1 when
    one fails, listing its path and kind (the entry stays); --remove deletes it."""
    from typer.testing import CliRunner

    from dynval.comparisons.cli import app

    runner, env = CliRunner(), {"DYNVAL_CACHE": str(tmp_path)}
    results = ResultCache(tmp_path)
    for i, digest in enumerate(("aa" * 32, "bb" * 32)):
        results.store(digest, Outcome(f"ramp {i}", ramp(i)))
    figure = tmp_path / "figures" / f"{'f' * 64}.pkl"
    _stored.write(figure, (b"\x89PNG" + bytes(4000), 0.5))
    res = runner.invoke(app, ["cache", "verify"], env=env)
    assert res.exit_code == 0, res.output
    assert f"checked 3 results entries in {tmp_path}: every one passed its check" in res.output
    victim = results._path("bb" * 32)
    flip_middle_byte(victim)
    flip_middle_byte(figure)
    res = runner.invoke(app, ["cache", "verify"], env=env)
    assert res.exit_code == 1, res.output
    assert "checked 3 results entries" in res.output and "2 failed their check" in res.output
    assert (f"  {victim} (task results): its content hash differs from the one written with "
            "it") in res.output
    assert f"  {figure} (drawn figures): its content hash differs" in res.output
    assert victim.exists() and figure.exists()
    res = runner.invoke(app, ["cache", "verify", "--remove"], env=env)
    assert res.exit_code == 1 and "removed the 2 that failed" in res.output
    assert not victim.exists() and not figure.exists()
    res = runner.invoke(app, ["cache", "verify"], env=env)
    assert res.exit_code == 0 and "checked 1 results entries" in res.output
