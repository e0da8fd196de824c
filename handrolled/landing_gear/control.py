"""Controllers of Secs. II and IV: thrust (10), PI level controller (20)-(24),
inverse kinematics references (15)-(17) and the PID joint controllers with the
motor torque limit (Table 2).

``level_form`` selects the pitch signs of eqs. (21)-(24):
* ``"printed"``: LF +, LB -, RF -, RB + on y_inc_pitch, as printed.  This pairs the
  diagonal legs (LF with RB), so it twists the body instead of pitching it;
* ``"corrected"``: LF -, LB +, RF -, RB +: both front legs move together.  The overall
  sign follows from the right-handed frame that roll = theta_z, pitch = theta_x implies
  (x left, y up, z forward): a positive theta_x lowers the nose, e_x = -theta_x < 0,
  so the front legs lengthen with -y_inc_pitch.  The printed RF and RB rows already
  have these signs; LF and LB are flipped.  See the errata.
"""

from __future__ import annotations

import numpy as np

from dynval._numba_cache import njit
from dynval.handrolled.landing_gear import com_dynamics, single_leg
from dynval.handrolled.landing_gear.state import Observation, attitude_angles

LEVEL_FORMS = ("printed", "corrected")
# eqs. (21)-(24): sign of (y_roll, y_pitch) for legs LF, LB, RF, RB
ROLL_SIGN = np.array([1.0, 1.0, -1.0, -1.0])
PITCH_SIGN_PRINTED = np.array([1.0, -1.0, -1.0, 1.0])
PITCH_SIGN_CORRECTED = np.array([-1.0, 1.0, -1.0, 1.0])


class LandingGearController:
    """Thrust, level and joint controllers acting on any implementation's Observation."""

    def __init__(self, p, level_controller: bool = True, level_form: str = "corrected") -> None:
        if level_form not in LEVEL_FORMS:
            raise ValueError(f"unknown level-controller form {level_form!r}")
        self.p = p
        self.level_controller = level_controller
        self.pitch_sign = PITCH_SIGN_PRINTED if level_form == "printed" else PITCH_SIGN_CORRECTED
        # ASSUMPTION: leg heights are held inside the workspace (2 % margin on full
        # extension and folding), which the paper leaves unstated
        l_max = 0.98 * (p.l_U + p.l_L)
        l_min = 1.02 * abs(p.l_U - p.l_L) + 0.02
        self.reach = (np.sqrt(max(l_min**2 - p.x_0**2, 1e-6)), np.sqrt(l_max**2 - p.x_0**2))
        self._constants = np.array([p.y_0, p.K_P_level, p.K_I_level, *self.reach, p.x_0, p.l_U,
                                    p.l_L, p.K_P_joint, p.K_I_joint, p.K_D_joint, p.T_max],
                                   dtype=float)
        self.reset()

    def reset(self) -> None:
        self.int_e = np.zeros(2)  # integrals of (e_z, e_x) for eq. (20)
        self.int_theta = np.zeros((4, 2))  # PID integrals
        self.t_touchdown: float | None = None
        self.y_ref = np.full(4, self.p.y_0)
        self.theta_ref = np.zeros((4, 2))

    def leg_heights(self, obs: Observation, dt: float) -> np.ndarray:
        """Leg height references y_LF..y_RB: eqs. (20)-(24)."""
        if not self.level_controller:
            return np.full(4, self.p.y_0)
        roll, pitch, _ = attitude_angles(obs.R_PB)
        e = np.array([0.0 - roll, 0.0 - pitch])  # e_i = theta_d - theta
        self.int_e += e * dt
        y_inc = self.p.K_P_level * e + self.p.K_I_level * self.int_e  # eq. (20)
        y = self.p.y_0 + ROLL_SIGN * y_inc[0] + self.pitch_sign * y_inc[1]  # eqs. (21)-(24)
        return np.clip(y, *self.reach)

    def thrust(self, obs: Observation, any_contact: bool) -> float:
        """Eq. (10) until the first touchdown, then ramped to zero (assumption)."""
        p = self.p
        F_th = com_dynamics.thrust(obs.v_PB[1], p.ydot_ref, p.C_thrust, p.m, p.g)
        if any_contact and self.t_touchdown is None:
            self.t_touchdown = obs.t
        if self.t_touchdown is None:
            return F_th
        return F_th * max(0.0, 1.0 - (obs.t - self.t_touchdown) / p.thrust_ramp)

    def joint_torques(self, obs: Observation, dt: float) -> np.ndarray:
        """PID joint torques (Table 2), limited to +-T_max; shape (4, 2): eqs. (20)-(24),
        (15)-(17) and the PID in one compiled call, the arithmetic of
        :meth:`joint_torques_stepwise` (tests/test_landing_gear_fast_paths.py)."""
        roll, pitch, _ = attitude_angles(obs.R_PB)
        tau = np.empty((4, 2))
        # theta and thetad as writable copies: an engine's state may be read-only, and the
        # kernel is then compiled once for the loop's arrays and these alike
        ok = _joint_torques_kernel(self.level_controller, roll, pitch, dt, self.int_e,
                                   self.int_theta, self.y_ref, self.theta_ref,
                                   np.array(obs.theta), np.array(obs.thetad), tau,
                                   self.pitch_sign, self._constants)
        if not ok:  # a foot out of reach: the stepwise path names it
            return self.joint_torques_stepwise(obs, dt)
        return tau

    def joint_torques_stepwise(self, obs: Observation, dt: float) -> np.ndarray:
        """:meth:`joint_torques` one equation at a time in Python (the reference)."""
        p = self.p
        self.y_ref = self.leg_heights(obs, dt)
        for i, y in enumerate(self.y_ref):
            self.theta_ref[i] = single_leg.inverse_kinematics(p.x_0, y, p.l_U, p.l_L)
        e = self.theta_ref - obs.theta
        self.int_theta += e * dt
        tau = p.K_P_joint * e + p.K_I_joint * self.int_theta - p.K_D_joint * obs.thetad
        return np.clip(tau, -p.T_max, p.T_max)


