"""Engine adapters: MuJoCo, PyBullet, Pinocchio and Drake behind the protocols of
:mod:`dynval.engines.base` (a simulation, dynamics terms, description facts).
Nothing here imports a hand-rolled model; engines load description files by path."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dynval.engines.base import DescriptionFacts, DynamicsTerms

ENGINE_NAMES: tuple[str, ...] = ("mujoco", "pybullet", "drake")  # those that simulate
TERM_ENGINES: tuple[str, ...] = ("mujoco", "pybullet", "pinocchio", "drake")


class UnknownEngineError(KeyError):
    """An engine name that dynval does not know."""

    def __str__(self) -> str:
        return self.args[0]


class EngineInstabilityError(RuntimeError):
    """An engine reported that its simulation went unstable (and may have reset itself);
    ``time`` [s] is when, and ``partial`` the run up to then, where known."""

    def __init__(self, message: str, time: float | None = None,
                 partial: object | None = None) -> None:
        super().__init__(message)
        self.time, self.partial = time, partial


class DescriptionError(ValueError):
    """A description file that an engine cannot load or that is inconsistent."""


class EngineRefusalError(DescriptionError):
    """A description that one engine cannot represent although the file is sound (a
    limitation of that engine, such as MuJoCo's refusal of massless moving bodies): the
    engine is not checked, and that is no finding about the file."""


def check_engine(name: str, allowed: tuple[str, ...] = ENGINE_NAMES) -> str:
    """``name`` if it is one of ``allowed``, else an error saying what it can do instead."""
    if name in TERM_ENGINES and name not in allowed:
        raise UnknownEngineError(f"engine {name!r} computes dynamics terms only and cannot run "
                                 "a scenario; it serves 'dynval audit'")
    if name not in allowed:
        raise UnknownEngineError(f"unknown engine {name!r}; known engines: {', '.join(allowed)}")
    return name


def load_terms(mjcf: Path | str | None, urdf: Path | str,
               gravity: Sequence[float] = (0.0, 0.0, -9.81),
               joint_names: Sequence[str] | None = None,
               engines: Sequence[str] = TERM_ENGINES) -> dict[str, DynamicsTerms]:
    """The dynamics terms of one fixed-base robot in MuJoCo, PyBullet, Pinocchio and Drake
    (the papers' robots' audits, against the engines a user's description meets in
    ``dynval audit``), by engine name in the order of TERM_ENGINES: MuJoCo from the MJCF
    (left out when ``mjcf`` is None), the others from the URDF (Drake where pydrake is
    installed), all with the same gravity [m/s^2] and, when given, the same joint order;
    ``engines``: only these loaded (a caller that uses one loads one)."""
    from dynval.engines import drake_engine
    from dynval.engines.mujoco_engine import MujocoTerms
    from dynval.engines.pinocchio_engine import PinocchioTerms
    from dynval.engines.pybullet_engine import PybulletTerms

    terms: dict[str, DynamicsTerms] = {}
    if mjcf is not None and "mujoco" in engines:
        terms["mujoco"] = MujocoTerms(mjcf, gravity, joint_names=joint_names)
    if "pybullet" in engines:
        terms["pybullet"] = PybulletTerms(urdf, gravity, joint_names=joint_names)
    if "pinocchio" in engines:
        terms["pinocchio"] = PinocchioTerms(urdf, gravity, joint_names=joint_names)
    if "drake" in engines and drake_engine.available():
        terms["drake"] = drake_engine.DrakeTerms(urdf, gravity, joint_names=joint_names)
    return terms


def load_description(mjcf: Path | str | None, urdf: Path | str,
                     floating: bool) -> dict[str, DescriptionFacts]:
    """What MuJoCo, PyBullet and Pinocchio made of one robot's description files, by engine
    name in the order of TERM_ENGINES (MuJoCo left out when ``mjcf`` is None).  Loading is
    itself the check that every file loads.  ``floating`` loads PyBullet's root as a free
    body, which keeps its inertial (PyBullet discards a fixed base's), and Pinocchio's on a
    free flyer (its URDF reader welds the root to the world otherwise)."""
    from dynval.engines.mujoco_engine import MujocoTerms
    from dynval.engines.pinocchio_engine import PinocchioTerms
    from dynval.engines.pybullet_engine import PybulletTerms

    facts: dict[str, DescriptionFacts] = {}
    if mjcf is not None:
        facts["mujoco"] = MujocoTerms(mjcf)
    facts["pybullet"] = PybulletTerms(urdf, floating=floating)
    facts["pinocchio"] = PinocchioTerms(urdf, floating=floating)
    return facts


def versions() -> dict[str, str]:
    """Installed engine versions, for the report cover and the cache keys: PyBullet's
    release as its package gives it (its module knows only a protocol date) with that
    date; Drake's as its package gives it (importing pydrake is not needed for that), where
    it is installed."""
    from importlib.metadata import PackageNotFoundError, version

    import mujoco
    import pinocchio
    import pybullet

    try:
        release = version("pybullet")
    except PackageNotFoundError:  # built from source without metadata
        release = "unknown release"
    out = {
        "mujoco": mujoco.__version__,
        "pybullet": f"{release} (API {pybullet.getAPIVersion()})",
        "pinocchio": pinocchio.__version__,
    }
    try:
        out["drake"] = version("drake")
    except PackageNotFoundError:  # not installed: the audits say so and go on without it
        pass
    return out
