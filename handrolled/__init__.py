"""The papers' hand-derived models in numpy/scipy. Nothing here imports an engine."""
