"""The caches kept in bounds (dynval.comparisons.run.cache, `dynval cache`): entries used
least recently go first, a run's own entries stay, compiled code of older sources goes,
and sizes and ages are read or refused in one sentence."""

from __future__ import annotations

import os
import time

import pytest
from typer.testing import CliRunner

from dynval import _numba_cache
from dynval.comparisons.cli import app
from dynval.comparisons.run import cache
from dynval.comparisons.run.tasks import Outcome, ResultCache

runner = CliRunner()


def _entry(root, name: str, size: int, age_s: float):
    name = name.ljust(64, "0")  # a digest's length
    path = root / name[:2] / f"{name}.pkl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"x" * size)
    t = time.time() - age_s
    os.utime(path, (t, t))
    return path


def test_sizes_and_ages_read_or_refused():
    assert cache.parse_size("500M") == 500 * 1024**2
    assert cache.parse_size("1.5GB") == int(1.5 * 1024**3)
    assert cache.parse_size("64KiB") == 65536 and cache.parse_size("123") == 123
    assert cache.parse_age("7d") == 7 * 86400 and cache.parse_age("90s") == 90
    for bad in ("abc", "5X", "-1G", ""):
        with pytest.raises(cache.CacheOptionError, match="cannot read the size"):
            cache.parse_size(bad)
    with pytest.raises(cache.CacheOptionError, match="cannot read the age"):
        cache.parse_age("soon")


def test_pruning_removes_the_least_recently_used_first_and_never_a_runs_own(tmp_path):
    old = _entry(tmp_path, "aa01", 1000, 10 * 86400)
    mid = _entry(tmp_path, "bb02", 1000, 2 * 86400)
    new = _entry(tmp_path, "cc03", 1000, 60)
    assert cache.prune(tmp_path, older_than=7 * 86400) == (1, 1000)
    assert not old.exists() and mid.exists() and new.exists()
    # over the cap: the least recently used goes, down to the cap
    assert cache.prune(tmp_path, size=1500) == (1, 1000)
    assert not mid.exists() and new.exists()
    # a run's own entries stay even over the cap
    assert cache.prune(tmp_path, size=0, keep_since=time.time() - 3600) == (0, 0)
    assert new.exists()


def test_a_cache_hit_marks_its_entry_as_used(tmp_path):
    results = ResultCache(tmp_path)
    results.store("ab" * 32, Outcome("k", 1.0))
    path = next(tmp_path.rglob("*.pkl"))
    os.utime(path, (1.0, 1.0))  # used long ago
    assert results.load("ab" * 32).value == 1.0
    assert path.stat().st_mtime > time.time() - 60


def _env(tmp_path) -> dict[str, str]:
    return {"DYNVAL_CACHE": str(tmp_path / "results"), "XDG_CACHE_HOME": str(tmp_path),
            "DYNVAL_CACHE_MAX_SIZE": "1M"}


def test_cache_info_prune_and_clear_from_the_command_line(tmp_path, monkeypatch):
    monkeypatch.setattr(_numba_cache.config, "CACHE_DIR", "")  # the XDG folder, whatever CI set
    results = tmp_path / "results"
    _entry(results, "aa01", 2000, 30 * 86400)
    _entry(results, "bb02", 3000, 60)
    (results / "figures").mkdir()
    (results / "figures" / f"{'f' * 64}.pkl").write_bytes(b"y" * 500)
    (results / "mine").mkdir()  # not dynval's: never counted, never removed
    (results / "mine" / "notes.pkl").write_bytes(b"n" * 100)
    code = tmp_path / "dynval-numba"
    (code / _numba_cache.loaded_digest()).mkdir(parents=True)
    (code / _numba_cache.loaded_digest() / "a.nbi").write_bytes(b"z" * 100)
    (code / "0000000000000000").mkdir()
    (code / "0000000000000000" / "b.nbi").write_bytes(b"z" * 700)
    hopper = _numba_cache.cache_dir("hopper").name
    for robot_folder in (hopper, "hopper-0000000000000000"):  # the hopper now, and before
        (code / _numba_cache.loaded_digest() / robot_folder).mkdir()
        (code / _numba_cache.loaded_digest() / robot_folder / "c.nbi").write_bytes(b"z" * 50)
    res = runner.invoke(app, ["cache", "info"], env=_env(tmp_path))
    assert res.exit_code == 0, res.output
    assert "3 entries, 5.4 kB (cap 1.0 MB" in res.output
    assert "task results: 2 entries" in res.output and "drawn figures: 1 entries" in res.output
    assert "3 source versions" in res.output and "(the source installed now)" in res.output
    res = runner.invoke(app, ["cache", "prune", "--older-than", "7d"], env=_env(tmp_path))
    assert res.exit_code == 0, res.output
    assert "removed 1 results entries (2.0 kB) and the compiled code of 2 older sources" \
        in res.output
    assert (code / _numba_cache.loaded_digest() / hopper).is_dir()
    assert not (code / _numba_cache.loaded_digest() / "hopper-0000000000000000").exists()
    assert not (code / "0000000000000000").exists()
    res = runner.invoke(app, ["cache", "prune", "--max-size", "lots"], env=_env(tmp_path))
    assert res.exit_code == 2 and "cannot read the size 'lots'" in res.output
    res = runner.invoke(app, ["cache", "clear"], env=_env(tmp_path))
    assert res.exit_code == 0, res.output
    assert list(results.rglob("*.pkl")) == [results / "mine" / "notes.pkl"]
    assert not list(code.iterdir())


