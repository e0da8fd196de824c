"""The hexapod closed loop for each implementation: the same FO PD^alpha controller (eqs.
14-16, every f_sr / f_sc steps, zero-order hold), the drive (7)-(9), the body spring-dashpots
of eq. (10) and the ground law (11) or (12) are evaluated here, in shared code, from each
implementation's own state, and applied as slide forces, joint torques and point forces on
the feet. The drive's own states (the motor of the flexible transmission (8), and the
gear's output side with backlash (9)) are integrated here too, beside the plant, by the
plant's scheme (:class:`SharedDrive`), so every implementation drives its links through the
same code.

Plants (``plants``): the hand-rolled PlanarHexapod (eq. 6 summed over the legs) stepped by
semi-implicit Euler with the forces held over the step, and MuJoCo / PyBullet on the
generated ``hexapod.xml`` / ``hexapod.urdf``, whose own integrators are that same scheme;
where a run starts: ``stance``. State in the paper frame (robots/hexapod/FRAMES.md):
q = [x_1H, y_1H, ..., theta_11, theta_12, ...].

Speed: the shared laws written here in Python are the printed path (HexapodLoop(fast=False));
by default their compiled copies (dynval.handrolled.hexapod.fast.loop) run the loop, over
many steps in one call for the hand-rolled plant, MuJoCo and PyBullet, with the shared
ground or the engine's own (comparisons/hexapod/compiled.py), one call a step beside a
plant stepped from Python; tests/test_hexapod_loop_fast.py holds the two paths' traces
together (bit-identical but for leg 1's torque split, 1e-17 of scale).
"""

from __future__ import annotations

import numpy as np

from dynval.comparisons.hexapod.plants import (  # noqa: F401  (re-exported)
    EnginePlant,
    HandrolledPlant,
    PlantState,
    make_plant,
    native_ground,
    observe,
    world,
)
from dynval.comparisons.hexapod.stance import (  # noqa: F401  (re-exported)
    START_SINK,
    Stance,
    loaded_start,
    planned_start,
    static_gain,
)
from dynval.handrolled.hexapod import body, lagrange, planning, transmission
from dynval.handrolled.hexapod.control import FractionalPD
from dynval.handrolled.hexapod.fast import loop as fastloop
from dynval.handrolled.hexapod.ground import Foot
from dynval.robots.hexapod.params import HexapodParams, leg_names

JOINTS = ("hip", "knee")


class SharedDrive:
    """The joint drives of eqs. (7)-(9) for the 2n joints, stepped beside the plant.

    ideal (7): the link receives tau_m; flexible (8): the motor angle theta_m (inertia J_m,
    friction B_m) drives the link through K_T (theta_m - theta); backlash (9): the motor
    (9a) and the gear's output side theta_T drive the link through K_T (theta_T - theta)
    (9d), colliding by (9b)-(9c) when the play h closes. Each step is semi-implicit Euler
    (the plant's scheme) from the step's start, the link angle theta held at its start value
    as the plant holds the link torque; the impacts are resolved after the step
    (transmission.resolve_backlash, as in PlanarHexapod.step)."""

    def __init__(self, p: HexapodParams, th: np.ndarray, th_dot: np.ndarray,
                 stance: Stance | None = None) -> None:
        """Drives at the joint angles th and rates th_dot: unloaded, or twisted to the
        loads of ``stance`` (its th_m, th_T)."""
        self.p, self.level = p, p.transmission
        if self.level not in transmission.LEVELS:
            raise ValueError(f"unknown transmission {self.level!r}")
        self.J_m, self.J_T = transmission.joint_inertias(p, p.n)
        self.th_m_dot, self.th_T_dot = th_dot.copy(), th_dot.copy()
        if stance is None:  # unloaded at the joint angles (PlanarHexapod.reset_to_plan)
            self.th_m, self.th_T = th.copy(), th.copy()
        else:
            self.th_m, self.th_T = stance.th_m.copy(), stance.th_T.copy()
        self.impacts = 0

    def link_torque(self, tau_m: np.ndarray, th: np.ndarray) -> np.ndarray:
        """The torque on the links: tau_m (7), K_T (theta_m - theta) (8b), K_T (theta_T -
        theta) (9d)."""
        return transmission.link_torque(tau_m, self.th_m, self.th_T, th, self.p, self.level)

    def step(self, tau_m: np.ndarray, th: np.ndarray, dt: float) -> None:
        """One step of the drive states under the motor torque tau_m, link angles th."""
        if self.level == "ideal":
            return
        a_m = transmission.motor_acceleration(tau_m, self.th_m, self.th_m_dot, th, self.J_m,
                                              self.p, self.level)  # (8a) or (9a)
        self.th_m_dot = self.th_m_dot + dt * a_m
        self.th_m = self.th_m + dt * self.th_m_dot
        if self.level == "backlash":
            a_T = transmission.output_acceleration(self.th_T, self.th_T_dot, th, self.J_T,
                                                   self.p)
            self.th_T_dot = self.th_T_dot + dt * a_T
            self.th_T = self.th_T + dt * self.th_T_dot
            self.impacts += transmission.resolve_backlash(  # (9b)-(9c)
                self.th_m, self.th_m_dot, self.th_T, self.th_T_dot, self.J_m, self.J_T, self.p)


