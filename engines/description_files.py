"""Description files as they come from the wild, made fit for a dynamics audit.

Robot descriptions from example-robot-data, pybullet_data or a ROS workspace name their
meshes by ``package://`` URIs that MuJoCo cannot resolve, carry collada collision meshes
that trip engines, and collide with themselves, which pollutes the dynamics terms.  A
dynamics audit (mass matrix, bias, gravity, inverse dynamics, frames) uses no geometry,
so :func:`prepare_urdf` writes a copy without any ``<visual>`` or ``<collision>`` and says,
in notes for the report, what it left out and which meshes it could not have found.  It
also reads what the engines would disagree on or refuse: joints dynval does not audit,
mimic couplings, massless links and physically impossible inertias."""

from __future__ import annotations

import hashlib
import math
import os
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from xml.parsers.expat import errors as expat_errors

import numpy as np

from dynval.engines import DescriptionError
from dynval.engines.packages import package_dirs, resolve_package

AUDITED_JOINTS: tuple[str, ...] = ("revolute", "continuous", "prismatic", "fixed")
"""URDF joint types dynval audits; a robot's free motion is the audit's base, not a joint."""

GEOMETRY_TAGS: tuple[str, ...] = ("visual", "collision")

CACHE_DIR_NAME = "dynval-descriptions"

# Principal moments computed from a matrix with products of inertia carry rounding of a few
# ulps of the trace (~1e-16 relative).  A thin rod or a flat plate lies exactly on the
# boundary A + B = C, so a strict comparison would flag such bodies for rounding alone.
# 1e-12 of the trace is far above that rounding and far below any violation worth a report
# (a URDF printed with 6 significant digits errs by ~1e-6).  The same tolerance says when a
# principal moment counts as zero.  Callers that need MuJoCo's strict test have the moments.
RELATIVE_TOLERANCE = 1e-12


@dataclass(frozen=True)
class Prepared:
    """A description file ready for the engines, with what the report should say about it.

    ``source`` is the file as given, ``path`` the file the engines load; ``notes`` are
    sentences for the report; ``findings`` are facts about the file that an engine may
    refuse (an impossible inertia, a root link without ``<inertial>``)."""

    source: Path
    path: Path
    notes: tuple[str, ...] = ()
    meshes_found: int = 0
    meshes_missing: tuple[str, ...] = ()
    findings: tuple[str, ...] = ()
    root_link: str | None = None
    gravity: tuple[float, float, float] | None = None  # the file's own, where it sets one
    gravity_said: str = ""  # how the file sets it, in words


@dataclass(frozen=True)
class LinkInertial:
    """One link's ``<inertial>``: mass [kg] and rotational inertia [kg m^2] about the centre
    of mass in the inertial frame, with its principal moments (ascending).  The moments do
    not depend on the inertial origin's rpy: eigenvalues are rotation invariant."""

    link: str
    mass: float
    inertia: tuple[float, float, float, float, float, float]  # ixx ixy ixz iyy iyz izz
    principal_moments: tuple[float, float, float]

    @property
    def matrix(self) -> np.ndarray:
        """The symmetric 3x3 inertia matrix."""
        return _matrix(self.inertia)

    @property
    def zero_inertia(self) -> bool:
        return all(v == 0.0 for v in self.inertia)

    @property
    def tolerance(self) -> float:
        """The smallest moment that counts, and the slack of the triangle inequality."""
        return RELATIVE_TOLERANCE * abs(sum(self.principal_moments))

    @property
    def positive_definite(self) -> bool:
        return self.principal_moments[0] > self.tolerance

    @property
    def satisfies_triangle(self) -> bool:
        """A + B >= C for every permutation: with A <= B <= C only the largest can fail."""
        a, b, c = self.principal_moments
        return a + b >= c - self.tolerance

    def findings(self) -> list[str]:
        """One sentence per condition this inertial violates, naming the link."""
        name, mass = self.link, self.mass
        if not math.isfinite(mass) or mass < 0:
            found = [f"link '{name}' has mass {mass:g} kg: a mass must be finite and not "
                     "negative"]
        else:
            found = []
        if not all(math.isfinite(v) for v in self.inertia):
            return [*found, f"link '{name}' has a non-finite entry in its inertia matrix"]
        if self.zero_inertia:
            if mass > 0:
                found.append(f"link '{name}' is a point mass: {mass:g} kg with zero rotational "
                             "inertia, so its inertia matrix is not positive definite")
            return found
        moments = ", ".join(f"{m:.6g}" for m in self.principal_moments)
        if not self.positive_definite:
            found.append(f"link '{name}' has an inertia matrix that is not positive definite: "
                         f"its principal moments are ({moments}) kg m^2")
        if not self.satisfies_triangle:
            found.append(f"link '{name}' violates the triangle inequality: its principal "
                         f"moments ({moments}) kg m^2 break A + B >= C")
        return found


