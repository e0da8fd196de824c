"""The quadruped's mutants: wrong hand-rolled models its checks must catch."""

from dynval.comparisons.ladder.mutation import Mutant

MUTANTS = (
    Mutant("m_calf+1%", "calf mass m_calf 1 % heavier in the hand-rolled model",
           scale=(("m_calf", 1.01),), model_terms=True),
    Mutant("K_P*1.1", "joint PD stiffness K_P x1.1", scale=(("K_P", 1.1),)),
    Mutant("dt*2", "the hand-rolled integration step doubled", scale=(("dt", 2.0),)),
    Mutant("frame0-printed", "section 2's frame 0 as printed, (x_0, y_0, z_0) = (y_B, x_B, "
           "z_B): the sign of z_0 flipped", run_kwargs=(("frame0", "printed"),)),
)
