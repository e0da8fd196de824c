"""Validation as a graph of independent tasks: one executor interface, three back ends
(serial, a local process pool on every core, a Dask ``distributed`` cluster), and a
content-addressed results cache.

A :class:`Task` is a pure function call: a module-level function (or a method of a
module-level object) and picklable arguments.  Its result is the function's return value
or the exception it raised (a run that diverged is a result too: the chapter says so).
Whatever runs it, the same task gives the same bits, so serial, parallel, Dask and cached
runs give identical figures."""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import pickle
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from functools import cache
from multiprocessing.process import BaseProcess
from pathlib import Path

from dynval import _layout, _numba_cache, _orphans, _stored
from dynval.comparisons.ladder.work import Outcome, Task
from dynval.comparisons.run import interrupts
from dynval.plugins import UnknownRobotError, spec

CACHE_FORMAT = 2  # bump when the stored form of a result changes (2: content hash checked)


class WorkerDiedError(Exception):
    """The process running a task died twice (killed, out of memory, a crash inside an
    engine): the task has no result.  Its error, reported like any other; never stored in
    the results cache, so the next run tries it again."""


# Failures of the machine, not of the task's inputs: a stale compiled cache naming a moved
# module, a full disk, memory, a worker process that died.  They are reported but never
# stored as the task's result.
ENVIRONMENT_ERRORS = (ImportError, OSError, MemoryError, WorkerDiedError)


class SourceChangedError(Exception):
    """dynval's source changed while a run was going: its results come from two versions
    of the code, and none of them was stored in the results cache."""


def run_task(task: Task) -> Outcome:
    """Execute one task (in whichever process it lands), timing it and keeping an
    expected failure as its result; an interrupt (Ctrl-C) stops the run, however it
    arrives (:func:`interrupted`)."""
    c0, t0 = _numba_cache.compile_seconds(), time.perf_counter()
    try:
        value, error = task.fn(*task.args, **task.kwargs), None
    except Exception as exc:  # noqa: BLE001 - a task's failure is its result
        if interrupted(exc):
            raise KeyboardInterrupt from exc
        value, error = None, exc
    return Outcome(task.key, value, error, time.perf_counter() - t0,
                   source=_numba_cache.loaded_digest(task.robot),
                   compile_seconds=_numba_cache.compile_seconds() - c0)


def interrupted(exc: BaseException) -> bool:
    """Whether ``exc`` is a KeyboardInterrupt in disguise.  A Ctrl-C that lands while a
    numba-compiled loop runs is raised in the Python that numba's helpers call (unpickling
    a constant); the compiled call then returns with it set, and CPython turns that into a
    SystemError caused by it.  Kept as a task's failure, it would let an interrupted run
    finish and write a complete report."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


# --- the cache ---------------------------------------------------------------------------
@cache
def _file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@cache
def _data_digest(robot: str) -> str:
    """The robot's data files (parameter table, descriptions, soils, frames) and the
    engine versions."""
    from dynval.engines import versions

    h = hashlib.sha256(repr(sorted(versions().items())).encode())
    try:
        folder = spec(robot).folder("robots")
    except UnknownRobotError:  # work of no registered robot (a test's own tasks): no data
        return h.hexdigest()
    for f in sorted(folder.rglob("*")):
        if f.is_file() and f.suffix in (".toml", ".xml", ".urdf", ".soil", ".md"):
            h.update(str(f.relative_to(folder)).encode() + _file_digest(f).encode())
    return h.hexdigest()


def code_digest(robot: str, sets: dict[str | None, str] | None = None) -> str:
    """Digest of what a robot's tasks depend on besides their call and input files: its
    source set (the framework's files and the robot's own folders, as the layout declares
    them: ``dynval._layout.source_sets``), its data files and the engine versions. An edit
    to another robot, or to the command line or the report, leaves its results valid.
    ``sets``: the source sets' digests where the caller took them already."""
    sets = _layout.source_sets() if sets is None else sets
    return hashlib.sha256(f"{sets.get(robot, sets[None])}:{_data_digest(robot)}".encode()
                          ).hexdigest()


def inputs_digest(path: Path) -> str:
    h = hashlib.sha256()
    files = [path] if path.is_file() else sorted(f for f in path.rglob("*") if f.is_file())
    for f in files:
        if f.suffix in (".xml", ".urdf", ".soil"):
            h.update(f.name.encode() + _file_digest(f).encode())
    return h.hexdigest()


