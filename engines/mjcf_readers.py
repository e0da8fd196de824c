"""How Pinocchio's, PyBullet's and Drake's own MJCF readers read a file, against MuJoCo's
compiled model, which defines what an MJCF means.

Each reader is asked for what it made of the file: the mass each of its bodies carries
(welded bodies merged, as Pinocchio merges them), the bodies and joints it kept, and, for
Pinocchio, the mass matrix at one configuration (which shows an inertia from geometry,
a ``<compiler angle>`` or a joint ``ref`` read otherwise).  Every difference is one
sentence naming the reader, the body and both values ("Pinocchio's MJCF reader: body
'torso' mass 8 kg, MuJoCo 3.524 kg").  These are findings about the readers, not about the
file or the user's model: the engines' algorithms are compared on MuJoCo's numbers
(:mod:`dynval.engines.pinocchio_from_mujoco`).
"""

from __future__ import annotations

import functools
from pathlib import Path

import mujoco
import numpy as np

from dynval.engines import EngineRefusalError
from dynval.engines.mujoco_tree import body_name, joint_name

READER_TOL = 1e-9  # relative: two readings of one number differ by parsing round-off only
# relative: Bullet's MJCF importer computes a geom's mass from its volume in single
# precision (a capsule's 2.2787018714 kg read as 2.2787017935 kg, 3e-8), far below a
# mass read otherwise (a default class, a geom left out: tens of percent)
PB_MASS_TOL = 1e-6
MASS_SENTENCES = 8  # bodies named one by one; the rest counted, with the total mass
PIN = "Pinocchio's MJCF reader"
PB = "PyBullet's loadMJCF"
DRAKE = "Drake's MJCF reader"


def _mass_sentence(reader: str, bodies: list[str], theirs: float, mujocos: float) -> str:
    welded = f" (with {', '.join(repr(b) for b in bodies[1:])} welded to it)" \
        if len(bodies) > 1 else ""
    return (f"{reader}: body {bodies[0]!r}{welded} mass {theirs:.6g} kg, MuJoCo "
            f"{mujocos:.6g} kg")


def _differs(a: float, b: float, scale: float) -> bool:
    return abs(a - b) > READER_TOL * max(abs(scale), 1.0)


def pinocchio_reader(path: Path, m: mujoco.MjModel) -> list[str]:
    """What Pinocchio's MJCF reader reads otherwise than MuJoCo, one sentence each."""
    import pinocchio as pin

    from dynval.engines.mjcf_tree import pinocchio_body_names

    try:
        model = pin.buildModelFromMJCF(str(path))
    except (RuntimeError, ValueError) as exc:
        return [f"{PIN} refuses it ({' '.join(str(exc).split())})"]
    out: list[str] = []
    try:
        renamed = pinocchio_body_names(path)
    except EngineRefusalError as exc:
        out.append(str(exc).split(": ", 1)[-1])
        renamed = {}
    ids = {body_name(m, b): b for b in range(1, m.nbody)}
    seen: set[int] = set()
    masses: list[str] = []
    theirs = mine = 0.0
    for j in range(1, model.njoints):
        names = [renamed.get(f.name, f.name) for f in model.frames
                 if f.type == pin.FrameType.BODY and f.parentJoint == j]
        found = [ids[n] for n in names if n in ids]
        seen.update(found)
        mujocos = float(sum(m.body_mass[b] for b in found))
        theirs, mine = theirs + model.inertias[j].mass, mine + mujocos
        if names and _differs(model.inertias[j].mass, mujocos, mujocos):
            masses.append(_mass_sentence(PIN, names, float(model.inertias[j].mass), mujocos))
    out += masses[:MASS_SENTENCES]
    if len(masses) > MASS_SENTENCES:
        out.append(f"{PIN}: {len(masses) - MASS_SENTENCES} more bodies' masses differ; the "
                   f"moving bodies it keeps weigh {theirs:.6g} kg, MuJoCo {mine:.6g} kg")
    moving = [b for b in range(1, m.nbody) if _moves(m, b)]
    left_out = [body_name(m, b) for b in moving if b not in seen]
    if left_out:
        more = f" and {len(left_out) - 1} more" if len(left_out) > 1 else ""
        out.append(f"{PIN} leaves out body {left_out[0]!r}{more}, which MuJoCo moves "
                   "(it keeps one tree, the first under the world)")
    return out + _pinocchio_mass_matrix(model, m)


def _moves(m: mujoco.MjModel, b: int) -> bool:
    """Whether a joint moves body ``b`` (its own or an ancestor's)."""
    while b:
        if m.body_jntnum[b]:
            return True
        b = int(m.body_parentid[b])
    return False