# --- reading a URDF ---------------------------------------------------------------------------

# expat's errors for input that stops inside an element, a tag, a character or a section
_ENDS_EARLY = frozenset(expat_errors.codes[e] for e in (
    expat_errors.XML_ERROR_NO_ELEMENTS, expat_errors.XML_ERROR_UNCLOSED_TOKEN,
    expat_errors.XML_ERROR_PARTIAL_CHAR, expat_errors.XML_ERROR_UNCLOSED_CDATA_SECTION))


def read_xml(path: Path, what: str) -> ET.Element:
    """The root element of a description file (``what``: "URDF" or "MJCF"), or a
    DescriptionError in one sentence naming the file: unreadable, not UTF-8 (the engines'
    parsers read bytes as UTF-8 whatever the declaration says), empty, cut short, or
    otherwise not well-formed."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DescriptionError(f"{path}: cannot read this {what} ({exc.strerror})") from None
    # The engines' XML parsers accept blank lines before the XML declaration and a
    # trailing NUL (both occur in pybullet_data); expat does not, so trim them.
    data = data.strip(b" \t\r\n\0")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.end < len(data) or exc.reason != "unexpected end of data":  # else: cut short
            line = data.count(b"\n", 0, exc.start) + 1
            raise DescriptionError(f"{path}: this {what} is not UTF-8 text (byte "
                                   f"0x{data[exc.start]:02x} on line {line}), and the engines "
                                   "read a description as UTF-8") from None
    if not data:
        raise DescriptionError(f"{path}: this {what} is empty")
    try:
        return ET.fromstring(data)
    except ET.ParseError as exc:
        if exc.code in _ENDS_EARLY:
            last = data.count(b"\n") + 1
            raise DescriptionError(f"{path}: this {what} is not well-formed XML: it ends on "
                                   f"line {last} before its elements are closed, as a "
                                   "truncated file does") from None
        raise DescriptionError(f"{path}: this {what} is not well-formed XML ({exc})") from None


def _read_robot(path: Path) -> ET.Element:
    """The file's ``<robot>`` element, or a DescriptionError naming the file."""
    root = read_xml(path, "URDF")
    if _local(root.tag) != "robot":
        raise DescriptionError(f"{path}: a URDF's root element must be <robot>, "
                               f"not <{_local(root.tag)}>")
    return root


def _local(tag: str) -> str:
    """A tag without its namespace."""
    return tag.rpartition("}")[2]


def _check_joints(path: Path, robot: ET.Element) -> None:
    """A DescriptionError for the first joint whose type dynval does not audit."""
    for joint in robot.findall("joint"):
        kind = joint.get("type", "")
        if kind not in AUDITED_JOINTS:
            name = joint.get("name", "?")
            what = f"is {kind}" if kind in ("floating", "planar") else f"has type {kind!r}"
            raise DescriptionError(
                f"{path}: joint '{name}' {what}: dynval audits revolute, continuous, prismatic "
                "and fixed joints (the root's free motion is the audit's base)")


