"""L0 of a robot with a parameter set: every engine's reading of each description file
held to the parameter set the file was written from, by the one L0 a user's description
gets (own_model.l0), with the parameter set as the reference reading.

The parameter set is read here as an engine reads the file (:class:`ParameterSet`: each
moving body with the links welded to it merged, each joint's axis and limits), so the
same rows compare it with MuJoCo's reading of the MJCF and PyBullet's and Pinocchio's of
the URDF; every file loading in every engine is itself part of the check."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from dynval.comparisons.own_model.l0 import l0_rows, limit_rows
from dynval.engines import load_description
from dynval.engines.base import JOINT_UNITS, JointLimit, LinkInertial, composite_inertial
from dynval.robots.description import Description, Link

PARAMETERS = "parameters"  # the reference reading's name in the rows ("mujoco vs parameters")
REASON = ("a file against the parameter set it was written from (repr() of the same "
          "doubles): parsing round-off, relative to the body")


class ParameterSet:
    """A description's parameter set as an engine reads the file written from it
    (engines.base.DescriptionFacts): the bodies, axes and limits the files must hold."""

    def __init__(self, desc: Description) -> None:
        self.desc = desc
        self.moving = [lk for lk in desc.links if lk.joint in (*JOINT_UNITS, "free")]

    def body_inertials(self) -> dict[str, LinkInertial]:
        """Each moving link with every link welded to it (fixed joints, recursively),
        merged in the link's frame."""
        return {link.name: composite_inertial(self._welded_parts(link), np.zeros(3), np.eye(3))
                for link in self.moving}

    def _welded_parts(self, link: Link) -> list[tuple[float, np.ndarray, np.ndarray]]:
        """(mass, centre, inertia about it) of ``link`` and each link welded to it, in
        ``link``'s frame."""
        parts, stack = [], [(link, np.zeros(3), np.eye(3))]
        while stack:
            lk, p, R = stack.pop()
            if lk.inertial is not None:
                parts.append((lk.inertial.mass, p + R @ np.array(lk.inertial.com),
                              R @ np.array(lk.inertial.inertia) @ R.T))
            stack += [(child, p + R @ np.array(child.p_PJ), R @ np.array(child.R_PJ))
                      for child in self.desc.children(lk.name) if child.joint == "fixed"]
        return parts

    def joint_axes(self) -> dict[str, np.ndarray]:
        return {lk.joint_name: np.array(lk.axis, dtype=float) for lk in self.moving
                if lk.joint in JOINT_UNITS}

    def joint_limits(self) -> dict[str, JointLimit]:
        unlimited = (-np.inf, np.inf)
        return {lk.joint_name: JointLimit(*(lk.limit or unlimited), JOINT_UNITS[lk.joint])
                for lk in self.moving if lk.joint in JOINT_UNITS}


def description_rows(desc: Description, desc_dir: Path) -> list[dict]:
    """One row per (file, engine, body or joint, quantity): MuJoCo's reading of
    ``<name>.xml`` (where the description has an MJCF) and PyBullet's and Pinocchio's of
    ``<name>.urdf``, each against the parameter set."""
    mjcf = desc_dir / f"{desc.name}.xml" if "mjcf" in desc.formats else None
    readings = {PARAMETERS: ParameterSet(desc),
                **load_description(mjcf, desc_dir / f"{desc.name}.urdf",
                                   floating=desc.links[0].joint == "free")}
    return (l0_rows(desc.name, readings, PARAMETERS, REASON)
            + limit_rows(desc.name, readings, PARAMETERS, REASON))
