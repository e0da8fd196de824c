"""The corpus: every robot description of example-robot-data (an installable package) and
of pybullet_data (it ships with PyBullet), audited engine against engine as a user would
audit their own (``dynval audit --description FILE``), on the task graph with the
results cache, and written as one table.

A description is a robot when a joint moves in it (a URDF's revolute, continuous or
prismatic joint; an MJCF's hinge or slide).  Its base is free when its root link carries
mass (PyBullet can float it; the free-root conventions are then audited too) and fixed
otherwise; an MJCF's own free joint makes it free.  Each row says which engines loaded
the file, the worst error of each term against the reference engine (Pinocchio where it
loads the file), the findings in the file and, where the robot does not pass, the
causes: a finding is a fact about the file or an engine, never a false alarm.
"""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

from dynval.engines import DescriptionError
from dynval.model import ModelError

SOURCES = ("example-robot-data", "pybullet_data", "gymnasium", "dm_control")
# the MJCF collections: an installed package's folder and its robot files (a file that is
# only included by others, a scene or a schema is no robot of its own)
MJCF_COLLECTIONS = {
    "gymnasium": ("envs/mujoco/assets/*.xml",),
    "dm_control": ("suite/*.xml", "third_party/ant/ant.xml", "third_party/kinova/jaco_arm.xml",
                   "locomotion/walkers/assets/*.xml", "locomotion/walkers/assets/*/dog.xml",
                   "locomotion/walkers/assets/fruitfly_v2/fruitfly.xml",
                   "locomotion/walkers/assets/jumping_ball/*.xml",
                   "locomotion/soccer/assets/boxhead/boxhead.xml",
                   "mujoco/testing/assets/*.xml"),
}
# the ci subset: small, quick robots of pybullet_data (it ships with PyBullet, so every CI
# machine has it) and of gymnasium (a test dependency): a fixed and a free base, a chain, a
# branched tree, and MJCFs with several joints on one body (the humanoid's abdomen and
# hips), default classes and a total mass set by the compiler (the cheetah's settotalmass)
CI_SUBSET = ("pybullet_data/cartpole.urdf", "pybullet_data/kuka_iiwa/model.urdf",
             "pybullet_data/pendulum5.urdf", "pybullet_data/quadruped/minitaur.urdf",
             "pybullet_data/mjcf/inverted_double_pendulum.xml",
             "pybullet_data/mjcf/humanoid.xml", "gymnasium/half_cheetah.xml")
TERMS = ("M", "bias", "G", "tau", "frames")
MOVING = ("revolute", "continuous", "prismatic")


@dataclass(frozen=True)
class Entry:
    """One corpus description: its name (source/relative path), file and base."""

    name: str
    path: Path
    base: str


@dataclass
class CorpusRow:
    """One description's audit, as the table shows it."""

    name: str
    dof: int = 0
    base: str = ""
    reference: str = ""
    loaded: tuple[str, ...] = ()
    refused: dict[str, str] = field(default_factory=dict)
    worst: dict[str, dict[str, float]] = field(default_factory=dict)  # engine -> term -> err
    l0: str = ""
    l3: str = ""
    findings: list[str] = field(default_factory=list)
    readers: list[str] = field(default_factory=list)  # an MJCF read otherwise than by MuJoCo
    causes: list[str] = field(default_factory=list)
    passed: bool = False
    error: str = ""
    seconds: float = 0.0


def _root_has_mass(root: ET.Element) -> bool:
    """Whether a URDF's root link (the one no joint has as child) has a positive mass."""
    children = {j.find("child").get("link") for j in root.iter("joint")
                if j.find("child") is not None}
    for link in root.findall("link"):
        if link.get("name") not in children:
            mass = link.find("inertial/mass")
            return mass is not None and float(mass.get("value", "0")) > 0.0
    return False


def classify(path: Path) -> str | None:
    """"fixed" or "free" for a robot description, None for anything else (an object, a
    scene, a file that is not a robot description)."""
    try:
        text = path.read_text(errors="replace").strip().strip("\x00")
        root = ET.fromstring(text)
    except (OSError, ET.ParseError):
        return "fixed" if path.suffix == ".urdf" else None  # its audit will say why
    if root.tag == "robot":
        if not any(j.get("type") in MOVING for j in root.iter("joint")):
            return None
        return "free" if _root_has_mass(root) else "fixed"
    if root.tag == "mujoco":
        types = [j.get("type", "hinge") for j in root.iter("joint")]
        return "fixed" if any(t in ("hinge", "slide") for t in types) else None
    return None


def _package_folder(name: str) -> Path:
    """An installed package's folder, found without importing it (dm_control's import
    sets up rendering)."""
    import importlib.util

    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise DescriptionError(f"{name} is not installed: pip install {name.replace('_', '-')} "
                               "(or dynval[corpus])")
    return Path(spec.submodule_search_locations[0])


def installed(source: str) -> bool:
    """Whether a corpus source is installed here (pybullet_data ships with PyBullet)."""
    import importlib.util

    from dynval.engines.packages import example_robot_data_robots

    if source == "example-robot-data":
        return example_robot_data_robots() is not None
    return source == "pybullet_data" or importlib.util.find_spec(source) is not None