def root_link(robot: ET.Element, path: Path | str = "URDF") -> str:
    """The one link that is no joint's child, or a DescriptionError naming the file."""
    children = {child.get("link") for joint in robot.findall("joint")
                for child in joint.findall("child")}
    links = robot.findall("link")
    if not links:
        raise DescriptionError(f"{path}: this URDF has no <link>")
    roots = [link.get("name", "?") for link in links if link.get("name") not in children]
    if len(roots) != 1:
        listed = ", ".join(f"'{r}'" for r in roots) or "none"
        raise DescriptionError(f"{path}: a URDF must have exactly one root link, "
                               f"this one has {len(roots)} ({listed})")
    return roots[0]


def link_inertials(robot: ET.Element, path: Path | str = "URDF") -> dict[str, LinkInertial]:
    """Every link's ``<inertial>`` by link name (links without one are left out).  A
    missing ``<mass>``/``<inertia>`` or a value that is no number is a DescriptionError,
    as in every URDF parser."""
    inertials: dict[str, LinkInertial] = {}
    for link in robot.findall("link"):
        inertial = link.find("inertial")
        if inertial is None:
            continue
        name = link.get("name", "?")
        mass_el, inertia_el = inertial.find("mass"), inertial.find("inertia")
        if mass_el is None or inertia_el is None:
            missing = "<mass>" if mass_el is None else "<inertia>"
            raise DescriptionError(f"{path}: link '{name}' has an <inertial> without {missing}")
        try:
            mass = float(mass_el.get("value", "nan"))
            inertia = tuple(float(inertia_el.get(k, "0"))
                            for k in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz"))
        except ValueError:
            raise DescriptionError(f"{path}: link '{name}' has an <inertial> value that is "
                                   "not a number") from None
        inertials[name] = LinkInertial(name, mass, inertia, _principal_moments(inertia))
    return inertials


def _principal_moments(inertia: tuple[float, ...]) -> tuple[float, float, float]:
    """The eigenvalues of the symmetric inertia matrix, ascending (NaN if it is not finite)."""
    if not all(math.isfinite(v) for v in inertia):
        return (math.nan, math.nan, math.nan)
    a, b, c = np.linalg.eigvalsh(_matrix(inertia))
    return (float(a), float(b), float(c))


def _matrix(inertia: Sequence[float]) -> np.ndarray:
    """The symmetric 3x3 matrix of (ixx, ixy, ixz, iyy, iyz, izz)."""
    ixx, ixy, ixz, iyy, iyz, izz = inertia
    return np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])


def inertial_findings(robot: ET.Element) -> list[str]:
    """One sentence per violated condition of each link's ``<inertial>``, naming the link
    and the condition: a mass that is negative or not finite, a point mass (mass with zero
    rotational inertia), an inertia matrix that is not positive definite, principal moments
    that break the triangle inequality A + B >= C."""
    return [found for inertial in link_inertials(robot).values()
            for found in inertial.findings()]


# --- the copy the engines load ------------------------------------------------------------------

def prepare_urdf(path: Path | str, package_paths: Sequence[Path | str] = ()) -> Prepared:
    """A copy of a URDF without geometry, for the engines, with notes and findings.

    The copy drops every ``<visual>`` and ``<collision>`` (a dynamics audit uses none, and
    unresolvable or collada meshes would stop an engine) and every ``<mimic>`` (so no engine
    adds a coupling that the others lack).  Meshes are still looked up, so that the report
    can say which could not have been found; a missing mesh is a note, not an error.  A
    joint dynval does not audit (floating, planar) is a DescriptionError.  Packages are
    looked up in :func:`package_dirs` and then, as PyBullet does, next to the URDF: its
    folder and the two above (``pkg/urdf/robot.urdf`` naming ``package://pkg/meshes/...``)."""
    source = Path(path)
    robot = _read_robot(source)
    _check_joints(source, robot)
    root = root_link(robot, source)
    inertials = link_inertials(robot, source)

    base = source.resolve().parent
    dirs = [*package_dirs(package_paths), base, base.parent, base.parent.parent]
    uris = _mesh_uris(robot)
    missing = _missing_meshes(source, uris, dirs, base)
    geometry = _strip(robot, "link", GEOMETRY_TAGS)
    mimics = _mimics(robot)
    _strip(robot, "joint", ("mimic",))

    notes: list[str] = []
    if geometry:
        notes.append(_geometry_note(geometry, len(uris) - len(missing), missing))
    notes += [_mimic_note(followers, leader) for leader, followers in mimics.items()]
    findings: list[str] = []
    massless = [link.get("name", "?") for link in robot.findall("link")
                if link.find("inertial") is None]
    if root in massless:
        massless.remove(root)
        notes.append(f"root link '{root}' has no <inertial>: it is massless as URDF specifies, "
                     "but on a free base PyBullet gives it 1 kg")
    if massless:
        listed = ", ".join(f"'{n}'" for n in massless)
        notes.append(f"{'link' if len(massless) == 1 else 'links'} {listed} "
                     f"{'has' if len(massless) == 1 else 'have'} no <inertial>: massless, "
                     "as URDF specifies")
    findings += [found for inertial in inertials.values() for found in inertial.findings()]
    findings += axis_findings(robot)

    copy = _write_copy(source.name, ET.tostring(robot, encoding="utf-8",
                                                xml_declaration=True))
    return Prepared(source=source, path=copy, notes=tuple(notes),
                    meshes_found=len(uris) - len(missing), meshes_missing=missing,
                    findings=tuple(findings), root_link=root)


