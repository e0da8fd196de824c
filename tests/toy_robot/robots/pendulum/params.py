"""Pendulum parameters: the single source of truth for the hand-rolled model, the MJCF and
the URDF of a toy robot used by the framework's tests (tests/test_adding_a_robot.py).

A damped planar pendulum: a bob of mass m on a massless rod of length l, hinged at a
fixed pivot with viscous damping b. The bob is a solid sphere of radius r_b, so the body
has a real inertia I about its centre as well as m l^2 about the pivot."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from dynval.robots import Param
from dynval.robots.parameters import param, parameter_table

TOY = "ASSUMPTION: a toy robot for the framework's tests"


@dataclass(frozen=True)
class PendulumParams:
    """Every number the pendulum model uses, in SI units, each with its unit, valid range
    and source."""

    ROBOT: ClassVar[str] = "pendulum"

    m: float = param(1.0, "kg", "(0, inf)", TOY, "bob mass")
    l: float = param(0.5, "m", "(0, inf)", TOY, "rod length, pivot to the bob's centre")
    r_b: float = param(0.05, "m", "(0, inf)", TOY, "bob radius (a solid sphere)")
    b: float = param(0.05, "N m s/rad", "[0, inf)", TOY, "viscous damping at the pivot")
    g: float = param(9.81, "m/s^2", "(0, inf)", "standard gravity", "gravity")
    dt: float = param(1e-3, "s", "(0, inf)", TOY, "integration step")

    @property
    def I(self) -> float:  # noqa: E743 (the symbol of eq. (1))
        """Inertia of the bob about its own centre, 2/5 m r_b^2 [kg m^2]."""
        return 0.4 * self.m * self.r_b**2

    def with_(self, **changes: float) -> PendulumParams:
        """A copy with some values changed."""
        return replace(self, **changes)


PARAMS = PendulumParams()


def table(p: PendulumParams = PARAMS) -> list[Param]:
    """The parameter table for the report appendix."""
    return parameter_table(p)
