"""The hopper's closed loop, compiled chunk by chunk: the steps of ``HopperLoop.advance``
(comparisons/hopper/loop.py) for a number of steps without returning to Python.  What
follows an observation (:func:`update_inputs`: the contact law (24)-(25), or an engine's
own contact force (:func:`after_native_step`), then the controller sampled every
``control_every`` steps and the leg spring) calls the very functions the Python path
calls (contact.py, control.raibert_step), compiled from their source, so the floats are
the same (tests/test_hopper_fast_paths.py); it is shared by the hand-rolled chunk
(:func:`run_chunk`) and the engines' (comparisons/hopper/compiled.py).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from dynval._numba_cache import njit
from dynval.handrolled.hopper import contact
from dynval.handrolled.hopper.control import ControllerState, Observation, raibert_step
from dynval.handrolled.hopper.fast.recursive import euler_step
from dynval.robots.hopper.params import HopperParams


class Laws(NamedTuple):
    """The parameters the contact laws and the controller read, as floats (a tuple numba
    takes, so that one compiled chunk serves every parameter set)."""

    x_1: float
    k_c: float
    e: float
    c_max: float
    d: float
    pull_clipped: float
    mu: float
    v_eps: float
    k_L: float
    r_0: float
    k_stop: float
    b_stop: float
    k_h: float
    dl_min: float
    dl_max: float
    T_s: float
    k_x: float
    k_p_f: float
    k_v_f: float
    k_p_s: float
    k_v_s: float
    tau_max: float


def laws(p: HopperParams) -> Laws:
    """The fields of ``p`` that the laws read."""
    return Laws(*(float(getattr(p, name)) for name in Laws._fields))


class LoopState(NamedTuple):
    """What HopperLoop carries from one step to the next: the steps taken, the inputs of
    the next step (hip torque, thrust u, leg force, the foot's ground force (x, z)), the
    least normal force while in contact, and the controller's state."""

    steps: int
    tau_hip: float
    u: float
    F_leg: float
    F_x: float
    F_n: float
    F_min: float
    controller: ControllerState


class Control(NamedTuple):
    """The controller's setting: sampled every ``every`` steps, eq. (23)'s ``sign``,
    ``active`` (False: no torque, no thrust), and the references h_d(t), x_dot_d(t) as
    steps (values from their times on; times ascending)."""

    every: int
    sign: float
    active: bool
    h_times: np.ndarray
    h_values: np.ndarray
    v_times: np.ndarray
    v_values: np.ndarray


@njit(cache=True)
def named(s: tuple, p: tuple, c: tuple) -> tuple[LoopState, Laws, Control]:
    """The chunks' arguments named: they take the loop's state (LoopState's fields, the
    controller's state a tuple too), Laws and Control as plain tuples, which numba's
    dispatcher types several times faster than named ones."""
    return LoopState(*s[:7], ControllerState(*s[7])), Laws(*p), Control(*c)


@njit(cache=True)
def plain(s: LoopState) -> tuple:
    """``s`` as the plain tuples the chunks return (see :func:`named`)."""
    k = s.controller
    return (s.steps, s.tau_hip, s.u, s.F_leg, s.F_x, s.F_n, s.F_min,
            (k.phase, k.rising, k.h_max, k.dl, k.touchdowns))


@njit(cache=True)
def reference(times: np.ndarray, values: np.ndarray, t: float) -> float:
    """The step reference at t: the value from the last time <= t on (the first before
    them), as comparisons/hopper/loop.Piecewise finds it (bisect_right)."""
    return values[max(0, np.searchsorted(times, t, side="right") - 1)]


@njit(cache=True)
def update_inputs(s: LoopState, t: float, obs: np.ndarray, p: Laws, c: Control
                  ) -> LoopState:
    """HopperLoop._update_inputs with the shared contact law, from an observation at time
    ``t``: obs = (x, z, phi, theta_1, r), their rates, the foot's (x, z) and its velocity
    (14 floats, PlantState's order)."""
    F_n = contact.normal_force(obs[11], obs[13], p)  # eq. (24)
    F_x = contact.friction_force(F_n, obs[12], p)  # eq. (25)
    return update_controls(s, t, obs, F_x, F_n, obs[11] < p.x_1, p, c)


@njit(cache=True)
def update_controls(s: LoopState, t: float, obs: np.ndarray, F_x: float, F_n: float,
                    touching: bool, p: Laws, c: Control) -> LoopState:
    """What HopperLoop._update_inputs does with the foot's ground force (F_x, F_n) and
    whether the foot touches: the least normal force in contact, the controller sampled
    every ``c.every`` steps, the leg spring."""
    F_min = min(s.F_min, F_n) if touching else s.F_min
    state, tau_hip, u = s.controller, s.tau_hip, s.u
    if s.steps % c.every == 0:  # controller sampling
        o = Observation(obs[0], obs[1], obs[2], obs[3], obs[4], obs[5], obs[6], obs[7],
                        obs[8], obs[9], touching)
        state, tau_hip, u = raibert_step(state, o, reference(c.h_times, c.h_values, t),
                                         reference(c.v_times, c.v_values, t), 0.0, p,
                                         c.sign, c.active)
    F_leg = contact.leg_force(obs[4], obs[9], u, p)
    return LoopState(s.steps, tau_hip, u, F_leg, F_x, F_n, F_min, state)


@njit(cache=True, inline="always")
def _counted(s: LoopState) -> LoopState:
    """``s`` with one more step taken."""
    return LoopState(s.steps + 1, s.tau_hip, s.u, s.F_leg, s.F_x, s.F_n, s.F_min,
                     s.controller)


@njit(cache=True)
def after_step(s: LoopState, t: float, obs: np.ndarray, p: Laws, c: Control) -> LoopState:
    """What HopperLoop.advance does after the plant's step: the step counted, then
    :func:`update_inputs` from the new observation."""
    return update_inputs(_counted(s), t, obs, p, c)


@njit(cache=True)
def after_native_step(s: LoopState, t: float, obs: np.ndarray, F_x: float, F_n: float,
                      p: Laws, c: Control) -> LoopState:
    """:func:`after_step` with an engine's own contact: its force on the foot (F_x, F_n),
    the foot in contact while the ground pushes (F_n > 0), as HopperLoop._update_inputs
    reads them."""
    return update_controls(_counted(s), t, obs, F_x, F_n, F_n > 0.0, p, c)


SAMPLE = 22  # a recorded sample: the time, then HopperLoop.signals' 21 values


@njit(cache=True)
def _sample(row: np.ndarray, t: float, obs: np.ndarray, s: LoopState, c: Control) -> None:
    """The sample at t into ``row``: t, then what HopperLoop.signals gives in its order
    (the hand-rolled plant: no out-of-plane offset)."""
    row[0], row[1], row[2], row[3], row[4] = t, obs[0], obs[1], obs[5], obs[6]
    row[5], row[6], row[7], row[8], row[9] = obs[2], obs[7], 0.0, obs[3], obs[8]
    row[10], row[11], row[12], row[13] = s.tau_hip, obs[4], obs[9], s.F_leg
    row[14], row[15], row[16], row[17] = obs[10], obs[11], s.F_n, s.F_x
    row[18], row[19] = float(s.controller.phase), s.u
    row[20] = reference(c.h_times, c.h_values, t)
    row[21] = reference(c.v_times, c.v_values, t)


@njit(cache=True)
def run_chunk(s: tuple, t: float, q: np.ndarray, qd: np.ndarray, chain: tuple,
              Vd_base: np.ndarray, dt: float, coriolis: float, p: tuple, c: tuple,
              n_steps: int, every: int, rows: np.ndarray) -> tuple:
    """``n_steps`` of HopperLoop.advance on the hand-rolled plant (PlanarHopper.step's
    compiled copy, recursive.euler_step, with tau = (0, 0, 0, tau_hip, F_leg) and
    the tip force -(F_x, 0, F_n)), each followed by :func:`after_step`; after every
    ``every`` steps the sample (:func:`_sample`) into the next of ``rows`` (SAMPLE
    columns) while there are rows.  chain: the recursions' arrays (Recursive._args); s, p,
    c: the loop's state, Laws and Control as plain tuples (:func:`named`).  Returns
    (state, t, q, qd, foot, foot_v)."""
    kind, axis, offset, com, inertia, mass = chain
    s, p, c = named(s, p, c)
    foot, foot_v = np.zeros(3), np.zeros(3)
    obs = np.empty(14)
    F_t, tau = np.zeros(6), np.zeros(5)  # written each step, entry by entry
    r = 0
    for i in range(n_steps):
        F_t[3], F_t[4], F_t[5] = -s.F_x, -0.0, -s.F_n  # -(F_x, 0, F_n)
        tau[3], tau[4] = s.tau_hip, s.F_leg
        q, qd, foot, foot_v = euler_step(kind, axis, offset, com, inertia, mass, q, qd, tau,
                                         Vd_base, F_t, dt, coriolis)
        t += dt
        obs[0:5], obs[5:10] = q, qd
        obs[10], obs[11], obs[12], obs[13] = foot[0], foot[2], foot_v[0], foot_v[2]
        s = after_step(s, t, obs, p, c)
        if r < rows.shape[0] and (i + 1) % every == 0:
            _sample(rows[r], t, obs, s, c)
            r += 1
    return plain(s), t, q, qd, foot, foot_v
