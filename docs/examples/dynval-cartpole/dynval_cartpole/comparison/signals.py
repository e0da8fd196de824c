"""The cart-pole's own signals, in the shared vocabulary's form
(dynval.comparisons.ladder.signals)."""

from __future__ import annotations

from dynval.comparisons.ladder.signals import Signal

SIGNALS: tuple[Signal, ...] = (
    Signal("cartpole.energy", "J", "-", "kinetic plus potential energy, zero upright at rest"),
)
