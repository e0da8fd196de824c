"""numba's cache is keyed by the source of the whole package (dynval._numba_cache): an edit
to any module moves every compiled function to a fresh folder, so no caller keeps the
machine code of a callee whose file changed."""

from __future__ import annotations

import os
import subprocess
import sys

from dynval import _numba_cache


def test_the_digest_follows_every_file_and_its_path(tmp_path, monkeypatch):
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "sub" / "b.py").write_text("y = 2\n")
    monkeypatch.setattr(_numba_cache, "PACKAGE", tmp_path)
    first = _numba_cache.source_digest()
    assert _numba_cache.source_digest() == first  # the same files, the same folder
    (tmp_path / "sub" / "b.py").write_text("y = 3\n")  # a callee's file edited
    edited = _numba_cache.source_digest()
    assert edited != first
    (tmp_path / "sub" / "b.py").rename(tmp_path / "b.py")  # moved, same content
    assert _numba_cache.source_digest() not in (first, edited)


def _cache_dir(env: dict[str, str]) -> str:
    code = "import dynval; from numba.core import config; print(config.CACHE_DIR)"
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, check=True).stdout.strip()


def test_importing_dynval_points_numba_at_the_source_keyed_folder(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    assert _cache_dir(env) == str(tmp_path / "dynval-numba" / _numba_cache.source_digest())
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "mine")  # the user's choice stands
    assert _cache_dir(env) == str(tmp_path / "mine")
