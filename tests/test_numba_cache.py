"""numba's cache of dynval's functions is keyed by source sets (dynval._numba_cache): an
edit to the framework moves every compiled function to a fresh folder, an edit to a robot
moves that robot's (tests/test_source_sets.py), so no caller keeps the machine code of a
callee whose file changed, whether or not the user chose a numba cache folder
(NUMBA_CACHE_DIR)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from dynval import _layout, _numba_cache


def test_the_digest_follows_every_file_and_its_path(tmp_path, monkeypatch):
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "sub" / "b.py").write_text("y = 2\n")
    monkeypatch.setattr(_layout, "source_files",
                        lambda: {f.relative_to(tmp_path).as_posix(): f
                                 for f in sorted(tmp_path.rglob("*.py"))})
    first = _layout.source_digest()
    assert _layout.source_digest() == first  # the same files, the same folder
    (tmp_path / "sub" / "b.py").write_text("y = 3\n")  # a callee's file edited
    edited = _layout.source_digest()
    assert edited != first
    (tmp_path / "sub" / "b.py").rename(tmp_path / "b.py")  # moved, same content
    assert _layout.source_digest() not in (first, edited)


def test_every_layer_is_in_the_digest():
    names = _layout.source_files()
    for layer in _layout.LAYERS:
        assert f"{layer}/__init__.py" in names
    assert "model.py" in names and "comparisons/cli.py" in names


_WHERE = """
import dynval, numba
from numba.core import config
from dynval import _numba_cache
from dynval.handrolled import so3

@numba.njit(cache=True)
def users_own(x):
    return x + 1.0

