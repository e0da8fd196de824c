"""Cart-pole parameters: the single source of truth for the hand-rolled model, the MJCF
and the URDF. A cart of mass m_c on a horizontal rail and a uniform pole of mass m_p and
length 2 l hinged on it (no friction at either joint)."""

from __future__ import annotations

from dynval.robots import Param
from dynval.robots.parameters import parameter_class, parameter_table


@parameter_class
class CartPoleParams:
    """The cart-pole's numbers, one field an entry of params.toml (SI units), and the
    pole's inertia about its centre."""

    # --- fields of params.toml, in its order (python -m dynval.robots.generate)
    m_c: float  # [kg]
    m_p: float  # [kg]
    l: float  # [m]
    r_p: float  # [m]
    g: float  # [m/s^2]
    h_f: float  # [m]
    k_f: float  # [N/m]
    c_f: float  # [N s/m]
    dt: float  # [s]
    # --- end of fields

    ROBOT = "cartpole"  # the folder is the package's ``robot``, not the robot's name

    @property
    def I(self) -> float:  # noqa: E743 (the symbol of eq. (2))
        """Inertia of the pole about its centre and the hinge axis, a uniform rod of
        length 2 l: m_p (2 l)^2 / 12 = m_p l^2 / 3 [kg m^2]."""
        return self.m_p * self.l**2 / 3.0


PARAMS = CartPoleParams()


def table(p: CartPoleParams = PARAMS) -> list[Param]:
    """The parameter table for the report appendix."""
    return parameter_table(p)