def reader_configuration(m: mujoco.MjModel) -> np.ndarray:
    """The configuration the readers' mass matrices are compared at: MuJoCo's qpos0 with
    each hinge and slide moved by 0.1 (k + 1) of its index k, so that no term vanishes by
    symmetry."""
    q = m.qpos0.copy()
    for j in range(m.njnt):
        if int(m.jnt_type[j]) in (int(mujoco.mjtJoint.mjJNT_HINGE),
                                  int(mujoco.mjtJoint.mjJNT_SLIDE)):
            q[m.jnt_qposadr[j]] += 0.1 * (j % 7 + 1)
    return q


def _pinocchio_mass_matrix(model, m: mujoco.MjModel) -> list[str]:
    """The hinge and slide rows of M read by Pinocchio's reader against MuJoCo's, at
    :func:`reader_configuration`; a composite joint's coordinates are its body's joints."""
    import pinocchio as pin

    q_mj = reader_configuration(m)
    q = pin.neutral(model)
    rows_mj, rows_pin, labels = [], [], []
    for j in range(1, model.njoints):
        first = model.names[j].removeprefix("Composite_")
        jid = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_JOINT, first)
        if jid < 0:
            continue
        b = int(m.jnt_bodyid[jid])
        mine = list(range(m.body_jntadr[b], m.body_jntadr[b] + m.body_jntnum[b]))
        one_dof = [k for k in mine if int(m.jnt_type[k]) in (2, 3)]  # slide, hinge
        if len(one_dof) != len(mine) or model.joints[j].nq != len(mine):
            continue
        for i, k in enumerate(mine):
            q[model.joints[j].idx_q + i] = q_mj[m.jnt_qposadr[k]]
            rows_pin.append(model.joints[j].idx_v + i)
            rows_mj.append(int(m.jnt_dofadr[k]))
            labels.append(joint_name(m, k))
    if not rows_mj:
        return []
    d = mujoco.MjData(m)
    d.qpos[:] = q_mj
    mujoco.mj_forward(m, d)
    M_mj = np.zeros((m.nv, m.nv))
    mujoco.mj_fullM(m, d, M_mj)
    M_mj = M_mj[np.ix_(rows_mj, rows_mj)] + 0.0
    M_mj -= np.diag(m.dof_armature[rows_mj])
    M_pin = pin.crba(model, model.createData(), q)
    M_pin = np.triu(M_pin) + np.triu(M_pin, 1).T
    M_pin = M_pin[np.ix_(rows_pin, rows_pin)] - np.diag(model.armature[rows_pin])
    diff = np.abs(M_pin - M_mj)
    scale = float(np.max(np.abs(M_mj))) or 1.0
    if np.max(diff) <= READER_TOL * scale:
        return []
    r, c = np.unravel_index(int(np.argmax(diff)), diff.shape)
    return [f"{PIN}: the mass matrix differs from MuJoCo's by up to {np.max(diff) / scale:.2g} "
            f"of its largest entry (M[{labels[r]}, {labels[c]}] {M_pin[r, c]:.6g}, MuJoCo "
            f"{M_mj[r, c]:.6g}) at MuJoCo's qpos0 with each joint moved by 0.1-0.7"]


def pybullet_reader(path: Path, m: mujoco.MjModel, joints: list[str]) -> tuple[list[str], bool]:
    """What PyBullet's ``loadMJCF`` makes of the file, one sentence per difference from
    MuJoCo, and whether it built the tree of ``joints`` (the audited joints) as one
    multibody holding all of them."""
    import pybullet

    from dynval.engines.pybullet_client import _quiet

    with _quiet():
        client = pybullet.connect(pybullet.DIRECT)
    try:
        try:
            with _quiet():
                bodies = pybullet.loadMJCF(str(path), physicsClientId=client)
        except pybullet.error as exc:
            return [f"{PB} refuses it ({exc})"], False
        return _pybullet_bodies(client, bodies, m, joints)
    finally:
        pybullet.disconnect(client)


