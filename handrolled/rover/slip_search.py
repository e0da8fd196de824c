"""The slip ratio from a commanded torque, section 3.2.3: a bracketed root search of T(s) of
eq. (2.18) (``slip_from_torque``), by Brent's method or the thesis' bisection, with the
peak of T(s) found by golden section where the torque asks for more than the bracket's
end gives.  ``terramechanics`` re-exports every name."""

from __future__ import annotations

import math

from dynval._numba_cache import njit
from dynval.handrolled.rover.soil_equations import torque_of_slip

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
