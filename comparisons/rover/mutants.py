"""The rover's mutants: wrong hand-rolled models its checks must catch."""

from dynval.comparisons.ladder.mutation import Mutant

MUTANTS = (
    Mutant("m_seg+1%", "segment mass m_seg 1 % heavier in the hand-rolled model (rover A)",
           scale=(("m_seg", 1.01),), model_terms=True),
    Mutant("D*1.1", "vertical damping D at each wheel (the wheel-soil contact) x1.1",
           scale=(("D", 1.1),)),
    Mutant("dt*2", "the hand-rolled integration step doubled", scale=(("dt", 2.0),)),
    Mutant("eq3.30-sign", "eq. (3.30) with its printed sign",
           run_kwargs=(("wheel_form", "printed"),)),
)
