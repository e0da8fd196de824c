"""A damped planar pendulum: the toy robot of the framework's tests."""

from dynval.robots.description import Description
from dynval.robots.pendulum.model_description import pendulum_description
from dynval.robots.pendulum.params import PARAMS, PendulumParams


def descriptions(p: PendulumParams = PARAMS) -> dict[str, Description]:
    """Every description file this robot ships, by file stem (= description name)."""
    return {"pendulum": pendulum_description(p)}
