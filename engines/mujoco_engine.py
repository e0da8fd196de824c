"""MuJoCo adapter: floating-base simulation and dynamics terms from an MJCF file.

Conventions handled here: free-joint qpos is (p, quat wxyz), qvel is (v world,
omega *body*); point forces go in through mj_applyFT; joint torques through
qfrc_applied (no actuators, so no actuator dynamics).
"""

from __future__ import annotations

from pathlib import Path

import mujoco
import numpy as np

from engines import DescriptionError
from engines.base import FloatingState, Ground, PointForce


def load_model(path: Path | str) -> mujoco.MjModel:
    """Compile an MJCF file, turning MuJoCo's errors into a DescriptionError."""
    try:
        return mujoco.MjModel.from_xml_path(str(path))
    except (ValueError, FileNotFoundError) as exc:
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise DescriptionError(f"{path}: MuJoCo cannot load this MJCF ({msg})") from None


def quat_to_R(q: np.ndarray) -> np.ndarray:
    R = np.zeros(9)
    mujoco.mju_quat2Mat(R, np.asarray(q, dtype=float))
    return R.reshape(3, 3)


def R_to_quat(R: np.ndarray) -> np.ndarray:
    q = np.zeros(4)
    mujoco.mju_mat2Quat(q, np.asarray(R, dtype=float).reshape(9))
    return q


