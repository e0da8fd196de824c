"""One-legged hopping robot (Bamyaci, Yazar, Yesiloglu) with Raibert's planar hopper masses."""

from dynval.robots.description import Description
from dynval.robots.hopper.model_description import VARIANTS, hopper_description
from dynval.robots.hopper.params import PARAMS, HopperParams

PAPER = "hopper.txt"


def descriptions(p: HopperParams = PARAMS) -> dict[str, Description]:
    """Every description file this robot ships, by file stem (= description name)."""
    return {v: hopper_description(v, p) for v in VARIANTS}
