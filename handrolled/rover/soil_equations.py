"""The thesis' wheel-soil equations of sections 2.1.1-2.1.5, each written once: Bekker's
pressure, sinkage and compaction resistance (2.1)-(2.3), the slip ratio and slip angle
(2.4)-(2.5), the stress distributions of Wong-Reece / Ishigami (2.10)-(2.13), their peaks
(2.19)-(2.21) and Iagnemma's closed form (2.14)-(2.18) with the thrust and resistance
split (3.23)-(3.24).  Soil parameters travel as ``st = Soil.as_tuple()`` (layout in
``terramechanics.SOIL_TUPLE``), phi in radians; ``terramechanics`` re-exports every name,
and its docstring tells the whole model."""

from __future__ import annotations

import math

from dynval._numba_cache import njit
from dynval.robots.rover.soil import Soil

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
