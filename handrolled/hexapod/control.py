"""The joint controller of Sec. V.1 (Fig. 3): the fractional-order PD^alpha G_c1 of eq. (14),
discretised by eq. (16) with Table III's coefficients (recomputed by
``fractional.pade_coefficients``; p.fo_order other Pade orders, p.fo_form = "gl" the
Grunwald-Letnikov sum (15b) itself), in series with the P controller G_c2, sampled at f_sc.

G_c1j(z) = K_pj + K_j A(z^-1) / B(z^-1), K_j = K_alphaj f_sc^alphaj (see ``fractional``).
The demanded torque is tau_C = G_c2 [G_c1 (Theta_d - Theta) - f J_F^T F_RF], f = 1 with the
force feedback loop of Fig. 3 (p.control = "force", the paper's choice in Sec. V.1) and 0
without (p.control = "position", the position/velocity loop, where G_c1 and G_c2 are one
block). The paper gives no value for G_c2 (params.K_c2 says which value and why) and does
not print Fig. 3's loop algebra; this is the cascade its text describes. In stance eq. (6) gives
tau ~ -J_F^T F_RF (the legs' own weight aside), so the inner loop supplies the load the
ground puts on the leg and G_c1 only corrects the position.
"""

from __future__ import annotations

import numpy as np

from dynval.handrolled.hexapod.fractional import (
    DiscreteFilter,
    GrunwaldLetnikov,
    K_derivative,
    pade_coefficients,
)
from dynval.robots.hexapod.params import HexapodParams


class FractionalPD:
    """G_c1 and G_c2 for the 2n joints (hip, knee of leg 1, then leg 2, ...)."""

    def __init__(self, p: HexapodParams, force_feedback: bool | None = None) -> None:
        """``force_feedback``: None takes p.control (Fig. 3's cascade with the force loop
        when "force")."""
        self.p = p
        self.force_feedback = (p.control == "force" if force_feedback is None
                               else force_feedback)
        self.K_p = np.tile([p.K_p1, p.K_p2], p.n)
        self.filters = []
        for j in range(2 * p.n):
            K_alpha, alpha = (p.K_alpha1, p.alpha_1) if j % 2 == 0 else (p.K_alpha2, p.alpha_2)
            K = K_derivative(K_alpha, alpha, p.f_sc)
            if p.fo_form == "gl":  # eq. (15b), the whole memory
                self.filters.append(GrunwaldLetnikov(alpha, K))
                continue
            a, b = pade_coefficients(alpha, p.fo_order)  # Table III, eq. (16)
            self.filters.append(DiscreteFilter(a, b, K))

    def reset(self) -> None:
        for f in self.filters:
            f.reset()

    def preload(self, e_0: np.ndarray) -> None:
        """Every filter of eq. (16) at rest under the constant errors e_0 (a start from a
        static stance): the error histories e_0, the output histories A(1) / B(1) e_0
        (the Pade filter's DC gain). The Grunwald-Letnikov sum (15b) is left empty: its
        memory starts at t = 0 by definition."""
        for f, e in zip(self.filters, np.asarray(e_0, float), strict=True):
            if not isinstance(f, DiscreteFilter):
                continue
            f.e[:] = e
            f.y[:] = e * f.a.sum() / f.b.sum()

    def __call__(self, Theta_d: np.ndarray, Theta: np.ndarray,
                 JtF: np.ndarray | None = None) -> np.ndarray:
        """tau_C for one controller sample; JtF the ground's joint torques J_F^T F_RF."""
        e = np.asarray(Theta_d) - np.asarray(Theta)
        # eq. (14) with the derivative term by eq. (16)
        u = self.K_p * e + np.array([f(ek) for f, ek in zip(self.filters, e, strict=True)])
        if self.force_feedback and JtF is not None:
            u = u - JtF
        return self.p.K_c2 * u  # G_c2
