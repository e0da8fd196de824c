"""The pendulum's own signals, in the shared vocabulary's form
(dynval.comparisons.ladder.signals)."""

from __future__ import annotations

from dynval.comparisons.ladder.signals import Signal

SIGNALS: tuple[Signal, ...] = (
    Signal("pendulum.energy", "J", "-", "kinetic plus potential energy, zero hanging at rest"),
    Signal("pendulum.damping_torque", "N m", "joint", "the pivot's damping torque -b theta_dot"),
)
