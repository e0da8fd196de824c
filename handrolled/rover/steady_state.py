"""The thesis' steady-state solver ``constvel`` (Appendix A.3-A.5): for a wheel carrying
half a segment's weight, the sinkage, slip, torque and rolling resistance at which the
drawbar pull H - |R| equals a desired value (zero for constant velocity)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from scipy.optimize import brentq

from handrolled.rover.terramechanics import closed_form, slip_bounds
from robots.rover.soil import Soil

XTOL = 1e-14  # brentq tolerances on sinkage [m] and slip [-]; the solution is limited
RTOL = 1e-13  # by round-off in (2.15)-(2.18), not by the solvers


class NoSteadyStateError(ValueError):
    """No slip in the bracket gives the requested drawbar pull."""


@dataclass(frozen=True)
class SteadyState:
    """One wheel at steady state: sinkage z [m], torque T [N m], rolling resistance R
    [N, magnitude], slip s [-], entry angle theta1 [rad]."""

    z: float
    T: float
    R: float
    s: float
    theta1: float


def sinkage_for_load(W: float, s: float, r: float, b: float, soil: tuple) -> float:
    """z with F_z(z, s) = W, eq. (2.16) with theta_1 = acos(1 - z/r) (zeroFz.m)."""
    def residual(z: float) -> float:
        return closed_form(math.acos(1.0 - z / r), s, 0.0, r, b, soil)[2] - W

    hi = r  # theta_1 = 90 deg: beyond it the wheel is buried past its axle
    if residual(hi) < 0.0:
        raise NoSteadyStateError(f"the soil cannot carry {W:.4g} N on a wheel of radius "
                                 f"{r:g} m, width {b:g} m before it sinks to its axle")
    return brentq(residual, 1e-12 * r, hi, xtol=XTOL, rtol=RTOL)


def constvel(m_seg: float, g: float, r: float, b: float, soil: Soil, DP: float = 0.0,
             load_factor: float = 0.0) -> SteadyState:
    """Steady state of one wheel of a segment of mass m_seg at drawbar pull DP per wheel
    (constvel.m, zeroDP.m); ``load_factor`` is zeroFz.m's lamda (extra load fraction)."""
    st = soil.as_tuple()
    W = 0.5 * m_seg * g * (1.0 + load_factor)

    def state(s: float) -> tuple[float, tuple]:
        z = sinkage_for_load(W, s, r, b, st)
        return z, closed_form(math.acos(1.0 - z / r), s, 0.0, r, b, st)

    def residual(s: float) -> float:
        _, (H, R, _, _, _) = state(s)
        return H - abs(R) - DP  # zeroDP.m

    lo, hi = max(0.0, slip_bounds(st)[0]), slip_bounds(st)[1]  # constvel.m brackets [0, 1]
    if residual(lo) * residual(hi) > 0.0:
        raise NoSteadyStateError(f"no slip in [{lo:g}, {hi:g}] gives a drawbar pull of "
                                 f"{DP:g} N for a {m_seg:g} kg segment on {soil.name}")
    s = brentq(residual, lo, hi, xtol=XTOL, rtol=RTOL)
    z, (H, R, Fz, Fy, T) = state(s)
    return SteadyState(z=z, T=T, R=abs(R), s=s, theta1=math.acos(1.0 - z / r))
