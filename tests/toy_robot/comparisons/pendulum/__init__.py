"""The pendulum's rungs of the validation ladder (a toy robot for the framework's tests)."""

from dynval.comparisons.pendulum.validate import LADDER

__all__ = ["LADDER"]
