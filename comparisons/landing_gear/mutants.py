"""The landing gear's mutants: wrong hand-rolled models its checks must catch."""

from dynval.comparisons.ladder.mutation import Mutant
from dynval.handrolled.landing_gear.model import Forms

MUTANTS = (
    Mutant("m_L+1%", "lower link mass m_L 1 % heavier in the hand-rolled model",
           scale=(("m_L", 1.01),), model_terms=True),
    Mutant("k*1.1", "contact spring k of the paper's contact law x1.1",
           scale=(("k", 1.1),)),
    Mutant("K_P_joint*1.1", "joint PID proportional gain x1.1", scale=(("K_P_joint", 1.1),)),
    Mutant("dt*2", "the hand-rolled integration step doubled", scale=(("dt", 2.0),)),
    Mutant("eq12-sign", "eq. (12)'s hip gravity term as printed, (m_U - m_L) g l_U cos: "
           "the sign of m_L flipped", run_kwargs=(("forms", Forms(leg_gravity="printed")),)),
)
