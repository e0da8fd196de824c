"""One closed loop for every implementation: the plan's feedforward torques plus joint PD,
read from each implementation's state."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from dynval.comparisons.ladder import plant
from dynval.engines.base import FloatingState, Ground
from dynval.handrolled.quadruped.fast import loop as fastloop
from dynval.handrolled.quadruped.fast.simulation import CompiledPinnedFeetSimulation
from dynval.handrolled.quadruped.gait import Gait, plan
from dynval.handrolled.quadruped.inverse import Feedforward, feedforward
from dynval.handrolled.quadruped.kinematics import foot_position_and_jacobian, standing_height
from dynval.handrolled.quadruped.robot import build_model
from dynval.handrolled.quadruped.simulation import PinnedFeetSimulation
from dynval.handrolled.so3 import euler_zyx
from dynval.robots.quadruped.model_description import joint_names, link_name
from dynval.robots.quadruped.params import (
    JOINTS,
    LEGS,
    R_B0_PRINTED,
    QuadrupedParams,
    dh_a,
    total_mass,
)


class HandrolledPlant:
    """The paper's model on the plant contract, its supporting feet pinned (section 4: its
    contact is that constraint, as an engine's is its own ground, so it takes no point
    forces), stepped by the compiled fast path (``fast=False``: the printed recursions,
    the same trajectory to round-off)."""

    implementation = "handrolled"

    def __init__(self, p: QuadrupedParams, fast: bool = True, frame0: str = "corrected"
                 ) -> None:
        sim = CompiledPinnedFeetSimulation if fast else PinnedFeetSimulation
        self.model = build_model(p, R_B0=R_B0_PRINTED if frame0 == "printed" else None)
        self.sim = sim(self.model, np.array([0.0, 0.0, -p.g]), p.dt)
        self.dt = p.dt
        self.stance: tuple[str, ...] = ()

    def reset(self, p_WB, R_WB, theta, nu, stance) -> None:
        self.sim.reset(p_WB, R_WB, theta, nu, stance)
        self.stance = tuple(stance)

    def support(self, stance: tuple[str, ...]) -> None:
        """The feet the plan puts on the ground for the next step: pinned."""
        self.stance = stance

    def state(self) -> FloatingState:
        s = self.sim
        return FloatingState(s.p_WB, s.R_WB, s.R_WB @ s.nu[:3], s.R_WB @ s.nu[3:6],
                             s.theta.copy(), s.nu[6:].copy())

    def joint_state(self) -> tuple[np.ndarray, np.ndarray]:
        s = self.sim
        return np.ravel(s.theta).copy(), s.nu[6:].copy()

    def points(self) -> tuple[np.ndarray, np.ndarray]:
        """The feet (frame 4 of each leg, Table 1) in the world: p_WB + R_WB p_B4 and
        R_WB (v_B + w_B x p_B4 + J_4 theta')."""
        s = self.sim
        theta, thetad = np.reshape(s.theta, (4, 3)), np.reshape(s.nu[6:], (4, 3))
        P, V = np.empty((4, 3)), np.empty((4, 3))
        for k in range(4):
            p_B4, J = foot_position_and_jacobian(self.model, k, theta[k])
            P[k] = s.p_WB + s.R_WB @ p_B4
            V[k] = s.R_WB @ (s.nu[:3] + np.cross(s.nu[3:6], p_B4) + J @ thetad[k])
        return P, V

    def step(self, tau: np.ndarray, F: np.ndarray | None) -> None:
        if F is not None and np.any(F):
            raise ValueError("the hand-rolled quadruped pins its supporting feet "
                             "(section 4); it takes no point forces")
        self.sim.step(tau, self.stance)

    def foot_forces_W(self) -> np.ndarray:
        """The pinned feet's constraint forces of the step just taken, world axes."""
        return (self.sim.R_WB @ self.sim.F_foot_B.T).T

    @property
    def compiled(self) -> bool:
        """Whether QuadrupedLoop may run this plant's closed loop compiled (fastloop.py)."""
        return isinstance(self.sim, CompiledPinnedFeetSimulation)


class EnginePlant(plant.SimulationPlant):
    """An engine simulation with its own foot contact; its contact points are the feet
    (the sphere centres: frame 4 of Table 1, a_3 along link 3)."""

    def __init__(self, sim, p: QuadrupedParams) -> None:
        super().__init__(sim, feet_points(p))  # foot links, LEGS order

    def reset(self, p_WB, R_WB, theta, nu, stance) -> None:
        self.sim.reset(FloatingState(p_WB, R_WB, R_WB @ nu[:3], R_WB @ nu[3:6],
                                     np.ravel(theta), nu[6:]))

    def support(self, stance: tuple[str, ...]) -> None:
        """The plan's support, which an engine's contact does not read."""

    def state(self) -> FloatingState:
        return self.sim.state()

    def foot_forces_W(self) -> np.ndarray:
        return self.native_forces()


def feet_points(p: QuadrupedParams) -> list[plant.ContactPoint]:
    """Each foot's sphere centre: the hand-rolled model's frame 4, the point a_3 along
    the x axis of the description's link 3 (Table 1's a, as the model reads it)."""
    a_3 = dh_a(p)[3]
    return [plant.ContactPoint(f"{leg}_foot", link_name(leg, 3), (a_3, 0.0, 0.0))
            for leg in LEGS]


def make_plant(implementation: str, p: QuadrupedParams, desc_dir: Path, fast: bool = True,
               frame0: str = "corrected"):
    """A plant of the named implementation (``fast``: the hand-rolled one compiled;
    ``frame0`` "printed": the hand-rolled one with section 2's frame 0 as printed, a
    mutant of the model, see comparisons/quadruped/mutants.py)."""
    if implementation == "handrolled":
        return HandrolledPlant(p, fast, frame0)
    # MuJoCo: k, b become accelerations through a quarter of the robot's mass (a foot's own
    # apparent mass, 0.2-0.3 kg of light shank, makes the contact chatter at 1 kHz);
    # PyBullet takes k and b as they are and reads no mass scale
    ground = Ground(np.array([0.0, 0.0, 1.0]), np.zeros(3), p.k_ground, p.b_ground, p.mu,
                    total_mass(p) / 4.0, tuple(f"{leg}_foot" for leg in LEGS))
    return EnginePlant(plant.simulation(implementation, desc_dir, "quadruped", joint_names(),
                                        p.dt, (0.0, 0.0, -p.g), ground,
                                        tuple(link_name(leg, 3) for leg in LEGS)), p)


class QuadrupedLoop:
    """Plan -> feedforward (section 4's assumed ground forces) + PD -> plant."""

    def __init__(self, plant, p: QuadrupedParams, gait: Gait, fast: bool = True) -> None:
        self.plant, self.p, self.gait = plant, p, gait
        self.implementation = plant.implementation
        # the hand-rolled plant's own model (its compiled chunk steps the plan's links)
        self.model = plant.model if isinstance(plant, HandrolledPlant) else build_model(p)
        self.g_W = np.array([0.0, 0.0, -p.g])
        self.height = standing_height(p)
        self.t = 0.0
        s0 = self._plan(0.0)
        nu0 = np.concatenate([s0.v_WB, np.zeros(3), s0.thetad.ravel()])
        plant.reset(s0.p_WB, np.eye(3), s0.theta, nu0, s0.stance)
        self.F_W = np.zeros((4, 3))
        self._F_sum, self._n_sum = np.zeros((4, 3)), 0
        self.qdd = np.zeros(12)
        self._chunk: _Chunk | _EngineSteps | None = None
        # the plan and feedforward compiled (fastloop.plan_and_feedforward, held to the
        # printed plan() and feedforward() at round-off by tests/test_quadruped_fast.py)
        # wherever the plant is not the hand-rolled printed path; ``fast`` False: the
        # printed plan and feedforward, and an engine stepped by advance() alone
        self._reference = (_CompiledReference(self)
                           if fast and getattr(plant, "compiled", True) else None)
        self._update(plant.state())

    def _plan(self, t: float):
        return plan(self.model, self.gait, t, self.height, self.p.foot_radius)

    def _update(self, st: FloatingState) -> None:
        """Inputs for the next step from the plan at t and the plant's state ``st``."""
        self.st = st
        ref = self._reference.at(self.t) if self._reference is not None else None
        if ref is None:  # the printed path, or a plan the compiled one could not make
            s = self._plan(self.t)  # (a foot out of reach raises its error here)
            self.ff = feedforward(self.model, s, self.g_W)
            theta, thetad, self.stance = s.theta.ravel(), s.thetad.ravel(), s.stance
        else:
            theta, thetad, self.ff, self.stance = ref
        self.tau = (self.ff.tau.ravel() + self.p.K_P * (theta - st.q)
                    + self.p.K_D * (thetad - st.qd))

    def advance(self) -> None:
        qd_before = self.st.qd
        self.plant.support(self.stance)
        self.plant.step(self.tau, None)
        st = self.plant.state()
        # every implementation integrates semi-implicit Euler, qd += dt qdd: the difference
        # of the rates over the step is the acceleration it used
        self.qdd = (st.qd - qd_before) / self.p.dt
        self._F_sum += self.plant.foot_forces_W()
        self._n_sum += 1
        self.t += self.p.dt
        self._update(st)

    def advance_many(self, n: int) -> None:
        """``n`` calls of ``advance``; with a compiled plant (the hand-rolled one's fast
        path) as one compiled chunk (fastloop.run_chunk: the same equations in the same
        order, trajectories equal at round-off); with an engine, step by step with the
        fewest engine calls and the rest compiled (_EngineSteps: the same floats)."""
        engine = isinstance(self.plant, EnginePlant) and self._reference is not None
        if not (engine or getattr(self.plant, "compiled", False)):
            for _ in range(n):
                self.advance()
            return
        c = self._chunk
        if c is None:
            c = self._chunk = _EngineSteps(self) if engine else _Chunk(self)
        c.run(self, n)

    def signals(self) -> dict[str, float]:
        """The state now; foot forces are their mean over the steps since the last call
        (an engine's contact force flickers from step to step, its impulse does not)."""
        if self._n_sum:
            self.F_W = self._F_sum / self._n_sum
            self._F_sum, self._n_sum = np.zeros((4, 3)), 0
        st = self.st
        assumed = self.implementation == "handrolled"
        rb_hfe = 3 * LEGS.index("RB") + 1
        # the recorded numbers side by side, then put in the order of _signal_names
        columns = [st.p_WB, euler_zyx(st.R_WB)[::-1], self.qdd[rb_hfe:rb_hfe + 1], st.q,
                   st.qd, self.tau, self.F_W.ravel()]
        if assumed:
            columns.append(self.ff.F_foot_B.ravel())
        values = np.concatenate(columns)[_signal_columns(assumed)].tolist()
        return dict(zip(_signal_names(assumed), values, strict=True))


@lru_cache(maxsize=2)
def _signal_names(assumed: bool) -> tuple[str, ...]:
    """The recorded signals' names, in their order (the assumed foot forces where the
    implementation has them: the hand-rolled one)."""
    names = ["body.x", "body.y", "body.z", "body.roll", "body.pitch", "body.yaw",
             "joint.RB.HFE.acceleration"]
    for leg in LEGS:
        for joint in JOINTS:
            names += [f"joint.{leg}.{joint}.{s}" for s in ("angle", "rate", "torque")]
        for axis in "xyz":
            names.append(f"foot.{leg}.force.{axis}")
            if assumed:
                names.append(f"foot.{leg}.force_assumed.{axis}")
    return tuple(names)


@lru_cache(maxsize=2)
def _signal_columns(assumed: bool) -> np.ndarray:
    """Where each of _signal_names's signals is among the numbers ``signals`` puts side
    by side: body position, (roll, pitch, yaw), RB's HFE acceleration, then q, q', tau
    (12 each, leg by leg), the feet's forces and, where recorded, the assumed ones (3 per
    leg each)."""
    q, qd, tau, F, F_assumed = 7, 19, 31, 43, 55
    order = list(range(7))
    for leg in range(4):
        for j in range(3):
            order += [q + 3 * leg + j, qd + 3 * leg + j, tau + 3 * leg + j]
        for axis in range(3):
            order.append(F + 3 * leg + axis)
            if assumed:
                order.append(F_assumed + 3 * leg + axis)
    return np.array(order)


def _plan_constants(loop: QuadrupedLoop) -> fastloop.Plan:
    """What fastloop's plan and feedforward read, gathered once: the model, the gait and
    section 4's force patterns."""
    ga = fastloop.gait_arrays(loop.gait)
    dirs, count = fastloop.pattern_tables()
    return fastloop.Plan(loop.model.links, ga.scalars, ga.offsets, ga.starts, ga.start_side,
                         dirs, count)


class _CompiledReference:
    """The plan and its feedforward at a time, by fastloop.plan_and_feedforward."""

    def __init__(self, loop: QuadrupedLoop) -> None:
        self.plan = _plan_constants(loop)
        self.height, self.foot_z, self.g_W = loop.height, loop.p.foot_radius, loop.g_W

    def at(self, t: float) -> tuple | None:
        """(theta, theta', Feedforward, stance) at t, or None where the plan fails."""
        s = fastloop.Planned(*(np.zeros((4, 3)) for _ in range(4)), np.zeros(3), np.zeros(3))
        tau, F, residual = np.zeros(12), np.zeros((4, 3)), np.zeros(6)
        mask = fastloop.plan_and_feedforward(self.plan, t, self.height, self.foot_z,
                                             self.g_W, s, tau, F, residual)
        if mask < 0:
            return None
        return (s.theta.ravel(), s.thd.ravel(), Feedforward(tau.reshape(4, 3), F, residual),
                fastloop.stance_of(int(mask)))


def _loop_constants(loop: QuadrupedLoop) -> fastloop.Laws:
    """What fastloop's run_chunk, after_step and plan_ahead read: the plan's constants,
    then dt, the gains, the standing height and foot radius, and gravity."""
    p = loop.p
    return fastloop.Laws(_plan_constants(loop),
                         np.array([p.dt, p.K_P, p.K_D, loop.height, p.foot_radius]), loop.g_W)


_NO_POINTS = np.empty((0, 3))


def _state_from_flat(f: np.ndarray, n: int) -> FloatingState:
    """The FloatingState of an engine's flat_state (no points) with n joints: state()'s
    floats, read with fewer calls and array operations."""
    return FloatingState(f[0:3], f[3:12].reshape(3, 3), f[12:15], f[15:18], f[18:18 + n],
                         f[18 + n:18 + 2 * n])


class _EngineSteps:
    """QuadrupedLoop.advance for an engine plant, with fewer engine calls and no Python
    arithmetic: the plans and feedforwards of the steps ahead in one compiled call
    (fastloop.plan_ahead: the plan does not depend on the state), then per step the engine
    steps, its joint angles and rates and its feet forces are read as arrays (no
    FloatingState, no dict: the same floats as state() and foot_forces_W) and
    fastloop.engine_step does the loop's bookkeeping and the PD torques (as ``advance``
    does); the whole state is read once, after the last step."""

    def __init__(self, loop: QuadrupedLoop) -> None:
        self.laws = _loop_constants(loop)

    def run(self, loop: QuadrupedLoop, n: int) -> None:
        plant, consts = loop.plant, self.laws.consts
        sim, feet = plant.sim, tuple(plant.point_links)
        ahead = fastloop.Ahead(np.empty((n, 4, 3)), np.empty((n, 4, 3)), np.empty((n, 12)),
                               np.empty((n, 4, 3)), np.empty((n, 6)),
                               np.empty(n, dtype=np.int64))
        planned = fastloop.plan_ahead(self.laws, loop.t, ahead)
        # new arrays, as advance makes: the inputs handed out stay as they were
        # qd_before a copy: the type (writable) of the reads that follow, one compile
        tau, qd_before = np.array(loop.tau, dtype=float), loop.st.qd.copy()
        tally = fastloop.Tally(np.array([loop.t]), np.zeros((4, 3)), loop.qdd.copy())
        steps = min(n, planned + 1)  # up to the first step without a plan after it
        for k in range(steps):
            sim.step(tau, ())
            if k < steps - 1:
                q, qd = sim.joint_state()
            else:  # the last step: the whole state, for signals and the next chunk
                st = _state_from_flat(sim.flat_state((), _NO_POINTS), len(qd_before))
                q, qd = st.q, st.qd
            fastloop.engine_step(k, planned, consts, ahead, q, qd, qd_before,
                                 sim.contact_force_rows(feet), tally, tau)
            qd_before = qd
        loop.t, loop.qdd = float(tally.t[0]), tally.qdd
        loop._F_sum += tally.F_sum
        loop._n_sum += steps
        if planned < n:  # the Python plan at loop.t raises its error (or serves on)
            loop._update(st)
            for _ in range(n - steps):
                loop.advance()
            return
        loop.st, loop.tau, loop.stance = st, tau, fastloop.stance_of(int(ahead.masks[-1]))
        loop.ff = Feedforward(ahead.tau_ff[-1].reshape(4, 3), ahead.F_ff[-1],
                              ahead.residual[-1])


class _Chunk:
    """The hand-rolled closed loop run by fastloop.run_chunk: its constants (model, gait,
    section 4's force patterns, gains) gathered once, the loop's state handed in and back."""

    def __init__(self, loop: QuadrupedLoop) -> None:
        self.laws = _loop_constants(loop)

    def run(self, loop: QuadrupedLoop, n: int) -> None:
        sim = loop.plant.sim
        # new arrays, as the printed path makes: states handed out stay as they were
        p_WB, R_WB, q, nu = sim.p_WB.copy(), sim.R_WB.copy(), sim.theta.copy(), sim.nu.copy()
        old_mask = np.array([fastloop.mask_index(sim.stance)])
        mask = np.array([fastloop.mask_index(loop.stance)])
        tally = fastloop.Tally(np.array([loop.t]), np.zeros((4, 3)), loop.qdd.copy())
        tau = np.array(loop.tau, dtype=float)
        tau_ff, F_ff, residual = (loop.ff.tau.ravel().copy(), loop.ff.F_foot_B.copy(),
                                  loop.ff.residual.copy())
        F_foot_B, nudot = sim.F_foot_B.copy(), sim.nudot.copy()
        arrays = fastloop.LoopArrays(tally, tau, mask, tau_ff, F_ff, residual)
        done = fastloop.run_chunk(self.laws, p_WB, R_WB, q, nu, old_mask, arrays, F_foot_B,
                                  nudot, n)
        steps = abs(done)
        sim.p_WB, sim.R_WB, sim.theta, sim.nu = p_WB, R_WB, q, nu
        sim.F_foot_B, sim.nudot = F_foot_B, nudot
        sim.stance = fastloop.stance_of(int(old_mask[0]))
        for _ in range(steps):
            sim.t += sim.dt
        loop.t, loop.qdd = float(tally.t[0]), tally.qdd
        loop._F_sum += tally.F_sum
        loop._n_sum += steps
        if done < 0:  # the plan at loop.t failed: the Python plan raises its error
            loop._update(loop.plant.state())
        loop.st = loop.plant.state()
        loop.tau, loop.stance = tau, fastloop.stance_of(int(mask[0]))
        loop.ff = Feedforward(tau_ff.reshape(4, 3), F_ff, residual)
