"""An SDF given to the engines through Drake's reading of it.

Drake is the one engine here that reads SDF whole (MuJoCo has no SDF reader, this
Pinocchio is built without SDFormat, and PyBullet's ``loadSDF`` wants joint limits and no
joint to the world, which plain model files rarely give).  MuJoCo, PyBullet and Pinocchio
are given the URDF written from Drake's plant (:mod:`dynval.engines.urdf_from_drake`), so
their algorithms are compared with Drake's on Drake's numbers; what Drake's parser says of
the file (its inertia checks) stays Drake's finding, and how PyBullet's own ``loadSDF``
reads it (its refusal in its words, a link left out, a mass read otherwise) is a reader
finding (:mod:`dynval.engines.sdf_readers`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dynval.engines import DescriptionError, EngineRefusalError

if TYPE_CHECKING:
    from dynval.comparisons.own_model.loading import Loaded

SDF_NOTE = ("MuJoCo, PyBullet and Pinocchio are given Drake's reading of the SDF (a URDF "
            "written from Drake's plant: its bodies, inertias and joints): their algorithms "
            "are compared with Drake's on Drake's numbers")


def sdf_makers(path: Path, names: list[str], gravity: Sequence[float], free: bool,
               limits: bool, makers: dict[str, Any], loaded: Loaded) -> None:
    """Replace ``makers``' MuJoCo, PyBullet and Pinocchio with their builds on the URDF of
    Drake's reading, or say dynval's reason for not writing one (Drake refusing the file
    is recorded by Drake's own maker)."""
    from dynval.engines.description_files import _write_copy
    from dynval.engines.mujoco_engine import MujocoTerms
    from dynval.engines.pinocchio_engine import PinocchioFreeRoot, PinocchioTerms
    from dynval.engines.pybullet_engine import PybulletFreeRoot, PybulletTerms
    from dynval.engines.urdf_from_drake import sdf_urdf

    others = ("mujoco", "pybullet", "pinocchio")
    try:
        urdf = _write_copy(f"{path.stem}.from-drake.urdf", sdf_urdf(path, free).encode())
    except (DescriptionError, RuntimeError, ValueError) as exc:
        why = str(exc).split(": ", 1)[-1]
        why = why if isinstance(exc, EngineRefusalError) else \
            f"Drake does not read this one ({why})"
        for engine in others:
            if engine in makers:
                loaded.refused[engine] = f"dynval gives it an SDF as Drake reads it, and {why}"
                loaded.decided.add(engine)
                del makers[engine]
        return
    loaded.notes.append(SDF_NOTE)
    if "pybullet" in makers:  # PyBullet's own SDF reader asked too, a reader finding
        from dynval.engines.drake_engine import body_masses
        from dynval.engines.sdf_readers import ask_pybullet

        loaded.readers += ask_pybullet(path, body_masses(path))
    builds = {
        "mujoco": lambda: MujocoTerms(urdf, gravity, joint_names=names, free_root=free,
                                      rigid_body=True, limits=limits),
        "pybullet": (lambda: PybulletFreeRoot(urdf, gravity, joint_names=names,
                                              limits=limits)) if free
        else (lambda: PybulletTerms(urdf, gravity, joint_names=names, rigid_body=True,
                                    limits=limits)),
        "pinocchio": (lambda: PinocchioFreeRoot(urdf, gravity, joint_names=names)) if free
        else (lambda: PinocchioTerms(urdf, gravity, joint_names=names, rigid_body=True)),
    }
    for engine, build in builds.items():
        makers[engine] = _dynvals_file(engine, path, build)


def _dynvals_file(engine: str, path: Path, build: Any) -> Any:
    """The maker of ``engine`` on dynval's URDF: its refusal said as dynval's file's."""

    def make() -> Any:
        try:
            return build()
        except DescriptionError as exc:
            raise EngineRefusalError(f"{path}: {engine} does not load the URDF dynval writes "
                                     f"from Drake's reading ({str(exc).split(': ', 1)[-1]})"
                                     ) from None

    return make
