"""Where dynval's source lives: the ``dynval`` folder (the public API) and the five layers
the product card names (``dynval.robots``, ``dynval.handrolled``, ...), wherever the
install put them (inside ``dynval/`` in a wheel, beside it in a source tree).

Everything that keys a cache by source (numba's compiled code, the results cache) asks
here, so both see the same files whatever the layout, and the same source sets: the
framework's files, and each robot's own folders beside them (:func:`source_sets`)."""

from __future__ import annotations

import hashlib
import importlib.util
from functools import cache
from pathlib import Path

LAYERS = ("robots", "handrolled", "engines", "comparisons", "reports")


@cache
def package_dir() -> Path:
    """The folder of the ``dynval`` package itself."""
    return Path(__file__).resolve().parent


@cache
def layer_dir(layer: str) -> Path:
    """The folder of ``dynval.<layer>``, found without importing it."""
    if layer not in LAYERS:
        raise ValueError(f"dynval has no layer {layer!r} (layers: {', '.join(LAYERS)})")
    spec = importlib.util.find_spec(f"dynval.{layer}")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(f"dynval.{layer} is not installed beside dynval")
    return Path(next(iter(spec.submodule_search_locations))).resolve()


def module_file(name: str) -> Path | None:
    """The source file of a dynval module (``dynval.comparisons.ladder.rungs``), or None where the
    name is not one of dynval's modules."""
    parts = name.split(".")
    if parts[0] != "dynval" or len(parts) < 2:
        return None
    if parts[1] in LAYERS:
        base = layer_dir(parts[1]).joinpath(*parts[2:])
    else:
        base = package_dir().joinpath(*parts[1:])
    for f in (base.with_suffix(".py"), base / "__init__.py"):
        if f.is_file():
            return f
    return None


def source_files() -> dict[str, Path]:
    """Every .py file of dynval by its path inside the installed package
    (``comparisons/ladder/rungs.py``), the same names in a wheel and in a source tree."""
    files = {f.relative_to(package_dir()).as_posix(): f
             for f in package_dir().rglob("*.py")}
    for layer in LAYERS:
        root = layer_dir(layer)
        files.update({f"{layer}/{f.relative_to(root).as_posix()}": f
                      for f in root.rglob("*.py")})
    return dict(sorted(files.items()))


def source_digest() -> str:
    """SHA-256 (first 16 hex digits) of every .py file of dynval, path and content: one
    name for one version of the code."""
    h = hashlib.sha256()
    for name, f in source_files().items():
        h.update(name.encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:16]


# --- source sets: what a robot's compiled code and results are keyed by ------------------
# A robot's own source is its folder in each layer that has one per robot; the framework's
# is every other file but the command line and the report, which no task's code imports
# (tests/test_layers.py holds both with the import graph: a robot's modules are imported by
# that robot's modules only, the command line and the report by nothing a task runs).
ROBOT_LAYERS = ("robots", "handrolled", "comparisons")
# the command line and the report: read by no task, in no source set
NOT_RUN = ("comparisons/cli.py", "comparisons/commands/", "reports/")


def robot_names() -> tuple[str, ...]:
    """The registered robots (``dynval.robots.ROBOT_NAMES``): the names whose folders are a
    robot's own source."""
    from dynval.robots import ROBOT_NAMES

    return tuple(ROBOT_NAMES)


def owner(name: str, robots: tuple[str, ...] | None = None) -> str | None:
    """The robot whose own folders hold a source file (named as in :func:`source_files`),
    or None for a file of the framework."""
    parts = name.split("/")
    if len(parts) >= 3 and parts[0] in ROBOT_LAYERS and parts[1] in (robots or robot_names()):
        return parts[1]
    return None


def file_owner(path: str | Path) -> str | None:
    """The robot whose own folders hold a file given by its path (None where it is in no
    robot's folders, a plugin's included)."""
    from dynval.plugins import robot_folders

    p = Path(path).resolve()
    for robot, folders in robot_folders(robot_names()).items():
        if any(p.is_relative_to(d) for d in folders.values()):
            return robot
    return None


def robot_sources(robots: tuple[str, ...]) -> dict[str, dict[str, Path]]:
    """Each robot's own .py files, named ``<layer>/<robot>/<path in the package>`` (the
    names :func:`source_files` gives a paper robot's files): the files of the three
    packages its spec names (``dynval.plugins.RobotSpec``), inside dynval or a plugin's
    own distribution."""
    from dynval.plugins import robot_folders

    return {robot: {f"{layer}/{robot}/{f.relative_to(d).as_posix()}": f
                    for layer, d in folders.items() for f in d.rglob("*.py")}
            for robot, folders in robot_folders(robots).items()}


def source_sets() -> dict[str | None, str]:
    """The digest of each source set, from one reading of the source: ``None`` names the
    framework's files; a robot's name, the framework's files and that robot's own (its
    three packages: its folders in robots/, handrolled/ and comparisons/, or a plugin's
    own). An edit to one robot's files moves that robot's digest only; an edit to the
    framework moves every one."""
    robots = robot_names()
    own = robot_sources(robots)
    owned = {f.resolve() for files in own.values() for f in files.values()}
    parts: dict[str | None, hashlib._Hash] = {r: hashlib.sha256() for r in (None, *robots)}
    for name, f in source_files().items():
        if not name.startswith(NOT_RUN) and f.resolve() not in owned:
            parts[None].update(name.encode() + b"\0" + f.read_bytes())
    for robot, files in own.items():
        for name, f in sorted(files.items()):
            parts[robot].update(name.encode() + b"\0" + f.read_bytes())
    framework = parts[None].hexdigest()[:16]
    out: dict[str | None, str] = {None: framework}
    for r in robots:
        out[r] = hashlib.sha256(f"{framework}:{r}:{parts[r].hexdigest()}".encode()
                                ).hexdigest()[:16]
    return out


def owns(path: str | Path) -> bool:
    """Whether a file lies in dynval's source (the package or one of its layers)."""
    p = Path(path).resolve()
    return any(p.is_relative_to(d) for d in (package_dir(), *map(layer_dir, LAYERS)))


def copy_as_installed(dest: Path) -> Path:
    """dynval's source copied into ``dest`` as the wheel lays it out (the layers inside
    ``dynval/``), importable with ``dest`` on the path; returns ``dest / "dynval"``.
    Tests run a copy so: the layer contracts, a robot added, a callee edited."""
    import shutil

    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(package_dir(), dest / "dynval", ignore=ignore)
    for layer in LAYERS:
        shutil.copytree(layer_dir(layer), dest / "dynval" / layer, ignore=ignore,
                        dirs_exist_ok=True)
    return dest / "dynval"
