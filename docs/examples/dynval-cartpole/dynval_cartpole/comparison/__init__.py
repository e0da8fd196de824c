"""The cart-pole's rungs of the validation ladder."""

from dynval_cartpole.comparison.validate import LADDER

__all__ = ["LADDER"]
