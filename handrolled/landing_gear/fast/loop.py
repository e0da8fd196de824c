"""The hand-rolled landing gear's closed loop with the shared contact law, compiled chunk by
chunk: the steps of ``LandingGearLoop.advance`` (comparisons/landing_gear/loop.py) with the
kernels it calls one after the other from Python -- the step (model.step_kernel), the
feet (model.feet_in_P), the contact law (contact._forces), the level, inverse-kinematics
and joint controllers (control._joint_torques_kernel) and the thrust of eq. (10) -- for a
number of steps without returning to Python.  The same kernels in the same order, so the
same floats (tests/test_landing_gear_fast_paths.py); the attitude angles and eq. (10)
are so3.euler_yxz and com_dynamics.thrust compiled from their own source.  What follows
the observation (:func:`update_inputs`, or :func:`update_controls` for an engine's own
contact forces) is shared with the engines' compiled chunks
(comparisons/landing_gear/compiled.py).
"""

from __future__ import annotations

import math

import numpy as np

from dynval._numba_cache import njit
from dynval.handrolled import so3
from dynval.handrolled.landing_gear import com_dynamics
from dynval.handrolled.landing_gear.contact import _forces
from dynval.handrolled.landing_gear.control import _joint_torques_kernel
from dynval.handrolled.landing_gear.model import BodyState, Gear, feet_in_P, step_kernel

_euler_yxz = njit(cache=True)(so3.euler_yxz)
_thrust = njit(cache=True)(com_dynamics.thrust)


@njit(cache=True)
def update_inputs(t, R_PB, ydot, theta, thetad, p_PF, v_PF, dt, m, g, shared, F_th,
                  t_touchdown, tau):
    """LandingGearLoop._update_inputs with the shared contact law, from an observation at
    time ``t`` (R_PB, the vertical velocity ydot = v_PB[1], theta, thetad, the feet's
    p_PF and v_PF): the foot forces (contact._forces), then :func:`update_controls`.
    ``shared``: the contact law's and controllers' arrays (LandingGearLoop.compiled_inputs),
    updated in place.  Returns (F_PF, False where a reference foot is out of the joint
    controller's reach: tau and F_th are then left for the stepwise controller, which
    names the foot)."""
    law, R_SP, in_contact, anchor, slipping = shared[0], shared[1], shared[2], shared[3], \
        shared[4]
    F_PF = _forces(p_PF, v_PF, R_SP, law[0], law[1], law[2], law[3], in_contact, anchor,
                   slipping)
    return F_PF, update_controls(t, R_PB, ydot, theta, thetad, F_PF, dt, m, g, shared, F_th,
                                 t_touchdown, tau)


@njit(cache=True)
def update_controls(t, R_PB, ydot, theta, thetad, F_PF, dt, m, g, shared, F_th,
                    t_touchdown, tau):
    """LandingGearLoop._update_controls for the foot forces F_PF (the shared law's, or an
    engine's own contact): any contact (the normal forces), the attitude angles
    (state.attitude_angles), the joint torques into ``tau`` (control's kernel), then the
    thrust of eq. (10) into F_th[0], ramped to zero after the first touchdown (its time
    into t_touchdown[0], NaN: none yet).  False where a reference foot is out of the
    joint controller's reach (see :func:`update_inputs`)."""
    _, R_SP, _, _, _, level, int_e, int_theta, y_ref, theta_ref, pitch_sign, constants, \
        thrust = shared
    any_contact = np.max(np.dot(F_PF, R_SP[1].copy())) > 0.0  # the normal forces
    _, pitch, roll = _euler_yxz(R_PB)  # state.attitude_angles
    if not _joint_torques_kernel(level, roll, pitch, dt, int_e, int_theta, y_ref, theta_ref,
                                 theta, thetad, tau, pitch_sign, constants):
        return False
    # LandingGearController.thrust: eq. (10), ramped to zero after the first touchdown
    F = _thrust(ydot, thrust[0], thrust[1], m, g)
    if any_contact and math.isnan(t_touchdown[0]):
        t_touchdown[0] = t
    if not math.isnan(t_touchdown[0]):
        F = F * max(0.0, 1.0 - (t - t_touchdown[0]) / thrust[2])
    F_th[0] = F
    return True


@njit(cache=True)
def run_chunk(x: BodyState, t, tau, F_PF, F_th, G: Gear, shared, t_touchdown, n_steps):
    """``n_steps`` of LandingGearLoop.advance (hand-rolled plant, shared contact).

    x: the plant's state; t, F_th and t_touchdown (NaN: none yet) are 1-arrays; G: the
    plant's constants; shared: see :func:`update_inputs`, whose arrays are updated in
    place.  Returns (steps done, negated where the joint controller found a reference foot
    out of reach after the last of them, the new state, tau, F_PF, the feet's positions
    and velocities): the caller then runs that step's controllers in Python, which name
    the foot."""
    p_PF, v_PF, r_B = feet_in_P(x.p_PB, x.R_PB, x.v_PB, x.omega_B, x.theta, x.thetad,
                                G.p_BH, G.R_BL, G.l_U, G.l_L)
    done = n_steps
    tau = tau.copy()  # the torques of each step, then the next step's from the controller
    for step in range(n_steps):
        x = step_kernel(x, r_B, tau, F_PF, F_th[0], G)
        t[0] += G.dt
        # observe (the feet, and the r_B the next step takes), then
        # LandingGearLoop._update_inputs
        p_PF, v_PF, r_B = feet_in_P(x.p_PB, x.R_PB, x.v_PB, x.omega_B, x.theta, x.thetad,
                                    G.p_BH, G.R_BL, G.l_U, G.l_L)
        F_PF, ok = update_inputs(t[0], x.R_PB, x.v_PB[1], x.theta, x.thetad, p_PF, v_PF,
                                 G.dt, G.m, G.g, shared, F_th, t_touchdown, tau)
        if not ok:
            done = -(step + 1)
            break
    return done, x, tau, F_PF, p_PF, v_PF
