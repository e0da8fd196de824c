"""The quadruped's mutants: wrong hand-rolled models its checks must catch."""

from dynval.comparisons.ladder.mutation import Mutant

MUTANTS = (
    Mutant("m_calf+1%", "calf mass m_calf 1 % heavier in the hand-rolled model",
           scale=(("m_calf", 1.01),), model_terms=True),
    Mutant("K_P*1.1", "joint PD stiffness K_P x1.1", scale=(("K_P", 1.1),)),
    Mutant("dt*2", "the hand-rolled integration step doubled", scale=(("dt", 2.0),)),
)