class HexapodLoop:
    """Controller + drive + body springs + ground + plant (module docstring).

    ``fast`` (the default): the shared laws by their compiled copies
    (dynval.handrolled.hexapod.fast.loop), evaluated in one call per step from the plant's
    state, and the whole loop compiled over many steps (:meth:`advance_many`) with the
    hand-rolled plant and with MuJoCo and PyBullet where their libraries are at hand;
    tests hold it to the Python path (``fast=False``) at round-off, the Grunwald-Letnikov
    controller (p.fo_form = "gl") included."""

    def __init__(self, plant, p: HexapodParams, body_form: str = "corrected",
                 fast: bool = True, stance: Stance | None = None) -> None:
        """``stance``: the loaded static stance the plant was reset to (:func:`loaded_start`):
        the drives start twisted to its loads and the controller's filters at rest under
        its errors; None: drives unloaded and filters empty (the planned start)."""
        self.plant, self.p, self.body_form = plant, p, body_form
        self.implementation = plant.implementation
        self.k, self.n = p.n_seg, p.n
        self.dt = 1.0 / p.f_sr
        self.ratio = int(round(p.f_sr / p.f_sc))
        self.legs = leg_names(p)
        self.lm = lagrange.LegMass.of(p)
        self._leg_idx = [np.array([2 * (i // 2), 2 * (i // 2) + 1, 2 * self.k + 2 * i,
                                   2 * self.k + 2 * i + 1]) for i in range(self.n)]
        self.fast = fast
        self.steps = 0
        self.tau_C = np.zeros(2 * self.n)
        self.Th_d = np.zeros(2 * self.n)
        self.s = observe(plant)
        self.qd_prev = self.s.qd.copy()
        self.t = self.s.t
        self.drive = SharedDrive(p, self.s.q[2 * self.k:], self.s.qd[2 * self.k:], stance)
        if self.fast:
            self._fast = _FastLoop(self, stance)
            return
        self.controller = FractionalPD(p)
        if stance is not None:
            self.controller.preload(stance.e)
        self.feet = [Foot() for _ in range(self.n)]
        self._update_inputs()

    def reference(self, t: float) -> np.ndarray:
        """Theta_d of every joint at t, eq. (4)."""
        return np.concatenate([planning.joint_angles(t, i, self.p) for i in range(self.n)])

    def _update_inputs(self) -> None:
        s, p, k = self.s, self.p, self.k
        if self.plant.contact == "native":  # the engine's own contact, read back
            self.F_feet = self.plant.native_feet_forces()
            self.F_applied = np.zeros_like(self.F_feet)
        else:
            self.F_feet = np.array([f.force(s.feet[i], s.feet_v[i], p)  # eqs. (11)-(12)
                                    for i, f in enumerate(self.feet)])
            self.F_applied = self.F_feet
        fx, fy = body.F_RH(s.q[0:2 * k:2], s.q[1:2 * k:2], s.qd[0:2 * k:2],
                           s.qd[1:2 * k:2], p, self.body_form)  # eq. (10)
        self.F_seg = np.column_stack([fx, fy])
        if self.steps % self.ratio == 0:  # controller sample, held until the next one
            self.Th_d = self.reference(self.t)
            JtF = None
            if self.controller.force_feedback:  # Fig. 3: the ground's joint torques
                JtF = np.concatenate([_joint_rows(lagrange.J_F(s.q[idx], self.lm),
                                                  self.F_feet[i])
                                      for i, idx in enumerate(self._leg_idx)])
            self.tau_C = self.controller(self.Th_d, s.q[2 * k:], JtF)  # (14), (16), Fig. 3
        self.tau_m = transmission.saturate(self.tau_C, p.tau_max)  # eq. (7)
        self.tau_link = self.drive.link_torque(self.tau_m, s.q[2 * k:])  # (7), (8b), (9d)

    def advance(self) -> None:
        if self.fast:
            self._fast.advance(self, 1)
            return
        self.plant.step(self.efforts(), world(self.F_applied))
        self.drive.step(self.tau_m, self.s.q[2 * self.k:], self.dt)
        self.steps += 1
        self.qd_prev = self.s.qd
        self.s = observe(self.plant)
        self.t = self.s.t
        self._update_inputs()

    def efforts(self) -> np.ndarray:
        """The plant's generalised efforts: the segments' spring-dashpot forces F_RH (10),
        then the link torques."""
        return np.concatenate([self.F_seg.ravel(), self.tau_link])

    def advance_many(self, count: int) -> None:
        """``count`` steps of :meth:`advance` (compiled in one call where ``fast``)."""
        if self.fast:
            self._fast.advance(self, count)
            return
        for _ in range(count):
            self.advance()

    def signal_names(self) -> list[str]:
        """The recorded signals' names, in the order of :meth:`signals`."""
        out = ["com.x", "com.y", "com.vx", "com.vy"]
        for m in range(self.k):
            seg = f"segment.seg{m + 1}"
            out += [f"{seg}.x", f"{seg}.y", f"{seg}.force.x", f"{seg}.force.y"]
        for leg in self.legs:
            for name in JOINTS:
                out += [f"joint.{leg}.{name}.{v}"
                        for v in ("angle", "rate", "torque", "reference")]
            out += [f"foot.{leg}.{v}" for v in ("x", "y", "force.x", "force.y")]
        out.append("hexapod.gear_impacts")
        for name in JOINTS:
            out += [f"joint.{self.legs[0]}.{name}.{v}" for v in (
                "acceleration", "torque_motor", "motor_angle", "gear_angle",
                "torque_inertial", "torque_coriolis", "torque_gravity")]
        return out + [f"foot.{self.legs[0]}.{v}"
                      for v in ("vx", "vy", "x_ref", "y_ref", "vy_ref", "ay_ref")]

    def signals(self) -> dict[str, float]:
        if self.fast:
            return self._fast.signals(self)
        s, k, p = self.s, self.k, self.p
        out = {"com.x": float(np.mean(s.q[0:2 * k:2])), "com.y": float(np.mean(s.q[1:2 * k:2])),
               "com.vx": float(np.mean(s.qd[0:2 * k:2])),
               "com.vy": float(np.mean(s.qd[1:2 * k:2]))}
        for m in range(k):
            seg = f"segment.seg{m + 1}"
            out[f"{seg}.x"], out[f"{seg}.y"] = s.q[2 * m], s.q[2 * m + 1]
            out[f"{seg}.force.x"], out[f"{seg}.force.y"] = self.F_seg[m]
        for i, leg in enumerate(self.legs):
            for j, name in enumerate(JOINTS):
                c = 2 * k + 2 * i + j
                out[f"joint.{leg}.{name}.angle"] = s.q[c]
                out[f"joint.{leg}.{name}.rate"] = s.qd[c]
                out[f"joint.{leg}.{name}.torque"] = self.tau_link[2 * i + j]
                out[f"joint.{leg}.{name}.reference"] = self.Th_d[2 * i + j]
            out[f"foot.{leg}.x"], out[f"foot.{leg}.y"] = s.feet[i]
            out[f"foot.{leg}.force.x"], out[f"foot.{leg}.force.y"] = self.F_feet[i]
        # eq. (6)'s torque split of leg 1 (Figs. 7-8) from this implementation's state, the
        # acceleration as the rate difference over the last step
        idx = np.array([0, 1, 2 * k, 2 * k + 1])
        qdd = (s.qd[idx] - self.qd_prev[idx]) / self.dt
        terms = lagrange.torque_terms(s.q[idx], s.qd[idx], qdd, self.lm, p.g)
        d = self.drive
        out["hexapod.gear_impacts"] = float(d.impacts)
        for j, name in enumerate(JOINTS):
            leg = f"joint.{self.legs[0]}.{name}"
            out[f"{leg}.acceleration"] = qdd[2 + j]
            out[f"{leg}.torque_motor"] = self.tau_m[j]
            out[f"{leg}.motor_angle"] = d.th_m[j]
            out[f"{leg}.gear_angle"] = d.th_T[j]
            out[f"{leg}.torque_inertial"] = terms["I"][2 + j]
            out[f"{leg}.torque_coriolis"] = terms["CC"][2 + j]
            out[f"{leg}.torque_gravity"] = terms["G"][2 + j]
        plan = planning.leg_plan(self.t, 0, p)  # Figs. 4-5: the planned foot of leg 1
        leg = f"foot.{self.legs[0]}"
        out[f"{leg}.vx"], out[f"{leg}.vy"] = s.feet_v[0]
        out[f"{leg}.x_ref"], out[f"{leg}.y_ref"] = plan.p_Fd
        out[f"{leg}.vy_ref"], out[f"{leg}.ay_ref"] = plan.v_Fd[1], plan.a_Fd[1]
        return out


def _joint_rows(J: np.ndarray, F: np.ndarray) -> np.ndarray:
    """The hip and knee rows of J_F^T F_RF (eq. 6), written out as the compiled copy
    (fastloop.ground_torques) computes them: a matrix product may fuse its multiply-adds
    and differ in the last bit."""
    return J[0, 2:] * F[0] + J[1, 2:] * F[1]


class _FastLoop:
    """The loop's state as arrays changed in place by the compiled laws
    (dynval.handrolled.hexapod.fast.loop), their constants packed once, and the route
    each plant takes: the hand-rolled plant's (fast.held_step), MuJoCo's and PyBullet's
    (the engine's C library at hand, and with MuJoCo's own contact its contact list:
    comparisons/hexapod/compiled.py) whole loop compiled over many steps, any other plant
    (the printed hand-rolled step, an engine without its library) stepped from Python with
    the laws in one compiled call a step."""

    def __init__(self, loop: HexapodLoop, stance: Stance | None = None) -> None:
        p, s, d, plant = loop.p, loop.s, loop.drive, loop.plant
        self.shared = plant.contact == "shared"
        self.laws = fastloop.loop_laws(p, loop.body_form, self.shared)
        self.ratio = loop.ratio
        self.laws = fastloop.memory_room(self.laws, p, 1)  # the sample at the start
        if stance is not None:
            fastloop.preload_controller(self.laws, stance.e)
        self.state = fastloop.loop_arrays(s.q, s.qd, s.feet, s.feet_v,
                                          (d.th_m, d.th_m_dot, d.th_T, d.th_T_dot))
        # the loop's attributes show the arrays (signals, tests, the bench read them)
        (q, qd, loop.qd_prev, feet, feet_v, _, loop.F_feet, loop.F_seg, loop.Th_d,
         loop.tau_C, loop.tau_m, loop.tau_link) = self.state[:12]
        loop.s = PlantState(s.t, q, qd, feet, feet_v)
        loop.F_applied = loop.F_feet if self.shared else np.zeros_like(loop.F_feet)
        self.route = self._per_step
        if isinstance(plant, HandrolledPlant):
            self.route = self._handrolled
        elif plant.implementation in ("mujoco", "pybullet"):
            self._engine_route(plant)
        self._native_forces(loop)
        fastloop.inputs(self.state, self.laws, loop.steps, loop.t)
        self.names = loop.signal_names()

    def _engine_route(self, plant: EnginePlant) -> None:
        """The compiled loop of an engine plant where its library is at hand (and, with
        MuJoCo's own contact, its contact list: MujocoSimulation.compiled_contacts), with
        what it reads gathered once; else the route stays per step."""
        sim = plant.sim
        if sim.compiled() is None:  # the engine's library is not at hand
            return
        from dynval.engines import chunk_args  # imports MuJoCo

        native = not self.shared
        # the planar model has no free root: only the contact list is needed
        if native and not chunk_args.contacts_readable(sim):  # no contact list: per step
            return
        links = tuple(plant.point_links)
        # the feet's rows of the engine's contact forces (none with the shared ground)
        self.native_rows, self.contacts = chunk_args.contact_args(sim, links, native)
        # the feet's centres: their points at zero offsets from their links
        self.plant = chunk_args.step_args(sim, links, np.zeros((len(links), 3)))
        self.route = self._pybullet if plant.implementation == "pybullet" else self._mujoco

    def _native_forces(self, loop: HexapodLoop) -> None:
        if not self.shared:  # the engine's own contact, read back
            loop.F_feet[:] = loop.plant.native_feet_forces()

    def advance(self, loop: HexapodLoop, count: int) -> None:
        # the Grunwald-Letnikov memory: room for every sample up to the last step's
        self.laws = fastloop.memory_room(self.laws, loop.p, (loop.steps + count) // self.ratio
                                         + 1)
        self.route(loop, count)

    def _per_step(self, loop: HexapodLoop, count: int) -> None:
        plant = loop.plant
        for _ in range(count):
            plant.step(loop.efforts(), world(loop.F_applied))
            loop.steps += 1
            t, *read = plant.read()
            self._native_forces(loop)
            # the arrays as the compiled loops pass them: one compiled after_step for all
            q, qd, feet, feet_v = (np.require(a, requirements=("C", "W")) for a in read)
            loop.drive.impacts += fastloop.after_step(self.state, self.laws, q, qd, feet,
                                                      feet_v, loop.steps, t)
            loop.t = t

    def _handrolled(self, loop: HexapodLoop, count: int) -> None:
        m = loop.plant.model
        t, hits = fastloop.handrolled_steps(self.state, self.laws, loop.n, loop.steps,
                                            loop.t, count)
        m.q, m.qd, m.t = loop.s.q.copy(), loop.s.qd.copy(), t
        self._done(loop, count, t, hits)

    def _mujoco(self, loop: HexapodLoop, count: int) -> None:
        from dynval.comparisons.hexapod.compiled import mujoco_steps  # imports MuJoCo

        sim = loop.plant.sim
        bad_before = sim.badqacc_count()
        _, hits = mujoco_steps(  # its clock: the same float sums as MuJoCo's
            self.plant, loop.plant.off, self.contacts, self.native_rows, self.state,
            self.laws, loop.steps, loop.t, count)
        sim.check_stable(bad_before)
        self._done(loop, count, sim.time, hits)

    def _pybullet(self, loop: HexapodLoop, count: int) -> None:
        from dynval.comparisons.hexapod.compiled import pybullet_steps

        sim = loop.plant.sim
        _, hits = pybullet_steps(  # its clock: the same float sums as sim.time's
            self.plant, loop.plant.off, self.native_rows, self.state, self.laws,
            loop.steps, loop.t, count)
        sim.compiled_steps_taken(count)
        self._done(loop, count, sim.time, hits)

    def signals(self, loop: HexapodLoop) -> dict[str, float]:
        values = fastloop.signal_values(self.state, self.laws, loop.n,
                                        float(loop.drive.impacts), loop.t)
        return dict(zip(self.names, values.tolist(), strict=True))

    @staticmethod
    def _done(loop: HexapodLoop, count: int, t: float, hits: int) -> None:
        loop.steps += count
        loop.t = t
        loop.drive.impacts += hits
