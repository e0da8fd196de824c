"""Every recorded signal, declared once: its SI unit, frame and meaning.

A signal's name is dotted (``joint.LF.hip.angle``); a declaration is a pattern in which
``{leg}`` stands for a leg (side then front/middle/back: LF, RF, LM, RM, LB, RB, as
``dynval.robots.side_sign`` reads them), ``{name}`` for one name segment and ``{axis}`` for x, y
or z.  The harness checks every name a run records against these declarations, so one name
means one thing in every robot and every implementation.  Traces are stored in SI; figures
convert radians to degrees for display (:func:`display`)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import cache


class UnknownSignalError(KeyError):
    """A recorded or requested signal that no declaration covers."""

    def __str__(self) -> str:
        return self.args[0]


@dataclass(frozen=True)
class Signal:
    pattern: str
    unit: str  # SI
    frame: str
    meaning: str


SIGNALS: tuple[Signal, ...] = (
    # the floating body
    Signal("body.{axis}", "m", "W", "body reference point, engine world frame (z up)"),
    Signal("body.roll", "rad", "W",
           "rotation about the body's forward axis; each robot's FRAMES.md names the angle "
           "sequence (landing gear: the paper's theta_z; quadruped: ZYX)"),
    Signal("body.pitch", "rad", "W", "rotation about the body's lateral axis (see body.roll)"),
    Signal("body.yaw", "rad", "W", "rotation about the vertical axis (see body.roll)"),
    Signal("body.pitch_rate", "rad/s", "W", "rate of body.pitch"),
    Signal("com.{axis}", "m", "P", "body centre in the paper's world frame"),
    Signal("com.v{axis}", "m/s", "P", "body centre velocity in the paper's world frame"),
    Signal("body.thrust", "N", "P", "rotor thrust on the body, along the paper's vertical"),
    # prismatic joints (a leg's length)
    Signal("joint.{name}.extension", "m", "joint", "prismatic joint position"),
    Signal("joint.{name}.extension_rate", "m/s", "joint", "prismatic joint rate"),
    Signal("joint.{name}.force", "N", "joint", "prismatic joint force commanded"),
    # joints
    Signal("joint.{leg}.{name}.angle", "rad", "joint", "revolute joint angle of a leg"),
    Signal("joint.{leg}.{name}.rate", "rad/s", "joint", "revolute joint rate of a leg"),
    Signal("joint.{leg}.{name}.acceleration", "rad/s^2", "joint",
           "revolute joint acceleration of a leg (rate difference over one step)"),
    Signal("joint.{leg}.{name}.torque", "N m", "joint", "joint torque commanded"),
    Signal("joint.{name}.angle", "rad", "joint", "revolute joint angle of the body chain"),
    Signal("joint.{name}.rate", "rad/s", "joint", "revolute joint rate of the body chain"),
    Signal("joint.{name}.torque", "N m", "joint", "revolute joint torque commanded"),
    # feet
    Signal("foot.force.normal", "N", "ground", "ground force along the normal (one foot)"),
    Signal("foot.force.{axis}", "N", "W", "ground force on the foot (one foot)"),
    Signal("foot.{axis}", "m", "W", "foot point (one foot)"),
    Signal("foot.{leg}.force.normal", "N", "ground", "ground force along the ground normal"),
    Signal("foot.{leg}.force.{axis}", "N", "W or P (the robot's frames)",
           "ground force on the foot"),
    Signal("foot.{leg}.force_assumed.{axis}", "N", "B",
           "ground force the paper's assumption gives (quadruped section 4)"),
    # the hexapod (paper frame P: x forward, y up; robots/hexapod/FRAMES.md)
    Signal("joint.{leg}.{name}.reference", "rad", "joint",
           "planned joint angle Theta_d of eq. (4) (the controller's reference)"),
    Signal("joint.{leg}.{name}.torque_inertial", "N m", "joint",
           "inertial term H(Theta) Theta_dd of eq. (6) (tau_ijI of Figs. 7-8)"),
    Signal("joint.{leg}.{name}.torque_coriolis", "N m", "joint",
           "centrifugal/Coriolis term c(Theta, Theta_dot) of eq. (6) (tau_ijCC)"),
    Signal("joint.{leg}.{name}.torque_gravity", "N m", "joint",
           "gravitational term g(Theta) of eq. (6) (tau_ijG)"),
    Signal("joint.{leg}.{name}.torque_motor", "N m", "joint",
           "motor torque tau_ijm after the saturation of eq. (7)"),
    Signal("joint.{leg}.{name}.motor_angle", "rad", "joint",
           "motor-side angle theta_ijm of the drive, eqs. (8)-(9) (the joint angle if ideal)"),
    Signal("joint.{leg}.{name}.gear_angle", "rad", "joint",
           "gear output-side angle theta_ijT of the backlash drive, eq. (9)"),
    Signal("hexapod.gear_impacts", "-", "-",
           "gear impacts (9b)-(9c) so far, all joints together"),
    Signal("foot.{leg}.{axis}", "m", "P", "foot centre, paper frame (x forward, y up)"),
    Signal("foot.{leg}.v{axis}", "m/s", "P", "foot centre velocity, paper frame"),
    Signal("foot.{leg}.{axis}_ref", "m", "P", "planned foot position p_Fd of eqs. (1)-(2)"),
    Signal("foot.{leg}.v{axis}_ref", "m/s", "P", "planned foot velocity (Figs. 4-5)"),
    Signal("foot.{leg}.a{axis}_ref", "m/s^2", "P", "planned foot acceleration (Figs. 4-5)"),
    Signal("segment.{name}.{axis}", "m", "P",
           "body segment (hip point x_iH, y_iH of eq. 6), paper frame"),
    Signal("segment.{name}.v{axis}", "m/s", "P", "body segment velocity, paper frame"),
    Signal("segment.{name}.force.{axis}", "N", "P",
           "inter-segment spring-dashpot force F_RH of eq. (10) on the segment"),
    # the hopper's controller (handrolled/hopper/control.py)
    Signal("hopper.phase", "-", "-", "0 flight, 1 compression, 2 thrust"),
    Signal("hopper.thrust", "m", "joint", "spring compression commanded, eq. (20)"),
    Signal("hopper.height_ref", "m", "W", "hopping-height reference h_d of eq. (20)"),
    Signal("hopper.speed_ref", "m/s", "W", "forward-speed reference of eq. (21)"),
    # the rover (thesis frame 0 axes mapped to the ground plane; see robots/rover/FRAMES.md)
    Signal("rover.{axis}", "m", "W", "rear axle centre in the ground plane"),
    Signal("rover.height", "m", "0", "rear axle centre height (thesis dx)"),
    Signal("rover.roll", "rad", "0", "rear segment roll (thesis phi_z)"),
    Signal("rover.pitch", "rad", "0", "rear segment pitch (thesis phi_y)"),
    Signal("rover.heading", "rad", "0", "rear segment heading (thesis phi_x)"),
    Signal("rover.heading_rate", "rad/s", "0", "rear segment heading rate"),
    Signal("rover.speed", "m/s", "0", "rear segment speed in the ground plane"),
    # wheels
    Signal("wheel.{name}.sinkage", "m", "wheel", "wheel sinkage z (thesis eq. 3.12)"),
    Signal("wheel.{name}.slip", "-", "wheel", "longitudinal slip ratio"),
    Signal("wheel.{name}.slip_angle", "rad", "wheel", "slip angle beta"),
    Signal("wheel.{name}.force.{axis}", "N", "wheel", "soil force on the wheel"),
    Signal("wheel.{name}.torque", "N m", "wheel", "drive torque"),
    Signal("wheel.{name}.power", "W", "wheel", "drive power"),
)

_PARTS = {"{leg}": r"[LR][FMB]", "{name}": r"[A-Za-z0-9_]+", "{axis}": r"[xyz]"}


@cache
def _compiled() -> tuple[tuple[re.Pattern, Signal], ...]:
    out = []
    for s in SIGNALS:
        rx = re.escape(s.pattern)
        for k, v in _PARTS.items():
            rx = rx.replace(re.escape(k), v)
        out.append((re.compile(rx + r"\Z"), s))
    return tuple(out)


@cache
def signal(name: str) -> Signal:
    """The declaration covering ``name``; the first (most specific) one wins."""
    for rx, s in _compiled():
        if rx.match(name):
            return s
    raise UnknownSignalError(
        f"signal {name!r} is not declared in comparisons/ladder/signals.py (declare its unit, "
        "frame and meaning there)")


def unit(name: str) -> str:
    """The SI unit of a declared signal."""
    return signal(name).unit


def check_names(names: list[str]) -> None:
    """Raise UnknownSignalError for the first name no declaration covers."""
    for n in names:
        signal(n)


_DISPLAY = {"rad": ("deg", 180.0 / math.pi), "rad/s": ("deg/s", 180.0 / math.pi),
            "rad/s^2": ("deg/s^2", 180.0 / math.pi)}


def display(name: str) -> tuple[str, float]:
    """The unit a figure shows ``name`` in, and the factor from SI to it (degrees for
    angles, SI otherwise)."""
    u = unit(name)
    return _DISPLAY.get(u, (u, 1.0))
