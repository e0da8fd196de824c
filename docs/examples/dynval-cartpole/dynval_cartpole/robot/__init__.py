"""The cart-pole's parameters, its descriptions (generated from them) and its frames."""

from dynval.robots.description import Description
from dynval_cartpole.robot.model_description import cartpole_description
from dynval_cartpole.robot.params import PARAMS, CartPoleParams

__all__ = ["PARAMS", "CartPoleParams", "descriptions"]


def descriptions(p: CartPoleParams = PARAMS) -> dict[str, Description]:
    """Every description file this robot ships, by file stem (= description name)."""
    return {"cartpole": cartpole_description(p)}
