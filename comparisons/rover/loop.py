"""The rover closed loop for each implementation: the same wheel-soil law and the same
motor and steering code read each implementation's state (thesis coordinates, frame 0).

simcore.m's order within one 1 ms step: wheel forces from the current torques (slip from
(2.18)), the dynamics step, the PD power update every 100th step (10 Hz), then new
wheel torques from the wheel powers, the slips and the wheel speeds of this step.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from dynval.comparisons.ladder import plant
from dynval.comparisons.ladder.harness import DivergenceError, Samples
from dynval.comparisons.rover.compiled import (
    HEADING_RATE,
    LEFT_SOIL,
    Block,
    Drive,
    handrolled_samples,
    mujoco_samples,
    pybullet_samples,
    signal_values,
)
from dynval.comparisons.rover.frames import (
    R_0W,
    pose_from_q,
    thesis_coordinates,
    velocity_from_q,
)
from dynval.engines import chunk_args
from dynval.engines.base import FloatingState
from dynval.handrolled.rover.control import PowerSteering
from dynval.handrolled.rover.model import HandRolledRover
from dynval.handrolled.rover.wheel_contact import DIAGNOSTICS, N_DIAG, wheel_contacts
from dynval.handrolled.so3 import rot_z
from dynval.robots.rover.model_description import (
    description_stem,
    hub_site,
    segment_name,
    turning_joint_name,
)
from dynval.robots.rover.params import R_W0, SIDES, RoverParams, hub_positions

DIAG = {name: k for k, name in enumerate(DIAGNOSTICS)}
# Each wheel's recorded signals: its diagnostics (compiled.WHEEL_DIAG), torque and power
WHEEL_SIGNALS = ("sinkage", "slip", "slip_angle", "force.x", "force.y", "force.z", "torque",
                 "power")


class HandrolledPlant:
    """The hand-rolled model as the loop steps it: the thesis' model integrates eq. (3.32)
    with its wheel-soil forces computed inside its step (from its own hubs' states and the
    drive torques, as simcore.m does), so it takes the drive torques, not point forces."""

    implementation = "handrolled"

    def __init__(self, p: RoverParams, soil: tuple, rigid: bool, wheel_form: str = "corrected",
                 integrator: str = "euler") -> None:
        self.model = HandRolledRover(p, soil, wheel_form, integrator, rigid)
        self.dt = p.dt
        self.t = 0.0
        self._no_power = np.zeros((p.n_segments, 2))  # P's stand-in where torques are held

    def reset(self, q: np.ndarray, qd: np.ndarray) -> None:
        self.model.reset(q, qd)
        self.t = 0.0

    def state(self) -> tuple[np.ndarray, np.ndarray]:
        return self.model.q, self.model.qd

    def wheel_state(self, T_cmd: np.ndarray) -> np.ndarray:
        return self.model.wheel_state(T_cmd)

    def advance(self, T_cmd: np.ndarray) -> np.ndarray:
        diag = self.model.advance(T_cmd, self.dt)
        self.t += self.dt
        return diag

    @property
    def compiled(self) -> bool:
        """Whether :meth:`advance_many` is at hand (the Euler scheme)."""
        return not self.model.rk4

    def advance_many(self, T: np.ndarray, P: np.ndarray | None, n: int
                     ) -> tuple[np.ndarray, int]:
        """Up to n steps in one compiled call (:meth:`samples`, one chunk), T updated in
        place from the powers P after each step (P None: constant torques): (the last
        step's wheel diagnostics, steps taken; fewer where a wheel left the soil)."""
        return _one_chunk(self, self.model.p, T, P, n)

    def samples(self, chunks: np.ndarray, drive: Drive, block: Block, k: int) -> None:
        """RoverLoop.advance_samples' chunks from step k in one compiled call
        (compiled.handrolled_samples: HandRolledRover.advance's steps), the model and
        the clock (summed step by step as ``advance`` sums it) left where the last chunk
        ended."""
        m, p = self.model, self.model.p
        m.q, m.qd, m.qdd, self.t = handrolled_samples(
            m.q, m.qd, chunks, drive, block, k, self.t, p.dt, m.constants)
        m.diag = block.diag.copy()


def hub_points(p: RoverParams) -> list[plant.ContactPoint]:
    """The wheel hubs, segment by segment, each side: where the wheel-soil forces act."""
    n = p.n_segments
    return [plant.ContactPoint(f"{segment_name(i, n)}.{side}", segment_name(i, n),
                               tuple(hub_positions(p, i)[side]))
            for i in range(1, n + 1) for side in SIDES]


class EnginePlant(plant.SimulationPlant):
    """An engine simulation seen through the thesis' coordinates; the wheel forces come
    from :func:`wheel_contact` on the engine's own hub states and act at the hubs, its
    contact points."""

    def __init__(self, sim, p: RoverParams, soil: tuple) -> None:
        super().__init__(sim, hub_points(p))
        self.p = p
        self.soil = soil
        n = p.n_segments
        self.links = [segment_name(i, n) for i in range(1, n + 1)]
        self.n_turning = len(sim.state().q)
        self.heading = 0.0  # last heading q6, unwrapped: the engine pose gives it mod 2 pi
        # (q, qd, A, w_WB) a compiled chunk read: state() solves A x = w_WB for qd's rates
        self._read: tuple | None = None
        self._compiled = sim.compiled() if hasattr(sim, "compiled") else None
        self._no_power = np.zeros((n, 2))  # the powers a constant-torque drive passes
        if self._compiled is not None:  # the hubs, as the compiled samples read them
            self._plant = chunk_args.step_args(sim, self.point_links, self.point_offsets)

    @property
    def t(self) -> float:
        return self.sim.time

    def reset(self, q: np.ndarray, qd: np.ndarray) -> None:
        p_W6, R_W6 = pose_from_q(q)
        v_W6, w_W6 = velocity_from_q(q, qd)
        k = self.n_turning
        self.heading = float(q[5])
        self._read = None
        self.sim.reset(FloatingState(p_W6, R_W6, v_W6, w_W6, q[6:6 + k].copy(),
                                     qd[6:6 + k].copy()))

    def state(self) -> tuple[np.ndarray, np.ndarray]:
        """(q, qd) in the thesis' coordinates: :func:`q_from_pose` and
        :func:`qd_from_velocity` on the engine's state, q6 following the heading past
        +-pi (the hand-rolled q6 is a joint that winds on a circle), in one compiled call
        (frames.thesis_coordinates) and numpy's solve for the base rates; read once after
        a compiled chunk, which brings it (:meth:`advance_many`)."""
        if self._read is not None:
            q, qd, A, w_WB = self._read
            if A is not None:
                qd[3:6] = np.linalg.solve(A, w_WB)
                self._read = q, qd, None, None
            return q, qd
        s = self.sim.state()  # read-only arrays: copies, the type compiled chunks pass
        q, qd, A, self.heading = thesis_coordinates(
            *(np.array(a) for a in (s.p_WB, s.R_WB, s.v_WB_W, s.q, s.qd)), self.heading,
            self.p.n_segments - 1)
        qd[3:6] = np.linalg.solve(A, s.w_WB_W)
        return q, qd

    def wheel_state(self, T_cmd: np.ndarray) -> np.ndarray:
        return self._wheel_forces(T_cmd)[0]

    def advance(self, T_cmd: np.ndarray) -> np.ndarray:
        diag, F_W = self._wheel_forces(T_cmd)
        self._read = None
        self.step(np.zeros(self.n_turning), F_W)
        return diag

    @property
    def compiled(self) -> bool:
        """Whether :meth:`advance_many` runs compiled (the engine's C library at hand)."""
        return self._compiled is not None

    def advance_many(self, T: np.ndarray, P: np.ndarray | None, n: int
                     ) -> tuple[np.ndarray, int]:
        """Up to n steps in compiled code (:meth:`samples`, one chunk), T updated in place
        from the powers P after each step (P None: constant torques): (the last step's
        wheel diagnostics, steps taken; fewer where a wheel left the soil). The state
        after them comes back with them, read as :meth:`state` reads it, and is what
        :meth:`state` returns until the next step or reset."""
        return _one_chunk(self, self.p, T, P, n)

    def samples(self, chunks: np.ndarray, drive: Drive, block: Block, k: int) -> None:
        """RoverLoop.advance_samples' chunks from step k in one compiled call
        (compiled.mujoco_samples, pybullet_samples), the engine's clock and the state
        left where the last chunk ended; raises the EngineInstabilityError of
        :meth:`advance_many` where MuJoCo reset the simulation."""
        sim, p = self.sim, self.p
        if sim.name == "mujoco":
            bad = sim.badqacc_count()
            read = mujoco_samples(
                self._plant, sim.badqacc_counter(), chunks, drive, block, k, sim.time, p.dt,
                p.b, p.D, self.soil, self.heading, p.n_segments - 1)
            sim.check_stable(bad)
        else:
            read = pybullet_samples(
                self._plant, len(self.links), chunks, drive, block, k, sim.time, p.dt, p.b,
                p.D, self.soil, self.heading)
            sim.compiled_steps_taken(int(block.steps[0]))
        *self._read, self.heading = read

    def law_inputs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """What the wheel-soil law reads at the engine's current state: the hubs' positions,
        their links' attitudes and the hubs' velocities in frame 0 (the hubs read from the
        engine in one call)."""
        s = self.sim.state()
        P_W, V_W = self.points()
        R_0link = np.empty((len(self.point_links), 3, 3))
        R_W = s.R_WB
        for i in range(len(self.links)):
            if i > 0 and len(s.q) >= i:
                R_W = R_W @ rot_z(s.q[i - 1])
            R_0link[2 * i:2 * i + 2] = R_0W @ R_W
        # R_0W is a signed permutation: these frame changes are exact in any order
        return P_W @ R_W0, R_0link, V_W @ R_W0

    def _wheel_forces(self, T_cmd: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Diagnostics and world hub forces of every wheel at the engine's current state
        (the wheel-soil law run in one call on :meth:`law_inputs`)."""
        F_0, diag = wheel_contacts(*self.law_inputs(), T_cmd.ravel(), self.p.r, self.p.b,
                                   self.p.D, self.soil)
        return diag.reshape(len(self.links), 2, N_DIAG), F_0 @ R_0W


def make_plant(implementation: str, p: RoverParams, soil: tuple, rigid: bool,
               desc_dir: Path, wheel_form: str = "corrected", integrator: str = "euler"):
    """A plant of the named implementation, loading engine descriptions from desc_dir."""
    if implementation == "handrolled":
        return HandrolledPlant(p, soil, rigid, wheel_form, integrator)
    stem = description_stem("rover_rigid" if rigid else "rover", p.rover)
    joints = [] if rigid else [turning_joint_name(i) for i in range(1, p.n_segments)]
    return EnginePlant(plant.simulation(implementation, desc_dir, stem, joints, p.dt,
                                        (0.0, 0.0, -p.g)), p, soil)


class WheelLeftSoilError(DivergenceError):
    """A wheel lost contact with the soil: the wheel-soil law no longer applies."""


class RoverLoop:
    """Plant + wheel drive (torque from power) + optional PD steering (5.2)-(5.3).
    ``fast`` (the default): the plant's compiled chunks and samples where it offers them;
    False: step by step from Python (the plant's ``advance``, the torques and the steering
    in Python), the path the compiled one is held to."""

    def __init__(self, plant, p: RoverParams, T0: np.ndarray, P0: np.ndarray | None,
                 steering: PowerSteering | None, fast: bool = True) -> None:
        self.plant = plant
        self.p = p
        self.implementation = plant.implementation
        self.T = np.array(T0, dtype=float)
        self.P = None if P0 is None else np.array(P0, dtype=float)
        self.steering = steering
        self.k = 0
        self.t = 0.0
        self._names: list[str] | None = None
        self._compiled = fast and getattr(plant, "compiled", False)  # fixed here
        self._no_power = np.zeros_like(self.T)  # P's stand-in where the torques are held
        self.diag = plant.wheel_state(self.T)
        self.q, self.qd = plant.state()

    def advance(self) -> None:
        self.advance_many(1)

    def advance_many(self, n: int) -> None:
        """n steps: a chunk at a time in compiled code where the plant offers it, each
        chunk ending where the PD steering updates the powers (every ``every`` steps, in
        Python); else step by step."""
        while n > 0:
            m = n if self.steering is None else min(
                n, self.steering.every - self.k % self.steering.every)
            if self._compiled:
                self.diag, done = self.plant.advance_many(self.T, self.P, m)
            else:
                done = self._python_steps(m)
            self.k += done
            n -= done
            self.t = self.plant.t
            self.q, self.qd = self.plant.state()
            self._check_soil()
            if self.P is not None and self.steering is not None \
                    and self.k % self.steering.every == 0:
                self.P = self.steering.powers(self.t, self.q, self.qd)
                self.T = self.steering_torques()

    @property
    def advance_samples(self) -> Callable[[np.ndarray], Samples] | None:
        """:meth:`samples`, where the plant runs compiled chunks (harness.run takes it)."""
        return self.samples if self._compiled else None

    def samples(self, chunks: np.ndarray) -> Samples:
        """The chunks of :meth:`advance_many` (steps between samples), the steering and
        the sample after each, in one compiled call (harness.ClosedLoop.advance_samples):
        the same numbers. The loop is left at its last sample, or where the exception
        that ended the chunks (returned, not raised) arose."""
        if self._names is None:
            self._names = self.signal_names()
        st = self.steering
        block = Block.sized(len(chunks), self.p.n_segments, self.P is not None)
        drive = Drive(self.T, self._no_power if self.P is None else self.P,
                      self.P is not None, float(self.p.r), st is not None,
                      self._no_power if st is None else st.P_nom,
                      0.0 if st is None else float(st.K_p),
                      0.0 if st is None else float(st.K_d),
                      np.zeros((0, 3)) if st is None else st.command,
                      1 if st is None else int(st.every))
        t_before = self.t
        try:
            self.plant.samples(chunks, drive, block, self.k)
            error = None
        except Exception as exc:  # noqa: BLE001 - the harness raises it after the samples
            error = exc
        rows = int(block.count[0])
        if isinstance(self.plant, EnginePlant) and rows:  # the heading rates: numpy's solve
            rows, failed = _heading_rates(block, rows)
            if failed is not None:  # as advance_many's state() would, after that chunk
                self.t = float(block.t[rows])
                return Samples(block.t[:rows], block.values[:rows], failed)
        if error is not None:
            self.t = float(block.t[rows - 1]) if rows else t_before
            return Samples(block.t[:rows], block.values[:rows], error)
        self.k += int(block.steps[0])
        self.t = self.plant.t
        self.q, self.qd = self.plant.state()
        self.diag = block.diag.copy()
        if block.stop[0] == LEFT_SOIL:
            try:
                self._check_soil()
            except WheelLeftSoilError as exc:
                error = exc
        return Samples(block.t[:rows], block.values[:rows], error)

    def _python_steps(self, n: int) -> int:
        """Up to n steps of the plant, the torques from the powers after each; stops after
        a step in which a wheel left the soil. Returns the steps taken."""
        for k in range(n):
            self.diag = self.plant.advance(self.T)
            if (self.diag[:, :, DIAG["sinkage"]] <= 0.0).any():
                return k + 1
            if self.P is not None:
                self.T = self.steering_torques()
        return n

    def _check_soil(self) -> None:
        out = self.diag[:, :, DIAG["sinkage"]] <= 0.0
        if out.any():
            i, j = np.argwhere(out)[0]
            raise WheelLeftSoilError(
                f"{self.implementation}: wheel {segment_name(i + 1, self.p.n_segments)}_"
                f"{SIDES[j]} left the soil at t = {self.plant.t:.3f} s (the thesis stops its "
                "simulation there too)")

    def steering_torques(self) -> np.ndarray:
        from dynval.handrolled.rover.terramechanics import torques_from_power

        d = self.diag
        return torques_from_power(np.ascontiguousarray(self.P), d[:, :, DIAG["slip"]].copy(),
                                  d[:, :, DIAG["v_x"]].copy(), self.p.r)

    def signal_names(self) -> list[str]:
        """The recorded signals' names, in the order of :meth:`signals`."""
        n = self.p.n_segments
        out = ["rover.x", "rover.y", "rover.height", "rover.pitch", "rover.roll",
               "rover.heading", "rover.speed", "rover.heading_rate"]
        for i in range(1, n):
            out += [f"joint.{turning_joint_name(i)}.{v}" for v in ("angle", "rate")]
        wheel_signals = WHEEL_SIGNALS if self.P is not None else WHEEL_SIGNALS[:-1]
        for i in range(n):
            for side in SIDES:
                w = f"wheel.{segment_name(i + 1, n)}_{side}"
                out += [f"{w}.{v}" for v in wheel_signals]
        return out

    def signals(self) -> dict[str, float]:
        """The rover's pose and rates, the turning joints and every wheel's diagnostics,
        torque (and power), named by :meth:`signal_names` (made once), the values read in
        one compiled call (compiled.signal_values)."""
        if self._names is None:
            self._names = self.signal_names()
        q, qd = self.q, self.qd
        values = signal_values(q, qd, float(np.hypot(qd[0], qd[2])), self.diag, self.T,
                               self._no_power if self.P is None else self.P,
                               self.P is not None)
        return dict(zip(self._names, values.tolist(), strict=True))


def _one_chunk(plant: HandrolledPlant | EnginePlant, p: RoverParams, T: np.ndarray,
               P: np.ndarray | None, n: int) -> tuple[np.ndarray, int]:
    """A plant's ``advance_many``: its compiled samples of one chunk of n steps, the
    torques T held or, with the powers P, updated after each step: (the last step's wheel
    diagnostics, steps taken)."""
    block = Block.sized(1, p.n_segments, P is not None)
    plant.samples(np.array([n], dtype=np.int64), Drive.held(T, P, plant._no_power, p.r),
                  block, 0)
    return block.diag.copy(), int(block.steps[0])


def _heading_rates(block: Block, rows: int) -> tuple[int, Exception | None]:
    """Fill the heading rate of an engine's samples (the base rates' numpy solve of
    A x = w, EnginePlant.state's); where a sample's A is singular, the rows before it
    and the LinAlgError that state() raised there."""
    try:
        rates = np.linalg.solve(block.A[:rows], block.w[:rows, :, None])
    except np.linalg.LinAlgError:
        for i in range(rows):
            try:
                np.linalg.solve(block.A[i], block.w[i])
            except np.linalg.LinAlgError as exc:
                return i, exc
        raise
    block.values[:rows, HEADING_RATE] = rates[:, 2, 0]
    return rows, None


__all__ = ["EnginePlant", "HandrolledPlant", "RoverLoop", "hub_site", "make_plant"]
