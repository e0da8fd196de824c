"""The hopper's rungs of the validation ladder."""

from comparisons.hopper.validate import LADDER

__all__ = ["LADDER"]
