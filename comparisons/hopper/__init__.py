"""The hopper's rungs of the validation ladder."""

from dynval.comparisons.hopper.validate import LADDER

__all__ = ["LADDER"]
