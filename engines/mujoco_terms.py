"""MuJoCo's dynamics terms of a description: M(q), bias, gravity, inverse dynamics and
frames, q and v in MuJoCo's or the caller's joint order (a free root first).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import mujoco
import numpy as np

from dynval.engines import (
    DescriptionError,
    EngineInstabilityError,
)
from dynval.engines.mujoco_model import (
    BADQACC,
    _MujocoModel,
)


class MujocoTerms(_MujocoModel):
    """M(q), bias, gravity and inverse dynamics of an MJCF model, and its frames.

    q and v are MuJoCo's qpos and qvel (a free joint included) unless ``joint_names``
    is given: then they are those joints' coordinates, in that order, and every other
    joint stays at its reference position.  ``gravity`` replaces the file's when given.
    ``free_root`` (a URDF) puts the root link on a free joint whose 7 and 6 coordinates
    come first: q = (p_WB, quat_WB as w, x, y, z, joints), v = (v_WB in W, w_WB in B,
    joint rates).
    """

    name = "mujoco"

    def __init__(self, path: Path | str, gravity: Sequence[float] | None = None, *,
                 joint_names: Sequence[str] | None = None, free_root: bool = False,
                 rigid_body: bool = False, damping: bool = False, limits: bool = False
                 ) -> None:
        super().__init__(path, free_root)
        if gravity is not None:
            self.model.opt.gravity[:] = gravity
        self.switched_off = self._rigid_body_only(damping, limits) if rigid_body else []
        self.data = mujoco.MjData(self.model)
        if joint_names is None:
            self._iq, self._iv = np.arange(self.model.nq), np.arange(self.model.nv)
        elif free_root:
            free = self.free_joint(joint_names)
            if free is None:
                raise DescriptionError(f"{path}: no free joint at the root")
            iq, iv = self._joint_addresses(joint_names)
            self._iq = np.r_[np.arange(7) + self.model.jnt_qposadr[free], iq].astype(int)
            self._iv = np.r_[np.arange(6) + self.model.jnt_dofadr[free], iv].astype(int)
        else:
            self._iq, self._iv = self._joint_addresses(joint_names)

    def _rigid_body_only(self, damping: bool = False, limits: bool = False) -> list[str]:
        """Switch off what MuJoCo adds to rigid-body dynamics (in its inverse dynamics and
        its steps; armature also in M): constraints (contacts, joint limits, equalities
        such as a URDF's mimic, friction loss), passive forces (damping, springs, gravity
        compensation, fluid drag), actuators and armature; and step by semi-implicit
        Euler, the scheme L3 compares.  ``damping`` keeps the file's joint damping and
        ``limits`` its joint limits (a model that declares them; a limit exerts no force
        inside its range).  Returns what the file had on, one phrase each."""
        m = self.model
        found = [(0 if limits else int(np.sum(m.jnt_limited)), "joint limits"),
                 (m.neq, "equality constraints (a URDF's mimic joints)"),
                 (int(np.sum(m.dof_frictionloss > 0)), "friction loss"),
                 (0 if damping else int(np.sum(m.dof_damping > 0)), "joint damping"),
                 (int(np.sum(m.jnt_stiffness > 0)), "joint springs"),
                 (int(np.sum(m.dof_armature > 0)), "armature (rotor inertia added to M)"),
                 (int(np.sum(m.body_gravcomp > 0)), "gravity compensation"),
                 (m.nu, "actuators"),
                 (int(m.opt.density > 0 or m.opt.viscosity > 0), "fluid forces"),
                 (m.ngeom, "contacts between geoms"),
                 (int(m.opt.integrator != mujoco.mjtIntegrator.mjINT_EULER),
                  "its integrator other than semi-implicit Euler")]
        off = mujoco.mjtDisableBit
        constraints = (off.mjDSBL_CONTACT | off.mjDSBL_EQUALITY | off.mjDSBL_FRICTIONLOSS
                       if limits else off.mjDSBL_CONSTRAINT)  # limits alone kept
        m.opt.disableflags |= int(constraints | off.mjDSBL_SPRING | off.mjDSBL_ACTUATION)
        # kept, joint damping enters inverse dynamics and, explicitly, the Euler step (the
        # model's semi-implicit Euler; MuJoCo's own treats damping implicitly by default)
        m.opt.disableflags |= int(off.mjDSBL_EULERDAMP if damping else off.mjDSBL_DAMPER)
        if np.any(m.dof_armature):  # MuJoCo 4 builds M from dof_M0, set when compiled
            m.dof_armature[:] = 0.0
            mujoco.mj_setConst(m, mujoco.MjData(m))
        m.body_gravcomp[:] = 0.0
        m.opt.density = m.opt.viscosity = 0.0
        m.opt.integrator = mujoco.mjtIntegrator.mjINT_EULER  # the scheme L3 compares
        return [f"{what} ({count})" for count, what in found if count]

    def _set(self, q: np.ndarray, v: np.ndarray | None = None) -> None:
        d = self.data
        d.qpos[:] = self.model.qpos0
        d.qpos[self._iq] = q
        d.qvel[:] = 0.0
        if v is not None:
            d.qvel[self._iv] = v
        d.qacc[:] = 0.0
        mujoco.mj_forward(self.model, d)

    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        self._set(q)
        M = np.zeros((self.model.nv, self.model.nv))
        mujoco.mj_fullM(self.model, self.data, M)
        return M[np.ix_(self._iv, self._iv)]

    def bias(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        self._set(q, v)
        return self.data.qfrc_bias[self._iv]

    def gravity(self, q: np.ndarray) -> np.ndarray:
        return self.bias(q, np.zeros(len(self._iv)))

    def inverse_dynamics(self, q: np.ndarray, v: np.ndarray, vdot: np.ndarray) -> np.ndarray:
        self._set(q, v)
        self.data.qacc[:] = 0.0
        self.data.qacc[self._iv] = vdot
        mujoco.mj_inverse(self.model, self.data)
        return self.data.qfrc_inverse[self._iv]

    def acceleration(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Unforced forward dynamics vdot(q, v) (gravity only)."""
        self._set(q, v)
        return self.data.qacc[self._iv]

    def simulate(self, q0: np.ndarray, v0: np.ndarray, dt: float, n: int) -> np.ndarray:
        """Joint positions over n steps of MuJoCo's own (semi-implicit Euler) integrator."""
        m, d = self.model, self.data
        m.opt.timestep = dt
        mujoco.mj_resetData(m, d)
        d.qpos[self._iq], d.qvel[self._iv] = q0, v0
        out = [d.qpos[self._iq]]
        for k in range(n):
            mujoco.mj_step(m, d)
            if d.warning[BADQACC].number:  # MuJoCo reset the state: the run diverged
                raise EngineInstabilityError("MuJoCo flagged its accelerations as non-finite "
                                             "or beyond its limit", (k + 1) * dt,
                                             np.array(out))
            out.append(d.qpos[self._iq])
        return np.array(out)

    def _frame(self, name: str) -> tuple[mujoco.mjtObj, int]:
        """A site of that name, else a body."""
        for kind in (mujoco.mjtObj.mjOBJ_SITE, mujoco.mjtObj.mjOBJ_BODY):
            i = self._id(kind, name)
            if i >= 0:
                return kind, i
        raise DescriptionError(f"MJCF model has no site or body named {name!r}")

    def _point(self, name: str, offset: np.ndarray | None) -> tuple[np.ndarray, int]:
        """World position of the point and the body it is fixed in, at the state set."""
        kind, i = self._frame(name)
        d = self.data
        if kind == mujoco.mjtObj.mjOBJ_SITE:
            p, R, body = d.site_xpos[i], d.site_xmat[i], int(self.model.site_bodyid[i])
        else:
            p, R, body = d.xpos[i], d.xmat[i], i
        if offset is None:
            return p.copy(), body
        return p + R.reshape(3, 3) @ np.asarray(offset, dtype=float), body

    def frame_position(self, name: str, q: np.ndarray,
                       offset: np.ndarray | None = None) -> np.ndarray:
        """World position of a site or body frame, or of the point ``offset`` in it."""
        self._set(q)
        return self._point(name, offset)[0]

    def frame_jacobian(self, name: str, q: np.ndarray,
                       offset: np.ndarray | None = None) -> np.ndarray:
        """3 x n linear Jacobian of that point (a site itself: MuJoCo's mj_jacSite)."""
        self._set(q)
        jacp = np.zeros((3, self.model.nv))
        kind, i = self._frame(name)
        if kind == mujoco.mjtObj.mjOBJ_SITE and offset is None:
            mujoco.mj_jacSite(self.model, self.data, jacp, None, i)
        else:
            p, body = self._point(name, offset)
            mujoco.mj_jac(self.model, self.data, jacp, None, p, body)
        return jacp[:, self._iv]