class MujocoSimulation:
    """Time-stepping a floating tree with joint torques and point forces."""

    name = "mujoco"

    def __init__(self, path: Path | str, joint_names: list[str], dt: float,
                 ground: Ground | None = None) -> None:
        self.model = load_model(path)
        self.model.opt.timestep = dt
        self.data = mujoco.MjData(self.model)
        self.dt = dt
        if self.model.jnt_type[0] != mujoco.mjtJoint.mjJNT_FREE:
            raise DescriptionError(f"{path}: the first joint must be a free joint")
        self.root = int(self.model.jnt_bodyid[0])
        ids = [self._joint(n) for n in joint_names]
        self.dof = np.array([self.model.jnt_dofadr[j] for j in ids], dtype=int)
        self.qadr = np.array([self.model.jnt_qposadr[j] for j in ids], dtype=int)
        self._body_ids: dict[str, int] = {}
        if ground is not None:
            self._add_ground(ground)

    def _joint(self, name: str) -> int:
        j = mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_JOINT, name)
        if j < 0:
            raise DescriptionError(f"MJCF model has no joint named {name!r}")
        return j

    def body_id(self, link: str) -> int:
        if link not in self._body_ids:
            b = mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_BODY, link)
            if b < 0:
                raise DescriptionError(f"MJCF model has no body named {link!r}")
            self._body_ids[link] = b
        return self._body_ids[link]

    def _add_ground(self, ground: Ground) -> None:
        """Native contact: a plane in an MjSpec copy, and the contact geoms switched on.

        The paper's k, b [N/m, N s/m] become solref = (-k/m_e, -b/m_e) [1/s^2, 1/s]: MuJoCo
        imposes the contact-point acceleration -K r - B v, so the force law is matched when
        m_e is the contact's apparent mass.  With ``ground.mass_scale`` None, m_e is
        computed for each foot at the state passed to ``reset``.  solimp = (0.99, 0.99,
        0.001) keeps the impedance near one; the contact geoms get priority so their
        parameters, not the plane's, are used.  MuJoCo still solves a constraint, not the
        force law of the paper: the static split of a four-foot stance is its solver's.
        """
        spec = mujoco.MjSpec.from_string(self._xml_text())
        z = np.asarray(ground.normal_W, float)
        x = np.cross([0.0, 1.0, 0.0], z)
        x /= np.linalg.norm(x)
        R = np.column_stack([x, np.cross(z, x), z])
        plane = spec.worldbody.add_geom()
        plane.name = "ground"
        plane.type = mujoco.mjtGeom.mjGEOM_PLANE
        plane.size = [0, 0, 1]
        plane.pos = np.asarray(ground.point_W, float)
        plane.quat = R_to_quat(R)
        self.ground = ground
        m_e = ground.mass_scale or 1.0
        solref = [-ground.stiffness / m_e, -ground.damping / m_e]
        for g in spec.geoms:
            if g.name == "ground" or g.name in ground.contact_geoms:
                g.contype, g.conaffinity = 1, 1
                g.solref = solref
                g.solimp = [0.99, 0.99, 0.001, 0.5, 2.0]
                g.friction = [ground.friction, 0.0, 0.0]
                g.condim = 3
                g.priority = 0 if g.name == "ground" else 1
        self.model = spec.compile()
        self.model.opt.timestep = self.dt
        self.data = mujoco.MjData(self.model)
        self._geom_to_link = {}
        for name in ground.contact_geoms:
            gid = mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_GEOM, name)
            if gid < 0:
                raise DescriptionError(f"MJCF model has no contact geom named {name!r}")
            self._geom_to_link[gid] = mujoco.mj_id2name(
                self.model, mujoco.mjtObj.mjOBJ_BODY, int(self.model.geom_bodyid[gid]))

    def _xml_text(self) -> str:
        import os
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "m.xml")
            mujoco.mj_saveLastXML(out, self.model)
            return Path(out).read_text()

    def reset(self, s: FloatingState) -> None:
        d = self.data
        mujoco.mj_resetData(self.model, d)
        d.qpos[0:3] = s.p_WB
        d.qpos[3:7] = R_to_quat(s.R_WB)
        d.qvel[0:3] = s.v_WB_W
        d.qvel[3:6] = np.asarray(s.R_WB).T @ s.w_WB_W  # free-joint omega is in the body frame
        d.qpos[self.qadr] = s.q
        d.qvel[self.dof] = s.qd
        mujoco.mj_forward(self.model, d)
        if getattr(self, "ground", None) is not None and self.ground.mass_scale is None:
            self._set_solref_from_apparent_mass()

    def apparent_mass(self, gid: int, normal_W: np.ndarray) -> float:
        """1/(n^T J M^-1 J^T n) at the centre of geom ``gid`` for the current state [kg]."""
        m, d = self.model, self.data
        jacp = np.zeros((3, m.nv))
        mujoco.mj_jac(m, d, jacp, None, d.geom_xpos[gid], int(m.geom_bodyid[gid]))
        Jn = normal_W @ jacp
        x = np.zeros(m.nv)
        mujoco.mj_solveM(m, d, x.reshape(1, -1), Jn.reshape(1, -1))
        return 1.0 / float(Jn @ x)

    def _set_solref_from_apparent_mass(self) -> None:
        self.contact_mass = {}
        for gid, link in self._geom_to_link.items():
            m_e = self.apparent_mass(gid, np.asarray(self.ground.normal_W, float))
            self.contact_mass[link] = m_e
            self.model.geom_solref[gid] = [-self.ground.stiffness / m_e,
                                           -self.ground.damping / m_e]

    def state(self) -> FloatingState:
        d = self.data
        R = quat_to_R(d.qpos[3:7])
        return FloatingState(d.qpos[0:3].copy(), R, d.qvel[0:3].copy(), R @ d.qvel[3:6],
                             d.qpos[self.qadr].copy(), d.qvel[self.dof].copy())

    def point(self, link: str, offset: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """World position and velocity of a point fixed in a link (mjOBJ_XBODY: velocity at
        the link frame origin; mjOBJ_BODY would give it at the link's centre of mass)."""
        b = self.body_id(link)
        d = self.data
        R = d.xmat[b].reshape(3, 3)
        p = d.xpos[b] + R @ offset
        vel = np.zeros(6)
        mujoco.mj_objectVelocity(self.model, d, mujoco.mjtObj.mjOBJ_XBODY, b, vel, 0)
        w, v_origin = vel[:3], vel[3:]
        return p, v_origin + np.cross(w, p - d.xpos[b])

    def step(self, tau: np.ndarray, forces: list[PointForce]) -> None:
        d = self.data
        d.qfrc_applied[:] = 0.0
        d.qfrc_applied[self.dof] = tau
        for f in forces:
            b = self.body_id(f.link)
            p = d.xpos[b] + d.xmat[b].reshape(3, 3) @ f.offset
            mujoco.mj_applyFT(self.model, d, f.F_W, np.zeros(3), p, b, d.qfrc_applied)
        mujoco.mj_step(self.model, d)
        mujoco.mj_forward(self.model, d)  # positions and velocities at the new time

    def contact_forces(self) -> dict[str, np.ndarray]:
        """Native-contact force on the link of each contact geom, world frame [N]."""
        out = {name: np.zeros(3) for name in getattr(self, "_geom_to_link", {}).values()}
        f6 = np.zeros(6)
        d = self.data
        for i in range(d.ncon):
            c = d.contact[i]
            for gid, sign in ((c.geom[0], -1.0), (c.geom[1], 1.0)):
                if gid in self._geom_to_link:
                    mujoco.mj_contactForce(self.model, d, i, f6)
                    frame = np.asarray(c.frame).reshape(3, 3)  # rows: normal, t1, t2
                    out[self._geom_to_link[gid]] += sign * (frame.T @ f6[:3])
        return out

    @property
    def time(self) -> float:
        return float(self.data.time)


class MujocoTerms:
    """M(q), bias h(q, qd) and inverse dynamics of a fixed-base MJCF model."""

    name = "mujoco"

    def __init__(self, path: Path | str) -> None:
        self.model = load_model(path)
        self.data = mujoco.MjData(self.model)

    def _set(self, q, qd=None, qdd=None) -> None:
        d = self.data
        d.qpos[:] = q
        d.qvel[:] = 0.0 if qd is None else qd
        d.qacc[:] = 0.0 if qdd is None else qdd
        mujoco.mj_forward(self.model, d)

    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        self._set(q)
        M = np.zeros((self.model.nv, self.model.nv))
        mujoco.mj_fullM(self.model, self.data, M)
        return M

    def bias(self, q: np.ndarray, qd: np.ndarray) -> np.ndarray:
        self._set(q, qd)
        return self.data.qfrc_bias.copy()

    def inverse_dynamics(self, q: np.ndarray, qd: np.ndarray, qdd: np.ndarray) -> np.ndarray:
        self._set(q, qd)
        self.data.qacc[:] = qdd
        mujoco.mj_inverse(self.model, self.data)
        return self.data.qfrc_inverse.copy()

    def acceleration(self, q: np.ndarray, qd: np.ndarray) -> np.ndarray:
        """Unforced forward dynamics qdd(q, qd) (gravity only)."""
        self._set(q, qd)
        return self.data.qacc.copy()

    def simulate(self, q0: np.ndarray, qd0: np.ndarray, dt: float, n: int) -> np.ndarray:
        """Joint positions over n steps of MuJoCo's own (semi-implicit Euler) integrator."""
        m, d = self.model, self.data
        m.opt.timestep = dt
        mujoco.mj_resetData(m, d)
        d.qpos[:], d.qvel[:] = q0, qd0
        out = [d.qpos.copy()]
        for _ in range(n):
            mujoco.mj_step(m, d)
            out.append(d.qpos.copy())
        return np.array(out)

    def site_position(self, q: np.ndarray, site: str) -> np.ndarray:
        self._set(q)
        s = mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_SITE, site)
        if s < 0:
            raise DescriptionError(f"MJCF model has no site named {site!r}")
        return self.data.site_xpos[s].copy()

    def site_jacobian(self, q: np.ndarray, site: str) -> np.ndarray:
        self._set(q)
        s = mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_SITE, site)
        jacp = np.zeros((3, self.model.nv))
        mujoco.mj_jacSite(self.model, self.data, jacp, None, s)
        return jacp
