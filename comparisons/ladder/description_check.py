"""L0 for any robot: the MJCF, the URDF and the parameter set agree (masses,
inertias, joint axes, limits), and every file loads in MuJoCo, PyBullet and Pinocchio.

The engines' side is plain data from the adapters (``dynval.engines.load_description``); this
module only compares it with the description."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from dynval.engines import load_description
from dynval.engines.base import JOINT_UNITS
from dynval.robots.description import Description, Inertial

ROUND_OFF = 1e-12  # the files store repr() of the same doubles
# Bullet turns a full inertia into principal moments and axes by Jacobi iteration, which
# stops short of round-off; its inertia is compared relative to the largest moment.
BULLET_DIAGONALISE = 1e-8


def check_description(desc: Description, desc_dir: Path) -> list[dict]:
    """One row per (file, engine, quantity) with the largest mismatch and a verdict.

    Each engine is compared on the links it keeps an inertial for (PyBullet drops a fixed
    base's; Pinocchio carries one per joint) and on every limited joint; joint limits get
    one row per unit of the description's limited joints (rad for revolute, m for
    prismatic)."""
    mjcf = desc_dir / f"{desc.name}.xml" if "mjcf" in desc.formats else None
    facts = load_description(mjcf, desc_dir / f"{desc.name}.urdf",
                             floating=desc.links[0].joint == "free")
    engines = tuple(facts)
    inertials = {e: f.link_inertials() for e, f in facts.items()}
    axes = {e: f.joint_axes() for e, f in facts.items()}
    limits = {e: f.joint_limits() for e, f in facts.items()}
    moving = [lk for lk in desc.links if lk.joint in JOINT_UNITS]
    limited = {JOINT_UNITS[lk.joint] for lk in moving if lk.limit is not None}
    units = [u for u in ("rad", "m") if u in limited]
    units = units or ["rad"]  # a tree without limits still reports its (empty) limit check

    lumped = _lumped_into_joints(desc)
    mass_err = dict.fromkeys(engines, 0.0)
    inertia_err = dict.fromkeys(engines, 0.0)
    axis_err = dict.fromkeys(engines, 0.0)
    limit_err = {(e, u): 0.0 for e in engines for u in units}
    for link in desc.links:
        if link.inertial is None:
            continue
        for e in engines:
            li = inertials[e].get(link.name)
            if li is None:
                continue
            own = lumped.get(link.name, link.inertial) if e == "pinocchio" else link.inertial
            m, com, I = own.mass, np.array(own.com), np.array(own.inertia)
            mass_err[e] = max(mass_err[e], abs(li.mass - m))
            I_err = np.max(np.abs(li.inertia - I))
            if e == "pybullet":  # relative to the largest moment (see BULLET_DIAGONALISE)
                I_err = I_err / max(float(np.max(np.abs(I))), 1e-300)
            inertia_err[e] = max(inertia_err[e], I_err, np.max(np.abs(li.com - com)))
    for link in moving:  # a joint the engine lacks, or of another type, never agrees
        for e in engines:
            axis = axes[e].get(link.joint_name)
            err = np.inf if axis is None else np.max(np.abs(axis - link.axis))
            axis_err[e] = max(axis_err[e], err)
            if link.limit is None:
                continue  # unlimited joint: MuJoCo stores no range, the URDF a wide one
            lim, unit = limits[e].get(link.joint_name), JOINT_UNITS[link.joint]
            err = (np.inf if lim is None or lim.unit != unit else
                   max(abs(lim.lower - link.limit[0]), abs(lim.upper - link.limit[1])))
            limit_err[e, unit] = max(limit_err[e, unit], err)

    rows: list[dict] = []

    def add(quantity: str, engine: str, err: float, tolerance: float = ROUND_OFF) -> None:
        rows.append({"file": desc.name, "engine": engine, "quantity": quantity,
                     "max_error": float(err), "tolerance": tolerance,
                     "passed": bool(err <= tolerance)})

    for e in engines:
        add("link masses [kg]", e, mass_err[e])
        if e == "pybullet":
            add("CoM [m] and inertia [relative]", e, inertia_err[e], BULLET_DIAGONALISE)
        else:
            add("CoM and inertia [m, kg m^2]", e, inertia_err[e])
        for u in units:
            add(f"joint limits [{u}]", e, limit_err[e, u])
    for e in engines:
        if e != "pinocchio":  # Pinocchio's axes are available but not yet a baseline row
            add("joint axes [-]", e, axis_err[e])
    if "mujoco" in facts:
        total = sum(lk.inertial.mass for lk in desc.links if lk.inertial is not None)
        add("total mass [kg]", "mujoco", abs(facts["mujoco"].total_mass() - total))
    return rows


def _lumped_into_joints(desc: Description) -> dict[str, Inertial]:
    """The inertial of each link on a revolute or prismatic joint with its welded (fixed-
    joint) children merged in, as Pinocchio carries it (one inertia per joint): masses
    added, centre of mass weighted, inertias moved to the common centre (parallel axes).
    Only links that have welded children with mass are listed."""
    out: dict[str, Inertial] = {}
    for link in desc.links:
        if link.joint not in JOINT_UNITS:
            continue
        parts = []  # (mass, com in link frame, inertia in link axes)
        stack = [(link, np.zeros(3), np.eye(3))]
        while stack:
            lk, p, R = stack.pop()
            if lk.inertial is not None and lk.inertial.mass > 0.0:
                parts.append((lk.inertial.mass, p + R @ np.array(lk.inertial.com),
                              R @ np.array(lk.inertial.inertia) @ R.T))
            for child in desc.children(lk.name):
                if child.joint == "fixed":
                    stack.append((child, p + R @ np.array(child.p_PJ),
                                  R @ np.array(child.R_PJ)))
        if len(parts) < 2:
            continue
        m = sum(a for a, _, _ in parts)
        c = sum(a * x for a, x, _ in parts) / m
        Ic = sum(I + a * (float(d @ d) * np.eye(3) - np.outer(d, d))
                 for a, x, I in parts for d in [x - c])
        out[link.name] = Inertial(m, tuple(c), tuple(map(tuple, Ic)))
    return out
