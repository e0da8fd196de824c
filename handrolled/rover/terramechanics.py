"""Wheel-soil forces of a rigid wheel on deformable soil (thesis sections 2.1, 3.2.3-3.2.4).

In the thesis' symbols, this module computes

* Bekker's plate pressure p(h), wheel sinkage z0 and compaction resistance Rc,
  eqs. (2.1)-(2.3) (plain Python: not on the per-step path);
* the Wong-Reece / Ishigami stress distributions sigma, tau_x, tau_y of eqs. (2.10)-(2.13)
  with a general exit angle theta2 (0 as the thesis assumes, or rut recovery, eq. 4.4), and
  the forces F_x, F_z, F_y, T of eqs. (2.6)-(2.9) by Gauss-Legendre quadrature;
* Iagnemma's closed form, eqs. (2.14)-(2.21), the one the thesis simulates with, with F_x
  split into soil thrust H (3.23) and rolling resistance R (3.24);
* the slip ratio s from a commanded torque by a bracketed root search on eq. (2.18)
  (section 3.2.3), the force vector in the wheel reaction frame with the sign rules
  (3.25)-(3.26) as simcore.m codes them, and simcore.m's torque-from-power law.

theta is measured from bottom dead centre, positive towards the direction of travel
(Fig. 2.1): theta1 is the entry angle, theta2 the exit angle.

Speed: the simulation evaluates sinkage -> theta1 -> s -> forces for every wheel every
1 ms step, so that path is numba-compiled scalar code taking plain floats. Soil parameters
travel as the tuple ``st = Soil.as_tuple()`` = (n, c, phi, kc, kphi, kx0, ky0, dkx, dky,
a0, a1) in SI units, phi in radians (layout in SOIL_TUPLE). Each formula is written once;
the compiled functions are callable from Python, and the wrappers at the end of the
module take a ``Soil`` and return named tuples.

Where the text is silent and Appendix A decides, the code follows Appendix A and says so
in a comment marked "simcore.m" (or the file's name): k_x(beta), k_y(beta), the folding of
the slip angle, the sign rules at v_x = 0, the vertical damping, the torque from power.
The bisection of section 3.2.3 (sbisect.m) is not printed; its bracket, tolerance and
saturation behaviour are choices of this module, documented at ``slip_from_torque``. How
the root is found is not physics: Brent's method finds the slip bisection finds, to the
same tolerance, in about a quarter of the evaluations of (2.18); bisection stays
selectable (``SLIP_METHOD``).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from dynval._numba_cache import njit
from dynval.robots.rover.soil import Soil

SOIL_TUPLE = ("n", "c", "phi", "kc", "kphi", "kx0", "ky0", "dkx", "dky", "a0", "a1")

# The root search of T(s) = T_cmd (section 3.2.3): which method finds the slip is not the
# thesis' physics, only the slip it finds is. BRENT: Brent's method (superlinear, bracketed),
# stopped with the slip within SLIP_TOL of the root. BISECTION: the bisection section
# 3.2.3 names, BISECT_ITER halvings of a bracket at most 2 wide (s in [-1, 1]), so below
# 2 / 2^40 = 1.8e-12 and its midpoint within 0.9e-12 of the root; SLIP_TOL is tighter.
# Either way forces move by less than 1e-11 of the wheel load, far below anything the
# comparisons resolve. SLIP_METHOD is the search every caller of ``slip_from_torque``
# gets; numba fixes it when it compiles, so change it here, not at run time (the numba
# cache is keyed by the source, dynval/_numba_cache.py). ``slip_search`` takes the method
# as an argument (the tests compare the two).
BRENT, BISECTION = 0, 1
SLIP_METHODS = ("brent", "bisection")  # their names, by number
SLIP_METHOD = BRENT
SLIP_TOL = 5e-13
BISECT_ITER = 40
# Brent's iterations stop here at the latest (bisection's count is fixed); with a finite
# T(s) they end far sooner (the tests' grid of wheels, sinkages and torques: at most 30).
BRENT_MAX_ITER = 200
# Golden-section search for the torque peak (rare path: only when the commanded torque
# exceeds T at the top of the bracket): 0.618^60 * 2 = 6e-13 wide at most.
PEAK_ITER = 60
# theta_m = (a0 + a1 s) theta1 must stay strictly inside (0, theta1) for the triangle
# (2.14) and the closed form (2.15)-(2.18) to exist; the slip bracket keeps this margin.
THETA_M_MARGIN = 1e-9
GAUSS_NODES = 64  # Gauss-Legendre nodes per sub-interval in the quadrature of (2.6)-(2.9)


# --- Bekker, section 2.1.1 (plain Python, not on the per-step path) --------------------

def _bekker_n(soil: Soil) -> float:
    if not 0.0 < soil.n < 3.0:
        raise ValueError(f"Bekker's (2.2)-(2.3) need 0 < n < 3; soil {soil.name} has "
                         f"n = {soil.n:g}")
    return soil.n


def bekker_p(h: float, b: float, soil: Soil) -> float:
    """Pressure under a flat plate of width b [m] at sinkage h [m], eq. (2.1) [Pa]."""
    return (soil.kc / b + soil.kphi) * h**soil.n  # eq. (2.1)


def bekker_z0(W: float, D: float, b: float, soil: Soil) -> float:
    """Static sinkage [m] of a wheel of diameter D [m] and width b [m] under load W [N],
    eq. (2.2)."""
    n = _bekker_n(soil)
    return (3.0 * W / ((3.0 - n) * (soil.kc + b * soil.kphi) * math.sqrt(D))
            ) ** (2.0 / (2.0 * n + 1.0))  # eq. (2.2)


def bekker_Rc(W: float, D: float, b: float, soil: Soil) -> float:
    """Compaction (rolling) resistance [N] of a wheel of diameter D [m] and width b [m]
    under load W [N], eq. (2.3)."""
    n = _bekker_n(soil)
    e = 2.0 * n + 1.0
    return ((3.0 * W) ** ((2.0 * n + 2.0) / e)
            / ((3.0 - n) ** ((2.0 * n + 2.0) / e) * (n + 1.0)
               * (soil.kc + b * soil.kphi) ** (1.0 / e) * D ** ((n + 1.0) / e)))  # (2.3)


# --- kinematic inputs, section 2.1.2 ---------------------------------------------------

@njit(cache=True)
def slip_ratio(r_omega: float, v_x: float) -> float:
    """Longitudinal slip s, eq. (2.4): (r omega - v_x)/(r omega) when the rim outruns the
    hub (driving, s > 0), (r omega - v_x)/v_x otherwise (braking, s < 0). Both at rest
    gives 0. Meant for r omega and v_x of one sign, as (2.4) assumes."""
    if r_omega == v_x:
        return 0.0
    if abs(r_omega) > abs(v_x):
        return (r_omega - v_x) / r_omega  # eq. (2.4), driving
    return (r_omega - v_x) / v_x  # eq. (2.4), braking


@njit(cache=True)
def slip_angle(v_x: float, v_y: float) -> float:
    """Slip angle beta [rad], eq. (2.5), as getBeta.m takes it: |atan2(v_y, v_x)| folded
    into [0, pi/2] (a wheel rolling backwards has the slip angle of its mirror image). The
    text's atan(v_y/v_x) is silent on signs; the side force takes its sign from v_y
    instead (section 3.2.4), so beta is a magnitude. 0 at rest (atan2(0, 0) = 0)."""
    beta = abs(math.atan2(v_y, v_x))  # getBeta.m
    if beta > 0.5 * math.pi:  # getBeta.m: "if on wrong side of wheel"
        beta = math.pi - beta
    return beta


@njit(cache=True)
def shear_moduli(beta: float, st: tuple) -> tuple:
    """(k_x, k_y) [m] at slip angle beta: k_x = kx0 + dkx beta, k_y = ky0 + dky beta.
    simcore.m sets them so; the text gives k_x, k_y as constants (2.12)-(2.13)."""
    return st[5] + st[7] * beta, st[6] + st[8] * beta  # simcore.m


@njit(cache=True)
def theta_max(theta1: float, s: float, st: tuple) -> float:
    """Angle of the maximum stresses theta_m = (a0 + a1 s) theta1, eq. (2.11) [rad]."""
    return (st[9] + st[10] * s) * theta1  # eq. (2.11), thetamax.m


# --- stress distributions, section 2.1.4 ------------------------------------------------

@njit(cache=True)
def sigma(theta: float, theta1: float, theta2: float, thm: float, r: float, b: float,
          st: tuple) -> float:
    """Normal stress sigma(theta) [Pa] of Wong-Reece with Bekker's pressure law, eq. (2.10):
    the front region [theta_m, theta1) follows the rim; the rear region (theta2, theta_m]
    is the front curve mapped linearly onto it. Zero outside (theta2, theta1)."""
    n, kc, kphi = st[0], st[3], st[4]
    if theta >= thm:  # eq. (2.10), theta_m <= theta < theta1
        if theta >= theta1:
            return 0.0
        x = math.cos(theta) - math.cos(theta1)
    else:  # eq. (2.10), theta2 < theta <= theta_m
        if theta <= theta2:
            return 0.0
        x = (math.cos(theta1 - (theta - theta2) / (thm - theta2) * (theta1 - thm))
             - math.cos(theta1))
    if x <= 0.0:
        return 0.0
    return r**n * (kc / b + kphi) * x**n


@njit(cache=True)
def tau_x(theta: float, sig: float, theta1: float, s: float, r: float, kx: float,
          st: tuple) -> float:
    """Longitudinal shear stress tau_x(theta) [Pa], eq. (2.12), for the normal stress sig
    [Pa] at theta and shear modulus k_x [m]."""
    c, phi = st[1], st[2]
    j_x = r * (theta1 - theta - (1.0 - s) * (math.sin(theta1) - math.sin(theta)))
    return (c + sig * math.tan(phi)) * (1.0 - math.exp(-j_x / kx))  # eq. (2.12)


@njit(cache=True)
def tau_y(theta: float, sig: float, theta1: float, s: float, beta: float, r: float,
          ky: float, st: tuple) -> float:
    """Lateral shear stress tau_y(theta) [Pa], eq. (2.13), for the normal stress sig [Pa] at
    theta and shear modulus k_y [m]."""
    c, phi = st[1], st[2]
    j_y = r * (1.0 - s) * (theta1 - theta) * math.tan(beta)
    return (c + sig * math.tan(phi)) * (1.0 - math.exp(-j_y / ky))  # eq. (2.13)


@njit(cache=True)
def peak_stresses(theta1: float, s: float, beta: float, r: float, b: float,
                  st: tuple) -> tuple:
    """(theta_m, sigma_m, tau_xm, tau_ym): the maximum stresses, found as the thesis says by
    putting theta = theta_m into the stress equations: eqs. (2.11), (2.19)-(2.21).

    (2.21) and simcore.m's ``tauym`` agree: (1 - s)(theta1 - theta_m) tan(beta).
    """
    thm = theta_max(theta1, s, st)  # eq. (2.11)
    kx, ky = shear_moduli(beta, st)  # simcore.m
    sig_m = sigma(thm, theta1, 0.0, thm, r, b, st)  # eq. (2.19)
    tau_xm = tau_x(thm, sig_m, theta1, s, r, kx, st)  # eq. (2.20)
    tau_ym = tau_y(thm, sig_m, theta1, s, beta, r, ky, st)  # eq. (2.21)
    return thm, sig_m, tau_xm, tau_ym


# --- Iagnemma's closed form, section 2.1.5 and eqs. (3.23)-(3.24) ------------------------

@njit(cache=True)
def closed_form(theta1: float, s: float, beta: float, r: float, b: float,
                st: tuple) -> tuple:
    """(H, R, F_z, F_y, T) of the triangular stresses (2.14) at entry angle theta1 [rad],
    slip s, slip angle beta [rad], wheel radius r [m] and width b [m]:

    soil thrust H (3.23) and rolling resistance R (3.24) [N] (F_x = H + R is eq. 2.15),
    vertical force F_z (2.16) [N], side-force magnitude F_y (2.17) [N] and axle torque T
    (2.18) [N m]. theta2 = 0 (Iagnemma). Zero for theta1 <= 0 (no contact). Needs
    0 < theta_m < theta1, i.e. s inside ``slip_bounds``.
    """
    if theta1 <= 0.0:
        return 0.0, 0.0, 0.0, 0.0, 0.0
    thm, sig_m, tau_xm, tau_ym = peak_stresses(theta1, s, beta, r, b, st)
    if not 0.0 < thm < theta1:
        raise ValueError("theta_m = (a0 + a1 s) theta1 outside (0, theta1): the slip is "
                         "outside slip_bounds and (2.15)-(2.18) do not exist")
    k = r * b / (thm * (theta1 - thm))
    A = theta1 * math.cos(thm) - thm * math.cos(theta1) - theta1 + thm
    B = theta1 * math.sin(thm) - thm * math.sin(theta1)
    H = k * tau_xm * A  # eq. (3.23)
    R = -k * sig_m * B  # eq. (3.24)
    Fz = k * (sig_m * A + tau_xm * B)  # eq. (2.16)
    Fy = 0.5 * r * b * tau_ym * theta1  # eq. (2.17)
    T = axle_torque(theta1, tau_xm, r, b)  # eq. (2.18)
    return H, R, Fz, Fy, T


@njit(cache=True)
def axle_torque(theta1: float, tau_xm: float, r: float, b: float) -> float:
    """T = r^2 b tau_xm theta1 / 2, eq. (2.18) [N m]."""
    return 0.5 * r * r * b * tau_xm * theta1  # eq. (2.18)


@njit(cache=True)
def torque_of_slip(s: float, theta1: float, beta: float, r: float, b: float,
                   st: tuple) -> float:
    """T(s) of eq. (2.18) at entry angle theta1: what the slip search inverts. The same
    functions as ``closed_form`` ((2.11), (2.19), (2.20), (2.18)) without the forces it
    does not need, so one step of the slip search costs one sigma_m and one tau_xm."""
    thm = theta_max(theta1, s, st)  # eq. (2.11)
    kx = shear_moduli(beta, st)[0]  # simcore.m
    sig_m = sigma(thm, theta1, 0.0, thm, r, b, st)  # eq. (2.19)
    return axle_torque(theta1, tau_x(thm, sig_m, theta1, s, r, kx, st), r, b)  # (2.20)


# --- slip ratio from torque, section 3.2.3 ----------------------------------------------

@njit(cache=True)
def slip_bounds(st: tuple) -> tuple:
    """(s_lo, s_hi): the bracket of the slip search, s in [-1, 1] of eq. (2.4), narrowed
    where (2.11) would put theta_m outside (0, theta1) (there (2.14) has no triangle and
    (2.15)-(2.18) no meaning). Dry sand (a0 = 0.28, a1 = 0.35): [-0.8, 1]; lunar soil
    simulant: [-1, 1]."""
    a0, a1 = st[9], st[10]
    lo, hi = -1.0, 1.0
    if a1 > 0.0:
        lo = max(lo, (THETA_M_MARGIN - a0) / a1)
        hi = min(hi, (1.0 - THETA_M_MARGIN - a0) / a1)
    elif a1 < 0.0:
        lo = max(lo, (1.0 - THETA_M_MARGIN - a0) / a1)
        hi = min(hi, (THETA_M_MARGIN - a0) / a1)
    return lo, hi


@njit(cache=True)
def peak_torque_slip(theta1: float, beta: float, r: float, b: float, st: tuple) -> float:
    """The slip in ``slip_bounds`` at which T(s) of eq. (2.18) is largest, by golden-
    section search (PEAK_ITER steps). T rises with s only up to this point: beyond it
    theta_m nears theta1 and sigma_m (2.19) falls faster than the shear displacement in
    (2.20) grows (dry sand, r = 0.5 m, b = 0.2 m, beta = 0: the peak is at s = 0.95 for
    theta1 = 0.05, 0.53 for 0.3, 0.19 for 0.8 and -0.09 for 1.2). Assumes T(s) is
    unimodal on the bracket (checked over a grid of wheels, entry and slip angles in the
    tests)."""
    lo, hi = slip_bounds(st)
    g = 0.5 * (math.sqrt(5.0) - 1.0)
    a, d = lo, hi
    x1, x2 = d - g * (d - a), a + g * (d - a)
    f1 = torque_of_slip(x1, theta1, beta, r, b, st)
    f2 = torque_of_slip(x2, theta1, beta, r, b, st)
    for _ in range(PEAK_ITER):
        if f1 < f2:
            a, x1, f1 = x1, x2, f2
            x2 = a + g * (d - a)
            f2 = torque_of_slip(x2, theta1, beta, r, b, st)
        else:
            d, x2, f2 = x2, x1, f1
            x1 = d - g * (d - a)
            f1 = torque_of_slip(x1, theta1, beta, r, b, st)
    return 0.5 * (a + d)


@njit(cache=True)
def _brent(T_cmd: float, s_a: float, f_a: float, s_b: float, f_b: float, theta1: float,
           beta: float, r: float, b: float, st: tuple) -> tuple:
    """(s, evaluations): the root of f(s) = T(s) - T_cmd (eq. 2.18) in [s_a, s_b], where
    f(s_a) <= 0 <= f(s_b) are given, by Brent's method (Brent 1973, ch. 4, "zeroin"):
    inverse quadratic or secant interpolation where it shrinks the bracket fast enough,
    else a halving. s is within SLIP_TOL + 4 eps |s| of the root (eps = 2^-52)."""
    eps = 2.220446049250313e-16  # 2^-52, the spacing of doubles at 1
    # s_b: the best estimate; s_c: the other end of the bracket; s_a: the previous s_b
    s_c, f_c = s_a, f_a
    step = prev_step = s_b - s_a
    n = 0
    for _ in range(BRENT_MAX_ITER):
        if (f_b > 0.0 and f_c > 0.0) or (f_b < 0.0 and f_c < 0.0):
            s_c, f_c = s_a, f_a  # keep the root between s_b and s_c
            step = prev_step = s_b - s_a
        if abs(f_c) < abs(f_b):  # s_b the end nearer the root
            s_a, f_a = s_b, f_b
            s_b, f_b = s_c, f_c
            s_c, f_c = s_a, f_a
        tol = 2.0 * eps * abs(s_b) + 0.5 * SLIP_TOL
        half = 0.5 * (s_c - s_b)
        if abs(half) <= tol or f_b == 0.0:
            break
        if abs(prev_step) >= tol and abs(f_a) > abs(f_b):  # try interpolating
            q = f_b / f_a
            if s_a == s_c:  # secant
                p = 2.0 * half * q
                den = 1.0 - q
            else:  # inverse quadratic through the three points
                ac, bc = f_a / f_c, f_b / f_c
                p = q * (2.0 * half * ac * (ac - bc) - (s_b - s_a) * (bc - 1.0))
                den = (ac - 1.0) * (bc - 1.0) * (q - 1.0)
            if p > 0.0:
                den = -den
            p = abs(p)
            if 2.0 * p < min(3.0 * half * den - abs(tol * den), abs(prev_step * den)):
                prev_step, step = step, p / den  # accept the interpolation
            else:
                step = prev_step = half  # it would shrink the bracket too slowly: halve
        else:
            step = prev_step = half
        s_a, f_a = s_b, f_b
        s_b += step if abs(step) > tol else math.copysign(tol, half)
        f_b = torque_of_slip(s_b, theta1, beta, r, b, st) - T_cmd
        n += 1
    return s_b, n


@njit(cache=True)
def _bisection(T_cmd: float, lo: float, hi: float, theta1: float, beta: float, r: float,
               b: float, st: tuple) -> tuple:
    """(s, evaluations): the root of T(s) = T_cmd in [lo, hi], T(lo) <= T_cmd <= T(hi),
    by BISECT_ITER halvings, the midpoint of the last bracket."""
    for _ in range(BISECT_ITER):  # invariant: T(lo) <= T_cmd <= T(hi)
        mid = 0.5 * (lo + hi)
        if torque_of_slip(mid, theta1, beta, r, b, st) < T_cmd:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi), BISECT_ITER


@njit(cache=True)
def slip_search(T_cmd: float, theta1: float, beta: float, r: float, b: float, st: tuple,
                method: int) -> tuple:
    """(s, saturated, evaluations): ``slip_from_torque`` by the root search ``method``
    (BRENT or BISECTION), with the number of evaluations of T(s) (2.18) it took.

    Brent's search starts from the sign of the slip, T(0) against T_cmd: T(s) falls
    steeply towards s_lo (in the thesis' runs -T(s_lo) is some 2000 times the driving
    torque), which would spend Brent's first interpolations; split at s = 0 the search
    takes 9-13 evaluations in all where it took 14 (the thesis' runs; bisection 42)."""
    lo, hi = slip_bounds(st)
    if T_cmd != T_cmd:
        return math.nan, True, 0
    T_lo = torque_of_slip(lo, theta1, beta, r, b, st)
    if T_cmd < T_lo:
        return lo, True, 1  # below the least torque the soil gives in the bracket
    T_hi = torque_of_slip(hi, theta1, beta, r, b, st)
    n = 2
    on_peak = T_cmd > T_hi
    if on_peak:
        hi = peak_torque_slip(theta1, beta, r, b, st)
        T_hi = torque_of_slip(hi, theta1, beta, r, b, st)
        n += PEAK_ITER + 3
        if T_cmd > T_hi:
            return hi, True, n  # driving torque beyond the peak of (2.18)
    if method == BISECTION:
        s, k = _bisection(T_cmd, lo, hi, theta1, beta, r, b, st)
        return s, False, n + k
    s_a, f_a, s_b, f_b = lo, T_lo - T_cmd, hi, T_hi - T_cmd  # f(s_a) <= 0 <= f(s_b)
    if f_b == 0.0 and not on_peak:  # T_cmd = T(s_hi) exactly: where T falls there (its
        # peak inside the bracket) s_hi is a falling-branch root, the rising one below
        f_in = torque_of_slip(hi - SLIP_TOL, theta1, beta, r, b, st) - T_cmd
        n += 1
        if f_in > 0.0:
            s_b, f_b = hi - SLIP_TOL, f_in
    if s_a < 0.0 < s_b:  # driving (s > 0) or braking (s < 0), eq. (2.4): T(0) decides
        f_0 = torque_of_slip(0.0, theta1, beta, r, b, st) - T_cmd
        n += 1
        if f_0 < 0.0:
            s_a, f_a = 0.0, f_0
        else:
            s_b, f_b = 0.0, f_0
    s, k = _brent(T_cmd, s_a, f_a, s_b, f_b, theta1, beta, r, b, st)
    return s, False, n + k


@njit(cache=True)
def slip_from_torque(T_cmd: float, theta1: float, beta: float, r: float, b: float,
                     st: tuple) -> tuple:
    """(s, saturated): the slip at which eq. (2.18) gives the commanded torque T_cmd [N m],
    by a bracketed root search (section 3.2.3; sbisect.m is not printed, so these are this
    module's choices):

    * bracket: ``slip_bounds`` ([-1, 1] of (2.4), narrowed so theta_m stays in
      (0, theta1)); where T(s) peaks inside it, only the rising branch up to the peak
      (on the falling branch more slip means less soil torque, so a wheel driven at a
      fixed torque there would run away);
    * search: SLIP_METHOD, Brent's method (s within SLIP_TOL = 5e-13 of the root, some
      10 evaluations of (2.18) a wheel) or the thesis' bisection (BISECT_ITER = 40
      halvings, within 0.9e-12); the same inputs give the same s every call;
    * a torque the soil cannot transmit is not solved for: below T(s_lo) the slip is
      clamped to s_lo, above the peak torque to the peak's slip, and ``saturated`` is
      True (the caller sees it in the wheel diagnostics); a NaN torque gives s = NaN,
      saturated.

    The bracket [s_lo, s_hi] is used directly when T_cmd <= T(s_hi): with T unimodal the
    crossing is then unique and on the rising branch (at T_cmd = T(s_hi) exactly, with
    the peak inside, s_hi crosses too; both searches take the rising branch's); the peak
    search runs only when T_cmd > T(s_hi).
    """
    s, saturated, _ = slip_search(T_cmd, theta1, beta, r, b, st, SLIP_METHOD)
    return s, saturated


# --- force vector, section 3.2.4 --------------------------------------------------------

@njit(cache=True)
def _sign(x: float) -> float:
    """Matlab's sign: -1, 0 or 1."""
    return 1.0 if x > 0.0 else (-1.0 if x < 0.0 else 0.0)


@njit(cache=True)
def wheel_forces(theta1: float, v_x: float, v_y: float, v_z: float, T_cmd: float, r: float,
                 b: float, D: float, st: tuple) -> tuple:
    """(F_x, F_y, F_z, s, beta, H, R, saturated): the soil force [N] on a wheel in its wheel
    reaction frame, eq. (3.27), for entry angle theta1 [rad], hub velocity (v_x, v_y, v_z)
    [m/s] in that frame, commanded torque T_cmd [N m], wheel radius r and width b [m],
    vertical damping D [N s/m] and soil tuple st.

    Sign rules exactly as simcore.m codes (3.25)-(3.26):
    v_x = 0 and H > 0: F_x = max(H + R, 0); v_x = 0 and H < 0: F_x = min(H - R, 0)
    (with R < 0 that is (3.25), F_x = H + sign(H) R, zero unless |H| > |R|); otherwise
    F_x = H + R sign(v_x) (3.26; at v_x = 0, H = 0 it gives 0). F_y = |F_y| (-sign(v_y)):
    opposite to v_y, zero when v_y = 0 (simcore.m: ``abs(Ctau)``). F_z = W - D v_z:
    simcore.m's vertical damping (the text only says "an additional damping term").
    The lateral bulldozing force simcore.m computes (``Cbull``, not printed) is not
    applied there either (``Fy = Fytau``) and is omitted here.
    """
    if theta1 <= 0.0:  # no contact
        return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False
    beta = slip_angle(v_x, v_y)  # eq. (2.5), getBeta.m
    s, saturated = slip_from_torque(T_cmd, theta1, beta, r, b, st)  # section 3.2.3
    H, R, W, Fy, _ = closed_form(theta1, s, beta, r, b, st)
    if v_x == 0.0 and H > 0.0:
        Fx = max(H + R, 0.0)  # eq. (3.25), simcore.m
    elif v_x == 0.0 and H < 0.0:
        Fx = min(H - R, 0.0)  # eq. (3.25), simcore.m
    else:
        Fx = H + R * _sign(v_x)  # eq. (3.26)
    return Fx, abs(Fy) * -_sign(v_y), W - D * v_z, s, beta, H, R, saturated


@njit(cache=True)
def torque_from_power(P: float, s: float, v_x: float, r: float) -> float:
    """Wheel torque [N m] from the commanded wheel power P [W] at slip s and hub speed v_x
    [m/s], simcore.m: T = P r (1 - s)/|v_x| for s >= 0, T = P r / ((1 + s)|v_x|) for s < 0,
    i.e. T = P / omega with r omega from eq. (2.4). At v_x = 0 the law has no finite value:
    it returns +-inf (0 for P = 0), which the slip search clamps and flags."""
    if v_x == 0.0:
        return 0.0 if P == 0.0 else math.copysign(math.inf, P)
    if s >= 0.0:
        return P * r * (1.0 - s) / abs(v_x)  # simcore.m
    return P * r / ((1.0 + s) * abs(v_x))  # simcore.m


@njit(cache=True)
def torques_from_power(P: np.ndarray, s: np.ndarray, v_x: np.ndarray, r: float
                       ) -> np.ndarray:
    """:func:`torque_from_power` for every wheel at once (arrays of one shape)."""
    T = np.empty(P.shape)
    for k in range(P.size):
        T.flat[k] = torque_from_power(P.flat[k], s.flat[k], v_x.flat[k], r)
    return T


# --- numerical integration of the stress distributions, eqs. (2.6)-(2.9) ----------------

@njit(cache=True)
def _integrated_forces(theta1: float, theta2: float, s: float, beta: float, r: float,
                       b: float, st: tuple, triangular: bool, x: np.ndarray,
                       w: np.ndarray) -> tuple:
    """(H, R, F_z, F_y, T) of eqs. (2.6)-(2.9), H and R being the tau_x and sigma terms of
    (2.6), by Gauss-Legendre quadrature (nodes x, weights w on [-1, 1]) over the two smooth
    pieces [theta2, theta_m] and [theta_m, theta1] (the distributions kink at theta_m).
    ``triangular`` takes Iagnemma's linear stresses (2.14) instead of (2.10)-(2.13)."""
    thm = theta_max(theta1, s, st)
    kx, ky = shear_moduli(beta, st)
    _, sig_m, tau_xm, tau_ym = peak_stresses(theta1, s, beta, r, b, st)
    I_txc = I_ss = I_sc = I_txs = I_ty = I_tx = 0.0
    for piece in range(2):
        a, e = (theta2, thm) if piece == 0 else (thm, theta1)
        half, mid = 0.5 * (e - a), 0.5 * (e + a)
        for k in range(x.size):
            th = mid + half * x[k]
            wk = half * w[k]
            if triangular:  # eq. (2.14), theta2 = 0
                t = th / thm if piece == 0 else (theta1 - th) / (theta1 - thm)
                sg, tx, ty = t * sig_m, t * tau_xm, t * tau_ym
            else:
                sg = sigma(th, theta1, theta2, thm, r, b, st)  # eq. (2.10)
                tx = tau_x(th, sg, theta1, s, r, kx, st)  # eq. (2.12)
                ty = tau_y(th, sg, theta1, s, beta, r, ky, st)  # eq. (2.13)
            c, sn = math.cos(th), math.sin(th)
            I_txc += wk * tx * c
            I_ss += wk * sg * sn
            I_sc += wk * sg * c
            I_txs += wk * tx * sn
            I_ty += wk * ty
            I_tx += wk * tx
    H = r * b * I_txc  # eq. (2.6), shear term
    R = -r * b * I_ss  # eq. (2.6), normal-stress term
    Fz = r * b * (I_sc + I_txs)  # eq. (2.7)
    Fy = r * b * I_ty  # eq. (2.8)
    T = r * r * b * I_tx  # eq. (2.9)
    return H, R, Fz, Fy, T


@lru_cache(maxsize=8)
def _gauss_legendre(n_nodes: int) -> tuple[np.ndarray, np.ndarray]:
    x, w = np.polynomial.legendre.leggauss(n_nodes)
    return x, w


def exit_angle(z0: float, r: float, lam: float) -> float:
    """Exit angle theta2 [rad] with rut recovery, eq. (4.4): the magnitude is
    acos(1 - lambda z0 / r) as printed; the rear contact lies behind bottom dead centre,
    where theta < 0 in Fig. 2.1's convention, so the value returned is its negative.
    (As printed, theta2 ~ theta1 for lambda ~ 1 would shrink the contact to nothing, not
    "stretch out the stress distributions" as section 4.2.2 says.) lambda = 0 gives the
    thesis' theta2 = 0."""
    return -math.acos(1.0 - lam * z0 / r)  # eq. (4.4), sign: see docstring


# --- readable wrappers taking a Soil ----------------------------------------------------

class ForceSet(NamedTuple):
    """Wheel forces in the wheel frame: soil thrust H and rolling resistance R [N] (F_x =
    H + R, eq. 2.6 / 2.15), vertical F_z [N], side-force magnitude F_y [N], torque T [N m]."""

    H: float
    R: float
    Fz: float
    Fy: float
    T: float

    @property
    def Fx(self) -> float:
        """Drawbar pull F_x = H + R [N], eq. (2.6) / (2.15)."""
        return self.H + self.R


class WheelForces(NamedTuple):
    """``wheel_forces``' result: force in the wheel reaction frame (3.27) [N], slip s, slip
    angle beta [rad], H and R [N], and whether the torque was beyond what the soil
    transmits (s clamped)."""

    Fx: float
    Fy: float
    Fz: float
    s: float
    beta: float
    H: float
    R: float
    saturated: bool


def soil_tuple(soil: Soil | tuple) -> tuple:
    """The compiled functions' soil tuple (layout SOIL_TUPLE) from a Soil or a tuple."""
    if isinstance(soil, Soil):
        return soil.as_tuple()
    if len(soil) != len(SOIL_TUPLE):
        raise ValueError(f"a soil tuple has {len(SOIL_TUPLE)} entries {SOIL_TUPLE}, "
                         f"got {len(soil)}")
    return tuple(float(v) for v in soil)


def iagnemma_forces(theta1: float, s: float, beta: float, r: float, b: float,
                    soil: Soil | tuple) -> ForceSet:
    """The closed form (2.15)-(2.18), (3.23)-(3.24); see ``closed_form``."""
    return ForceSet(*closed_form(theta1, s, beta, r, b, soil_tuple(soil)))


def wong_reece_forces(theta1: float, s: float, beta: float, r: float, b: float,
                      soil: Soil | tuple, theta2: float = 0.0,
                      n_nodes: int = GAUSS_NODES) -> ForceSet:
    """Eqs. (2.6)-(2.9) with the Wong-Reece / Ishigami stresses (2.10)-(2.13), contact
    from theta2 (0, or ``exit_angle`` for rut recovery) to theta1, by Gauss-Legendre
    quadrature with n_nodes per piece."""
    if not theta2 <= theta_max(theta1, s, soil_tuple(soil)) < theta1:
        raise ValueError("need theta2 <= theta_m < theta1")
    x, w = _gauss_legendre(n_nodes)
    return ForceSet(*_integrated_forces(theta1, theta2, s, beta, r, b, soil_tuple(soil),
                                        False, x, w))


def triangular_forces(theta1: float, s: float, beta: float, r: float, b: float,
                      soil: Soil | tuple, n_nodes: int = GAUSS_NODES) -> ForceSet:
    """Eqs. (2.6)-(2.9) integrated numerically for Iagnemma's triangular stresses (2.14)
    (theta2 = 0): what the closed form (2.15)-(2.18) must equal."""
    x, w = _gauss_legendre(n_nodes)
    return ForceSet(*_integrated_forces(theta1, 0.0, s, beta, r, b, soil_tuple(soil),
                                        True, x, w))


def slip_for_torque(T_cmd: float, theta1: float, beta: float, r: float, b: float,
                    soil: Soil | tuple) -> tuple[float, bool]:
    """(s, saturated) from the commanded torque; see ``slip_from_torque``."""
    return slip_from_torque(T_cmd, theta1, beta, r, b, soil_tuple(soil))


def wheel_force_vector(theta1: float, v_x: float, v_y: float, v_z: float, T_cmd: float,
                       r: float, b: float, D: float, soil: Soil | tuple) -> WheelForces:
    """The wheel force in the wheel reaction frame with its diagnostics; see
    ``wheel_forces``."""
    return WheelForces(*wheel_forces(theta1, v_x, v_y, v_z, T_cmd, r, b, D,
                                     soil_tuple(soil)))
