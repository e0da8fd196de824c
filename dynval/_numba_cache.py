"""Where numba keeps dynval's compiled functions: a folder keyed by the source of the whole
package, so that compiled code never outlives the source it was compiled from.

numba's own on-disk cache (``@njit(cache=True)``, beside each module) is invalidated only
when the file of the cached function itself changes. A compiled function that calls
compiled functions of other files (the engine loops call the laws, the laws call the
kinematics) keeps the old callees' machine code when only a callee's file is edited: it
runs the old code, silently, and dynval's task cache, keyed by the new source, stores what
it computed. Keying the whole cache by a digest of every module of the package closes
that hole; an edit anywhere recompiles what a run uses (seconds to a minute), once.

A folder the user chose (``NUMBA_CACHE_DIR``) is left alone.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def source_digest() -> str:
    """SHA-256 (first 16 hex digits) of every .py file of the package, path and content."""
    h = hashlib.sha256()
    for f in sorted(PACKAGE.rglob("*.py")):
        h.update(f.relative_to(PACKAGE).as_posix().encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def cache_root() -> Path:
    """The folder holding one numba cache per source digest."""
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "dynval-numba"


def use_source_keyed_cache() -> None:
    """Point numba's cache at cache_root()/<source digest> unless NUMBA_CACHE_DIR is set.
    Runs when dynval is imported, before any of its modules defines a compiled function
    (numba reads the setting as each cached function is defined)."""
    from numba.core import config

    if config.CACHE_DIR:
        return
    config.CACHE_DIR = str(cache_root() / source_digest())
