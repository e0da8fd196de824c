"""The cart-pole's mutants: wrong hand models its checks must catch (``dynval validate
--robot cartpole --mutants all``)."""

from dynval.comparisons.ladder.mutation import Mutant

MUTANTS = (
    Mutant("m_p+1%", "pole mass m_p 1 % heavier in the hand model's eqs. (1)-(2)",
           scale=(("m_p", 1.01),), model_terms=True),
    Mutant("l+1%", "pole half-length l 1 % longer in the hand model",
           scale=(("l", 1.01),), model_terms=True),
    Mutant("dt*2", "the hand model's Euler step doubled", scale=(("dt", 2.0),)),
)
