"""An MJCF's elements as MuJoCo assembles them: ``<include>`` expanded in place, every
``<body>`` numbered as MuJoCo numbers it, and a name for each body the file leaves unnamed.

MuJoCo looks for an included file next to the file that includes it, else next to the
main file, and numbers bodies in the order the assembled file lists them (the world is 0);
it keeps no name for an unnamed body (``mj_id2name`` gives None).  Pinocchio's MJCF reader
calls an unnamed body after its parent (``<parent>Bis``, so unnamed siblings share one
name), reads no ``<include>`` and leaves out a ``<body>`` that has no attribute at all.
Every engine here names an unnamed body the one way :func:`unnamed_body` does, by its
number and its parent, so that rows, findings and frames match across engines and point a
reader to the body in the file.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from dynval.engines import DescriptionError, EngineRefusalError
from dynval.engines.description_files import read_xml

WORLD = 0  # MuJoCo's id of the world body


def unnamed_body(index: int, parent: int, parent_name: str | None) -> str:
    """The name of an unnamed body: its MuJoCo id and its parent (by name, else by id),
    e.g. ``#3 (child of 'torso')``, so that a reader finds it in the file."""
    if parent == WORLD:
        return f"#{index} (child of the world)"
    return f"#{index} (child of {repr(parent_name) if parent_name else f'#{parent}'})"


@dataclass(frozen=True)
class MjcfBody:
    """One ``<body>``: its MuJoCo id, its name (the file's, else :func:`unnamed_body`'s),
    its parent's id, and the file it is written in."""

    index: int
    name: str
    named: bool
    parent: int
    source: Path
    element: ET.Element


@dataclass(frozen=True)
class Placed:
    """An element of the assembled MJCF, the file it is written in, the body it belongs to
    (itself for a ``<body>``; None in the world or outside ``<worldbody>``) and the section
    of the file it is in (``worldbody``, ``default``, ``asset``, ...)."""

    element: ET.Element
    source: Path
    body: MjcfBody | None
    section: str


def include_target(element: ET.Element, source: Path, main: Path) -> Path:
    """The file an ``<include file=...>`` in ``source`` names: relative to ``source``'s
    folder, else to the main file's (where MuJoCo also looks); a DescriptionError naming
    both files when neither has it."""
    name = element.get("file", "")
    for folder in dict.fromkeys((source.parent, main.parent)):
        target = folder / name
        if name and target.is_file():
            return target
    raise DescriptionError(f"{source}: <include file='{name}'> names no file (looked for it "
                           f"next to {source.name}"
                           + (f" and next to {main.name})" if source != main else ")"))


def assembled(path: Path, root: ET.Element | None = None) -> list[Placed]:
    """Every element of the MJCF at ``path`` in document order, each ``<include>`` replaced
    by the included file's elements, as MuJoCo assembles the model; ``root`` is the file
    already parsed.  A missing or unreadable include, or one that includes itself, is a
    DescriptionError."""
    out: list[Placed] = []
    bodies: list[MjcfBody] = []
    main = Path(path)
    root = read_xml(main, "MJCF") if root is None else root
    _walk(root, main, main, None, "", out, bodies, (main.resolve(),))
    return out


def _walk(parent: ET.Element, source: Path, main: Path, body: MjcfBody | None, section: str,
          out: list[Placed], bodies: list[MjcfBody], chain: tuple[Path, ...]) -> None:
    """Append ``parent``'s children (and theirs) to ``out`` and its bodies to ``bodies``;
    ``chain`` is the files being included, to stop a file that includes itself."""
    for element in parent:
        if not isinstance(element.tag, str):  # a comment or a processing instruction
            continue
        where = section or element.tag
        if element.tag == "include":
            target = include_target(element, source, main)
            if target.resolve() in chain:
                raise DescriptionError(f"{source}: <include file='{element.get('file')}'> "
                                       "includes a file that is already being included")
            _walk(read_xml(target, "MJCF"), target, main, body, section, out, bodies,
                  (*chain, target.resolve()))
            continue
        own = body
        if element.tag == "body":
            own = _body(element, source, body, bodies)
        out.append(Placed(element, source, own, where))
        _walk(element, source, main, own, where, out, bodies, chain)


def _body(element: ET.Element, source: Path, parent: MjcfBody | None,
          bodies: list[MjcfBody]) -> MjcfBody:
    """The next body, numbered and named, appended to ``bodies``."""
    index = len(bodies) + 1
    up = WORLD if parent is None else parent.index
    name = element.get("name")
    body = MjcfBody(index, name or unnamed_body(index, up, parent.name if parent and
                                                parent.named else None),
                    bool(name), up, source, element)
    bodies.append(body)
    return body


def mjcf_bodies(path: Path) -> list[MjcfBody]:
    """The MJCF's bodies in MuJoCo's order (the first is body 1)."""
    return [p.body for p in assembled(path) if p.element.tag == "body" and p.body is not None]


def leaf_bodies(path: Path) -> list[str]:
    """The names of the bodies with no child body, written in the file itself (Pinocchio
    reads no ``<include>``)."""
    bodies = mjcf_bodies(path)
    parents = {b.parent for b in bodies}
    return [b.name for b in bodies if b.index not in parents and b.source == Path(path)]


def pinocchio_body_names(path: Path) -> dict[str, str]:
    """What Pinocchio's MJCF reader calls each unnamed body (``<parent>Bis``), mapped to
    :func:`unnamed_body`'s name.  An EngineRefusalError where its reading differs from
    MuJoCo's: two bodies it gives one name, or a ``<body>`` without attributes, which it
    leaves out with all it holds."""
    main = Path(path)
    bodies = [b for b in mjcf_bodies(main) if b.source == main]
    if all(b.named for b in bodies):
        return {}
    names: dict[int, str] = {WORLD: ""}
    for body in bodies:
        if not body.named and not body.element.attrib:
            raise EngineRefusalError(
                f"{path}: Pinocchio's MJCF reader leaves out body {body.name}, a <body> "
                "without attributes, and all it holds")
        names[body.index] = body.name if body.named else names[body.parent] + "Bis"
    return _distinct(path, bodies, names)


def _distinct(path: Path, bodies: list[MjcfBody], names: dict[int, str]) -> dict[str, str]:
    """Pinocchio's name of each unnamed body to ours, when no two bodies share one."""
    seen: dict[str, MjcfBody] = {}
    for body in bodies:
        first = seen.setdefault(names[body.index], body)
        if first is not body:
            raise EngineRefusalError(
                f"{path}: Pinocchio's MJCF reader calls both body {first.name} and body "
                f"{body.name} {names[body.index]!r} and builds another tree from them")
    return {names[b.index]: b.name for b in bodies if not b.named}