@njit(cache=True)
def _joint_torques_kernel(level, roll, pitch, dt, int_e, int_theta, y_ref, theta_ref, theta,
                          thetad, tau, pitch_sign, constants):
    """:meth:`LandingGearController.joint_torques_stepwise`'s arithmetic, element by
    element, into ``tau``; updates the integrals and references in place. Returns False,
    changing nothing, where a reference foot is out of reach. ``constants``: see
    ``LandingGearController._constants`` (one array: fewer arguments to dispatch)."""
    y_0, K_P_level, K_I_level, y_lo, y_hi, x_0, l_U, l_L, K_P, K_I, K_D, T_max = constants
    n = theta.shape[0]
    y = np.full(n, y_0)
    e_z, e_x, int_z, int_x = 0.0, 0.0, int_e[0], int_e[1]
    if level:
        e_z, e_x = 0.0 - roll, 0.0 - pitch  # e_i = theta_d - theta
        int_z, int_x = int_z + e_z * dt, int_x + e_x * dt
        y_inc_z = K_P_level * e_z + K_I_level * int_z  # eq. (20)
        y_inc_x = K_P_level * e_x + K_I_level * int_x
        for i in range(n):  # eqs. (21)-(24), held inside the workspace
            y[i] = min(max(y_0 + ROLL_SIGN[i] * y_inc_z + pitch_sign[i] * y_inc_x, y_lo), y_hi)
    ref = np.empty((n, 2))
    for i in range(n):
        ref[i, 0], ref[i, 1], reachable = single_leg.ik_angles(x_0, y[i], l_U, l_L)
        if not reachable:
            return False
    int_e[0], int_e[1] = int_z, int_x
    for i in range(n):
        y_ref[i] = y[i]
        for j in range(2):
            theta_ref[i, j] = ref[i, j]
            e = ref[i, j] - theta[i, j]
            int_theta[i, j] += e * dt
            t = K_P * e + K_I * int_theta[i, j] - K_D * thetad[i, j]
            tau[i, j] = min(max(t, -T_max), T_max)
    return True
