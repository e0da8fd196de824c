"""Where a description's ``package://`` URIs and the installed description collections
are: the folders looked in (``--package-path``, ``ROS_PACKAGE_PATH``, example-robot-data),
ROS packages found by their package.xml, and PyBullet's own data folder."""

from __future__ import annotations

import functools
import os
import posixpath
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from pathlib import Path

from dynval.engines import DescriptionError


def package_dirs(extra: Sequence[Path | str] = ()) -> list[Path]:
    """Where ``package://NAME/...`` is looked up, in order: ``extra`` (the CLI's
    ``--package-path``), each entry of ``ROS_PACKAGE_PATH``, then installed description
    packages (example-robot-data's robots folder and the ``share`` folder that holds it,
    for its ``package://example-robot-data/robots/...`` URIs).  Duplicates are dropped."""
    dirs = [Path(d) for d in extra]
    dirs += [Path(d) for d in os.environ.get("ROS_PACKAGE_PATH", "").split(os.pathsep) if d]
    robots = example_robot_data_robots()
    if robots is not None:
        dirs += [robots, robots.parent.parent]
    return list(dict.fromkeys(dirs))


def example_robot_data_robots() -> Path | None:
    """example-robot-data's robots folder if the package is installed (found from its
    metadata, without importing it)."""
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        dist = distribution("example-robot-data")
    except PackageNotFoundError:
        return None
    robots = Path(str(dist.locate_file("cmeel.prefix/share/example-robot-data/robots")))
    return robots if robots.is_dir() else None


_FIND = re.compile(r"^\$\(find ([^)\s]+)\)/?(.*)$")


def resolve_package(uri: str, dirs: Iterable[Path], base: Path | None = None) -> Path | None:
    """The file a mesh URI names, or None when it cannot be found.

    ``package://NAME/rest`` (and ``$(find NAME)/rest`` left by an unexpanded xacro) is the
    first existing ``DIR/NAME/rest``, ``DIR/rest`` when DIR's own name is NAME, or
    ``DIR/PKG/rest`` where ``DIR/PKG/package.xml`` says its name is NAME (ROS-style); a
    ``rest`` that leaves the package (``..`` above its folder, or an absolute path) is a
    DescriptionError, not a file outside it.  ``file://`` URIs and plain paths resolve
    against ``base`` (the URDF's folder)."""
    name, rest = _package_parts(uri)
    if name is None:
        path = Path(uri.removeprefix("file://"))
        if not path.is_absolute() and base is not None:
            path = base / path
        return path if path.is_file() else None
    for folder in dirs:
        for root in _package_roots(Path(folder), name):
            if (root / rest).is_file():
                return root / rest
    return None


def _package_parts(uri: str) -> tuple[str | None, str]:
    """(NAME, rest) of a package URI, (None, uri) for anything else.  ``package:///NAME``
    (an empty authority, as in some example-robot-data files) reads as ``package://NAME``."""
    if uri.startswith("package://"):
        name, _, rest = uri.removeprefix("package://").lstrip("/").partition("/")
        return name, _inside(uri, name, rest)
    found = _FIND.match(uri)
    if found:
        return found.group(1), _inside(uri, found.group(1), found.group(2))
    return None, uri


def _inside(uri: str, name: str, rest: str) -> str:
    """``rest``, the path inside package ``name``, or a DescriptionError when it leaves the
    package: ``..`` that climbs above the package's folder once normalised, or an
    absolute path."""
    if rest and (posixpath.isabs(rest) or posixpath.normpath(rest).split("/")[0] == ".."):
        raise DescriptionError(f"'{uri}' leaves its package '{name}', and a package path "
                               "must stay inside its package")
    return rest


def _package_roots(folder: Path, name: str) -> list[Path]:
    """The folders under or at ``folder`` that may be package ``name``, in lookup order."""
    roots = [folder / name]
    if folder.name == name:
        roots.append(folder)
    ros = _ros_packages(folder, _mtime(folder)).get(name)
    if ros is not None:
        roots.append(ros)
    return roots


def _mtime(folder: Path) -> int:
    try:
        return folder.stat().st_mtime_ns
    except OSError:
        return 0


@functools.lru_cache(maxsize=256)
def _ros_packages(folder: Path, mtime: int) -> dict[str, Path]:
    """ROS packages directly under ``folder`` by their package.xml name (cached; ``mtime``
    is in the key so that a package added to the folder is seen)."""
    packages: dict[str, Path] = {}
    try:
        manifests = sorted(folder.glob("*/package.xml"))
    except OSError:
        return packages
    for manifest in manifests:
        try:
            found = ET.parse(manifest).getroot().findtext("name")
        except (OSError, ET.ParseError):
            continue
        if found and found.strip() not in packages:
            packages[found.strip()] = manifest.parent
    return packages


def pybullet_data_dir() -> Path:
    """The folder of the descriptions that ship with PyBullet (``pybullet_data``)."""
    import pybullet_data

    return Path(pybullet_data.getDataPath())