AXIS_TOLERANCE = 1e-12  # |axis| - 1 beyond double precision's reading of a unit vector


def axis_findings(robot: ET.Element) -> list[str]:
    """One sentence per joint whose axis is not a unit vector (a URDF printed with six
    digits: engines that normalise it and engines that read it as written then differ)."""
    out = []
    for joint in robot.iter("joint"):
        axis = joint.find("axis")
        if axis is None or joint.get("type") not in AUDITED_JOINTS or \
                joint.get("type") == "fixed":
            continue
        try:
            xyz = np.array([float(x) for x in axis.get("xyz", "1 0 0").split()])
        except ValueError:
            continue
        off = float(np.linalg.norm(xyz)) - 1.0
        if abs(off) > AXIS_TOLERANCE:
            out.append(f"joint '{joint.get('name')}' has an axis that is not a unit vector "
                       f"(its length less 1 is {off:.2g})")
    return out


def _mesh_uris(robot: ET.Element) -> dict[str, str]:
    """Every distinct mesh file the links' geometry names, in order of first appearance,
    with the first link that names it."""
    uris: dict[str, str] = {}
    for link in robot.findall("link"):
        for tag in GEOMETRY_TAGS:
            for element in link.findall(tag):
                for mesh in element.iter("mesh"):
                    if mesh.get("filename"):
                        uris.setdefault(mesh.get("filename", ""), link.get("name", "?"))
    return uris


def _missing_meshes(source: Path, uris: dict[str, str], dirs: Sequence[Path],
                    base: Path) -> tuple[str, ...]:
    """The mesh URIs that name no file found; one that leaves its package is a
    DescriptionError naming the file and the link."""
    missing = []
    for uri, link in uris.items():
        try:
            found = resolve_package(uri, dirs, base)
        except DescriptionError as exc:
            raise DescriptionError(f"{source}: link '{link}' <mesh> filename {exc}") from None
        if found is None:
            missing.append(uri)
    return tuple(missing)


def _strip(robot: ET.Element, parent: str, tags: Sequence[str]) -> int:
    """Remove the ``tags`` children of every ``parent`` element; how many were removed."""
    removed = 0
    for element in robot.findall(parent):
        for child in [c for c in element if c.tag in tags]:
            element.remove(child)
            removed += 1
    return removed


def _mimics(robot: ET.Element) -> dict[str, list[str]]:
    """The joints that mimic another, by the joint they mimic, in file order."""
    mimics: dict[str, list[str]] = {}
    for joint in robot.findall("joint"):
        for mimic in joint.findall("mimic"):
            mimics.setdefault(mimic.get("joint", "?"), []).append(joint.get("name", "?"))
    return mimics


