"""Every recorded signal, declared once: its SI unit, frame and meaning. The vocabulary
every robot shares is here (the body, joints, feet); a robot's own signals are declared in
its ``comparisons/<robot>/signals.py`` (``SIGNALS``), gathered through the registry.

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


SHARED: tuple[Signal, ...] = (
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
)

_PARTS = {"{leg}": r"[LR][FMB]", "{name}": r"[A-Za-z0-9_]+", "{axis}": r"[xyz]"}


@cache
def declarations() -> tuple[Signal, ...]:
    """The shared vocabulary, then each robot's own signals (``SIGNALS`` of
    its comparison package's ``signals``, where the robot has that module; a plugin that
    does not load declares none here and says why when it is run)."""
    from dynval.plugins import PluginError, spec
    from dynval.robots import ROBOT_NAMES

    own = []
    for robot in ROBOT_NAMES:
        try:
            if not spec(robot).has_module("comparisons", "signals"):
                continue
        except PluginError:
            continue
        own.extend(spec(robot).module("comparisons", "signals").SIGNALS)
    return (*SHARED, *own)


@cache
def _compiled() -> tuple[tuple[re.Pattern, Signal], ...]:
    out = []
    for s in declarations():
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
        f"signal {name!r} is not declared (declare its unit, frame and meaning in "
        "comparisons/ladder/signals.py, or in the robot's own comparisons/<robot>/signals.py)")


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
