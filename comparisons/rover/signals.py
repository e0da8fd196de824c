"""The rover's own signals and its wheels', in the shared vocabulary's form (one SI
unit, frame and meaning a name: dynval.comparisons.ladder.signals); the thesis' frame 0
axes mapped to the ground plane (robots/rover/FRAMES.md)."""

from __future__ import annotations

from dynval.comparisons.ladder.signals import Signal

SIGNALS: tuple[Signal, ...] = (
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
