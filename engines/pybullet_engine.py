"""PyBullet adapter: simulation (floating or fixed base) and dynamics terms from URDF, any
joint layout, in three parts with one job each: ``pybullet_client`` (a URDF loaded into
its own physics client, the description facts, the frame conversions, and the pitfalls
handled there), ``pybullet_simulation`` (time stepping) and ``pybullet_terms`` (dynamics
terms and frame kinematics, fixed base and free root). This module names what callers
use."""

from __future__ import annotations

from dynval.engines.pybullet_client import UNBOUNDED_RATE, PybulletClient
from dynval.engines.pybullet_simulation import (
    CompiledPoints,
    CompiledPybullet,
    PybulletSimulation,
)
from dynval.engines.pybullet_terms import PybulletFreeRoot, PybulletTerms

__all__ = ["UNBOUNDED_RATE", "CompiledPoints", "CompiledPybullet", "PybulletClient",
           "PybulletFreeRoot", "PybulletSimulation", "PybulletTerms"]
