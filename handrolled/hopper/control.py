"""Raibert's three-part controller as the paper writes it, eqs. (20)-(23), with the phase
machine of Sec. 3 and 6: flight, compression (stance while the body still descends),
thrust (stance from the bottom to lift-off).

* height, eq. (20): at each apex (the body's vertical speed turning negative in flight)
  Delta l = Delta l_old + k_p (h_d - h_max), h_max that apex, kept within [dl_min,
  dl_max] (the paper prints no bounds: dl_min = 0, no thrust that takes energy out, is a
  modelling choice the error budget toggles); during the next thrust the
  leg spring is compressed by Delta l ("while robot is in contact with the ground a desired
  value was given ... at other phases zero"). Taken at the apex rather than at touchdown
  so that a foot that bounces on a stiff ground within one stance (no apex) does not
  count as a hop;
* speed, eqs. (21)-(22): in flight the hip servoes the leg to the foot-placement angle;
* attitude, eq. (23): in stance the hip torque rights the body.

The controller's arithmetic (:func:`raibert_step`, the phase machine and eqs. 20-23 on an
immutable :class:`ControllerState`) runs as plain Python in :class:`RaibertController`,
and compiled from the same source in the loop's chunks (handrolled/hopper/fast/loop.py;
numba's register_jitable, ``p`` then fast.loop.Laws).
"""

from __future__ import annotations

import math
from typing import NamedTuple

from numba.extending import register_jitable

from dynval.robots.hopper.params import HopperParams

FLIGHT, COMPRESSION, THRUST = 0, 1, 2


class Observation(NamedTuple):
    """What the controller reads: body centre (x, z), pitch phi, hip angle theta_1, leg
    length r, their rates, and whether the foot touches the ground."""

    x: float
    z: float
    phi: float
    theta_1: float
    r: float
    x_dot: float
    z_dot: float
    phi_dot: float
    theta_1_dot: float
    r_dot: float
    contact: bool


@register_jitable
def foot_angle(o: Observation, x_dot_d: float, p: HopperParams) -> float:
    """theta_d of eq. (21): the hip angle that puts the foot x_dot T_s / 2 ahead of the hip
    plus k_x (x_dot - x_dot_d); the sine is kept within [-1, 1]."""
    s = o.x_dot * p.T_s / (2.0 * o.r) + p.k_x * (o.x_dot - x_dot_d) / o.r
    return -o.phi + math.asin(max(-1.0, min(1.0, s)))


@register_jitable
def flight_torque(o: Observation, theta_d: float, p: HopperParams) -> float:
    """Eq. (22): tau = -k_p (theta - theta_d) - k_v theta_dot."""
    return -p.k_p_f * (o.theta_1 - theta_d) - p.k_v_f * o.theta_1_dot


@register_jitable
def stance_torque(o: Observation, phi_d: float, p: HopperParams, sign: float = 1.0) -> float:
    """Eq. (23): tau = +k_p (phi - phi_d) + k_v phi_dot (``sign`` -1 flips it, for the test
    that the printed sign is the one that keeps the body upright)."""
    return sign * (p.k_p_s * (o.phi - phi_d) + p.k_v_s * o.phi_dot)


class ControllerState(NamedTuple):
    """The phase machine's state: the phase (FLIGHT, COMPRESSION, THRUST), whether the
    body rose at the last sample, the last apex height h_max, the thrust Delta l of eq.
    (20) and the touchdowns counted."""

    phase: int
    rising: bool
    h_max: float
    dl: float
    touchdowns: int


@register_jitable
def raibert_step(s: ControllerState, o: Observation, h_d: float, x_dot_d: float,
                 phi_d: float, p: HopperParams, sign: float, active: bool
                 ) -> tuple[ControllerState, float, float]:
    """One sample of the controller: the next state, the hip torque and the thrust u."""
    phase, h_max, dl, touchdowns = s.phase, s.h_max, s.dl, s.touchdowns
    if phase == FLIGHT:
        if o.contact:
            phase = COMPRESSION
            touchdowns += 1
        elif s.rising and o.z_dot <= 0.0:  # the apex: eq. (20) for the next thrust
            h_max = o.z
            # eq. (20), kept within [dl_min, dl_max]: dl_min = 0 is the clamp at zero
            # thrust that the paper does not print (a modelling choice; params.dl_min)
            dl = min(p.dl_max, max(p.dl_min, dl + p.k_h * (h_d - h_max)))
    elif not o.contact:
        phase = FLIGHT
    elif phase == COMPRESSION and o.z_dot >= 0.0:
        phase = THRUST
    new = ControllerState(phase, o.z_dot > 0.0, h_max, dl, touchdowns)
    if not active:
        return new, 0.0, 0.0
    if phase == FLIGHT:
        tau = flight_torque(o, foot_angle(o, x_dot_d, p), p)  # (21)-(22)
    else:
        tau = stance_torque(o, phi_d, p, sign)  # (23)
    tau = max(-p.tau_max, min(p.tau_max, tau))
    return new, tau, (dl if phase == THRUST else 0.0)


class RaibertController:
    """The phase machine and eqs. (20)-(23) (:func:`raibert_step`); ``step`` returns (hip
    torque, thrust u)."""

    def __init__(self, p: HopperParams, z_0: float, attitude_sign: float = 1.0,
                 active: bool = True) -> None:
        self.p = p
        self.active = active
        self.attitude_sign = attitude_sign
        self.state = ControllerState(FLIGHT, False, z_0, p.dl_0, 0)

    @property
    def phase(self) -> int:
        return self.state.phase

    @property
    def touchdowns(self) -> int:
        return self.state.touchdowns

    def step(self, o: Observation, h_d: float, x_dot_d: float, phi_d: float = 0.0
             ) -> tuple[float, float]:
        self.state, tau, u = raibert_step(self.state, o, h_d, x_dot_d, phi_d, self.p,
                                          self.attitude_sign, self.active)
        return tau, u