def _pybullet_bodies(client: int, bodies, m: mujoco.MjModel,
                     joints: list[str]) -> tuple[list[str], bool]:
    import pybullet as p

    out: list[str] = []
    holder: dict[str, int] = {}
    masses: dict[str, float] = {}
    for k, body in enumerate(bodies):
        masses[p.getBodyInfo(body, physicsClientId=client)[0].decode()] = \
            p.getDynamicsInfo(body, -1, physicsClientId=client)[0]
        for j in range(p.getNumJoints(body, physicsClientId=client)):
            info = p.getJointInfo(body, j, physicsClientId=client)
            link = info[12].decode()  # a body's several joints: links of one name
            masses[link] = masses.get(link, 0.0) + \
                p.getDynamicsInfo(body, j, physicsClientId=client)[0]
            if info[2] != p.JOINT_FIXED:
                holder[info[1].decode()] = k
    missing = [n for n in joints if n not in holder]
    if missing:
        out.append(f"{PB} leaves out joint {missing[0]!r}"
                   + (f" and {len(missing) - 1} more" if len(missing) > 1 else ""))
    split = {holder[n] for n in joints if n in holder}
    if len(split) > 1:
        out.append(f"{PB} split the file into {len(bodies)} multibodies, the audited joints "
                   f"among {len(split)} of them")
    differ = [(name, masses[name], float(m.body_mass[b])) for b in range(1, m.nbody)
              if (name := body_name(m, b)) in masses and abs(masses[name] - m.body_mass[b])
              > PB_MASS_TOL * max(float(m.body_mass[b]), 1.0)]
    out += [_mass_sentence(PB, [n], a, b) for n, a, b in differ[:MASS_SENTENCES]]
    if len(differ) > MASS_SENTENCES:
        out.append(f"{PB}: {len(differ) - MASS_SENTENCES} more bodies' masses differ")
    return out, not missing and len(split) <= 1


def drake_reader(path: Path, m: mujoco.MjModel) -> list[str]:
    """What Drake's own MJCF parser reads otherwise than MuJoCo: each body's mass, by the
    file's body names (the massless bodies Drake adds between a body's several joints have
    no counterpart and are left out), one sentence per body that differs."""
    from dynval.engines import DescriptionError
    from dynval.engines.drake_engine import _read

    try:
        plant, _, _ = _read(path, free_root=False)
    except (RuntimeError, ValueError, DescriptionError) as exc:
        return [f"{DRAKE} refuses it ({' '.join(str(exc).split())})"]
    theirs = {n: float(plant.GetBodyByName(n).default_mass()) for n in _body_names(plant)}
    differ = [(name, theirs[name], float(m.body_mass[b])) for b in range(1, m.nbody)
              if (name := body_name(m, b)) in theirs
              and _differs(theirs[name], float(m.body_mass[b]), float(m.body_mass[b]))]
    out = [_mass_sentence(DRAKE, [n], a, b) for n, a, b in differ[:MASS_SENTENCES]]
    if len(differ) > MASS_SENTENCES:
        out.append(f"{DRAKE}: {len(differ) - MASS_SENTENCES} more bodies' masses differ")
    return out


def _body_names(plant) -> list[str]:
    """The names of a Drake plant's bodies other than the world, each once (a name two
    model instances share is ambiguous and left out)."""
    from dynval.engines.drake_engine import bodies

    names = [body.name() for body in bodies(plant)]
    return [n for n in names if names.count(n) == 1]


READER_SECONDS = 300  # a reader that has not answered by then is said to hang


def ask_readers(path: Path, joints: list[str]) -> list[str]:
    """The readers' differences from MuJoCo (:func:`_asked`), asked once per file version
    in a process: the corpus audits ten mutants of each file, and a reader's answer
    depends on the file alone."""
    st = Path(path).stat()
    return list(_asked(str(path), st.st_size, st.st_mtime_ns, tuple(joints)))


@functools.lru_cache(maxsize=64)
def _asked(path: str, size: int, mtime_ns: int, joints: tuple[str, ...]) -> tuple[str, ...]:
    """The readers' differences from MuJoCo (Drake's where it is installed), each reader
    asked in a process of its own: a reader that aborts (Pinocchio's and Bullet's parsers
    stop the process on some files) or hangs is said to, and the audit goes on."""
    from dynval.engines.drake_engine import available
    from dynval.engines.reader_process import ask

    out: list[str] = []
    readers = [("pinocchio", PIN), ("pybullet", PB)] + ([("drake", DRAKE)] if available()
                                                        else [])
    for reader, label in readers:
        said, failed = ask(__name__, [reader, str(path), *joints], label, READER_SECONDS)
        out += [failed] if failed else said
    return tuple(out)


def _main(argv: list[str]) -> None:
    """``python -m dynval.engines.mjcf_readers READER FILE JOINT...``: the reader's
    sentences as one JSON line."""
    import json

    from dynval.engines.mujoco_engine import load_model

    reader, path, joints = argv[0], Path(argv[1]), argv[2:]
    m = load_model(path)
    said = (pinocchio_reader(path, m) if reader == "pinocchio" else drake_reader(path, m)
            if reader == "drake" else pybullet_reader(path, m, joints)[0])
    print(json.dumps(said), flush=True)


if __name__ == "__main__":
    import sys

    _main(sys.argv[1:])
