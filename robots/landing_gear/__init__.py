"""Helicopter robotic landing gear (Melia Boix, Goh, McWhinnie)."""

from robots.description import Description
from robots.landing_gear.model_description import floating_description, single_leg_description
from robots.landing_gear.params import PARAMS, LandingGearParams

PAPER = "landing_gear.txt"


def descriptions(p: LandingGearParams = PARAMS) -> dict[str, Description]:
    """Every description file this robot ships, by file stem."""
    return {
        "landing_gear_as_derived": floating_description("as_derived", p),
        "landing_gear_as_built": floating_description("as_built", p),
        "leg_as_derived": single_leg_description("as_derived", p),
        "leg_as_built": single_leg_description("as_built", p),
    }
