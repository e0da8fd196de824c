"""Helicopter robotic landing gear (Melia Boix, Goh, McWhinnie)."""

from dynval.robots.description import Description
from dynval.robots.landing_gear.model_description import (
    floating_description,
    single_leg_description,
)
from dynval.robots.landing_gear.params import PARAMS, LandingGearParams

PAPER = "landing_gear.txt"


def descriptions(p: LandingGearParams = PARAMS) -> dict[str, Description]:
    """Every description file this robot ships, by file stem (= description name)."""
    descs = [floating_description("as_derived", p), floating_description("as_built", p),
             single_leg_description("as_derived", p), single_leg_description("as_built", p)]
    return {d.name: d for d in descs}
