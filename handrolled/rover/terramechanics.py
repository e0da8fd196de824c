"""Wheel-soil forces of a rigid wheel on deformable soil (thesis section 2.1).

Bekker's sinkage and compaction resistance (2.1)-(2.3); the Wong-Reece / Ishigami stress
distributions (2.10)-(2.13) integrated numerically (2.6)-(2.9); the Iagnemma closed form
(2.14)-(2.21) the thesis simulates with, split into soil thrust H (3.23) and rolling
resistance R (3.24); the slip ratio from a commanded torque by bisection (3.2.3); the
force vector with the sign rules (3.25)-(3.26) as simcore.m codes them; the torque from
a commanded wheel power (simcore.m).

Soil parameters travel as the tuple of ``Soil.as_tuple()``: (n, c, phi, kc, kphi, kx0, ky0,
dkx, dky, a0, a1). The per-step path is numba-compiled (it runs for every wheel every step).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

SLIP_TOL = 1e-12  # bisection stops when the bracket is this narrow [-]
SLIP_ITER = 60  # 2 / 2^60 < 1e-17: the tolerance, not the count, ends the search


# --- Bekker (section 2.1.1) -------------------------------------------------------------

@njit(cache=True)
def plate_pressure(h: float, b: float, n: float, kc: float, kphi: float) -> float:
    """p(h) = (k_c/b + k_phi) h^n, eq. (2.1) [Pa]."""
    return (kc / b + kphi) * h**n


@njit(cache=True)
def bekker_sinkage(W: float, D: float, b: float, n: float, kc: float, kphi: float) -> float:
    """z0 = [3W / ((3 - n)(k_c + b k_phi) sqrt(D))]^(2/(2n+1)), eq. (2.2) [m]."""
    return (3.0 * W / ((3.0 - n) * (kc + b * kphi) * math.sqrt(D))) ** (2.0 / (2.0 * n + 1.0))


@njit(cache=True)
def bekker_resistance(W: float, D: float, b: float, n: float, kc: float, kphi: float) -> float:
    """Compaction resistance R_c, eq. (2.3) [N]."""
    e = 2.0 * n + 1.0
    return ((3.0 * W) ** ((2.0 * n + 2.0) / e)
            / ((3.0 - n) ** ((2.0 * n + 2.0) / e) * (n + 1.0) * (kc + b * kphi) ** (1.0 / e)
               * D ** ((n + 1.0) / e)))


# --- kinematic inputs (section 2.1.2) ---------------------------------------------------

@njit(cache=True)
def slip_ratio(r_omega: float, v_x: float) -> float:
    """s of eq. (2.4): (r w - v_x)/(r w) when driving, (r w - v_x)/v_x when braking."""
    if r_omega == v_x:
        return 0.0
    if abs(r_omega) > abs(v_x):
        return (r_omega - v_x) / r_omega
    return (r_omega - v_x) / v_x


@njit(cache=True)
def slip_angle(v_x: float, v_y: float) -> float:
    """beta = atan(v_y/v_x), eq. (2.5), as getBeta.m takes it: the magnitude folded into
    [0, pi/2] (the side force's sign comes from v_y, section 3.2.4)."""
    beta = abs(math.atan2(v_y, v_x))
    return math.pi - beta if beta > 0.5 * math.pi else beta


@njit(cache=True)
def theta_max(theta1: float, s: float, a0: float, a1: float) -> float:
    """theta_m = (a0 + a1 s) theta_1, eq. (2.11)."""
    return (a0 + a1 * s) * theta1


# --- stress distributions (section 2.1.4) -----------------------------------------------

@njit(cache=True)
def sigma(theta: float, theta1: float, theta2: float, thm: float, r: float, b: float,
          n: float, kc: float, kphi: float) -> float:
    """Normal stress sigma(theta), eq. (2.10) [Pa]."""
    k = r**n * (kc / b + kphi)
    if theta >= thm:
        x = math.cos(theta) - math.cos(theta1)
    else:
        x = (math.cos(theta1 - (theta - theta2) / (thm - theta2) * (theta1 - thm))
             - math.cos(theta1))
    return k * max(x, 0.0) ** n


@njit(cache=True)
def tau_x(theta: float, sig: float, theta1: float, s: float, r: float, c: float, phi: float,
          kx: float) -> float:
    """Longitudinal shear stress, eq. (2.12) [Pa]."""
    j = r * (theta1 - theta - (1.0 - s) * (math.sin(theta1) - math.sin(theta)))
    return (c + sig * math.tan(phi)) * (1.0 - math.exp(-j / kx))


@njit(cache=True)
def tau_y(theta: float, sig: float, theta1: float, s: float, beta: float, r: float, c: float,
          phi: float, ky: float) -> float:
    """Lateral shear stress, eq. (2.13) [Pa]."""
    j = r * (1.0 - s) * (theta1 - theta) * math.tan(beta)
    return (c + sig * math.tan(phi)) * (1.0 - math.exp(-j / ky))


# --- closed form (section 2.1.5) --------------------------------------------------------

@njit(cache=True)
def peak_stresses(theta1: float, s: float, beta: float, r: float, b: float,
                  soil: tuple) -> tuple:
    """(theta_m, sigma_m, tau_xm, tau_ym): eqs. (2.11), (2.19)-(2.21), with
    k_x = kx0 + dkx beta and k_y = ky0 + dky beta as simcore.m sets them."""
    n, c, phi, kc, kphi, kx0, ky0, dkx, dky, a0, a1 = soil
    kx, ky = kx0 + dkx * beta, ky0 + dky * beta
    thm = theta_max(theta1, s, a0, a1)
    sig_m = r**n * (kc / b + kphi) * max(math.cos(thm) - math.cos(theta1), 0.0) ** n  # (2.19)
    jx = r * ((theta1 - thm) - (1.0 - s) * (math.sin(theta1) - math.sin(thm)))
    tau_xm = (c + sig_m * math.tan(phi)) * (1.0 - math.exp(-jx / kx))  # eq. (2.20)
    jy = r * (1.0 - s) * (theta1 - thm) * math.tan(beta)
    tau_ym = (c + sig_m * math.tan(phi)) * (1.0 - math.exp(-jy / ky))  # eq. (2.21)
    return thm, sig_m, tau_xm, tau_ym


@njit(cache=True)
def closed_form(theta1: float, s: float, beta: float, r: float, b: float,
                soil: tuple) -> tuple:
    """(H, R, F_z, F_y, T): soil thrust (3.23), rolling resistance (3.24) (F_x = H + R,
    eq. 2.15), vertical force (2.16), side force magnitude (2.17), torque (2.18)."""
    thm, sig_m, tau_xm, tau_ym = peak_stresses(theta1, s, beta, r, b, soil)
    k = r * b / (thm * (theta1 - thm))
    A = theta1 * math.cos(thm) - thm * math.cos(theta1) - theta1 + thm
    B = theta1 * math.sin(thm) - thm * math.sin(theta1)
    H = k * tau_xm * A  # eq. (3.23)
    R = -k * sig_m * B  # eq. (3.24)
    Fz = k * (sig_m * A + tau_xm * B)  # eq. (2.16)
    Fy = 0.5 * r * b * tau_ym * theta1  # eq. (2.17)
    T = 0.5 * r * r * b * tau_xm * theta1  # eq. (2.18)
    return H, R, Fz, Fy, T


@njit(cache=True)
def slip_bounds(soil: tuple) -> tuple:
    """The slip bracket of the bisection: [-1, 1] of eq. (2.4), raised where needed so
    that theta_m = (a0 + a1 s) theta_1 stays inside (0, theta_1) and (2.15)-(2.16) exist."""
    a0, a1 = soil[9], soil[10]
    lo, hi = -1.0, 1.0
    if a1 > 0.0:
        lo = max(lo, (1e-9 - a0) / a1)
        hi = min(hi, (1.0 - 1e-9 - a0) / a1)
    return lo, hi


@njit(cache=True)
def peak_torque_slip(theta1: float, beta: float, r: float, b: float, soil: tuple) -> float:
    """The slip at which eq. (2.18) peaks inside the bracket, by golden-section search.
    T(s) rises with s only up to this point: further slip moves theta_m towards theta_1
    and sigma_m (2.19) falls faster than the shear displacement grows."""
    lo, hi = slip_bounds(soil)
    g = 0.5 * (math.sqrt(5.0) - 1.0)
    a, d = lo, hi
    x1, x2 = d - g * (d - a), a + g * (d - a)
    f1 = closed_form(theta1, x1, beta, r, b, soil)[4]
    f2 = closed_form(theta1, x2, beta, r, b, soil)[4]
    while d - a > 1e-10:
        if f1 < f2:
            a, x1, f1 = x1, x2, f2
            x2 = a + g * (d - a)
            f2 = closed_form(theta1, x2, beta, r, b, soil)[4]
        else:
            d, x2, f2 = x2, x1, f1
            x1 = d - g * (d - a)
            f1 = closed_form(theta1, x1, beta, r, b, soil)[4]
    return 0.5 * (a + d)


@njit(cache=True)
def slip_from_torque(T_cmd: float, theta1: float, beta: float, r: float, b: float,
                     soil: tuple) -> tuple:
    """(s, saturated): the slip at which eq. (2.18) gives T_cmd, by bisection (3.2.3) on
    the rising branch of T(s), from the lower bracket end to the torque peak. A torque
    beyond what the soil transmits returns the bracket end or the peak with ``saturated``
    True (sbisect.m is not printed; this is the behaviour chosen here)."""
    lo, _ = slip_bounds(soil)
    hi = peak_torque_slip(theta1, beta, r, b, soil)
    if T_cmd <= closed_form(theta1, lo, beta, r, b, soil)[4]:
        return lo, True
    if T_cmd >= closed_form(theta1, hi, beta, r, b, soil)[4]:
        return hi, True
    for _ in range(SLIP_ITER):
        mid = 0.5 * (lo + hi)
        if closed_form(theta1, mid, beta, r, b, soil)[4] < T_cmd:
            lo = mid
        else:
            hi = mid
        if hi - lo < SLIP_TOL:
            break
    return 0.5 * (lo + hi), False


@njit(cache=True)
def _sign(x: float) -> float:
    return 1.0 if x > 0.0 else (-1.0 if x < 0.0 else 0.0)


@njit(cache=True)
def wheel_forces(theta1: float, v_x: float, v_y: float, v_z: float, T_cmd: float, r: float,
                 b: float, D: float, soil: tuple) -> tuple:
    """(F_x, F_y, F_z, s, beta, H, R, saturated) in the wheel reaction frame, eq. (3.27).

    Sign rules as simcore.m codes (3.25)-(3.26): at v_x = 0 the thrust must beat the
    resistance (F_x = max(H + R, 0) or min(H - R, 0)); otherwise F_x = H + R sign(v_x);
    the side force opposes v_y; F_z gets the suspension damping -D v_z.
    """
    beta = slip_angle(v_x, v_y)
    s, saturated = slip_from_torque(T_cmd, theta1, beta, r, b, soil)
    H, R, Fz, Fy, _ = closed_form(theta1, s, beta, r, b, soil)
    if v_x == 0.0 and H > 0.0:
        Fx = max(H + R, 0.0)  # eq. (3.25), R < 0
    elif v_x == 0.0 and H < 0.0:
        Fx = min(H - R, 0.0)
    else:
        Fx = H + R * _sign(v_x)  # eq. (3.26)
    return Fx, -_sign(v_y) * abs(Fy), Fz - D * v_z, s, beta, H, R, saturated


@njit(cache=True)
def torque_from_power(P: float, s: float, v_x: float, r: float) -> float:
    """Wheel torque for power P at slip s and ground speed v_x (simcore.m): omega follows
    from eq. (2.4), r omega = v/(1 - s) when driving and v (1 + s) when braking."""
    if s >= 0.0:
        return P * r * (1.0 - s) / abs(v_x)
    return P * r / ((1.0 + s) * abs(v_x))


# --- numerical integration of the stress distributions (2.6)-(2.9) ----------------------

_GL_X, _GL_W = np.polynomial.legendre.leggauss(64)


def _integrate(f, a: float, b: float) -> float:
    """64-point Gauss-Legendre over [a, b]: deterministic, exact to round-off for the
    smooth pieces between the kinks of (2.10)."""
    if b <= a:
        return 0.0
    x = 0.5 * (b - a) * _GL_X + 0.5 * (a + b)
    return float(0.5 * (b - a) * np.dot(_GL_W, [f(t) for t in x]))


def integrated_forces(theta1: float, s: float, beta: float, r: float, b: float, soil: tuple,
                      theta2: float = 0.0, triangular: bool = False) -> tuple:
    """(F_x, F_z, F_y, T) of eqs. (2.6)-(2.9) by quadrature over [theta2, theta_m] and
    [theta_m, theta1]. ``triangular`` integrates Iagnemma's linear stresses (2.14) instead
    of (2.10)-(2.13) (theta2 = 0 there). theta2 = acos(1 - lambda z0/r), eq. (4.4), models
    rut recovery."""
    n, c, phi, kc, kphi, kx0, ky0, dkx, dky, a0, a1 = soil
    kx, ky = kx0 + dkx * beta, ky0 + dky * beta
    thm = theta_max(theta1, s, a0, a1)
    if triangular:
        _, sig_m, tau_xm, tau_ym = peak_stresses(theta1, s, beta, r, b, soil)

        def tri(th, peak):  # eq. (2.14)
            return peak * (th / thm if th <= thm else (theta1 - th) / (theta1 - thm))

        def sg(th):
            return tri(th, sig_m)

        def tx(th):
            return tri(th, tau_xm)

        def ty(th):
            return tri(th, tau_ym)
        theta2 = 0.0
    else:
        def sg(th):
            return sigma(th, theta1, theta2, thm, r, b, n, kc, kphi)

        def tx(th):
            return tau_x(th, sg(th), theta1, s, r, c, phi, kx)

        def ty(th):
            return tau_y(th, sg(th), theta1, s, beta, r, c, phi, ky)

    def quad(f):
        return _integrate(f, theta2, thm) + _integrate(f, thm, theta1)

    Fx = r * b * (quad(lambda t: tx(t) * math.cos(t)) - quad(lambda t: sg(t) * math.sin(t)))
    Fz = r * b * (quad(lambda t: sg(t) * math.cos(t)) + quad(lambda t: tx(t) * math.sin(t)))
    Fy = r * b * quad(ty)  # eq. (2.8)
    T = r * r * b * quad(tx)  # eq. (2.9)
    return Fx, Fz, Fy, T
