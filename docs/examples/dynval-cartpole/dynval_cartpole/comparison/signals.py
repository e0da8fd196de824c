"""The cart-pole's own signals, in the shared vocabulary's form
(dynval.comparisons.ladder.signals)."""

from __future__ import annotations

from dynval.comparisons.ladder.signals import Signal

SIGNALS: tuple[Signal, ...] = (
    Signal("cartpole.energy", "J", "-", "kinetic plus potential energy, zero upright at rest"),
    Signal("cartpole.tip.z", "m", "W", "height of the pole's tip (the floor is at -h_f)"),
    Signal("cartpole.tip.force.z", "N", "W", "the floor's force on the pole's tip, eq. (5)"),
)
