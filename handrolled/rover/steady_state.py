"""The thesis' steady-state solver ``constvel`` (Appendix A.3-A.5, section 4.2.3).

For one wheel carrying half a segment's weight (m = m_seg / 2), find the slip s and sinkage
z at which the drawbar pull H - |R| (3.23)-(3.24) equals a desired value DP_des (0 for
constant-velocity driving) while the vertical force (2.16) carries the weight:

    F_z(z, s) = m g (1 + lamda)          zeroFz.m
    H(z, s) - |R(z, s)| = DP_des         zeroDP.m

and return the sinkage, the torque (2.18), the rolling resistance and the slip: the initial
conditions of the thesis' runs (Table 4.6, simcore.m). Slip angle 0 (straight driving), so
k_x = kx0 as constvel.m has it (loadsoil.m sets soil.kx = kx0).

Two departures from constvel.m, both stated where they act: the soil is an argument
(constvel.m always loads drysand2.soil), and both roots are found by brentq on brackets
(fzero from a guess of z = 4-5 cm in constvel.m / zeroDP.m).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from dynval.handrolled.rover.kinematics import entry_angle
from dynval.handrolled.rover.terramechanics import closed_form, slip_bounds, soil_tuple
from dynval.robots.rover.soil import Soil

# brentq tolerances on sinkage [m] and slip [-]. The roots are then limited by round-off
# in (2.15)-(2.18) (relative ~1e-15), not by the solver.
XTOL = 1e-14
RTOL = 1e-13
Z_MIN_FRACTION = 1e-9  # lower end of the sinkage bracket, as a fraction of r


class NoSteadyStateError(ValueError):
    """No sinkage or slip in the brackets satisfies constvel's two equations."""


@dataclass(frozen=True)
class SteadyState:
    """One wheel at steady state.

    z: sinkage z0 [m]; T: driving torque, eq. (2.18) [N m]; R: rolling resistance |R|,
    eq. (3.24) [N]; s: slip ratio [-]; theta1: entry angle acos(1 - z/r), eq. (3.13) [rad].
    """

    z: float
    T: float
    R: float
    s: float
    theta1: float


def sinkage_for_load(W: float, s: float, r: float, b: float, soil: Soil | tuple,
                     beta: float = 0.0) -> float:
    """Sinkage z [m] at which F_z (2.16), with theta1 = acos(1 - z/r) (3.13), carries the
    load W [N] at slip s and slip angle beta [rad] (zeroFz.m, which has beta = 0).

    Bracket: z in [1e-9 r, r], i.e. theta1 from ~0 up to 90 deg (the axle at the surface;
    beyond that the wheel is buried and (2.15)-(2.18) are not meant for it). F_z rises with
    z over it (checked on a grid in the tests), so the root is unique.
    """
    st = soil_tuple(soil)
    return load_sinkage(lambda z: closed_form(entry_angle(z, r), s, beta, r, b, st)[2], W, r,
                        f"a wheel of radius {r:g} m and width {b:g} m at slip {s:.3g}")


def load_sinkage(F_z: Callable[[float], float], W: float, r: float, what: str) -> float:
    """The sinkage z in [1e-9 r, r] at which a vertical force law F_z(z) [N] rising with z
    carries W [N] (the root-finding of zeroFz.m, for any force law); ``what`` names the
    wheel in the error raised when even z = r does not carry W."""
    z_lo, z_hi = Z_MIN_FRACTION * r, r
    if F_z(z_hi) < W:
        raise NoSteadyStateError(f"the soil cannot carry {W:.4g} N on {what} before it sinks "
                                 "to its axle")
    from scipy.optimize import brentq  # slow to import: only here

    return brentq(lambda z: F_z(z) - W, z_lo, z_hi, xtol=XTOL, rtol=RTOL)  # zeroFz.m


def _state(s: float, W: float, r: float, b: float, st: tuple) -> tuple[float, tuple]:
    z = sinkage_for_load(W, s, r, b, st)
    return z, closed_form(entry_angle(z, r), s, 0.0, r, b, st)


