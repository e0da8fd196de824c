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

TESTS = Path(__file__).resolve().parent


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
from dynval.comparisons.run import interrupts
from test_pool_deaths import _sleep_noting_pid
if {how!r} == "watch":
    interrupts._killed_with_parent = lambda: None
execute([Task(f"r {{i}}", "r", _sleep_noting_pid, ({folder!r},)) for i in range(2)],
        workers=2)
"""


@pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="reads /proc")
@pytest.mark.parametrize("how", ["kernel", "watch"])
def test_workers_end_with_a_main_process_killed_by_sigkill(tmp_path, how):
    """kill -9 of the main process left both workers running, orphaned, for as long as
    anyone looked (11 minutes, ~290 MB each): now they end within seconds, by Linux's
    parent-death signal or, without it, by their own watch on the parent."""
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

