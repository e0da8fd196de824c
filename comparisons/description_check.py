"""L0 for any robot: the MJCF, the URDF and the parameter set agree (masses,
inertias, joint axes, limits), and every file loads in MuJoCo, PyBullet and Pinocchio."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from robots.description import Description

ROUND_OFF = 1e-12  # the files store repr() of the same doubles
# Bullet turns a full inertia into principal moments and axes by Jacobi iteration, which
# stops short of round-off; its inertia is compared relative to the largest moment.
BULLET_DIAGONALISE = 1e-8


def check_description(desc: Description, desc_dir: Path) -> list[dict]:
    """One row per (file, engine, quantity) with the largest mismatch and a verdict."""
    import mujoco
    import pinocchio as pin

    from engines.mujoco_engine import load_model, quat_to_R
    from engines.pybullet_engine import _Client

    rows: list[dict] = []
    has_mjcf = "mjcf" in desc.formats
    mj = load_model(desc_dir / f"{desc.name}.xml") if has_mjcf else None
    floating = desc.links[0].joint == "free"
    pb = _Client(desc_dir / f"{desc.name}.urdf", fixed=not floating, gravity=np.zeros(3))
    pn = pin.buildModelFromUrdf(str(desc_dir / f"{desc.name}.urdf"))

    def add(quantity, engine, err, tolerance=ROUND_OFF):
        rows.append(
            {
                "file": desc.name,
                "engine": engine,
                "quantity": quantity,
                "max_error": float(err),
                "tolerance": tolerance,
                "passed": bool(err <= tolerance),
            }
        )

    mass_err = {"mujoco": 0.0, "pybullet": 0.0, "pinocchio": 0.0}
    inertia_err = dict(mass_err)
    axis_err = {"mujoco": 0.0, "pinocchio": 0.0, "pybullet": 0.0}
    limit_err = dict(axis_err)
    for link in desc.links:
        if link.inertial is None:
            continue
        m, com, I = link.inertial.mass, np.array(link.inertial.com), np.array(link.inertial.inertia)
        if mj is not None:
            b = mujoco.mj_name2id(mj, mujoco.mjtObj.mjOBJ_BODY, link.name)
            I_mj = _principal_to_full(mj.body_inertia[b], quat_to_R(mj.body_iquat[b]))
            mass_err["mujoco"] = max(mass_err["mujoco"], abs(mj.body_mass[b] - m))
            inertia_err["mujoco"] = max(inertia_err["mujoco"], np.max(np.abs(I_mj - I)),
                                        np.max(np.abs(mj.body_ipos[b] - com)))
        if link.parent is not None or floating:  # PyBullet zeroes a fixed base's mass
            info = pb.client.getDynamicsInfo(pb.body, pb.link(link.name))
            x, y, z, w = info[4]  # PyBullet keeps principal moments and their frame
            I_pb = _principal_to_full(info[2], quat_to_R([w, x, y, z]))
            mass_err["pybullet"] = max(mass_err["pybullet"], abs(info[0] - m))
            scale = max(float(np.max(np.abs(I))), 1e-300)
            inertia_err["pybullet"] = max(inertia_err["pybullet"],
                                          np.max(np.abs(I_pb - I)) / scale,
                                          np.max(np.abs(np.array(info[3]) - com)))
        if link.joint in ("revolute", "prismatic"):
            j = pn.getJointId(link.joint_name)
            inert = pn.inertias[j]
            mass_err["pinocchio"] = max(mass_err["pinocchio"], abs(inert.mass - m))
            inertia_err["pinocchio"] = max(
                inertia_err["pinocchio"],
                np.max(np.abs(inert.inertia - I)),
                np.max(np.abs(inert.lever - com)),
            )
            jm = (mujoco.mj_name2id(mj, mujoco.mjtObj.mjOBJ_JOINT, link.joint_name)
                  if mj is not None else -1)
            if mj is not None:
                axis_err["mujoco"] = max(axis_err["mujoco"],
                                         np.max(np.abs(mj.jnt_axis[jm] - link.axis)))
            ji = pb.client.getJointInfo(pb.body, pb.joint_index[link.joint_name])
            x, y, z, w = pb.client.getDynamicsInfo(pb.body, pb.link(link.name))[4]
            axis_pb = quat_to_R([w, x, y, z]) @ np.array(ji[13])  # given in the CoM frame
            axis_err["pybullet"] = max(axis_err["pybullet"],
                                       np.max(np.abs(axis_pb - link.axis)))
            if link.limit is None:
                continue  # unlimited joint: MuJoCo stores no range, the URDF a wide one
            if mj is not None:
                limit_err["mujoco"] = max(limit_err["mujoco"],
                                          np.max(np.abs(mj.jnt_range[jm] - np.array(link.limit))))
            limit_err["pybullet"] = max(
                limit_err["pybullet"], abs(ji[8] - link.limit[0]), abs(ji[9] - link.limit[1])
            )
            lo = pn.lowerPositionLimit[pn.joints[j].idx_q]
            hi = pn.upperPositionLimit[pn.joints[j].idx_q]
            limit_err["pinocchio"] = max(
                limit_err["pinocchio"], abs(lo - link.limit[0]), abs(hi - link.limit[1])
            )
    total = sum(lk.inertial.mass for lk in desc.links if lk.inertial is not None)
    engines = ("mujoco", "pybullet", "pinocchio") if has_mjcf else ("pybullet", "pinocchio")
    for engine in engines:
        add("link masses [kg]", engine, mass_err[engine])
        if engine == "pybullet":
            add("CoM [m] and inertia [relative]", engine, inertia_err[engine],
                BULLET_DIAGONALISE)
        else:
            add("CoM and inertia [m, kg m^2]", engine, inertia_err[engine])
        add("joint limits [rad]", engine, limit_err[engine])
    for engine in engines[:-1]:
        add("joint axes [-]", engine, axis_err[engine])
    if mj is not None:
        add("total mass [kg]", "mujoco", abs(float(np.sum(mj.body_mass)) - total))
    return rows


def _principal_to_full(moments, R: np.ndarray) -> np.ndarray:
    """Inertia in link axes from principal moments and the principal frame R."""
    return R @ np.diag(moments) @ R.T
