"""The hand-rolled closed loop compiled, chunk by chunk: the gait plan of gait.py (sway,
stance, swing-foot profiles, inverse kinematics and its rates: ``plan``), section 4's
feedforward of inverse.py (legs in the air for the body wrench, grf.py's assumed ground
forces, the leg recursion with them: ``feedforward``), joint PD and the pinned-feet step
of fast.py, for a number of steps without returning to Python. The same equations in the
same order as the Python loop (comparisons/quadruped/loop.py), but for the feedforward's
second leg recursion, done by its linearity in the foot force (``_feedforward``):
tests/test_quadruped_fast.py holds the plan, the feedforward and whole trajectories to
them at round-off.

The support cases' force patterns come from grf._patterns itself (``Pattern tables``), so
section 4's assumptions have one source.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from dynval._numba_cache import njit
from dynval.handrolled.quadruped.fast import model as fast
from dynval.handrolled.quadruped.fast.feedforward import (  # noqa: F401  (re-exported)
    EPS,
    _feedforward,
    _min_norm_lstsq,
    _solve_grf,
    legs_in_the_air,
    pattern_tables,
)
from dynval.handrolled.quadruped.fast.plan import (  # noqa: F401  (re-exported)
    GaitArrays,
    Plan,
    Planned,
    _lift,
    _min_jerk,
    _plan,
    _sway,
    gait_arrays,
    mask_index,
    plan_lateral,
    stance_mask_at,
    stance_of,
)


class Laws(NamedTuple):
    """The closed loop's constants: the plan's, then ``consts`` (dt, K_P, K_D, the
    standing height, the foot radius) and gravity g_W."""

    plan: Plan
    consts: np.ndarray
    g_W: np.ndarray


class Tally(NamedTuple):
    """The loop's bookkeeping, changed in place step by step: t (1,), the feet's summed
    world forces F_sum (4, 3) and the joint accelerations of the last step qdd (12,)."""

    t: np.ndarray
    F_sum: np.ndarray
    qdd: np.ndarray


class LoopArrays(NamedTuple):
    """The loop's arrays the compiled steps change in place: the :class:`Tally`, the PD
    torques tau (12,), the stance mask (1,), and the feedforward: tau_ff (12,), F_ff
    (4, 3), residual (6,)."""

    tally: Tally
    tau: np.ndarray
    mask: np.ndarray
    tau_ff: np.ndarray
    F_ff: np.ndarray
    residual: np.ndarray


class Ahead(NamedTuple):
    """The plans and feedforwards of the steps ahead (:func:`plan_ahead`), row k after
    step k + 1: theta, thd (n, 4, 3), tau_ff (n, 12), F_ff (n, 4, 3), residual (n, 6),
    masks (n,)."""

    theta: np.ndarray
    thd: np.ndarray
    tau_ff: np.ndarray
    F_ff: np.ndarray
    residual: np.ndarray
    masks: np.ndarray


@njit(cache=True)
def plan_and_feedforward(plan, t, height, foot_z, g_W, s, tau_ff, F, residual):
    """The plan at t into s (:class:`Planned`) and its feedforward (tau_ff (12,), F the
    assumed ground forces); returns the stance mask (-1: a foot out of reach, -2: a
    support case section 4 does not cover).  plan: :class:`Plan`."""
    mask = _plan(plan, t, height, foot_z, s)
    if mask < 0:
        return mask
    if not _feedforward(plan, mask, s, g_W, tau_ff, F, residual):
        return -2
    return mask


@njit(cache=True)
def _record(consts, qd, qd_before, F_W, tally):
    """The loop's bookkeeping of a step (:class:`Tally`): qdd from the rates' change
    (every implementation integrates semi-implicit Euler), the feet's world forces F_W
    added to F_sum, t += dt."""
    t, F_sum, qdd = tally
    dt = consts[0]
    for j in range(12):
        qdd[j] = (qd[j] - qd_before[j]) / dt
    for k in range(4):
        for r in range(3):
            F_sum[k, r] += F_W[k, r]
    t[0] += dt


@njit(cache=True)
def _pd(consts, theta, thd, tau_ff, q, qd, tau):
    """tau = feedforward + K_P (theta - q) + K_D (theta' - q'), in place."""
    K_P, K_D = consts[1], consts[2]
    th, td = theta.reshape(12), thd.reshape(12)
    for j in range(12):
        tau[j] = tau_ff[j] + K_P * (th[j] - q[j]) + K_D * (td[j] - qd[j])


@njit(cache=True)
def after_step(laws, q, qd, qd_before, F_W, a):
    """What QuadrupedLoop.advance does once its plant has stepped, in place, for any plant
    (joint angles q and rates qd after the step, qd_before before it; F_W the feet's
    world forces of the step): qdd, F_sum and t (``_record``), then the plan at t, its
    feedforward and the PD torques.  laws: :class:`Laws`; a: the :class:`LoopArrays`.
    Returns the plan's stance mask, also put in mask[0]; negative where the plan failed
    (tau and mask then left as they were)."""
    plan, consts, g_W = laws
    tally, tau, mask, tau_ff, F_ff, residual = a
    _record(consts, qd, qd_before, F_W, tally)
    s = Planned(np.empty((4, 3)), np.empty((4, 3)), np.empty((4, 3)), np.empty((4, 3)),
                np.empty(3), np.empty(3))
    new = plan_and_feedforward(plan, tally.t[0], consts[3], consts[4], g_W, s, tau_ff, F_ff,
                               residual)
    if new < 0:
        return new
    mask[0] = new
    _pd(consts, s.theta, s.thd, tau_ff, q, qd, tau)
    return new


@njit(cache=True)
def plan_ahead(laws, t0, ahead):
    """The plan and its feedforward after each of the next n steps from t0 (t summed
    step by step, as the loop sums it) into the rows of ``ahead`` (:class:`Ahead`).  The
    plan does not depend on the state, so an engine loop makes a chunk's plans in one
    call.  laws: :class:`Laws`.  Returns the number of plans made before the first that
    failed."""
    plan, consts, g_W = laws
    thdd, p_B4, v_B, a_B = np.empty((4, 3)), np.empty((4, 3)), np.empty(3), np.empty(3)
    t = t0
    for k in range(ahead.masks.shape[0]):
        t += consts[0]
        s = Planned(ahead.theta[k], ahead.thd[k], thdd, p_B4, v_B, a_B)
        new = plan_and_feedforward(plan, t, consts[3], consts[4], g_W, s, ahead.tau_ff[k],
                                   ahead.F_ff[k], ahead.residual[k])
        if new < 0:
            return k
        ahead.masks[k] = new
    return ahead.masks.shape[0]


@njit(cache=True)
def engine_step(k, planned, consts, ahead, q, qd, qd_before, F_W, tally, tau):
    """``after_step`` of step k with plan_ahead's row k: the bookkeeping of the step just
    taken (:class:`Tally`), then the PD torques of the next where there is a plan for it
    (k < planned)."""
    _record(consts, qd, qd_before, F_W, tally)
    if k < planned:
        _pd(consts, ahead.theta[k], ahead.thd[k], ahead.tau_ff[k], q, qd, tau)


@njit(cache=True)
def run_chunk(laws, p_WB, R_WB, q, nu, old_mask, a, F_foot_B, nudot, n_steps):
    """``n_steps`` of QuadrupedLoop.advance with the hand-rolled plant, in place: step
    with (a.tau, a.mask), then ``after_step`` with the feet's world forces.  laws:
    :class:`Laws`; a: the :class:`LoopArrays`.  Returns the steps done, negated where
    the plan after the last of them failed (the caller re-plans in Python to raise the
    error)."""
    L, g_W, dt = laws.plan.links, laws.g_W, laws.consts[0]
    tau, mask = a.tau, a.mask
    m4, o4 = np.empty(4, dtype=np.int64), np.empty(4, dtype=np.int64)
    qd_before, F_W = np.empty(12), np.empty((4, 3))
    for step in range(n_steps):
        for k in range(4):
            m4[k], o4[k] = mask[0] >> k & 1, old_mask[0] >> k & 1
        qd_before[:] = nu[6:]
        fast._step(L, p_WB, R_WB, q, nu, tau, m4, o4, g_W, dt, F_foot_B, nudot)
        old_mask[0] = mask[0]
        for k in range(4):
            for r in range(3):
                F_W[k, r] = (R_WB[r, 0] * F_foot_B[k, 0] + R_WB[r, 1] * F_foot_B[k, 1]
                             + R_WB[r, 2] * F_foot_B[k, 2])
        if after_step(laws, q, nu[6:], qd_before, F_W, a) < 0:
            return -(step + 1)
    return n_steps
