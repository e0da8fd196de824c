"""How PyBullet's own SDF reader (``loadSDF``) reads a file, against Drake's reading,
which the SDF audit takes as what the file means (:mod:`dynval.comparisons.own_model.
sdf_engines`): PyBullet is asked, not presumed.

PyBullet's SDF importer is its URDF importer reading SDF: it wants a limit on every
revolute and prismatic joint, and a joint's parent among the model's links (``world`` is
not one), which plain model files rarely give; it says why it refuses on a C stream,
which is read here and quoted. Where it loads the file, each link's mass is compared with
Drake's, one sentence per link that differs ("PyBullet's loadSDF: link 'upper' mass
1 kg, Drake 1.5 kg"). These are findings about the reader, not about the file: the
engines' algorithms are compared on Drake's numbers. The reader runs in a process of its
own (Bullet's parsers stop the process on some files)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

PB_SDF = "PyBullet's loadSDF"
READER_SECONDS = 60  # a reader that has not answered by then is said to hang
MASS_TOL = 1e-6  # relative: Bullet keeps masses in single precision in places


@contextlib.contextmanager
def _c_output(said: list[str]) -> Iterator[None]:
    """What PyBullet prints on its C stream (file descriptor 1) meanwhile, kept."""
    fd = os.dup(1)
    with tempfile.TemporaryFile(mode="w+b") as f:
        os.dup2(f.fileno(), 1)
        try:
            yield
        finally:
            os.dup2(fd, 1)
            os.close(fd)
            f.seek(0)
            said.append(f.read().decode(errors="replace"))


def _errors(printed: str) -> list[str]:
    """The messages of PyBullet's b3Error lines, in order."""
    parts = re.split(r"(b3(?:Error|Warning)\[[^\]]*\]:\n)", printed)
    return [" ".join(text.split()) for marker, text in zip(parts[1::2], parts[2::2],
                                                             strict=True)
            if marker.startswith("b3Error") and text.strip()]


def pybullet_sdf_masses(path: Path) -> dict[str, float] | str:
    """Each link's mass as PyBullet's loadSDF reads the file, by link name, or why it
    refuses the file (its own words)."""
    import pybullet

    printed: list[str] = []
    client = pybullet.connect(pybullet.DIRECT)
    try:
        try:
            with _c_output(printed):
                bodies = pybullet.loadSDF(str(path), physicsClientId=client)
        except pybullet.error as exc:
            why = "; ".join(_errors(printed[0] if printed else "")) or str(exc)
            return f"{PB_SDF} refuses it: {why}"
        masses: dict[str, float] = {}
        for body in bodies:
            name = pybullet.getBodyInfo(body, physicsClientId=client)[0].decode()
            masses[name] = pybullet.getDynamicsInfo(body, -1, physicsClientId=client)[0]
            for j in range(pybullet.getNumJoints(body, physicsClientId=client)):
                link = pybullet.getJointInfo(body, j, physicsClientId=client)[12].decode()
                masses[link] = pybullet.getDynamicsInfo(body, j, physicsClientId=client)[0]
        return masses
    finally:
        pybullet.disconnect(client)


def compared(theirs: dict[str, float] | str, drakes: dict[str, float]) -> list[str]:
    """One sentence per difference of PyBullet's reading from Drake's: its refusal, a
    link it leaves out, a link whose mass it reads otherwise."""
    if isinstance(theirs, str):
        return [theirs]
    out = []
    missing = [name for name in drakes if name not in theirs]
    if missing:
        out.append(f"{PB_SDF} leaves out link {missing[0]!r}"
                   + (f" and {len(missing) - 1} more" if len(missing) > 1 else ""))
    out += [f"{PB_SDF}: link {name!r} mass {theirs[name]:.6g} kg, Drake {mass:.6g} kg"
            for name, mass in drakes.items()
            if name in theirs and abs(theirs[name] - mass) > MASS_TOL * max(mass, 1.0)]
    return out


def ask_pybullet(path: Path, drakes: dict[str, float]) -> list[str]:
    """PyBullet's reading of an SDF against Drake's link masses, asked in a process of its
    own: a reader that stops the process or hangs is said to, and the audit goes on."""
    from dynval.engines.reader_process import ask

    theirs, failed = ask(__name__, [str(path)], PB_SDF, READER_SECONDS)
    return [failed] if failed else compared(theirs, drakes)


if __name__ == "__main__":
    print(json.dumps(pybullet_sdf_masses(Path(sys.argv[1]))), flush=True)
