"""Drake adapter for time stepping: a description on a discrete MultibodyPlant, stepped
every ``dt`` under joint efforts and point forces (dynval.engines.base.Simulation).

Drake's discrete step with nothing in contact is v+ = v + dt M(q)^-1 (tau + tau_g - C v),
then q+ = q + dt N(q) v+: the semi-implicit Euler of MuJoCo's Euler integrator and of
PyBullet's step, so three engines step the same scheme.  Its solver (SAP, Drake's
default) solves that one linear system when no constraint is active: a fixed-base tree
steps as MuJoCo's does to round-off.  A free root's quaternion is advanced by
dt N(q) v+ and normalised, where MuJoCo turns it by the exponential of w dt: the two
part by O(dt^2) per step (measured on the quadruped tumbling freely for 0.5 s: its
attitude 4.7e-7 apart at dt = 1 ms, 1.2e-7 at dt/2, 2.9e-8 at dt/4; its joints at
round-off).

What dynval does not give Drake is said, not approximated: no ground (its contact needs
the description's collision geometry registered with a SceneGraph, which is not built
here), so a scenario with an engine's own contact does not run in Drake.  The root is
welded to the world at the origin, or free (``floating``) on a quaternion floating joint,
as in the terms adapter (dynval.engines.drake_engine)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from dynval.engines import DescriptionError
from dynval.engines.base import FloatingState, Ground, PointForce, cross3
from dynval.engines.drake_engine import kind_of, load


class NoDrakeGroundError(ValueError):
    """A scenario asked Drake for its own ground contact, which dynval does not build."""


class DrakeSimulation:
    """A tree stepped in time by Drake; ``joints`` names the one-degree-of-freedom joints
    whose efforts, positions and rates are read and given in that order."""

    name = "drake"

    def __init__(self, path: Path | str, joints: Sequence[str], dt: float,
                 gravity: Sequence[float] = (0.0, 0.0, -9.81), ground: Ground | None = None,
                 floating: bool = False) -> None:
        if ground is not None:
            raise NoDrakeGroundError(
                "dynval gives Drake no ground: its contact needs the description's "
                "collision geometry in a SceneGraph, which dynval does not build; run the "
                "engines' own contact in MuJoCo or PyBullet")
        from pydrake.multibody.math import SpatialForce
        from pydrake.multibody.plant import ExternallyAppliedSpatialForce
        from pydrake.systems.analysis import Simulator

        self._push, self._spatial = ExternallyAppliedSpatialForce, SpatialForce
        path = Path(path)
        kind_of(path)
        self.dt, self.floating = float(dt), floating
        self.plant, _, self._free = load(path, floating, self.dt)
        self.plant.mutable_gravity_field().set_gravity_vector(np.asarray(gravity, float))
        missing = [j for j in joints if not self.plant.HasJointNamed(j)]
        if missing:
            raise DescriptionError(f"{path}: Drake's model of it has no joint named "
                                   f"{missing[0]!r}")
        found = [self.plant.GetJointByName(j) for j in joints]
        self._iq = np.array([j.position_start() for j in found], dtype=int)
        self._iv = np.array([j.velocity_start() for j in found], dtype=int)
        world = self.plant.world_body()
        self._root = (self._free.child_body() if self._free is not None else
                      next(b for b in self.plant.GetBodiesWeldedTo(world) if b != world))
        self._sim = Simulator(self.plant)
        self.context = self._sim.get_mutable_context()
        self._steps, self._t = 0, 0.0
        self._tau = np.zeros(self.plant.num_velocities())
        self._bodies: dict[str, Any] = {}  # by link name, found once

    # --- state ----------------------------------------------------------------------------
    def reset(self, s: FloatingState) -> None:
        """Put the tree in state ``s`` (a fixed root keeps its pose) and the clock at zero."""
        plant, ctx = self.plant, self.context
        ctx.SetTime(0.0)
        q = plant.GetPositions(ctx).copy()
        v = np.zeros(plant.num_velocities())
        q[self._iq], v[self._iv] = np.asarray(s.q, float), np.asarray(s.qd, float)
        plant.SetPositions(ctx, q)
        plant.SetVelocities(ctx, v)
        if self._free is not None:
            from pydrake.math import RigidTransform, RotationMatrix

            self._free.SetPose(ctx, RigidTransform(RotationMatrix(np.asarray(s.R_WB, float)),
                                                   np.asarray(s.p_WB, float)))
            self._free.set_angular_velocity(ctx, np.asarray(s.w_WB_W, float))
            self._free.set_translational_velocity(ctx, np.asarray(s.v_WB_W, float))
        self._steps, self._t = 0, 0.0
        self._sim.Initialize()

    def joint_state(self) -> tuple[np.ndarray, np.ndarray]:
        """The joints' positions and rates, in the order of ``joints``."""
        return (self.plant.GetPositions(self.context)[self._iq].copy(),
                self.plant.GetVelocities(self.context)[self._iv].copy())

    def state(self) -> FloatingState:
        """The root's pose and velocity (a welded root's, as Drake places it) and the
        joints'."""
        X = self.plant.EvalBodyPoseInWorld(self.context, self._root)
        V = self.plant.EvalBodySpatialVelocityInWorld(self.context, self._root)
        q, qd = self.joint_state()
        return FloatingState(np.array(X.translation()), np.array(X.rotation().matrix()),
                             np.array(V.translational()), np.array(V.rotational()), q, qd)

    @property
    def time(self) -> float:
        """The clock as MuJoCo's and PyBullet's run theirs, a sum of steps: a loop's law
        of time (a gait's phase) switches at the same step in every engine."""
        return self._t

    # --- stepping -------------------------------------------------------------------------
    def step(self, tau: np.ndarray, forces: Sequence[PointForce]) -> None:
        """One discrete step under joint efforts ``tau`` and point ``forces`` held over it."""
        plant, ctx = self.plant, self.context
        self._tau[self._iv] = np.asarray(tau, float)
        plant.get_applied_generalized_force_input_port().FixValue(ctx, self._tau)
        applied = []
        for f in forces:
            push = self._push()
            push.body_index = self._body(f.link).index()
            push.p_BoBq_B = np.asarray(f.offset, float)
            push.F_Bq_W = self._spatial(np.zeros(3), np.asarray(f.F_W, float))
            applied.append(push)
        plant.get_applied_spatial_force_input_port().FixValue(ctx, applied)
        self._steps += 1
        self._t += self.dt
        # the update at t_k with the inputs of step k, up to t_k+1 (where the next waits)
        self._sim.AdvanceTo(self._steps * self.dt)

    # --- points -----------------------------------------------------------------------------
    def _body(self, link: str) -> Any:
        body = self._bodies.get(link)
        if body is None:
            body = self._bodies[link] = self.plant.GetBodyByName(link)
        return body

    def point(self, link: str, offset: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """World position [m] and velocity [m/s] of the point ``offset`` of ``link``."""
        P, V = self.points([link], np.asarray(offset, float).reshape(1, 3))
        return P[0], V[0]

    def points(self, links: Sequence[str], offsets: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`point` of every ``offsets[k]`` of ``links[k]``: (n, 3) positions and
        velocities, p_WB + R_WB r and v_WB + w_WB x (R_WB r)."""
        plant, ctx = self.plant, self.context
        P, V = np.empty((len(links), 3)), np.empty((len(links), 3))
        for k, (link, offset) in enumerate(zip(links, offsets, strict=True)):
            body = self._body(link)
            X = plant.EvalBodyPoseInWorld(ctx, body)
            Vb = plant.EvalBodySpatialVelocityInWorld(ctx, body)
            r = X.rotation().matrix() @ np.asarray(offset, float)
            P[k] = X.translation() + r
            V[k] = Vb.translational() + cross3(Vb.rotational(), r)
        return P, V

    def contact_forces(self) -> dict[str, np.ndarray]:
        """None: dynval gives Drake no ground (module docstring)."""
        return {}

    def flat_state(self, links: Sequence[str], offsets: np.ndarray) -> np.ndarray:
        s = self.state()
        P, V = self.points(links, offsets)
        return np.concatenate([s.p_WB, s.R_WB.ravel(), s.v_WB_W, s.w_WB_W, s.q, s.qd,
                               np.hstack([P, V]).ravel()])

    def contact_force_rows(self, links: Sequence[str]) -> np.ndarray:
        """No ground, no contact: every named link's force is zero."""
        return np.zeros((len(links), 3))

    def compiled(self) -> Any:
        """No compiled calls: a loop steps Drake through Python."""
        return None
