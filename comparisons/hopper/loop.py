"""The hopper closed loop for each implementation: the same Raibert controller, leg
spring and (in shared mode) the same contact law (24)-(25) read each implementation's
state in the planar coordinates (x, z, phi, theta_1, r) of robots/hopper/FRAMES.md.
The loop runs as compiled chunks (``HopperLoop.advance_many``: handrolled/hopper/
fastloop.py, comparisons/hopper/compiled.py, with the shared contact law or an engine's
own), the same floats as ``advance()`` step by step."""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

import numpy as np

from dynval.comparisons.hopper.compiled import EngineChunks
from dynval.comparisons.ladder import plant
from dynval.comparisons.ladder.harness import Samples
from dynval.engines import EngineInstabilityError
from dynval.engines.base import FloatingState, Ground
from dynval.handrolled.hopper import chain, contact, soa
from dynval.handrolled.hopper.control import ControllerState, Observation, RaibertController
from dynval.handrolled.hopper.fast import loop as fastloop
from dynval.handrolled.hopper.fast.recursive import Recursive
from dynval.handrolled.hopper.model import PlanarHopper
from dynval.robots.hopper.params import HopperParams

JOINT_NAMES = ["hip", "leg"]
ORIGIN = np.zeros(3)
_LEG, _FOOT = ("leg",), ORIGIN.reshape(1, 3)  # the foot: the leg link's origin
FOOT = plant.ContactPoint("foot", "leg")
_NO_SAMPLES = np.empty((0, fastloop.SAMPLE))


class PlantState(NamedTuple):  # immutable, and made in a fraction of a frozen dataclass's time
    """Planar coordinates and rates, the foot's (x, z) position and velocity, and the
    body's out-of-plane offset y (zero by symmetry; recorded to show it), as lists of
    Python floats (what the laws read: a numpy scalar costs more in every sum)."""

    t: float
    q: list[float]
    qd: list[float]
    foot: list[float]
    foot_v: list[float]
    y: float = 0.0


def R_WB_of_pitch(phi: float) -> np.ndarray:
    """Body attitude for a pitch phi counter-clockwise in the x-z plane (about -y)."""
    c, s = math.cos(phi), math.sin(phi)
    return np.array([[c, 0.0, -s], [0.0, 1.0, 0.0], [s, 0.0, c]])


def pitch_of_R_WB(R_00: float, R_20: float) -> float:
    """Inverse of :func:`R_WB_of_pitch` from two entries of R_WB (the body's x axis is
    (cos phi, 0, sin phi))."""
    return math.atan2(R_20, R_00)


class _PlanarPlant:
    """What the hand-rolled plants share: the contract's reads in the planar coordinates
    (x, z, phi, theta_1, r), the foot as the one contact point (:meth:`observe` gives
    both)."""

    implementation = "handrolled"
    dt: float
    observe: Callable[[], PlantState]

    def joint_state(self) -> tuple[np.ndarray, np.ndarray]:
        s = self.observe()
        return np.array(s.q), np.array(s.qd)

    def points(self) -> tuple[np.ndarray, np.ndarray]:
        s = self.observe()
        return planar_to_world(s.foot), planar_to_world(s.foot_v)


class HandrolledPlant(_PlanarPlant):
    """The planar SOA model (handrolled/hopper/model.py: eq. (19) by the operator products
    the paper builds) on the plant contract."""

    def __init__(self, p: HopperParams, form: str = "corrected") -> None:
        self.model = PlanarHopper(p, form)
        self.dt = p.dt

    def reset(self, q: np.ndarray, qd: np.ndarray) -> None:
        self.model.reset(q, qd)

    def observe(self) -> PlantState:
        m = self.model
        return _hand_state(m.time, m.q, m.qd, m.foot())

    def step(self, tau: np.ndarray, F: np.ndarray | None) -> None:
        """One step under the joints' efforts tau = (hip torque, leg force) and the world
        force F on the foot (1 x 3; None: none)."""
        self.model.step(tau[0], tau[1], np.zeros(3) if F is None else np.asarray(F[0], float))


