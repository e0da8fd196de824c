"""The task graph: serial, process-pool, Dask and cached runs give the same bits; a
corrupted cache entry is recomputed; a task's failure is its result."""

import dataclasses
import struct

import numpy as np
import pandas as pd
import pytest

from dynval.comparisons.ladder.harness import DivergenceError
from dynval.comparisons.ladder.rungs import Inputs
from dynval.comparisons.landing_gear.validate import LADDER
from dynval.comparisons.run.tasks import Outcome, ResultCache, Task, execute, task_digest
from dynval.robots import ROOT


def _tasks() -> list[Task]:
    """The landing gear's flat landing, first second, every implementation and contact,
    plus its L0 and L3 (cheap, and real)."""
    inp = Inputs(LADDER.default_params, ROOT / "landing_gear", ("flat",), 20, 0, "ci")
    return [t for t in LADDER.tasks(inp) if "audit" not in t.key]


def _bits(x):
    """A value reduced to bytes and plain containers, so that equality is bit equality
    (pickle's own bytes also encode object identity, which differs between processes)."""
    if isinstance(x, dict):
        return {k: _bits(v) for k, v in x.items()}
    if isinstance(x, Outcome):
        return _bits(x.get())
    if isinstance(x, (list, tuple)):
        return [_bits(v) for v in x]
    if isinstance(x, pd.DataFrame):
        return [list(x.columns), x.to_numpy().tobytes()]
    if isinstance(x, np.ndarray):
        return x.tobytes()
    if dataclasses.is_dataclass(x):
        return [type(x).__name__, _bits(dataclasses.asdict(x))]
    if isinstance(x, float):
        return struct.pack("<d", x)
    return x


@pytest.fixture(scope="module")
def serial():
    return _bits(execute(_tasks()))


def test_a_process_pool_gives_the_serial_bits(serial):
    assert _bits(execute(_tasks(), workers=2)) == serial


def test_a_dask_cluster_gives_the_serial_bits(serial):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        assert _bits(execute(_tasks(), scheduler=cluster.scheduler_address)) == serial


def test_the_cache_gives_the_same_bits_and_recomputes_a_corrupt_entry(serial, tmp_path):
    tasks = _tasks()
    first = execute(tasks, cache_dir=tmp_path)
    assert not any(o.cached for o in first.values())
    again = execute(tasks, cache_dir=tmp_path)
    assert all(o.cached for o in again.values()) and _bits(again) == serial
    # corrupt one entry: it is recomputed, never trusted
    victim = tasks[-1]
    path = ResultCache(tmp_path)._path(task_digest(victim))
    path.write_bytes(b"not a pickle")
    third = execute(tasks, cache_dir=tmp_path)
    assert not third[victim.key].cached and third[tasks[0].key].cached
    assert _bits(third) == serial


def test_a_changed_parameter_changes_the_address():
    t = _tasks()[3]
    heavier = Task(t.key, t.robot, t.fn, (t.args[0].with_(m_L=0.16), *t.args[1:]), t.kwargs,
                   t.inputs)
    assert task_digest(heavier) != task_digest(t)


def _diverge(x: float) -> float:
    raise DivergenceError(f"signal x = {x} at t = 1 s")


def test_a_failure_is_the_task_result_and_raises_when_read():
    out = execute([Task("r boom", "landing_gear", _diverge, (1e9,))])
    assert isinstance(out["r boom"].error, DivergenceError)
    with pytest.raises(DivergenceError, match="signal x"):
        out["r boom"].get()


def _stale_build(x: float) -> float:
    raise ModuleNotFoundError("No module named 'handrolled'")  # a compiled cache gone stale


def test_a_failure_of_the_machine_is_not_stored_as_the_result(tmp_path):
    """A divergence is the task's result and is cached; an import error (a stale numba
    cache after a move) is the machine's, and the next run computes the task again."""
    diverges = Task("r boom", "landing_gear", _diverge, (1e9,))
    stale = Task("r stale", "landing_gear", _stale_build, (1.0,))
    first = execute([diverges, stale], cache_dir=tmp_path)
    assert isinstance(first["r stale"].error, ModuleNotFoundError)
    again = execute([diverges, stale], cache_dir=tmp_path)
    assert again["r boom"].cached and isinstance(again["r boom"].error, DivergenceError)
    assert not again["r stale"].cached


def test_a_result_from_other_source_is_never_cached(tmp_path, monkeypatch):
    """A worker whose loaded source is not the one the run's keys were computed from (the
    source edited during the run, a Dask worker at another commit): nothing it computed is
    stored, and the run stops with a sentence instead of passing mixed code's figures."""
    from dynval import _numba_cache
    from dynval.comparisons.run.tasks import SourceChangedError

    task = Task("r boom", "landing_gear", _diverge, (1e9,))
    monkeypatch.setattr(_numba_cache, "loaded_digest", lambda robot=None: "0123456789abcdef")
    with pytest.raises(SourceChangedError, match="r boom ran dynval source 0123456789abcdef"):
        execute([task], cache_dir=tmp_path)
    assert not any(tmp_path.rglob("*.pkl"))
    monkeypatch.undo()
    assert not execute([task], cache_dir=tmp_path)["r boom"].cached
    assert execute([task], cache_dir=tmp_path)["r boom"].cached


