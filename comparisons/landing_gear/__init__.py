"""The landing gear's rungs of the validation ladder."""

from dynval.comparisons.landing_gear.validate import LADDER

__all__ = ["LADDER"]