class CompiledHandPlant(_PlanarPlant):
    """The hand-rolled model as its compiled copy steps it (handrolled/hopper/fast: eq.
    (19)'s terms by the recursions, one semi-implicit Euler step a call): the state the
    loop's compiled chunks advance (``HopperLoop._chunk``) or a step at a time."""

    def __init__(self, p: HopperParams, form: str = "corrected") -> None:
        soa.check_form(form)
        self.dt, self.form = p.dt, form
        self.terms = Recursive(chain.planar(p))
        self.Vd_base = soa.gravity_acceleration(p.g)
        self.reset(np.zeros(5), np.zeros(5))

    def reset(self, q: np.ndarray, qd: np.ndarray) -> None:
        self.q, self.qd, self.time = np.array(q, float), np.array(qd, float), 0.0
        self.foot = self.terms.tip(self.q, self.qd)

    def observe(self) -> PlantState:
        return _hand_state(self.time, self.q, self.qd, self.foot)

    def step(self, tau: np.ndarray, F: np.ndarray | None) -> None:
        """:meth:`HandrolledPlant.step` by the recursions."""
        F_t = np.zeros(6)
        if F is not None:
            F_t[3:] = -np.asarray(F[0], float)
        self.q, self.qd, *self.foot = self.terms.euler_step(
            self.q, self.qd, np.array([0.0, 0.0, 0.0, tau[0], tau[1]]), self.Vd_base, F_t,
            self.dt, self.form == "printed")
        self.time += self.dt


def _hand_state(t: float, q: np.ndarray, qd: np.ndarray, foot: tuple) -> PlantState:
    """A hand-rolled plant's state in the planar coordinates (the foot's x and z)."""
    p, v = foot
    return PlantState(t, q.tolist(), qd.tolist(), p[0::2].tolist(), v[0::2].tolist())


def planar_to_world(planar: list[float]) -> np.ndarray:
    """A planar (x, z) vector of the foot as a world vector, 1 x 3."""
    return np.array([[planar[0], 0.0, planar[1]]])


class EnginePlant(plant.SimulationPlant):
    """An engine's free-base hopper seen in the planar coordinates; the foot, the leg
    link's origin, is its contact point."""

    def __init__(self, sim) -> None:
        super().__init__(sim, [FOOT])

    def reset(self, q: np.ndarray, qd: np.ndarray) -> None:
        x, z, phi, th, r = q
        self.sim.reset(FloatingState(np.array([x, 0.0, z]), R_WB_of_pitch(phi),
                                     np.array([qd[0], 0.0, qd[1]]),
                                     np.array([0.0, -qd[2], 0.0]),
                                     np.array([th, r]), np.array(qd[3:5])))

    def observe(self) -> PlantState:
        return self.plant_state(self.sim.flat_state(_LEG, _FOOT))

    def plant_state(self, flat: np.ndarray) -> PlantState:
        """The state and the foot point read together (flat_state: one array, its layout
        p_WB, R_WB by rows, v_WB, w_WB, (theta_1, r), their rates, foot p, foot v), as
        Python floats."""
        f = flat.tolist()
        x, y, z = f[0], f[1], f[2]
        return PlantState(self.sim.time, [x, z, pitch_of_R_WB(f[3], f[9]), f[18], f[19]],
                          [f[12], f[14], -f[16], f[20], f[21]], [f[22], f[24]],
                          [f[25], f[27]], y)

    joint_state = _PlanarPlant.joint_state  # the planar coordinates, as the hand plants'

    def native_foot_force(self) -> np.ndarray:
        """The engine's own ground force on the foot, (x, z)."""
        return self.native_forces()[0][[0, 2]]


def native_ground(p: HopperParams) -> Ground:
    """The ground plane for native contact, lowered by the foot radius so that contact
    begins when the foot point reaches x_1 as in eq. (24); stiffness and damping are eq.
    (24)'s at the static penetration (e k delta^(e-1), c_max); MuJoCo's are scaled by the
    foot's own apparent mass at the start (the unsprung leg the contact stops first)."""
    n = np.array([0.0, 0.0, 1.0])
    return Ground(n, (p.x_1 - p.foot_radius) * n, contact.contact_stiffness(p), p.c_max, p.mu,
                  None, ("foot",))


def make_plant(implementation: str, p: HopperParams, contact_mode: str, desc_dir: Path,
               form: str = "corrected", fast: bool = True):
    """A plant of the named implementation, loading engine descriptions from desc_dir
    (``form``: the hand-rolled model's bias of eq. (12), see PlanarHopper; ``fast``: its
    compiled copy)."""
    if implementation == "handrolled":
        if contact_mode != "shared":
            raise ValueError("the hand-rolled model has no native contact; use contact 'shared'")
        return CompiledHandPlant(p, form) if fast else HandrolledPlant(p, form)
    ground = native_ground(p) if contact_mode == "native" else None
    return EnginePlant(plant.simulation(implementation, desc_dir, "hopper", JOINT_NAMES, p.dt,
                                        (0.0, 0.0, -p.g), ground, ("leg",)))