users_own(1.0)
so3.skew(__import__('numpy').zeros(3))
print(config.CACHE_DIR)
print(users_own._cache._cache_path)
print(so3.skew._cache._cache_path)
"""


def _run(code: str, env: dict[str, str], cwd: Path) -> list[str]:
    script = cwd / "script.py"  # a file: numba caches only functions defined in one
    script.write_text(code)
    done = subprocess.run([sys.executable, str(script)], env=env, cwd=cwd,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.split("\n")


def _env(tmp_path: Path, numba_dir: Path | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "xdg")
    if numba_dir is not None:
        env["NUMBA_CACHE_DIR"] = str(numba_dir)
    return env


def test_dynval_functions_go_to_the_source_keyed_folder_and_nothing_else(tmp_path):
    digest = _layout.source_sets()[None]  # so3: the framework's
    setting, users, ours = _run(_WHERE, _env(tmp_path, None), tmp_path)[:3]
    assert setting == ""  # numba's own setting untouched by import dynval
    assert Path(ours).parent == tmp_path / "xdg" / "dynval-numba" / digest
    assert not Path(users).is_relative_to(tmp_path / "xdg" / "dynval-numba")
    mine = tmp_path / "mine"
    setting, users, ours = _run(_WHERE, _env(tmp_path, mine), tmp_path)[:3]
    assert setting == str(mine)  # the user's folder stands, for the user's functions
    assert Path(users).is_relative_to(mine)
    assert Path(ours).parent == mine / "dynval-numba" / digest


# The shared contact law (24) through a compiled caller in another file (fastloop), as
# the hopper's chunks call it: the foot 2 mm below x_1, sinking at 0.1 m/s.
_FORCE = """
import numpy as np
import dynval
from dynval.handrolled.hopper.fast import loop as fastloop
from dynval.handrolled.hopper.control import ControllerState
from dynval.robots.hopper.params import PARAMS
assert dynval.__file__.startswith({root!r}), dynval.__file__
s = fastloop.LoopState(1, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, ControllerState(0, False, 0.0, 0.0, 0))
c = fastloop.Control(1000, 1.0, False, np.zeros(1), np.zeros(1), np.zeros(1), np.zeros(1))
obs = np.zeros(14)
obs[11], obs[13] = PARAMS.x_1 - 2e-3, -0.1
print(repr(fastloop.update_inputs(s, 0.0, obs, fastloop.laws(PARAMS), c).F_n))
"""


@pytest.mark.parametrize("numba_dir", [False, True], ids=["default", "NUMBA_CACHE_DIR"])
def test_a_callee_edit_moves_the_figure(tmp_path, numba_dir):
    """Compile and cache a caller, edit its callee's file (eq. (24)'s stiffness term x1.5),
    run again with the same caches: the force moves as the edit says."""
    src = tmp_path / "src"
    pkg = _layout.copy_as_installed(src)
    env = _env(tmp_path, tmp_path / "numba" if numba_dir else None)
    env["PYTHONPATH"] = str(src)
    code = _FORCE.format(root=str(pkg))
    before = float(_run(code, env, cwd=src)[0])
    assert float(_run(code, env, cwd=src)[0]) == before  # read back from the cache
    law = pkg / "handrolled" / "hopper" / "contact.py"
    printed = "F = p.k_c * (p.x_1 - x) ** p.e - "
    assert printed in law.read_text()
    law.write_text(law.read_text().replace(printed, "F = 1.5 * p.k_c * (p.x_1 - x) ** p.e - "))
    after = float(_run(code, env, cwd=src)[0])
    assert after != before
    from dynval.robots.hopper.params import PARAMS
    spring = PARAMS.k_c * 2e-3 ** PARAMS.e
    assert after - before == pytest.approx(0.5 * spring, rel=1e-12)


def test_loaded_digest_names_the_folder():
    sets = _layout.source_sets()
    assert _numba_cache.cache_dir().name == _numba_cache.loaded_digest() == sets[None]
    hopper = _numba_cache.cache_dir("hopper")
    assert hopper == _numba_cache.cache_dir() / f"hopper-{sets['hopper']}"
    assert _numba_cache.loaded_digest("hopper") == sets["hopper"]
    assert _numba_cache.cache_dir("corpus") == _numba_cache.cache_dir()  # not a robot
    assert _numba_cache.loaded_source() == _layout.source_digest()


# Two processes compile the hopper's input update (seconds of compiling, with its callees)
# from an empty cache, starting together: one compiles, the other waits and loads.
_RACE = """
import sys, time
import numpy as np
from dynval.handrolled.hopper.fast import loop as fastloop
from dynval.handrolled.hopper.control import ControllerState
from dynval.robots.hopper.params import PARAMS
s = fastloop.LoopState(1, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, ControllerState(0, False, 0.0, 0.0, 0))
c = fastloop.Control(1000, 1.0, False, np.zeros(1), np.zeros(1), np.zeros(1), np.zeros(1))
laws = fastloop.laws(PARAMS)
time.sleep(max(0.0, float(sys.argv[1]) - time.time()))  # both start at the same instant
t0 = time.time()
fastloop.update_inputs(s, 0.0, np.zeros(14), laws, c)
stats = fastloop.update_inputs.stats
print(sum(stats.cache_misses.values()), sum(stats.cache_hits.values()), t0, time.time())
"""


def test_two_workers_never_compile_the_same_function_at_once(tmp_path):
    env = _env(tmp_path, tmp_path / "numba")
    script = tmp_path / "race.py"
    script.write_text(_RACE)
    start = f"{__import__('time').time() + 8.0}"  # after both have imported dynval
    procs = [subprocess.Popen([sys.executable, str(script), start], env=env, cwd=tmp_path,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    outs = [p.communicate(timeout=600) for p in procs]
    assert all(p.returncode == 0 for p in procs), [err for _, err in outs]
    (m1, h1, s1, e1), (m2, h2, s2, e2) = ([float(x) for x in out.split()] for out, _ in outs)
    assert abs(s1 - s2) < 1.0, "the two processes did not start together: nothing tested"
    assert (m1, h1, m2, h2) in ((1, 0, 0, 1), (0, 1, 1, 0))  # one compiled, one loaded
    (cs, ce), (ls, le) = ((s1, e1), (s2, e2)) if m1 else ((s2, e2), (s1, e1))
    # The loader waited for the compiler's result: it ended well into the compile (which
    # takes seconds; a load alone, milliseconds). Its end is not compared with the
    # compiler's: the compiler releases the lock when it saves, then links and calls the
    # function, and the loader may finish first by a fraction of a millisecond.
    assert le >= cs + 0.5 * (ce - cs), (ls, le, cs, ce)


def test_every_compiled_dynval_function_is_source_keyed_and_locked():
    """A module that compiled with numba's own ``njit(cache=True)`` would be cached by
    file (the stale-callee hole) and compiled by both workers at once; one without
    ``cache=True`` would be compiled again by every process of every run."""
    import importlib

    from numba.core.registry import CPUDispatcher

    found = 0
    for relative in _layout.source_files():
        name = "dynval." + relative.removesuffix(".py").replace("/", ".")
        name = name.removesuffix(".__init__")
        module = importlib.import_module(name)
        for value in vars(module).values():
            if isinstance(value, CPUDispatcher) and value.__module__ == name:
                found += 1
                assert isinstance(value._cache, _numba_cache.OneCompilerCache), \
                    f"{name}.{value.__name__} compiles with numba.njit, not dynval's"
    assert found > 50


@pytest.mark.skipif("NUMBA_OPT" in os.environ, reason="NUMBA_OPT is set: numba's level rules")
def test_dynval_functions_are_optimised_at_their_level_and_a_users_at_numbas():
    """dynval's functions (and their callees) compile at OPT_LEVEL, a user's function at
    numba's level, also when the user's function calls one of dynval's; the level is
    numba's again after every compile, and the result is Python's arithmetic to the bit."""
    import numba
    from numba.core import config, event

    levels: dict[str, list[int]] = {}

    class Spy(event.Listener):
        def on_start(self, ev):
            levels.setdefault(ev.data["dispatcher"].py_func.__name__, []).append(int(config.OPT))

        def on_end(self, ev):
            pass

    numbas = int(config.OPT)
    _numba_cache._optimise_dynval_at_level()  # dynval's listener first, as on import
    spy = Spy()
    event.register("numba:compile", spy)
    try:
        @numba.njit
        def helper(x):
            return x * 0.1 + 1.0 / 3.0

        @_numba_cache.njit
        def theirs(x):
            return helper(x) / 7.0

        @numba.njit
        def users(x):
            return theirs(x) * 3.0

        got = users(0.7)
    finally:
        event.unregister("numba:compile", spy)
    assert levels == {"users": [numbas], "theirs": [_numba_cache.OPT_LEVEL],
                      "helper": [_numba_cache.OPT_LEVEL]}
    assert _numba_cache.OPT_LEVEL < numbas == int(config.OPT)
    assert got == ((0.7 * 0.1 + 1.0 / 3.0) / 7.0) * 3.0
