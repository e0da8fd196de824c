"""The hexapod (Silva, Tenreiro Machado, Lopes, Robotica 2005) on the validation ladder."""

from dynval.comparisons.hexapod.validate import LADDER

__all__ = ["LADDER"]
