"""A cart-pole as a robot of dynval's, in a package of its own.

Its spec names its three packages: ``robot`` (the parameter table, the descriptions
generated from it, the frames), ``model`` (the hand-rolled equations of motion, the
balancing controller and the floor's contact law, numpy and scipy only) and
``comparison`` (the ladder's declaration: the audit, the free swing, the balancing and
the drop onto the floor, and the error budget)."""

from dynval.plugins import RobotSpec

SPEC = RobotSpec(
    name="cartpole",
    paper=("Florian: Correct equations for the dynamics of the cart-pole system (2007); "
           "the balancing task of Barto, Sutton, Anderson (IEEE SMC 13, 1983)"),
    robots="dynval_cartpole.robot",
    handrolled="dynval_cartpole.model",
    comparisons="dynval_cartpole.comparison",
)