def test_an_unreadable_cap_stops_a_run_before_any_work(tmp_path):
    res = runner.invoke(app, ["validate", "--robot", "hopper", "--out", str(tmp_path / "o")],
                        env={"DYNVAL_CACHE_MAX_SIZE": "huge"})
    assert res.exit_code == 2
    assert "DYNVAL_CACHE_MAX_SIZE: cannot read the size 'huge'" in res.output
    assert not (tmp_path / "o").exists()


def _leftover(root, name: str, age_s: float):
    """An unfinished write (a writer killed, a full disk) under ``root``."""
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"t" * 300)
    t = time.time() - age_s
    os.utime(path, (t, t))
    return path


def test_unfinished_writes_are_counted_and_removed(tmp_path, monkeypatch):
    """dynval's own *.tmp files (an entry's name and a writer's process id, the timings')
    are counted by info, removed by prune an hour on (a younger one may be a running
    writer's) and by clear at once; another program's .tmp is never touched."""
    monkeypatch.setattr(_numba_cache.config, "CACHE_DIR", "")
    results = tmp_path / "results"
    digest = "ab" * 32
    old = _leftover(results, f"ab/{digest}.4242.tmp", 2 * 3600)
    old_timings = _leftover(results, "timings-ci.tmp", 2 * 3600)
    young = _leftover(results, f"figures/{digest}.77.tmp", 60)
    foreign = _leftover(results, "mine/notes.tmp", 2 * 3600)
    res = runner.invoke(app, ["cache", "info"], env=_env(tmp_path))
    assert res.exit_code == 0, res.output
    assert "unfinished writes (*.tmp, a writer stopped or a full disk): 3 files, 900 B" \
        in res.output
    res = runner.invoke(app, ["cache", "prune"], env=_env(tmp_path))
    assert res.exit_code == 0, res.output
    assert "; and 2 unfinished writes (*.tmp)" in res.output
    assert not old.exists() and not old_timings.exists() and young.exists()
    res = runner.invoke(app, ["cache", "clear"], env=_env(tmp_path))
    assert res.exit_code == 0, res.output
    assert not young.exists() and foreign.exists()


@pytest.mark.parametrize("command", [["prune", "--older-than", "1d"], ["clear"]])
def test_a_read_only_cache_is_said_in_one_sentence(tmp_path, monkeypatch, command):
    """Where the cache's files cannot be removed, prune and clear say which (path and the
    system's reason) in one sentence and exit 2, instead of a traceback."""
    import errno
    from pathlib import Path

    monkeypatch.setattr(_numba_cache.config, "CACHE_DIR", "")
    results = tmp_path / "results"
    first = _entry(results, "aa01", 2000, 30 * 86400)
    _entry(results, "bb02", 3000, 30 * 86400)

    def read_only(self, missing_ok=False):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(self))

    monkeypatch.setattr(Path, "unlink", read_only)
    res = runner.invoke(app, ["cache", *command], env=_env(tmp_path))
    assert res.exit_code == 2, res.output
    assert isinstance(res.exception, SystemExit)  # said, not raised
    assert res.output.strip() == (f"error: could not remove {first} from the cache (Read-only "
                                  "file system), nor 1 more")