def task_digest(task: Task, sets: dict[str | None, str] | None = None) -> str:
    """The content address of a task: the call (function and arguments), its robot's
    :func:`code_digest`, and its input files."""
    h = hashlib.sha256(f"{CACHE_FORMAT}:{code_digest(task.robot, sets)}".encode())
    # functions pickle by qualified name, dataclasses of parameters by value
    # an input folder counts by its content (below), not by where it happens to lie
    where = {Path(p): f"<input {i}>" for i, p in enumerate(task.inputs)}
    args = tuple(where.get(a, a) if isinstance(a, Path) else a for a in task.args)
    h.update(pickle.dumps((task.fn, args, sorted(task.kwargs.items())), protocol=4))
    for p in task.inputs:
        h.update(inputs_digest(Path(p)).encode())
    return h.hexdigest()


class ResultCache:
    """Results stored under their content address, each with its content hash
    (``dynval._stored``): an entry that fails its check is removed, counted and
    recomputed, never trusted."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)

    def _path(self, digest: str) -> Path:
        return self.directory / digest[:2] / f"{digest}.pkl"

    def load(self, digest: str) -> Outcome | None:
        """The stored outcome, marked as read from the cache, or None."""
        stored = _stored.read(self._path(digest), _is_outcome)
        if stored is not None:
            stored.cached = True
        return stored

    def store(self, digest: str, outcome: Outcome) -> None:
        _stored.write(self._path(digest), outcome)


def _is_outcome(value: object) -> bool:
    """Whether a results entry has the form of a stored outcome."""
    return isinstance(value, Outcome) and value.key is not None


def default_cache_dir() -> Path:
    return Path(os.environ.get("DYNVAL_CACHE") or
                Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "dynval")


# --- executing ---------------------------------------------------------------------------
Report = Callable[[Outcome, int, int], None]  # (outcome, done, total)
Note = Callable[[str], None]  # a line about the run itself (a worker that died)


def _say(line: str) -> None:
    """A line on standard error, where progress goes (a live display shows it above
    itself)."""
    print(line, file=sys.stderr, flush=True)


def execute(tasks: Iterable[Task], workers: int = 1, scheduler: str | None = None,
            cache_dir: Path | None = None, report: Report | None = None,
            timings: dict[str, float] | None = None, note: Note = _say
            ) -> dict[str, Outcome]:
    """Run every task once and return its outcome by key.

    ``workers`` 1 runs them here, one after another; more runs a process pool (where a
    worker that dies costs its task a retry: :class:`_Pools`); a ``scheduler`` address
    sends them to a Dask cluster.  Cached outcomes are taken as they are; the rest run in
    :func:`interleaved` order (``timings``: seconds by key from an earlier run).
    A result is stored only when the process that computed it ran the source its key was
    computed from (its robot's source set: ``dynval._layout.source_sets``);
    :class:`SourceChangedError` when that source changed during the run."""
    tasks = list(tasks)
    keys = [t.key for t in tasks]
    if len(set(keys)) != len(keys):
        dup = next(k for k in keys if keys.count(k) > 1)
        raise ValueError(f"two tasks share the key {dup!r}")
    cache_ = ResultCache(cache_dir) if cache_dir is not None else None
    sets = _layout.source_sets()
    digests = {}
    if cache_:
        _stored.probe(cache_.directory)
        digests = {t.key: task_digest(t, sets) for t in tasks}
    robot = {t.key: t.robot for t in tasks}

    def source(key: str) -> str:  # the source set a task's outcome must come from
        return sets.get(robot[key], sets[None])

    stale: list[Outcome] = []
    done: dict[str, Outcome] = {}
    todo = []
    for t in tasks:
        hit = cache_.load(digests[t.key]) if cache_ else None
        if hit is not None:
            hit.digest = digests[t.key]
            done[t.key] = hit
            if report:
                report(hit, len(done), len(tasks))
        else:
            todo.append(t)
    todo = interleaved(todo, timings or {})

    def finished(o: Outcome) -> None:
        interrupts.check()  # a signal lost in a finalizer stops the run here
        done[o.key] = o
        if o.source != source(o.key):
            stale.append(o)
        elif cache_ and not isinstance(o.error, ENVIRONMENT_ERRORS):
            o.digest = digests[o.key]
            cache_.store(digests[o.key], o)
        if report:
            report(o, len(done), len(tasks))

    if scheduler:
        _dask(todo, scheduler, finished)
    elif workers > 1 and len(todo) > 1:
        _Pools(workers, todo, finished, note).run()
    else:
        for t in todo:
            finished(run_task(t))
    if stale:
        first = stale[0]
        raise SourceChangedError(
            f"task {first.key} ran dynval source {first.source}, not this run's "
            f"{source(first.key)} (the source changed during the run, or a worker runs "
            "another version): none of its results were cached; run again")
    return {k: done[k] for k in keys}


def _new_pool(workers: int) -> ProcessPoolExecutor:
    """A local process pool whose workers end with this process, however it ends (a
    ``kill -9`` included: :func:`interrupts.in_worker`).  With fork or spawn this process
    starts them, and they watch its pid; with forkserver the server does, and they watch
    the server's, which ends with this process."""
    ctx = multiprocessing.get_context()
    parent = _orphans.parent_pid(ctx)
    try:
        return ProcessPoolExecutor(max_workers=workers, mp_context=ctx,
                                   initializer=interrupts.in_worker, initargs=(parent,))
    except OSError as exc:  # no pipe or lock for it
        raise _unavailable(exc) from exc


class _Pools:
    """Tasks run on a local process pool, ``workers`` at a time, each started as another
    ends (:func:`next_task`), each outcome handed to ``finished`` as it arrives.

    A worker that dies (killed, out of memory, a crash inside an engine) breaks the pool,
    which fails every task it was running: a fresh pool takes over.  Each of those tasks
    counts a death and runs again, alone (:meth:`_may_start`), so that a second death is
    surely its own: that one is its error (:class:`WorkerDiedError`), and the run goes on.
    Alone, a task that ran out of memory beside others has the machine to itself."""

    def __init__(self, workers: int, todo: list[Task], finished: Callable[[Outcome], None],
                 note: Note) -> None:
        self.workers, self.finished, self.note = workers, finished, note
        self.waiting = list(todo)
        self.deaths = Counter[str]()

    def run(self) -> None:
        """Every task, on as many pools as deaths of workers take."""
        while self.waiting:
            before = len(self.waiting)
            pool = _new_pool(self.workers)
            try:
                lost = self._on_pool(pool)
            except BaseException:
                stop_pool(pool)  # an interrupt, SIGTERM or a failure here: no worker goes on
                raise
            ended = _processes(pool)
            pool.shutdown()  # a broken pool's workers are all ended by then
            if lost:
                interrupts.check()  # workers ended by the terminal's Ctrl-C: no new pool
                self._after_break(lost, _how_ended(ended))
            elif self.waiting and len(self.waiting) == before:
                raise PoolUnavailableError("the local worker processes ended before running "
                                           f"any task ({_how_ended(ended)})")
            elif self.waiting:  # it broke between tasks: nothing to run again
                self.note(f"a worker died ({_how_ended(ended)}) between tasks; a fresh one "
                          "takes over")

    def _on_pool(self, pool: ProcessPoolExecutor) -> list[Task]:
        """Run waiting tasks on ``pool`` until none is left or the pool breaks; the tasks
        it was running when it broke (all failed by the break)."""
        started: dict[Future, Task] = {}
        running, lost, usable = Counter[str](), [], True
        while started or (self.waiting and usable):
            usable = usable and self._start(pool, started, running)
            done, _ = wait(started, return_when=FIRST_COMPLETED)
            for fut in [f for f in started if f in done]:  # in the order they started
                t = started.pop(fut)
                running[t.robot] -= 1
                if isinstance(fut.exception(), BrokenProcessPool):
                    lost.append(t)
                    usable = False
                else:
                    self.finished(fut.result())
        return lost

    def _start(self, pool: ProcessPoolExecutor, started: dict[Future, Task],
               running: Counter[str]) -> bool:
        """Start waiting tasks while :meth:`_may_start` allows; False when the pool turned
        out broken (the task taken goes back to the front)."""
        while self.waiting and self._may_start(started):
            w = self.waiting
            t = w.pop(0) if self.deaths[w[0].key] else next_task(w, running)
            try:
                started[pool.submit(run_task, t)] = t
            except BrokenProcessPool:
                w.insert(0, t)
                return False
            except OSError as exc:  # no process could be started
                raise _unavailable(exc) from exc
            running[t.robot] += 1
        return True

    def _may_start(self, started: dict[Future, Task]) -> bool:
        """Whether the next task may start: a worker is free, and no task runs beside one
        that was running when a pool broke (those wait at the front, and run alone)."""
        if not started:
            return True
        beside = self.deaths[self.waiting[0].key] or any(self.deaths[t.key]
                                                         for t in started.values())
        return len(started) < self.workers and not beside

    def _after_break(self, lost: list[Task], how: str) -> None:
        """Each task a broken pool failed counts a death: its second is its error, the
        others wait at the front to run again (said once, by ``note``)."""
        again = []
        for t in lost:
            self.deaths[t.key] += 1
            if self.deaths[t.key] < 2:
                again.append(t)
            else:
                error = WorkerDiedError(f"the worker running {t.key} died twice ({how})")
                self.finished(Outcome(t.key, error=error,
                                     source=_numba_cache.loaded_digest(t.robot)))
        self.waiting[:0] = again
        if again:
            self.note(_retried([t.key for t in again], how))


def _retried(keys: list[str], how: str) -> str:
    """The line that says a worker died and which tasks run again."""
    if len(keys) == 1:
        return f"a worker died ({how}) running {keys[0]}; the task runs again in a fresh worker"
    return (f"a worker died ({how}) while {len(keys)} tasks ran ({'; '.join(keys)}); each "
            "runs again, alone, in a fresh worker")


def _processes(pool: ProcessPoolExecutor) -> list[BaseProcess]:
    """The pool's worker processes, as it holds them (none once it is shut down)."""
    return list((getattr(pool, "_processes", None) or {}).values())


def _how_ended(processes: list[BaseProcess]) -> str:
    """How a broken pool's worker died, in words: the exit of one the pool did not end
    itself (it ends the others with SIGTERM)."""
    codes = [p.exitcode for p in processes if p.exitcode is not None]
    own = [c for c in codes if c != -signal.SIGTERM] or codes
    if not own:
        return "its exit unknown"
    if own[0] >= 0:
        return f"exit code {own[0]}"
    try:
        return f"killed by {signal.Signals(-own[0]).name}"
    except ValueError:
        return f"killed by signal {-own[0]}"


def next_task(waiting: list[Task], running: Counter[str]) -> Task:
    """Take from ``waiting`` the next task to start: the first whose robot has no task
    running, else the first. Tasks of one robot compile the same functions: started
    together on a first run, one would wait for the other's compiler (``_numba_cache``)
    while its core idles."""
    for i, t in enumerate(waiting):
        if not running[t.robot]:
            return waiting.pop(i)
    return waiting.pop(0)


def interleaved(todo: list[Task], timings: dict[str, float]) -> list[Task]:
    """The order tasks start in: each robot's longest first (a long task started last
    finishes long after the rest), the robots taken in turn. Tasks of one robot compile
    the same functions; taken in turn, two workers starting together compile different
    ones instead of one waiting for the other's compiler (``_numba_cache``)."""
    def seconds(t: Task) -> float:
        return timings.get(t.key, float("inf"))

    queues: dict[str, list[Task]] = {}
    for t in sorted(todo, key=lambda t: -seconds(t)):  # stable: ties keep their order
        queues.setdefault(t.robot, []).append(t)
    order = []
    while queues:
        for robot in list(queues):
            order.append(queues[robot].pop(0))
            if not queues[robot]:
                del queues[robot]
    return order


class InfrastructureError(Exception):
    """The machine or the cluster failed, not the input or a figure."""


class SchedulerUnreachableError(InfrastructureError):
    """No Dask scheduler answers at the address given: the infrastructure, not the input."""


class PoolUnavailableError(InfrastructureError):
    """The local worker processes could not be started, or started again after one died."""


def _unavailable(exc: OSError) -> PoolUnavailableError:
    """The error for a pool whose processes the system refused (memory, process limits)."""
    return PoolUnavailableError(
        f"the local worker processes could not be started ({exc.strerror or exc}); free "
        "memory or run fewer (--workers N; 1 runs every task in this process)")


def check_scheduler(address: str, timeout: float = 5.0) -> None:
    """Before any work: ``address`` must be a Dask scheduler address and, over TCP or TLS,
    something must accept a connection there (ValueError, SchedulerUnreachableError)."""
    import socket

    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address, strict=False)
        host, port = parse_host_port(location)
    except (ValueError, TypeError):
        raise ValueError(f"--scheduler {address!r} is not a Dask scheduler address; "
                         "give tcp://HOST:PORT (as 'dask scheduler' prints it)") from None
    if scheme not in ("tcp", "tls"):
        return
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError as exc:
        raise SchedulerUnreachableError(
            f"no Dask scheduler answers at {address} ({exc.strerror or exc}); start one "
            "('dask scheduler') or leave out --scheduler to run on this machine") from None


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a process pool now: queued tasks cancelled, running workers terminated (a
    worker left alone would compute its task to the end, orphaned).

    A worker terminated while it was sending a large result leaves the pool's manager
    thread reading the rest of that message, and the interpreter's exit waits for that
    thread. Once the workers are gone, the parent's own end of the results pipe is closed
    too: the read then ends (end of file), the manager thread finds the pool broken and
    returns, and the process can exit."""
    workers = _processes(pool)
    results = getattr(pool, "_result_queue", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for p in workers:
        if p.is_alive():
            p.terminate()
    for p in workers:
        p.join(timeout=10)
    if results is not None and not any(p.is_alive() for p in workers):
        results._writer.close()


def _dask(todo: list[Task], scheduler: str, finished: Callable[[Outcome], None]) -> None:
    """The same tasks on an existing Dask ``distributed`` cluster."""
    from distributed import Client
    from distributed import as_completed as dask_completed

    with Client(scheduler) as client:
        futures = [client.submit(run_task, t, key=f"dynval-{i}-{t.key}", pure=False)
                   for i, t in enumerate(todo)]
        for fut in dask_completed(futures):
            finished(fut.result())
