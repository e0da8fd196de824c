"""Pendulum parameters: the single source of truth for the hand-rolled model, the MJCF and
the URDF of a toy robot used by the framework's tests (tests/test_adding_a_robot.py).

A damped planar pendulum: a bob of mass m on a massless rod of length l, hinged at a
fixed pivot with viscous damping b. The bob is a solid sphere of radius r_b, so the body
has a real inertia I about its centre as well as m l^2 about the pivot."""

from __future__ import annotations

from dynval.robots import Param
from dynval.robots.parameters import parameter_class, parameter_table


@parameter_class
class PendulumParams:
    """The pendulum's numbers, one field an entry of params.toml (SI units), and the bob's
    own inertia."""

    @property
    def I(self) -> float:  # noqa: E743 (the symbol of eq. (1))
        """Inertia of the bob about its own centre, 2/5 m r_b^2 [kg m^2]."""
        return 0.4 * self.m * self.r_b**2



PARAMS = PendulumParams()


def table(p: PendulumParams = PARAMS) -> list[Param]:
    """The parameter table for the report appendix."""
    return parameter_table(p)