def _interrupted_in_compiled_code(x: float) -> float:
    # what CPython raises when a Ctrl-C lands in the Python numba's helpers call during a
    # compiled loop: SystemErrors ("returned a result with an exception set") caused by it
    try:
        raise KeyboardInterrupt
    except KeyboardInterrupt as ki:
        try:
            raise SystemError("<function _numba_unpickle> returned a result with an "
                              "exception set") from ki
        except SystemError as inner:
            raise SystemError("CPUDispatcher(run_chunk) returned a result with an "
                              "exception set") from inner


def test_an_interrupt_inside_compiled_code_stops_the_run_instead_of_failing_its_task():
    """A Ctrl-C that numba hands back as a SystemError must stop the run like any other:
    kept as the task's failure, an interrupted validate ran on and wrote a complete
    report (the SIGINT test of test_outputs.py caught it in CI)."""
    ran = []
    tasks = [Task("r interrupted", "landing_gear", _interrupted_in_compiled_code, (1.0,)),
             Task("r after", "landing_gear", lambda x: ran.append(x), (2.0,))]
    with pytest.raises(KeyboardInterrupt):
        execute(tasks)
    assert ran == []  # nothing ran after the interrupt
    out = execute([Task("r boom", "landing_gear", _diverge, (1e9,))])
    assert isinstance(out["r boom"].error, DivergenceError)  # a failure still is a result


def test_task_keys_are_unique():
    t = _tasks()[0]
    with pytest.raises(ValueError, match="share the key"):
        execute([t, t])


def test_a_task_depends_on_its_robots_source_set_and_not_on_the_rest():
    """A task's address follows its robot's source set (the framework and the robot's own
    folders): another robot's edit leaves it, its own robot's or the framework's moves it."""
    from dynval import _layout

    sets = _layout.source_sets()
    base = [task_digest(t, sets) for t in _tasks()]
    assert base == [task_digest(t) for t in _tasks()]  # the sets, taken here or by the caller
    for changed, moves in (("hopper", False), ("hexapod", False), ("landing_gear", True),
                           (None, True)):
        edited = {**sets, changed: "0" * 16}
        if changed is None:  # the framework's edit moves every robot's set
            edited = {r: "1" * 16 for r in sets}
        now = [task_digest(t, edited) for t in _tasks()]
        assert all((a != b) == moves for a, b in zip(now, base, strict=True)), changed


def test_a_first_run_orders_its_tasks_by_the_shipped_timings(tmp_path):
    # no timings of this machine yet: the shipped ones of the tier order the tasks, so the
    # longest start first; this machine's own, once written, take precedence
    from dynval.comparisons.run import pipeline

    for tier in ("full", "ci"):
        path = tmp_path / f"timings-{tier}.json"
        shipped = pipeline.load_timings(path)
        assert len(shipped) > 100 and all(v >= 0.0 for v in shipped.values())
        keys = {t.key for t in LADDER.tasks(LADDER.inputs(LADDER.default_params, ROOT
                                                            / "landing_gear", tier=tier))}
        assert keys <= set(shipped)  # every landing-gear task has a shipped time
        key = next(iter(keys))
        path.write_text(f'{{"{key}": 1234.5}}')
        assert pipeline.load_timings(path)[key] == 1234.5


def test_tasks_start_longest_first_with_the_robots_in_turn():
    from dynval.comparisons.run.tasks import Task, interleaved

    todo = [Task(f"{robot} {n}", robot, print) for robot in ("a", "b", "c")
            for n in range(3)]
    timings = {"a 0": 1.0, "a 1": 9.0, "a 2": 5.0, "b 0": 2.0, "b 1": 3.0, "c 0": 20.0}
    order = [t.key for t in interleaved(todo, timings)]
    # never timed counts as longest (a new task); then each robot's longest, in turn
    assert order == ["b 2", "c 1", "a 1", "b 1", "c 2", "a 2", "b 0", "c 0", "a 0"]
    assert sorted(order) == sorted(t.key for t in todo)


def test_the_next_task_is_of_a_robot_with_none_running():
    """A worker that frees up takes the first waiting task whose robot has no task
    running (two tasks of one robot would compile the same functions at once), and the
    first one when every waiting robot has one running."""
    from collections import Counter

    from dynval.comparisons.run.tasks import Task, next_task

    waiting = [Task(key, key.split()[0], print) for key in ("a 1", "a 2", "b 1", "a 3")]
    assert next_task(waiting, Counter({"a": 1})).key == "b 1"
    assert next_task(waiting, Counter({"a": 1, "b": 1})).key == "a 1"
    assert next_task(waiting, Counter()).key == "a 2"
    assert [t.key for t in waiting] == ["a 3"]


def test_the_test_session_has_its_own_results_cache():
    """No test reads or writes the developer's ~/.cache/dynval (conftest.py)."""
    from pathlib import Path

    from dynval.comparisons.run.tasks import default_cache_dir

    assert not default_cache_dir().is_relative_to(Path.home() / ".cache")
