"""Twelve-joint quadruped (Sureshkumar, Harib, Oseni, ICINCO 2025) with Unitree A1 masses."""

from dynval.robots.description import Description
from dynval.robots.quadruped.model_description import quadruped_description
from dynval.robots.quadruped.params import PARAMS, QuadrupedParams

PAPER = "quadruped.txt"
VARIANTS = ("quadruped", "quadruped_fixed")


def descriptions(p: QuadrupedParams = PARAMS) -> dict[str, Description]:
    """Every description file this robot ships, by file stem (= description name)."""
    return {v: quadruped_description(v, p) for v in VARIANTS}
