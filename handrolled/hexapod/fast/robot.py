"""PlanarHexapod stepped by the compiled copy of its equations (fast.model.heun_steps, held
to the printed step at round-off by tests/test_hexapod_figures.py) and with its joint
references from fast.loop.joint_references (the same numbers, bit for bit)."""

from __future__ import annotations

import numpy as np

from dynval.handrolled.hexapod.fast import loop, model
from dynval.handrolled.hexapod.robot import PlanarHexapod
from dynval.robots.hexapod.params import HexapodParams


class CompiledPlanarHexapod(PlanarHexapod):
    """PlanarHexapod whose steps run compiled, any number in one call (:meth:`advance`)."""

    def __init__(self, p: HexapodParams, body_form: str = "corrected",
                 plan_form: str = "corrected") -> None:
        super().__init__(p, body_form, plan_form)
        self._body = model.Body(*model.constants(p, body_form), p.n, p.n_seg,
                                model.LEVEL[p.transmission], model.GROUND[p.ground])
        self._plan = loop.plan_constants(p, plan_form)

    def step(self, tau_C: np.ndarray) -> None:
        self.advance(tau_C, 1)

    def advance(self, tau_C: np.ndarray, count: int) -> None:
        """``count`` Heun steps with tau_C held, in one compiled call."""
        x = model.State(self.q, self.qd, self.th_m, self.th_m_dot, self.th_T, self.th_T_dot,
                        self.eta_0)
        x, hits, self.t = model.heun_steps(x, np.asarray(tau_C, float), self._body, self.dt,
                                           self.t, count)
        (self.q, self.qd, self.th_m, self.th_m_dot, self.th_T, self.th_T_dot,
         self.eta_0) = x
        self.impacts += hits

    def reference_angles(self, t: float) -> np.ndarray:
        out = np.empty(2 * self.n)
        loop.joint_references(t, *self._plan, out)
        return out
