"""The papers' hand-derived models in numpy/scipy. Nothing here imports an engine."""


class ModelInputError(ValueError):
    """An input a hand-rolled model cannot honour (e.g. a foot out of reach)."""
