"""The hexapod's mutants: wrong hand-rolled models its checks must catch."""

from dynval.comparisons.ladder.mutation import Mutant

MUTANTS = (
    Mutant("M_i2+1%", "shank mass M_i2 1 % heavier in the hand-rolled model",
           scale=(("M_i2", 1.01),), model_terms=True),
    Mutant("K_yF*1.1", "ground vertical stiffness K_yF of the foot contact x1.1",
           scale=(("K_yF", 1.1),)),
    Mutant("K_p1*1.1", "hip proportional gain K_p1 of the PD^a controller x1.1",
           scale=(("K_p1", 1.1),)),
    Mutant("dt*2", "the hand-rolled integration step doubled (f_sr halved)",
           scale=(("f_sr", 0.5),)),
    Mutant("eq10-printed", "eq. (10)'s segmented body as printed",
           run_kwargs=(("body_form", "printed"),)),
)
