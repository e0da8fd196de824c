"""The hopper's own signals, in the shared vocabulary's form (one SI unit, frame and
meaning a name: dynval.comparisons.ladder.signals): its controller's phase, thrust and
references (handrolled/hopper/control.py)."""

from __future__ import annotations

from dynval.comparisons.ladder.signals import Signal

SIGNALS: tuple[Signal, ...] = (
    # the hopper's controller (handrolled/hopper/control.py)
    Signal("hopper.phase", "-", "-", "0 flight, 1 compression, 2 thrust"),
    Signal("hopper.thrust", "m", "joint", "spring compression commanded, eq. (20)"),
    Signal("hopper.height_ref", "m", "W", "hopping-height reference h_d of eq. (20)"),
    Signal("hopper.speed_ref", "m/s", "W", "forward-speed reference of eq. (21)"),
)
