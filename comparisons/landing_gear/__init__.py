"""The landing gear's rungs of the validation ladder."""