@lru_cache(maxsize=1024)  # a pure function of numbers and a frozen Soil, solved once: every
# run of a scenario starts from it (a sweep task runs a scenario a dozen times and more)
def constvel(m_seg: float, g: float, r: float, b: float, soil: Soil, DP: float = 0.0,
             load_factor: float = 0.0) -> SteadyState:
    """Steady state of one wheel of a segment of mass m_seg [kg] under gravity g [m/s^2],
    wheel radius r and width b [m], at drawbar pull DP [N] per wheel (constvel.m, zeroDP.m,
    zeroFz.m). ``load_factor`` is zeroFz.m's lamda: the wheel carries m g (1 + lamda).

    Slip bracket: [0, 1] as constvel.m's fzero (intersected with ``slip_bounds``). If the
    drawbar pull at the top of it is still below DP (possible because H - |R| peaks inside
    the bracket), the bracket is cut at the peak (bounded scalar search), so the root is
    the one on the rising branch; constvel.m would fail there. Raises NoSteadyStateError
    (a ValueError) when the soil cannot carry the load, when the drawbar pull at s = 0
    already exceeds DP (constvel.m's bracket has no root), or when DP exceeds the largest
    drawbar pull the soil gives.
    """
    from scipy.optimize import brentq, minimize_scalar  # slow to import: only here

    st = soil_tuple(soil)
    W = 0.5 * m_seg * g * (1.0 + load_factor)  # constvel.m: m = mseg/2; zeroFz.m

    def residual(s: float) -> float:
        _, (H, R, _, _, _) = _state(s, W, r, b, st)
        return H - abs(R) - DP  # zeroDP.m

    s_lo, s_hi = max(0.0, slip_bounds(st)[0]), slip_bounds(st)[1]  # constvel.m: [0, 1]
    f_lo = residual(s_lo)
    if f_lo > 0.0:
        raise NoSteadyStateError(
            f"at zero slip the drawbar pull of a {m_seg:g} kg segment's wheel on {soil_name(soil)}"
            f" is already {f_lo + DP:.4g} N > {DP:g} N: no slip in [{s_lo:g}, {s_hi:g}] "
            "(constvel.m's bracket) gives the requested drawbar pull")
    if residual(s_hi) < 0.0:
        peak = minimize_scalar(lambda s: -residual(s), bounds=(s_lo, s_hi), method="bounded",
                               options={"xatol": 1e-10})
        if -peak.fun < 0.0:
            raise NoSteadyStateError(
                f"the largest drawbar pull of a {m_seg:g} kg segment's wheel on "
                f"{soil_name(soil)} is {-peak.fun + DP:.4g} N (at s = {peak.x:.3f}), below "
                f"the requested {DP:g} N")
        s_hi = float(peak.x)
    s = brentq(residual, s_lo, s_hi, xtol=XTOL, rtol=RTOL)
    z, (H, R, Fz, Fy, T) = _state(s, W, r, b, st)
    return SteadyState(z=z, T=T, R=abs(R), s=s, theta1=entry_angle(z, r))


def soil_name(soil: Soil | tuple) -> str:
    """The soil's name for messages."""
    return soil.name if isinstance(soil, Soil) else "the given soil"


def drawbar_pull(z: float, s: float, r: float, b: float, soil: Soil | tuple) -> float:
    """Drawbar pull H - |R| [N] (3.23)-(3.24) of a wheel at sinkage z [m] and slip s, slip
    angle 0: the residual zeroDP.m drives to DP_des (a steady state has it equal 0)."""
    H, R, _, _, _ = closed_form(entry_angle(z, r), s, 0.0, r, b, soil_tuple(soil))
    return H - abs(R)  # zeroDP.m: DP = H - R, R = abs(DPR(...))


def drawbar_pull_for_torque(T: float, m_seg: float, g: float, r: float, b: float,
                            soil: Soil, DP_lo: float, DP_hi: float) -> float:
    """The drawbar pull DP [N] per wheel whose constvel torque (2.18) is T [N m]: constvel
    run backwards, by brentq on DP in [DP_lo, DP_hi] (the torque rises with DP on the
    rising branch that constvel solves on). Says which Table 4.7 row a torque belongs to."""
    from scipy.optimize import brentq  # slow to import: only here

    return brentq(lambda dp: constvel(m_seg, g, r, b, soil, dp).T - T, DP_lo, DP_hi,
                  xtol=1e-10, rtol=RTOL)


def top_speed_from_resistance(P: float, R: float) -> float:
    """Top speed v = P / R [m/s] of a wheel with power P [W] against rolling resistance R
    [N]: section 4.2.2's own arithmetic, which reads a power at a speed as a resistance
    ("the power available to each wheel was 1.24 W, indicating a rolling resistance of
    6.2 N" at 0.20 m/s) and the LRV's motor power as a top speed."""
    return P / R  # section 4.2.2


def top_speed_from_wheel_power(P: float, ss: SteadyState, r: float) -> float:
    """Top speed [m/s] at which a wheel held at the steady state ss turns a power P [W]:
    simcore.m's motor law Pmax0 = T v / ((1 - s) r) (the torque times the wheel's spin
    omega = v / ((1 - s) r), eq. 2.4) solved for v. It counts the power the axle turns,
    T omega, where P / R counts only the resistance times the speed."""
    return P * (1.0 - ss.s) * r / ss.T  # simcore.m: motor.Pmax0 = Tmag*v/((1-slip0)*r)
