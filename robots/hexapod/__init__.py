"""Planar hexapod with a segmented body (Silva, Tenreiro Machado, Lopes, Robotica 2005)."""

from dynval.robots.description import Description
from dynval.robots.hexapod.model_description import VARIANTS, hexapod_description
from dynval.robots.hexapod.params import PARAMS, HexapodParams

PAPER = "hexapod.txt"


def descriptions(p: HexapodParams = PARAMS) -> dict[str, Description]:
    """Every description file this robot ships, by file stem (= description name)."""
    return {v: hexapod_description(v, p) for v in VARIANTS}
