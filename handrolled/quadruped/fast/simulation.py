"""PinnedFeetSimulation stepped by the compiled copy of its equations (fast.model.step: the
RNEA in body axes, M by composite rigid bodies, the pinned-feet system and the Euler step
in one call), held to the printed step at round-off by tests/test_quadruped_fast.py."""

from __future__ import annotations

import numpy as np

from dynval.handrolled.quadruped.fast import model as compiled
from dynval.handrolled.quadruped.robot import QuadrupedModel
from dynval.handrolled.quadruped.simulation import PinnedFeetSimulation


class CompiledPinnedFeetSimulation(PinnedFeetSimulation):
    """PinnedFeetSimulation whose :meth:`step` runs compiled."""

    def __init__(self, model: QuadrupedModel, g_W: np.ndarray, dt: float) -> None:
        super().__init__(model, g_W, dt)
        self._masks: dict[tuple[str, ...], np.ndarray] = {}

    def _mask(self, stance: tuple[str, ...]) -> np.ndarray:
        mask = self._masks.get(stance)
        if mask is None:
            mask = self._masks[stance] = compiled.stance_mask(stance)
        return mask

    def step(self, tau: np.ndarray, stance: tuple[str, ...]) -> None:
        stance = tuple(stance)
        # new arrays, as the printed path makes: states handed out stay as they were
        p, R, th, nu = self.p_WB.copy(), self.R_WB.copy(), self.theta.copy(), self.nu.copy()
        F, nudot = np.empty((4, 3)), np.empty(18)
        compiled.step(self.model, p, R, th, nu, np.ravel(tau).astype(float),
                   self._mask(stance), self._mask(self.stance), self.g_W, self.dt, F, nudot)
        self.p_WB, self.R_WB, self.theta, self.nu = p, R, th, nu
        self.F_foot_B, self.nudot, self.stance = F, nudot, stance
        self.t += self.dt
