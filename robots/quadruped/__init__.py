"""Twelve-joint quadruped (Sureshkumar, Harib, Oseni, ICINCO 2025) with Unitree A1 masses."""

from robots.description import Description
from robots.quadruped.model_description import quadruped_description
from robots.quadruped.params import PARAMS, QuadrupedParams

PAPER = "quadruped.txt"
VARIANTS = ("quadruped", "quadruped_fixed", "quadruped_6dof")


def descriptions(p: QuadrupedParams = PARAMS) -> dict[str, Description]:
    """Every description file this robot ships, by file stem (= description name)."""
    return {v: quadruped_description(v, p) for v in VARIANTS}
