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
a0, a1) in SI units, phi in radians (layout in SOIL_TUPLE). Each formula is written once:
the equations of sections 2.1.1-2.1.5 in ``soil_equations``, the slip search of 3.2.3 in
``slip_search``, and here the forces of 3.2.4, the torque from power and the quadrature
of (2.6)-(2.9); this module re-exports them all. The compiled functions are callable from
Python, and the wrappers at the end of the module take a ``Soil`` and return named tuples.

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
from dynval.handrolled.rover.slip_search import (  # noqa: F401  (re-exported)
    BISECT_ITER,
    BISECTION,
    BRENT,
    BRENT_MAX_ITER,
    PEAK_ITER,
    SLIP_METHOD,
    SLIP_METHODS,
    SLIP_TOL,
    THETA_M_MARGIN,
    peak_torque_slip,
    slip_bounds,
    slip_from_torque,
    slip_search,
)
from dynval.handrolled.rover.soil_equations import (  # noqa: F401  (re-exported)
    axle_torque,
    bekker_p,
    bekker_Rc,
    bekker_z0,
    closed_form,
    peak_stresses,
    shear_moduli,
    sigma,
    slip_angle,
    slip_ratio,
    tau_x,
    tau_y,
    theta_max,
    torque_of_slip,
)
from dynval.robots.rover.soil import Soil

SOIL_TUPLE = ("n", "c", "phi", "kc", "kphi", "kx0", "ky0", "dkx", "dky", "a0", "a1")
GAUSS_NODES = 64  # Gauss-Legendre nodes per sub-interval in the quadrature of (2.6)-(2.9)


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