def mimic_couplings(path: Path | str) -> dict[str, tuple[str, float, float]]:
    """Each mimic joint of a URDF with the joint it follows, its multiplier and offset
    (q_follower = multiplier q_leader + offset; URDF's defaults 1 and 0)."""
    robot = _read_robot(Path(path))
    out = {}
    for joint in robot.findall("joint"):
        mimic = joint.find("mimic")
        if mimic is not None:
            out[joint.get("name", "?")] = (mimic.get("joint", "?"),
                                           float(mimic.get("multiplier", "1")),
                                           float(mimic.get("offset", "0")))
    return out


def _mimic_note(followers: Sequence[str], leader: str) -> str:
    """The report's sentence on joints whose coupling to ``leader`` is dropped."""
    listed = ", ".join(f"'{f}'" for f in followers)
    verb = "joint {} mimics" if len(followers) == 1 else "joints {} mimic"
    return (f"{verb.format(listed)} '{leader}': every engine here treats them as independent "
            "joints; the coupling is not audited")


def _geometry_note(removed: int, found: int, missing: Sequence[str]) -> str:
    """The report's sentence on the geometry left out and the meshes looked up."""
    elements = "element" if removed == 1 else "elements"
    note = f"{removed} visual or collision {elements} left out: a dynamics audit uses no geometry"
    if found or missing:
        note += f"; {found} of {found + len(missing)} meshes found"
    if missing:
        note += f", not found: {', '.join(missing)}"
    return note


def _write_copy(name: str, data: bytes) -> Path:
    """Write ``data`` as ``name`` under a folder named by its hash in the temp directory,
    atomically (temp file, then os.replace), or reuse it when it is already there.  The
    copy names no other file, so its bytes alone decide what the engines load."""
    folder = (Path(tempfile.gettempdir()) / CACHE_DIR_NAME
              / hashlib.sha256(data).hexdigest())
    target = folder / name
    if target.is_file() and target.read_bytes() == data:
        return target
    folder.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return target


# --- MJCF ---------------------------------------------------------------------------------------

def prepare_mjcf(path: Path | str, package_paths: Sequence[Path | str] = ()) -> Prepared:
    """An MJCF as the engines load it: the file itself.  MuJoCo resolves its own meshes
    (against ``<compiler meshdir>``) and knows no ``package://``, so nothing is rewritten;
    ``package_paths`` is accepted for symmetry with :func:`prepare_urdf`.  The file must be
    well-formed with a ``<mujoco>`` root, else a DescriptionError names it."""
    source = Path(path)
    root = read_xml(source, "MJCF")
    if root.tag != "mujoco":
        raise DescriptionError(f"{source}: an MJCF's root element must be <mujoco>, "
                               f"not <{root.tag}>")
    from dynval.engines.mjcf_tree import assembled  # it reads files through this module

    gravity, said = mjcf_gravity(placed.element for placed in assembled(source, root))
    return Prepared(source=source, path=source,
                    notes=("the MJCF is loaded as written, geometry included: MuJoCo resolves "
                           "its own meshes",), gravity=gravity, gravity_said=said)


def mjcf_gravity(elements: Iterable[ET.Element]
                 ) -> tuple[tuple[float, float, float] | None, str]:
    """The gravity an MJCF sets for itself, and how, in words: its ``<option gravity>``,
    or none at all where ``<option><flag gravity="disable"/>`` switches it off; (None, "")
    where the file leaves MuJoCo's default (0, 0, -9.81).  ``elements``: the MJCF's, its
    includes' among them, in MuJoCo's order (the last option read wins)."""
    gravity, said = None, ""
    for option in (e for e in elements if e.tag == "option"):
        if option.get("gravity") is not None:
            try:
                g = tuple(float(x) for x in option.get("gravity").split())
            except ValueError:
                continue  # a value MuJoCo itself refuses, named when it loads the file
            if len(g) == 3:
                gravity, said = g, f'its <option gravity="{option.get("gravity")}">'
        for flag in option.iter("flag"):
            if flag.get("gravity") == "disable":
                return (0.0, 0.0, 0.0), '<flag gravity="disable">: no gravity at all'
    return gravity, said
