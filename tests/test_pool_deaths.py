"""The local process pool and the deaths of processes: a worker that dies (killed, out of
memory, a crash inside an engine) costs its task one retry in a fresh worker, a second
death is that task's error and the run goes on; workers end with the main process, even
one killed by SIGKILL.

The tasks' functions live here, at module level, so that the pool's workers find them."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dynval.comparisons.run import tasks as tasks_module
from dynval.comparisons.run.tasks import (
    PoolUnavailableError,
    ResultCache,
    Task,
    WorkerDiedError,
    execute,
    task_digest,
)

TESTS = Path(__file__).resolve().parent


def _twice(x: float, seconds: float = 0.0) -> float:
    time.sleep(seconds)
    return 2 * x


def _killed_once(marker: str, x: float) -> float:
    """Kills the process running it the first time (the marker file then exists)."""
    if not Path(marker).exists():
        Path(marker).touch()
        os.kill(os.getpid(), signal.SIGKILL)
    return 2 * x


def _killed_always(x: float) -> float:
    os.kill(os.getpid(), signal.SIGKILL)
    return 2 * x


def test_a_task_whose_worker_was_killed_runs_again_in_a_fresh_worker(tmp_path):
    """kill -9 of one pool worker ended the whole run with a BrokenProcessPool traceback:
    now its task runs again in a fresh worker, and every task gives its value; the run
    says once that a worker died."""
    marker = tmp_path / "killed"
    tasks = [Task("r killed", "r", _killed_once, (str(marker), 7.0)),
             *(Task(f"r {i}", "r", _twice, (float(i), 0.2)) for i in range(4))]
    notes: list[str] = []
    out = execute(tasks, workers=2, note=notes.append)
    assert marker.exists()  # it was killed once
    assert {k: o.get() for k, o in out.items()} == {
        "r killed": 14.0, "r 0": 0.0, "r 1": 2.0, "r 2": 4.0, "r 3": 6.0}
    assert len(notes) == 1 and "killed by SIGKILL" in notes[0], notes
    assert "r killed" in notes[0] and "runs again" in notes[0]


def test_a_task_whose_worker_dies_twice_fails_alone_and_is_not_cached(tmp_path):
    """A task that kills its worker every time ends in WorkerDiedError after its second
    death; the task that was running beside it when the pool first broke (failed by that
    break too) runs again alone and gives its value, as do the rest; nothing died is
    stored in the results cache."""
    killer = Task("r killer", "r", _killed_always, (1.0,))
    beside = Task("r beside", "r", _twice, (3.0, 1.0))  # running when the killer dies
    rest = [Task(f"r {i}", "r", _twice, (float(i),)) for i in range(3)]
    notes: list[str] = []
    out = execute([beside, killer, *rest], workers=2, cache_dir=tmp_path, note=notes.append)
    assert notes == ["a worker died (killed by SIGKILL) while 2 tasks ran (r beside; "
                     "r killer); each runs again, alone, in a fresh worker"]
    assert isinstance(out["r killer"].error, WorkerDiedError)
    assert str(out["r killer"].error) == ("the worker running r killer died twice "
                                          "(killed by SIGKILL)")
    assert {k: o.get() for k, o in out.items() if k != "r killer"} == {
        "r beside": 6.0, "r 0": 0.0, "r 1": 2.0, "r 2": 4.0}
    cache = ResultCache(tmp_path)
    assert cache.load(task_digest(killer)) is None
    assert cache.load(task_digest(beside)).get() == 6.0


def test_a_pool_that_cannot_be_started_again_is_the_machines_failure(tmp_path, monkeypatch):
    """Where the system refuses the fresh pool's processes after a worker died, the run
    stops with PoolUnavailableError (the infrastructure), not with a task's error."""
    import errno
    from concurrent.futures import ProcessPoolExecutor

    pools: list[ProcessPoolExecutor] = []

    def first_only(*args, **kwargs) -> ProcessPoolExecutor:
        if pools:
            raise OSError(errno.EAGAIN, "Resource temporarily unavailable")
        pools.append(ProcessPoolExecutor(*args, **kwargs))
        return pools[0]

    monkeypatch.setattr(tasks_module, "ProcessPoolExecutor", first_only)
    tasks = [Task("r killed", "r", _killed_once, (str(tmp_path / "killed"), 1.0)),
             Task("r 0", "r", _twice, (0.0,))]
    with pytest.raises(PoolUnavailableError, match="could not be started .Resource temp"):
        execute(tasks, workers=2, note=lambda line: None)


