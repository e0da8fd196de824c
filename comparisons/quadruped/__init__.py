"""The quadruped's rungs of the validation ladder."""

from comparisons.quadruped.validate import LADDER

__all__ = ["LADDER"]