class Piecewise:
    """A step reference: each value held from its time on (the first before them);
    ``steps``: (from time [s], value) pairs, times ascending."""

    def __init__(self, steps: Sequence[tuple[float, float]]) -> None:
        self.times = [float(t) for t, _ in steps]
        self.values = [v for _, v in steps]

    def __call__(self, t: float) -> float:
        # bisect_right is searchsorted(side="right") without an array call per step
        return self.values[max(0, bisect.bisect_right(self.times, t) - 1)]


class HopperLoop:
    """Controller + leg spring + contact + plant; ``contact_mode`` is "shared" (eqs. 24-25
    evaluated here from the plant's foot state) or "native" (the engine's own).  ``fast``
    (the default): :meth:`advance_many` runs the loop as compiled chunks (the hand-rolled
    plant's recursive terms, and the engines where their compiled calls are at hand, with
    either contact); False: ``advance()`` step by step, the Python path."""

    def __init__(self, plant, p: HopperParams, contact_mode: str, h_d: Piecewise,
                 x_dot_d: Piecewise, controlled: bool = True, attitude_sign: float = 1.0,
                 fast: bool = True) -> None:
        self.plant = plant
        self.p = p
        self.fast = fast
        self._chunks: EngineChunks | bool | None = None
        self.implementation = plant.implementation
        self.contact_mode = contact_mode
        self.h_d, self.x_dot_d = h_d, x_dot_d
        self.controller = RaibertController(p, p.z_0, attitude_sign, controlled)
        self.steps = 0
        self.tau_hip, self.u = 0.0, 0.0
        self.F_min = math.inf  # the least normal force while in contact
        self.s = plant.observe()
        self.t = self.s.t
        self._update_inputs()

    def _ground_force(self, foot: list[float], foot_v: list[float]) -> np.ndarray:
        if self.contact_mode == "native":
            return self.plant.native_foot_force()
        F_n = contact.normal_force(foot[1], foot_v[1], self.p)  # eq. (24)
        return np.array([contact.friction_force(F_n, foot_v[0], self.p), F_n])  # eq. (25)

    def _update_inputs(self) -> None:
        # the laws read Python floats (the arrays' values; numpy scalars cost more a sum)
        s, p = self.s, self.p
        q, qd, foot = s.q, s.qd, s.foot
        self.F_foot = self._ground_force(foot, s.foot_v)
        F_n = float(self.F_foot[1])
        touching = foot[1] < p.x_1 if self.contact_mode == "shared" else F_n > 0.0
        if touching:
            self.F_min = min(self.F_min, F_n)
        if self.steps % p.control_every == 0:  # controller sampling
            o = Observation(*q, *qd, touching)
            self.tau_hip, self.u = self.controller.step(o, self.h_d(self.t), self.x_dot_d(self.t))
        self.F_leg = contact.leg_force(q[4], qd[4], self.u, p)

    def advance(self) -> None:
        applied = planar_to_world(self.F_foot) if self.contact_mode == "shared" else None
        self.plant.step(np.array([self.tau_hip, self.F_leg]), applied)
        self.steps += 1
        self.s = self.plant.observe()
        self.t = self.s.t
        self._update_inputs()

    def _compiled(self) -> tuple | None:
        """(the chunks' laws, the controller's setting, the engine's chunks or None for the
        hand-rolled plant), made once; None: step by step in Python (``fast`` off, the
        readable hand-rolled plant, an engine's compiled calls (with native contact, its
        contact list) not at hand, or a reference that is not a Piecewise)."""
        if self._chunks is None:
            plant, p = self.plant, self.p
            refs = (self.h_d, self.x_dot_d)
            native = self.contact_mode == "native"
            ok = self.fast and all(isinstance(r, Piecewise) for r in refs)
            engine = None
            if isinstance(plant, HandrolledPlant):  # the readable model: Python, step by step
                ok = False
            elif isinstance(plant, CompiledHandPlant):
                ok = ok and not native
            elif ok and (EngineChunks.native_available(plant.sim) if native
                         else EngineChunks.available(plant.sim)):
                engine = EngineChunks(plant.sim, _LEG[0], p.dt, native)
            else:
                ok = False
            c = self.controller
            control = (int(p.control_every), float(c.attitude_sign), bool(c.active),
                       *(np.array(a, dtype=float) for r in refs for a in (r.times, r.values)))
            # plain tuples: the chunks name them (fastloop.Laws, fastloop.Control)
            self._chunks = (tuple(fastloop.laws(p)), control, engine) if ok else False
        return self._chunks or None

    def engine_points(self) -> tuple[list[str], np.ndarray] | None:
        """(links, offsets): the points an engine plant's compiled chunks read and push on
        each step (the benchmarks time the engine side of a step with them); None where
        the loop does not run as compiled engine chunks."""
        compiled = self._compiled()
        return compiled[2].points if compiled and compiled[2] else None

    def advance_many(self, n: int) -> None:
        """``n`` calls of ``advance``; with ``fast``, as one compiled chunk
        (handrolled/hopper/fastloop.run_chunk, or the engine's comparisons/hopper/
        compiled.py): the same laws and engine calls in the same order, the same floats."""
        compiled = self._compiled()
        if compiled is None:
            for _ in range(n):
                self.advance()
            return
        self._chunk(compiled, n, 1, _NO_SAMPLES)

    @property
    def advance_samples(self) -> Callable[[np.ndarray], Samples] | None:
        """:meth:`samples`, where the loop runs as the hand-rolled plant's compiled chunks
        (harness.run takes it)."""
        compiled = self._compiled()
        return self.samples if compiled is not None and compiled[2] is None else None

    def samples(self, chunks: np.ndarray) -> Samples:
        """The chunks of :meth:`advance_many` and the sample after each
        (harness.ClosedLoop.advance_samples): each run of equal chunks as one compiled
        chunk recording a row (the time, then :meth:`signals`' values in its order) after
        every chunk of it. A compiled chunk that raises leaves the loop as it was; its
        chunks are then taken one at a time, so that the loop stops where the error
        arises, and the error is returned with the samples before it."""
        compiled = self._compiled()
        rows = np.empty((len(chunks), fastloop.SAMPLE))
        i = 0
        while i < len(chunks):
            j = i + 1
            while j < len(chunks) and chunks[j] == chunks[i]:
                j += 1
            try:
                self._chunk(compiled, int(chunks[i]) * (j - i), int(chunks[i]), rows[i:j])
            except (EngineInstabilityError, np.linalg.LinAlgError):
                for k in range(i, j):  # the same steps again, a chunk at a time
                    try:
                        self._chunk(compiled, int(chunks[k]), int(chunks[k]), rows[k:k + 1])
                    except (EngineInstabilityError, np.linalg.LinAlgError) as exc:
                        return Samples(rows[:k, 0].copy(), rows[:k, 1:].copy(), exc)
            i = j
        return Samples(rows[:, 0].copy(), rows[:, 1:].copy())

    def _chunk(self, compiled: tuple, n: int, every: int, rows: np.ndarray) -> None:
        """:meth:`advance_many`'s compiled chunk of n steps (the hand-rolled plant's
        recording its samples into ``rows``, see fastloop.run_chunk)."""
        laws, control, engine = compiled
        plant = self.plant
        s = (self.steps, float(self.tau_hip), float(self.u), float(self.F_leg),
             float(self.F_foot[0]), float(self.F_foot[1]), float(self.F_min),
             tuple(self.controller.state))
        if engine is None:
            s, t, plant.q, plant.qd, *foot = fastloop.run_chunk(
                s, self.t, plant.q, plant.qd, plant.terms._args, plant.Vd_base, self.p.dt,
                0.0 if plant.form == "printed" else 1.0, laws, control, n, every, rows)
            plant.foot, plant.time = tuple(foot), t
            self.s = plant.observe()
        else:
            s, flat = engine.run(s, self.t, laws, control, n)
            self.s = plant.plant_state(flat)  # what observe() would read
        self.steps, self.tau_hip, self.u, self.F_leg, F_x, F_n, self.F_min, k = s
        self.F_foot = np.array([F_x, F_n])
        self.controller.state = ControllerState(*k)
        self.t = self.s.t

    def signals(self) -> dict[str, float]:
        s = self.s
        return {
            "com.x": s.q[0], "com.z": s.q[1], "com.vx": s.qd[0], "com.vz": s.qd[1],
            "body.pitch": s.q[2], "body.pitch_rate": s.qd[2], "body.y": s.y,
            "joint.hip.angle": s.q[3], "joint.hip.rate": s.qd[3],
            "joint.hip.torque": self.tau_hip,
            "joint.leg.extension": s.q[4], "joint.leg.extension_rate": s.qd[4],
            "joint.leg.force": self.F_leg,
            "foot.x": s.foot[0], "foot.z": s.foot[1],
            "foot.force.normal": self.F_foot[1], "foot.force.x": self.F_foot[0],
            "hopper.phase": float(self.controller.phase), "hopper.thrust": self.u,
            "hopper.height_ref": self.h_d(self.t), "hopper.speed_ref": self.x_dot_d(self.t),
        }