def _alive(pid: int) -> bool:
    """Whether a process runs (a zombie, dead but not yet reaped by init, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _sleep_noting_pid(folder: str) -> None:
    """A long task that says which process runs it."""
    Path(folder, str(os.getpid())).touch()
    time.sleep(120)


# the main process of test_workers_end_with_a_main_process_killed_by_sigkill: two long
# tasks on a pool of two; with "watch", Linux's own signal is not asked for, so that the
# workers' watching thread alone ends them
MAIN = """
import sys
sys.path.insert(0, {tests!r})
from dynval import _orphans
from dynval.comparisons.run.tasks import Task, execute
from test_pool_deaths import _sleep_noting_pid
if {how!r} == "watch":
    _orphans._killed_with_parent = lambda: None
if {how!r} == "figures":  # the report's pool, as reports.figures starts it
    with _orphans.pool(2) as pool:
        list(pool.map(_sleep_noting_pid, [{folder!r}] * 2))
execute([Task(f"r {{i}}", "r", _sleep_noting_pid, ({folder!r},)) for i in range(2)],
        workers=2)
"""


@pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="reads /proc")
@pytest.mark.parametrize("how", ["kernel", "watch", "figures"])
def test_workers_end_with_a_main_process_killed_by_sigkill(tmp_path, how):
    """kill -9 of the main process left both workers running, orphaned, for as long as
    anyone looked (11 minutes, ~290 MB each): now they end within seconds, by Linux's
    parent-death signal or, without it, by their own watch on the parent; the report's
    figure pool likewise."""
    script = MAIN.format(tests=str(TESTS), how=how, folder=str(tmp_path))
    main = subprocess.Popen([sys.executable, "-c", script])
    deadline = time.monotonic() + 60
    while len(list(tmp_path.iterdir())) < 2 and time.monotonic() < deadline:
        assert main.poll() is None, "the main process ended before its tasks started"
        time.sleep(0.05)
    workers = [int(f.name) for f in tmp_path.iterdir()]
    assert len(workers) == 2 and all(map(_alive, workers))
    main.kill()
    main.wait()
    deadline = time.monotonic() + 5
    while any(map(_alive, workers)) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [pid for pid in workers if _alive(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)  # not left behind by a failing test either
    assert not left, f"workers {left} outlived the main process by 5 s"


def test_a_worker_whose_parent_is_gone_ends_at_once(tmp_path):
    """A worker started as its parent died (between the fork and the worker's request)
    ends at once instead of waiting for work that never comes."""
    code = ("import os; from dynval.comparisons.run import interrupts; "
            "interrupts.die_with_parent(os.getppid() + 1); print('left running')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (1, "", "")



# --- what the command line makes of them ---------------------------------------------------
QUICK = ["validate", "--robot", "landing_gear", "--scenario", "flat", "--tier", "ci",
         "--samples", "20", "--workers", "2"]


def test_a_pool_that_cannot_start_is_exit_4_in_one_sentence(tmp_path, monkeypatch):
    """The infrastructure's failure, not exit 1 (the code for a figure that failed)."""
    from typer.testing import CliRunner

    from dynval.comparisons.cli import app
    from dynval.comparisons.run import pipeline

    def refused(*args, **kwargs):
        raise tasks_module._unavailable(OSError(11, "Resource temporarily unavailable"))

    monkeypatch.setattr(pipeline, "execute", refused)
    res = CliRunner().invoke(app, [*QUICK, "--out", str(tmp_path)])
    assert res.exit_code == 4, res.output
    assert "error: the local worker processes could not be started" in res.output
    assert "Traceback" not in res.output


def test_a_task_whose_worker_died_twice_is_exit_4_in_one_sentence(tmp_path, monkeypatch):
    """The run cannot be written as complete without the task's result: one sentence
    naming the task, exit 4 (the machine failed), not a traceback and exit 1."""
    from typer.testing import CliRunner

    from dynval.comparisons.cli import app
    from dynval.comparisons.run import pipeline
    from dynval.comparisons.run.tasks import Outcome

    def died(tasks, *args, **kwargs):
        return {t.key: Outcome(t.key, error=WorkerDiedError(
            f"the worker running {t.key} died twice (killed by SIGKILL)")) for t in tasks}

    monkeypatch.setattr(pipeline, "execute", died)
    res = CliRunner().invoke(app, [*QUICK, "--out", str(tmp_path)])
    assert res.exit_code == 4, res.output
    assert "died twice (killed by SIGKILL); no result was written as complete" in res.output
    assert "Traceback" not in res.output
