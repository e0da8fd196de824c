"""The hopper's mutants: wrong hand-rolled models its checks must catch."""

from dynval.comparisons.ladder.mutation import Mutant

MUTANTS = (
    Mutant("m_l+1%", "leg mass m_l 1 % heavier in the hand-rolled model",
           scale=(("m_l", 1.01),), model_terms=True),
    Mutant("k_c*1.1", "ground stiffness k of eq. (24) x1.1", scale=(("k_c", 1.1),)),
    Mutant("k_p_s*1.1", "attitude servo gain k_p of eq. (23) x1.1",
           scale=(("k_p_s", 1.1),)),
    Mutant("dt*2", "the hand-rolled integration step doubled", scale=(("dt", 2.0),)),
    Mutant("eq23-sign", "eq. (23)'s attitude servo with its sign flipped",
           run_kwargs=(("attitude_sign", -1.0),)),
    Mutant("eq12-printed", "eq. (12)'s bias as printed (a term of the operator products "
           "dropped)", run_kwargs=(("form", "printed"),)),
)
