"""Section 6's round trip by semi-implicit Euler (roundtrip.round_trip with its default
integrator), compiled: the plan and its feedforward at every time of the grid first (they
do not depend on the integrated state), then the open-loop integration with the pinned-feet
step, restarts on the plan included.  The laws are fastloop.py's plan and feedforward and
fast.py's step, the same kernels the closed loops run; what is new here is only the loop
around them and the balanced trot's choice of y'' (balance.balanced_state).

The compiled kernels sum in another order than the printed path (fast.py's docstring), so
the two round trips agree to round-off, not bit for bit: tests/test_quadruped_fast.py
holds them together over short horizons.  That is why the classical RK4 round trips stay
printed: at their finest steps what they measure is a few 1e-11 rad, and round-off grown
through the unstable open loop is part of it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from dynval._numba_cache import njit
from dynval.handrolled.quadruped.balance import balanced_state
from dynval.handrolled.quadruped.fast import loop as fastloop
from dynval.handrolled.quadruped.fast import model as fast
from dynval.handrolled.quadruped.gait import Gait, plan, stance_legs
from dynval.handrolled.quadruped.inverse import feedforward
from dynval.handrolled.quadruped.robot import QuadrupedModel
from dynval.handrolled.quadruped.roundtrip import RoundTrip

Lateral = Callable[[float], tuple[float, float]]  # t -> (y, y'), balance.BalancedTrot.lateral


class Tables(NamedTuple):
    """What the compiled round trip plans and steps with."""

    plan: fastloop.Plan  # the model, the gait and the four-leg split's force patterns
    g_W: np.ndarray
    height: float  # of the body origin over the plan's feet [m]


class Plans(NamedTuple):
    """The plan and its feedforward at each time t_k of the grid (row k)."""

    mask: np.ndarray  # (n,) support, bit j for LEGS[j]
    p_WB: np.ndarray  # (n, 3) body origin
    v_WB: np.ndarray  # (n, 3) its velocity
    theta: np.ndarray  # (n, 4, 3)
    thetad: np.ndarray
    thetadd: np.ndarray
    tau: np.ndarray  # (n, 12) inverse.feedforward's joint torques
    residual: np.ndarray  # (n, 6) the body wrench section 4's forces leave unbalanced


class Motion(NamedTuple):
    """The integrated motion on the grid: the state at t_k, the accelerations of the step
    from it (as roundtrip.round_trip records them)."""

    theta: np.ndarray  # (n, 12)
    thetad: np.ndarray
    thetadd: np.ndarray
    roll: np.ndarray  # (n,) body roll [rad]


@njit(cache=True, inline="always")
def _diagonal_moment(L, mask, s, g_W):
    """balance.diagonal_moment for the planned instant s (fastloop.Planned):
    u . (n_b - c x f_b) with the legs in the air, c the two supporting feet's centroid
    and u the unit vector from the first to the second."""
    R, p, gen = np.empty((4, 5, 3, 3)), np.empty((4, 5, 3)), np.empty(18)
    fastloop.legs_in_the_air(L, s, g_W, R, p, gen)
    first, second = -1, -1  # the supporting legs in LEGS order
    for j in range(4):
        if mask >> j & 1:
            if first < 0:
                first = j
            else:
                second = j
    a, b = s.p_B4[first], s.p_B4[second]
    d0, d1, d2 = b[0] - a[0], b[1] - a[1], b[2] - a[2]
    norm = np.sqrt(d0 * d0 + d1 * d1 + d2 * d2)
    x0, x1, x2 = fast._cross((a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0, (a[2] + b[2]) / 2.0,
                             gen[0], gen[1], gen[2])
    return (d0 / norm * (gen[3] - x0) + d1 / norm * (gen[4] - x1)
            + d2 / norm * (gen[5] - x2))


@njit(cache=True, inline="always")
def _balanced_plan(tab, t, y, yd, s):
    """balance.balanced_state: the plan at t into s (fastloop.Planned) with the body at
    (y, y') and the y'' that zeroes the moment about the support diagonal; the moment is
    affine in y'', so y'' = -m0 / (m1 - m0) from its values at y'' = 0 and 1.  Returns
    the stance mask, -1 where a foot is out of reach, -3 where the support is not two
    feet."""
    s1 = fastloop.Planned(s.theta, s.thd, np.empty((4, 3)), s.p_B4, s.v_B, s.a_B)
    mask = fastloop.plan_lateral(tab.plan, t, tab.height, 0.0, y, yd, 1.0, s1)
    if mask < 0:
        return mask
    if (mask & 1) + (mask >> 1 & 1) + (mask >> 2 & 1) + (mask >> 3 & 1) != 2:
        return -3
    L = tab.plan.links
    m1 = _diagonal_moment(L, mask, s1, tab.g_W)
    fastloop.plan_lateral(tab.plan, t, tab.height, 0.0, y, yd, 0.0, s)
    m0 = _diagonal_moment(L, mask, s, tab.g_W)
    ydd = -m0 / (m1 - m0)
    thdd, thdd1 = s.thdd, s1.thdd
    for leg in range(4):
        for j in range(3):
            thdd[leg, j] = thdd[leg, j] + ydd * (thdd1[leg, j] - thdd[leg, j])
    s.a_B[1] = ydd
    return mask


@njit(cache=True)
def _plan_grid(tab, ts, snap, lateral, plans):
    """The plan and its feedforward at each ts[k] into row k of ``plans``: gait.plan with
    the support taken at t + snap (section6.snapped_planner), or, where ``lateral`` has
    rows, the balanced trot's plan with (y, y') = lateral[k].  Returns the number of rows
    made before the first that failed (a foot out of reach, a support section 4 does not
    cover, a balanced plan off two feet)."""
    p_B4, F, v_B, a_B = np.empty((4, 3)), np.empty((4, 3)), np.empty(3), np.empty(3)
    plan = tab.plan
    for k in range(ts.shape[0]):
        t = ts[k]
        s = fastloop.Planned(plans.theta[k], plans.thetad[k], plans.thetadd[k], p_B4, v_B,
                             a_B)
        if lateral.shape[0] > 0:
            y = lateral[k, 0]
            mask = _balanced_plan(tab, t, y, lateral[k, 1], s)
        else:
            y, yd, ydd = fastloop._sway(plan.G, plan.starts, plan.side, t)
            mask = fastloop.plan_lateral(plan, t, tab.height, 0.0, y, yd, ydd, s)
            if mask >= 0:
                mask = fastloop.stance_mask_at(plan.G, plan.offsets, t + snap)
        if mask < 0 or not fastloop._feedforward(plan, mask, s, tab.g_W, plans.tau[k], F,
                                                 plans.residual[k]):
            return k
        plans.mask[k] = mask
        plans.p_WB[k, 0], plans.p_WB[k, 1], plans.p_WB[k, 2] = plan.G[6] * t, y, tab.height
        plans.v_WB[k] = v_B
    return ts.shape[0]


@njit(cache=True, inline="always")
def _put_on_plan(plans, k, p_WB, R_WB, theta, nu):
    """The state of row k's plan: body level, nu = (v_WB, 0, theta')."""
    p_WB[:] = plans.p_WB[k]
    R_WB[:, :] = 0.0
    for r in range(3):
        R_WB[r, r] = 1.0
        nu[r], nu[3 + r] = plans.v_WB[k, r], 0.0
    theta[:] = plans.theta[k].reshape(12)
    nu[6:] = plans.thetad[k].reshape(12)


@njit(cache=True)
def _integrate(tab, dt, restart, plans, motion):
    """roundtrip.round_trip's loop with its Euler step: from the first plan, record the
    state, step with the plan's torques and support (fast._step: a foot joining the
    support stops with the plastic impact), record the step's accelerations; with
    ``restart``, back on the plan wherever its support changes."""
    p_WB, R_WB, theta, nu = np.empty(3), np.empty((3, 3)), np.empty(12), np.empty(18)
    F, nudot = np.empty((4, 3)), np.empty(18)
    stance, old = np.empty(4, dtype=np.int64), np.empty(4, dtype=np.int64)
    held = plans.mask[0]  # the support the state was last stepped (or put) under
    for k in range(plans.mask.shape[0]):
        if k == 0 or (restart and plans.mask[k] != plans.mask[k - 1]):
            _put_on_plan(plans, k, p_WB, R_WB, theta, nu)
            held = plans.mask[k]
        motion.theta[k] = theta
        motion.thetad[k] = nu[6:]
        motion.roll[k] = np.arctan2(R_WB[2, 1], R_WB[2, 2])
        for j in range(4):
            stance[j], old[j] = plans.mask[k] >> j & 1, held >> j & 1
        fast._step(tab.plan.links, p_WB, R_WB, theta, nu, plans.tau[k], stance, old, tab.g_W,
                   dt, F, nudot)
        held = plans.mask[k]
        motion.thetadd[k] = nudot[6:]


def round_trip_euler(model: QuadrupedModel, gait: Gait, height: float, g_W: np.ndarray,
                     dt: float, duration: float, *, split: str = "paper",
                     restart: bool = False, start: float = 0.0, snap: float = 0.0,
                     lateral: Lateral | None = None) -> RoundTrip:
    """roundtrip.round_trip(integrator="euler") compiled, on the same grid k dt with the
    same ``split``, ``restart`` and ``start``.  Its planner is the gait's plan with the
    support taken ``snap`` seconds later (section6.snapped_planner), or with ``lateral``
    (t -> (y, y')) the balanced trot's (balance.BalancedTrot.plan)."""
    n, k0 = int(round(duration / dt)), int(round(start / dt))
    ts = (k0 + np.arange(n)) * dt
    ga = fastloop.gait_arrays(gait)
    dirs, count = fastloop.pattern_tables(split)
    tab = Tables(fastloop.Plan(model.links, ga.scalars, ga.offsets, ga.starts, ga.start_side,
                               dirs, count), np.asarray(g_W, float), float(height))
    lat = (np.zeros((0, 2)) if lateral is None
           else np.array([lateral(float(t)) for t in ts], dtype=float).reshape(n, 2))
    plans = Plans(np.zeros(n, dtype=np.int64), np.zeros((n, 3)), np.zeros((n, 3)),
                  *(np.zeros((n, 4, 3)) for _ in range(3)), np.zeros((n, 12)), np.zeros((n, 6)))
    made = _plan_grid(tab, ts, float(snap), lat, plans)
    if made < n:
        _raise_printed(model, gait, height, g_W, float(ts[made]), split, snap, lateral)
    motion = Motion(*(np.zeros((n, 12)) for _ in range(3)), np.zeros(n))
    _integrate(tab, float(dt), restart, plans, motion)
    return RoundTrip(ts, plans.theta.reshape(n, 12), plans.thetad.reshape(n, 12),
                     plans.thetadd.reshape(n, 12), motion.theta, motion.thetad,
                     motion.thetadd, plans.residual, motion.roll)


def _raise_printed(model: QuadrupedModel, gait: Gait, height: float, g_W: np.ndarray,
                   t: float, split: str, snap: float, lateral: Lateral | None) -> None:
    """Plan the instant the compiled plan could not in the printed path, which raises the
    error that says why."""
    if lateral is None:
        s = plan(model, gait, t, height)
        s.stance = stance_legs(gait, t + snap)
    else:
        s = balanced_state(model, gait, t, height, *lateral(t), np.asarray(g_W, float))
    feedforward(model, s, g_W, split)
    raise RuntimeError(f"the compiled plan failed at t = {t} s where the printed one did not")
