"""The errata of the hexapod paper's printed forms, each with its evidence: Sec. IV's
equivalent mass of Table II's dampings, the foot transfer (1a)-(1b), the body spring
(10), the Grunwald-Letnikov sum (15b), the saturation (7) and Table I's B'_xF.
"""

from __future__ import annotations

import math

import numpy as np

from dynval.handrolled.hexapod import body, fractional, ground, planning
from dynval.results import Erratum


def _table_ii_damping_ratios(p) -> list[float]:
    """zeta = B / (2 sqrt(K M)) of every printed Table II damping with Sec. IV's M = M_b/n."""
    M = p.M_b / p.n
    return [B / (2.0 * math.sqrt(K * M)) for _, K_x, B_x, K_y, B_y in ground.TABLE_II.values()
            for K, B in ((K_x, B_x), (K_y, B_y))]


def _span(values: list[float]) -> str:
    lo, hi = f"{min(values):.3f}", f"{max(values):.3f}"
    return lo if lo == hi else f"{lo} to {hi}"


def _table_ii_whole_robot(p) -> tuple[float, float]:
    """M = M_b + n (M_i1 + M_i2), and the worst |B - printed| of Table II's 14 dampings
    with that M and zeta = 0.15 (Sec. IV's bound at its edge) [N s/m]."""
    M = p.M_b + p.n * (p.M_i1 + p.M_i2)
    rec = ground.table_ii(p.with_(M_eq=M, zeta_F=0.15))
    worst = max(abs(rec[soil][key] - printed) for soil, (_, _, B_x, _, B_y)
                in ground.TABLE_II.items() for key, printed in (("B_xF", B_x), ("B_yF", B_y)))
    return M, worst


def errata(p) -> list[Erratum]:
    """The errata, measured on the parameters ``p``."""
    d, v, _ = planning.foot_transfer(p.t_T, p, "cycloid", "printed")
    fx, _ = body.F_RH(np.asarray([1.0, 0.0, -1.0]) * p.S_P, np.full(3, p.H_B), np.zeros(3),
                      np.zeros(3), p, "printed")
    w = fractional.gl_weights(0.5, 100000, printed=True).sum()
    zeta = _table_ii_damping_ratios(p)
    M, worst = _table_ii_whole_robot(p)
    return [
        Erratum("Sec. IV, M of B = 2 zeta sqrt(K M)", "equivalent mass M of the ground "
                "dampings B_xF, B_yF",
                f"M = M_b n^-1 = {p.M_b / p.n:.1f} kg (one segment), zeta < 0.15",
                f"M = M_b + n (M_i1 + M_i2) = {M:g} kg (the whole robot), zeta = 0.15",
                f"with M = {M:g} kg and zeta = 0.15, B = 2 zeta sqrt(K M) gives all 14 of "
                f"Table II's dampings within {worst:.3f} N s/m of the printed integers (their "
                f"rounding: 0.5); with the text's M = M_b / n the printed dampings need zeta "
                f"= {_span(zeta)}, against the stated zeta < 0.15: Table II is right, the "
                "text's M is not",
                "none on the runs: they use Table I's (= Table II's compact clay) dampings "
                "as printed"),
        Erratum("(1a), (1b)", "foot transfer trajectory",
                "x_iFd, y_iFd with period T and speed V_F", "period t_T = (1 - beta) T and "
                "speed L_S / t_T (the transfer lasts t_T)",
                f"as printed, at t = t_T (beta = {p.beta:g}) the foot is at y = {d[1]:.3g} m "
                f"(its apex F_C = {p.F_C:g} m) moving at {v[0]:.3g} m/s when the stance "
                "begins", "the printed foot lands at its apex; the walks use the corrected "
                "form"),
        Erratum("(10)", "inter-segment spring-dashpot F_RH",
                "-K_xH (x_iH - x_i'H)", "-K_xH ((x_iH - x_i'H) - (x_i0 - x_i'0)): stretch from "
                "the nominal spacing S_P",
                f"as printed, segments at their nominal spacing feel {abs(fx[0]):.3g} N "
                f"(K_xH S_P; the robot weighs {p.m_total * p.g:.0f} N)",
                "the printed body collapses; the walks use the rest length"),
        Erratum("(15b)", "Grunwald-Letnikov sum", "sum from k = 1", "sum from k = 0",
                f"the printed weights sum to {w:.4f} (the complete ones to 0): D^alpha of a "
                "constant would be -x / h^alpha, unbounded as h -> 0",
                "none on the controller: Table III's coefficients follow from the sum from "
                "k = 0 (reproduced in L5)"),
        Erratum("(7)", "actuator saturation", "tau_ijm = tau_ijC if |tau_ijm| <= tau_ijMax",
                "the condition on the demanded torque |tau_ijC|",
                "the printed condition tests the output it defines", "none: read as corrected"),
        Erratum("Table I vs (12)-(13)", "non-linear ground damping B'_xF",
                f"B'_xF = {p.Bp_xF:.0f} with eq. (12)'s nu_x = 1.0",
                f"B'_xF = B_xF / Delta^{p.nu_y:g}: Table I divided by Delta^nu_y, not nu_x",
                f"B_xF / 0.0007^0.9 = {ground.nonlinear_damping(3423.0, 7e-4, 0.9):.1f} "
                f"(Table I); with nu_x = 1 it would be "
                f"{ground.nonlinear_damping(3423.0, 7e-4, 1.0):.0f}",
                "the runs use Table I's value with eq. (12)'s nu_x = 1.0, as printed"),
    ]