def entries(sources: tuple[str, ...] = SOURCES) -> list[Entry]:
    """Every robot description of the sources installed here, sorted by name (pybullet_data's
    thousand random_urdfs are test data, not robots)."""
    from dynval.engines.packages import example_robot_data_robots, pybullet_data_dir

    out = []
    for source in sources:
        if source == "example-robot-data":
            folder = example_robot_data_robots()
            if folder is None:
                raise DescriptionError("example-robot-data is not installed: pip install "
                                       "example-robot-data (or dynval[corpus])")
            files = sorted(folder.rglob("*.urdf"))
        elif source == "pybullet_data":
            folder = pybullet_data_dir()
            files = sorted([*folder.rglob("*.urdf"), *(folder / "mjcf").glob("*.xml")])
            files = [f for f in files if "random_urdfs" not in f.parts]
        elif source in MJCF_COLLECTIONS:
            folder = _package_folder(source)
            files = sorted({f for pattern in MJCF_COLLECTIONS[source]
                            for f in folder.glob(pattern)})
            if source == "gymnasium":
                folder = folder / "envs/mujoco/assets"
        else:
            raise DescriptionError(f"unknown corpus source {source!r}; known: "
                                   f"{', '.join(SOURCES)}")
        for f in files:
            base = classify(f)
            if base is not None:
                out.append(Entry(f"{source}/{f.relative_to(folder).as_posix()}", f, base))
    return sorted(out, key=lambda e: e.name)


def _causes(audit) -> list[str]:
    """Why a description does not pass, one short phrase each, from its audit."""
    from dynval.comparisons.own_model.loading import not_run

    out = []
    for e, why in audit.refused.items():
        kind = ("an impossible inertia in the file" if "positive definite" in why
                or "triangle" in why or "point mass" in why
                else why)
        out.append(not_run(e, kind, e in audit.decided))
    out += [f"L0 {r['engine']}: {r['quantity']} ({r['reason']})" for r in audit.l0_failures
            if r["quantity"] != "loads the file"]
    out += [f"L2 {r.term} vs {r.reference}: {r.max_rel_error:.2g}" for r in audit.failures]
    out += [audit.explain_l3(r).split(": L3 ", 1)[-1] for r in audit.l3_failures]
    return out


def audit_entry(name: str, path: str, base: str, samples: int, seed: int) -> CorpusRow:
    """One description audited engine against engine (the task the corpus runs)."""
    from dynval.comparisons.own_model.parity import parity_audit

    start = time.perf_counter()
    row = CorpusRow(name, base=base)
    try:
        audit = parity_audit(Path(path), samples, seed, base=None if path.endswith(".xml")
                             else base)
    except (DescriptionError, ModelError) as exc:
        row.error = str(exc).replace(str(Path(path).parent) + "/", "")
        row.seconds = time.perf_counter() - start
        return row
    row.reference = audit.label
    row.dof = audit.dof
    row.loaded = (audit.label, *audit.engines)
    row.refused = dict(audit.refused)
    for r in audit.results:
        term = "frames" if r.term.startswith(("p[", "J[")) else r.term
        if term in TERMS:
            per = row.worst.setdefault(r.reference, {})
            per[term] = max(per.get(term, 0.0), r.max_rel_error)
    row.l0 = "agrees" if not audit.l0_failures else "differs"
    judged = [r for r in audit.l3 if r["tolerance"] is not None]
    row.l3 = ("differs" if audit.l3_failures else "known" if audit.l3_known
              else "agrees" if judged else "not run")
    row.findings = list(audit.findings)
    row.readers = list(audit.readers)
    row.passed = audit.passed
    row.causes = [] if audit.passed else _causes(audit)
    row.seconds = time.perf_counter() - start
    return row


def select(sources: tuple[str, ...], subset: str | None) -> list[Entry]:
    """The entries of the sources, or the named subset ("ci") of them."""
    if subset is None:
        return entries(sources)
    if subset != "ci":
        raise DescriptionError(f"unknown corpus subset {subset!r}; known: ci")
    sources = tuple(dict.fromkeys(name.split("/", 1)[0] for name in CI_SUBSET))
    chosen = [e for e in entries(sources) if e.name in CI_SUBSET]
    if len(chosen) != len(CI_SUBSET):
        missing = sorted(set(CI_SUBSET) - {e.name for e in chosen})
        raise DescriptionError(f"the ci subset names {missing[0]}, which is not installed")
    return chosen


def run(chosen: list[Entry], samples: int, seed: int, workers: int, cache_dir: Path | None,
        report=None) -> list[CorpusRow]:
    """Audit every chosen description as one task each (the results cache keyed by the
    file's content and dynval's source), on ``workers`` processes; rows in entry order."""
    from dynval.comparisons.run.tasks import Task, execute

    tasks = [Task(e.name, "corpus", audit_entry, (e.name, str(e.path), e.base, samples, seed),
                  inputs=(e.path,)) for e in chosen]
    outcomes = execute(tasks, workers, cache_dir=cache_dir, report=report)
    rows = []
    for e in chosen:
        o = outcomes[e.name]
        rows.append(o.value if o.error is None else CorpusRow(
            e.name, base=e.base, error=f"dynval failed on it ({type(o.error).__name__}: "
                                       f"{o.error}): a fault of dynval's, not of the file"))
    return rows


def write_tables(out: Path, rows: list[CorpusRow], broken: list, page: str,
                 docs: Path | None = None) -> list[Path]:
    """corpus.json (every row and broken variant) and corpus.md (``page``) in ``out``, and
    the page at ``docs`` too where given; the files written."""
    import json
    from dataclasses import asdict

    out.mkdir(parents=True, exist_ok=True)
    (out / "corpus.json").write_text(json.dumps(
        {"descriptions": [asdict(r) for r in rows], "variants": [asdict(r) for r in broken]},
        indent=1, default=str))
    pages = [p for p in (out / "corpus.md", docs) if p is not None]
    for path in pages:
        path.write_text(page)
    return pages
