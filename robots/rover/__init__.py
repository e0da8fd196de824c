"""Passively articulated, segmented-body rover (Wasserman, MSc thesis, 2007)."""

from dynval.robots.description import Description
from dynval.robots.rover.model_description import rover_description
from dynval.robots.rover.params import PARAMS, RoverParams

PAPER = "rover.txt"


def descriptions(p: RoverParams = PARAMS) -> dict[str, Description]:
    """Every description file this robot ships, by file stem (= description name): rover A
    free, rigid and as the explicit chain; rovers B and C free and rigid (Table 4.5)."""
    descs = [rover_description(v, p) for v in ("rover", "rover_rigid", "rover_chain")]
    for name in ("B", "C"):
        descs += [rover_description(v, p.with_rover(name)) for v in ("rover", "rover_rigid")]
    return {d.name: d for d in descs}
