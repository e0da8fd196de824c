"""The quadruped's rungs of the validation ladder."""

from dynval.comparisons.quadruped.validate import LADDER

__all__ = ["LADDER"]
