"""The audit states a run draws unless told otherwise, declared once for the command line,
the Python API and ``dynval check`` (the shipped baselines were computed with them): how
many states, and the seed they are drawn from."""

from __future__ import annotations

ROBOT_SAMPLES = 1000  # a built-in robot's audit: validate, check, audit ROBOT (ci takes fewer)
MODEL_SAMPLES = 200  # a user's model or a description alone: check --model, corpus, the API
SEED = 0
