"""The rover's rungs of the validation ladder."""

from dynval.comparisons.rover.validate import LADDER

__all__ = ["LADDER"]
