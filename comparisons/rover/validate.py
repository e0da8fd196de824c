"""The rover up the validation ladder: L0 descriptions, L1/L2 audit on the explicit
chain, the wheel-force erratum, L3 integrator convergence, and the thesis' scenarios
(L4) with its tables recomputed (L5).

Returns the tidy metric rows and the robot's chapter of ``summary.json``."""

from __future__ import annotations

import math

from robots import ROOT
from robots.rover.params import ASSUMPTIONS

ROBOT = "rover"
DEG = 180.0 / math.pi

# Straight driving keeps its heading: the thesis reports 1e-8 deg after 60 s; the issue
# asks for 1e-6 deg. Equal wheel powers make the problem mirror-symmetric, so any heading
# change is round-off growth.
HEADING_TOL_DEG = 1e-6
REQ_HEADING = ("issue requirement: straight driving keeps its heading to 1e-6 deg over 60 s "
               "(mirror symmetry; the thesis reports 1e-8 deg)")
# Steady state: the thesis' check that accelerations stay near zero (Table 4.6). Drift of
# the speed over 5 s relative to the speed itself: the steady-state solver converges to
# 1e-10 in slip, the integrator's O(dt) error on a constant state is nil.
DRIFT_TOL = 1e-3
REQ_DRIFT = ("thesis section 4.2.3: starting at steady state the rover keeps its state; "
             "0.1 % of the speed after 5 s allows for the solver tolerance")


def conventions() -> list[str]:
    """The paragraphs of robots/rover/FRAMES.md, for the report appendix."""
    text = (ROOT / "rover" / "FRAMES.md").read_text()
    paras = [p.replace("\n", " ") for p in text.split("\n\n")[1:] if p.strip()]
    return paras + [f"ASSUMPTION {k}: {v}" for k, v in ASSUMPTIONS.items()]
