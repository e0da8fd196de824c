"""Ground contact of the hopper paper: the ADAMS-style impact law (24) with its cubic STEP
and Coulomb friction (25), evaluated at the foot point.  The laws run as plain Python and
are compiled from the same source where a compiled loop calls them (numba's
register_jitable; ``p`` is then fast.loop.Laws, a tuple of the fields they read)."""

from __future__ import annotations

import math

from numba.extending import register_jitable

from dynval.robots.hopper.params import HopperParams


@register_jitable
def step(x: float, x0: float, h0: float, x1: float, h1: float) -> float:
    """The cubic STEP of Sec. 5.1: h0 up to x0, h1 from x1, h0 + a D^2 (3 - 2 D) between,
    a = h1 - h0, D = (x - x0) / (x1 - x0)."""
    if x <= x0:
        return h0
    if x >= x1:
        return h1
    D = (x - x0) / (x1 - x0)
    return h0 + (h1 - h0) * D * D * (3.0 - 2.0 * D)


@register_jitable
def normal_force(x: float, x_dot: float, p: HopperParams) -> float:
    """Eq. (24): F = k (x_1 - x)^e - c_max x_dot STEP(x, x_1 - d, 1, x_1, 0) while the foot
    height x is below x_1, zero above. As printed (``p.pull_clipped`` 0) it is not clipped
    at zero: near lift-off the damping term pulls the foot down (an erratum against the
    ADAMS IMPACT law the paper cites, which clips it: ``p.pull_clipped`` 1 gives max(F, 0),
    a ground that only pushes)."""
    if x >= p.x_1:
        return 0.0
    F = p.k_c * (p.x_1 - x) ** p.e - p.c_max * x_dot * step(x, p.x_1 - p.d, 1.0, p.x_1, 0.0)
    return max(F, 0.0) if p.pull_clipped > 0.0 else F


@register_jitable
def friction_force(F_N: float, v_t: float, p: HopperParams) -> float:
    """Eq. (25), F_s = mu F_N, opposing the foot's slip v_t; sign(v_t) is regularised as
    v_t / v_eps within +-v_eps (a time-stepped foot cannot stop exactly). A pulling normal
    force carries no friction."""
    if F_N <= 0.0:
        return 0.0
    s = v_t / p.v_eps
    return -p.mu * F_N * max(-1.0, min(1.0, s))


@register_jitable
def leg_force(r: float, r_dot: float, u: float, p: HopperParams) -> float:
    """Force along the leg (positive lengthens it): the leg spring k_L (r_0 + u - r) with
    the thrust u of eq. (20), and the leg stop k_stop (r_0 - r) - b_stop r_dot beyond r_0
    (Raibert's model; robots/hopper/FRAMES.md)."""
    F = p.k_L * (p.r_0 + u - r)
    if r > p.r_0:
        F += p.k_stop * (p.r_0 - r) - p.b_stop * r_dot
    return F


def static_penetration(p: HopperParams) -> float:
    """Penetration that carries the robot's weight with eq. (24) at rest [m]."""
    return (p.m_total * p.g / p.k_c) ** (1.0 / p.e)


def contact_stiffness(p: HopperParams) -> float:
    """dF/dx of eq. (24) at the static penetration, e k delta^(e-1) [N/m]: the linear spring
    an engine's native contact is given."""
    delta = static_penetration(p)
    return p.e * p.k_c * delta ** (p.e - 1.0) if delta > 0 else math.inf
