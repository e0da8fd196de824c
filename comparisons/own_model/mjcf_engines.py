"""An MJCF given to the engines by MuJoCo's rules.

MuJoCo defines what an MJCF means, so Pinocchio and PyBullet are given the robot twice:
built from MuJoCo's compiled model (Pinocchio joint by joint, PyBullet through a URDF
written from it), which is what the audit compares, so that the *algorithms* are compared
on the same numbers; and through their own readers (Pinocchio's ``buildModelFromMJCF``,
PyBullet's ``loadMJCF``), whose differences from MuJoCo's reading are reader findings
(``Loaded.readers``), each naming the reader, the body and both values, and never a
fault of the file or of the user's model.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from dynval.engines import DescriptionError, EngineRefusalError

if TYPE_CHECKING:
    from dynval.comparisons.own_model.loading import Loaded

COMPILED_NOTE = ("Pinocchio, PyBullet and Drake are given MuJoCo's compiled model of the "
                 "MJCF (Pinocchio built joint by joint from it, PyBullet and Drake a URDF "
                 "written from it): "
                 "their algorithms are compared on MuJoCo's numbers; how their own MJCF "
                 "readers read the file is said in the reader findings")


def mjcf_makers(path: Path, names: list[str], gravity: Sequence[float], free: bool,
                limits: bool, makers: dict[str, Any], loaded: Loaded) -> None:
    """Replace ``makers``' Pinocchio, PyBullet and Drake with their builds from MuJoCo's compiled
    model, and put their readers' differences in ``loaded.readers``.  Where MuJoCo itself
    refuses the file there is no compiled model: Pinocchio reads the file alone and PyBullet
    is not run (dynval's decision, said)."""
    from dynval.engines.mjcf_readers import ask_readers
    from dynval.engines.mujoco_engine import load_model

    try:
        m = load_model(path)
    except DescriptionError:  # MuJoCo's refusal is recorded by its own maker
        for engine, name in (("pybullet", "PyBullet"), ("drake", "Drake")):
            _not_given(engine, f"dynval gives {name} an MJCF as MuJoCo compiles it, and "
                       "MuJoCo does not compile this one", makers, loaded)
        return
    loaded.readers += ask_readers(path, names)
    loaded.notes.append(COMPILED_NOTE)
    if m.ntendon:
        loaded.notes.append(f"the MJCF's tendons ({m.ntendon}) are switched off: they add no "
                            "body to the tree, and only MuJoCo models them")
    makers["pinocchio"] = _pinocchio(path, names, gravity, free, m)
    _urdf_engines(path, names, gravity, free, limits, makers, loaded, m)


def _pinocchio(path: Path, names: list[str], gravity: Sequence[float], free: bool, m: Any):
    from dynval.engines.pinocchio_from_mujoco import (
        PinocchioCompiled,
        PinocchioCompiledFreeRoot,
    )

    if free:
        return lambda: PinocchioCompiledFreeRoot(path, gravity, joint_names=names, mj_model=m)
    return lambda: PinocchioCompiled(path, gravity, joint_names=names, mj_model=m)


def _urdf_engines(path: Path, names: list[str], gravity: Sequence[float], free: bool,
                  limits: bool, makers: dict[str, Any], loaded: Loaded, m: Any) -> None:
    """PyBullet's and Drake's makers on the URDF written from the compiled model, or
    dynval's reason for not writing one."""
    from dynval.engines.description_files import _write_copy
    from dynval.engines.pybullet_engine import PybulletFreeRoot, PybulletTerms
    from dynval.engines.urdf_from_mujoco import body_links, urdf_text

    try:
        text = urdf_text(m, names, free)
    except EngineRefusalError as exc:
        for engine in ("pybullet", "drake"):
            _not_given(engine, str(exc), makers, loaded)
        return
    urdf = _write_copy(f"{path.stem}.from-mujoco.urdf", text.encode())
    links, left_out = body_links(m, names, free)
    if left_out:
        loaded.notes.append(f"PyBullet and Drake are given the robot's tree only: "
                            f"{', '.join(repr(b) for b in left_out)} (another tree) left out")
    makers["pybullet"] = _on_urdf("PyBullet", path, links, left_out, lambda: (
        PybulletFreeRoot(urdf, gravity, joint_names=names, limits=limits) if free
        else PybulletTerms(urdf, gravity, joint_names=names, rigid_body=True, limits=limits)))
    if "drake" in makers:  # its own MJCF reader follows neither defaults nor total masses
        from dynval.engines.drake_engine import DrakeTerms

        makers["drake"] = _on_urdf("Drake", path, links, left_out, lambda: DrakeTerms(
            urdf, gravity, joint_names=names, free_root=free))


def _not_given(engine: str, why: str, makers: dict[str, Any], loaded: Loaded) -> None:
    """dynval's decision not to run ``engine`` (where it is to run at all), said."""
    if engine in makers:
        loaded.refused[engine] = why
        loaded.decided.add(engine)
        del makers[engine]


def _on_urdf(engine_name: str, path: Path, links: dict[str, tuple[str, Any]],
             left_out: list[str], build: Any) -> Any:
    """The maker of an engine (``build``) on the URDF written from MuJoCo's compiled model
    of ``path``: its links read back as MuJoCo's bodies (:func:`in_body_frames`), and its
    refusal of that URDF said as dynval's file, not the user's."""

    def make() -> Any:
        try:
            engine = build()
        except DescriptionError as exc:  # the URDF is dynval's, not the user's file
            raise EngineRefusalError(f"{path}: {engine_name} does not load the URDF dynval "
                                     "writes from MuJoCo's model "
                                     f"({str(exc).split(': ', 1)[-1]})") from None
        read = engine.body_inertials
        engine.body_inertials = lambda: in_body_frames(read(), links)
        engine.left_out = tuple(left_out)
        return engine

    return make


def in_body_frames(inertials: dict[str, Any], links: dict[str, tuple[str, Any]]
                   ) -> dict[str, Any]:
    """PyBullet's moving links of the URDF written from MuJoCo's model as MuJoCo's bodies:
    each by the body's name, its inertia moved from the joint's frame to the body's
    (``links``: ``body_links``); the massless links between a body's joints left out."""
    from dynval.engines.base import LinkInertial

    out = {}
    for link, y in inertials.items():
        if link not in links:
            continue
        body, frame = links[link]
        R, p = frame.R, frame.p
        out[body] = LinkInertial(y.mass, R.T @ (np.asarray(y.com) - p),
                                 R.T @ np.asarray(y.inertia) @ R)
    return out
