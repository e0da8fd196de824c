"""L0 for any robot: the MJCF, the URDF and the parameter set agree (masses,
inertias, joint axes, limits), and every file loads in MuJoCo, PyBullet and Pinocchio."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from robots.description import Description

ROUND_OFF = 1e-12  # the files store repr() of the same doubles


def check_description(desc: Description, desc_dir: Path) -> list[dict]:
    """One row per (file, engine, quantity) with the largest mismatch and a verdict."""
    import mujoco
    import pinocchio as pin

    from engines.mujoco_engine import load_model
    from engines.pybullet_engine import _Client

    rows: list[dict] = []
    mj = load_model(desc_dir / f"{desc.name}.xml")
    floating = desc.links[0].joint == "free"
    pb = _Client(desc_dir / f"{desc.name}.urdf", fixed=not floating, gravity=np.zeros(3))
    pn = pin.buildModelFromUrdf(str(desc_dir / f"{desc.name}.urdf"))

    def add(quantity, engine, err):
        rows.append(
            {
                "file": desc.name,
                "engine": engine,
                "quantity": quantity,
                "max_error": float(err),
                "tolerance": ROUND_OFF,
                "passed": bool(err <= ROUND_OFF),
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
        b = mujoco.mj_name2id(mj, mujoco.mjtObj.mjOBJ_BODY, link.name)
        R_iq = np.zeros(9)
        mujoco.mju_quat2Mat(R_iq, mj.body_iquat[b])
        R_iq = R_iq.reshape(3, 3)
        I_mj = R_iq @ np.diag(mj.body_inertia[b]) @ R_iq.T
        mass_err["mujoco"] = max(mass_err["mujoco"], abs(mj.body_mass[b] - m))
        inertia_err["mujoco"] = max(
            inertia_err["mujoco"], np.max(np.abs(I_mj - I)), np.max(np.abs(mj.body_ipos[b] - com))
        )
        info = pb.client.getDynamicsInfo(pb.body, pb.link(link.name))
        mass_err["pybullet"] = max(mass_err["pybullet"], abs(info[0] - m))
        inertia_err["pybullet"] = max(
            inertia_err["pybullet"],
            np.max(np.abs(np.array(info[2]) - np.diag(I))),
            np.max(np.abs(np.array(info[3]) - com)),
        )
        if link.joint in ("revolute", "prismatic"):
            j = pn.getJointId(link.joint_name)
            inert = pn.inertias[j]
            mass_err["pinocchio"] = max(mass_err["pinocchio"], abs(inert.mass - m))
            inertia_err["pinocchio"] = max(
                inertia_err["pinocchio"],
                np.max(np.abs(inert.inertia - I)),
                np.max(np.abs(inert.lever - com)),
            )
            jm = mujoco.mj_name2id(mj, mujoco.mjtObj.mjOBJ_JOINT, link.joint_name)
            axis_err["mujoco"] = max(
                axis_err["mujoco"], np.max(np.abs(mj.jnt_axis[jm] - link.axis))
            )
            ji = pb.client.getJointInfo(pb.body, pb.joint_index[link.joint_name])
            axis_err["pybullet"] = max(
                axis_err["pybullet"], np.max(np.abs(np.array(ji[13]) - link.axis))
            )
            if link.limit is None:
                continue  # unlimited joint: MuJoCo stores no range, the URDF a wide one
            limit_err["mujoco"] = max(
                limit_err["mujoco"], np.max(np.abs(mj.jnt_range[jm] - np.array(link.limit)))
            )
            limit_err["pybullet"] = max(
                limit_err["pybullet"], abs(ji[8] - link.limit[0]), abs(ji[9] - link.limit[1])
            )
            lo = pn.lowerPositionLimit[pn.joints[j].idx_q]
            hi = pn.upperPositionLimit[pn.joints[j].idx_q]
            limit_err["pinocchio"] = max(
                limit_err["pinocchio"], abs(lo - link.limit[0]), abs(hi - link.limit[1])
            )
    total = sum(lk.inertial.mass for lk in desc.links if lk.inertial is not None)
    for engine in ("mujoco", "pybullet", "pinocchio"):
        add("link masses [kg]", engine, mass_err[engine])
        add("CoM and inertia [m, kg m^2]", engine, inertia_err[engine])
        add("joint limits [rad]", engine, limit_err[engine])
    add("joint axes [-]", "mujoco", axis_err["mujoco"])
    add("joint axes [-]", "pybullet", axis_err["pybullet"])
    add("total mass [kg]", "mujoco", abs(float(np.sum(mj.body_mass)) - total))
    return rows
