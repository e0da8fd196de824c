"""Spatial operator algebra of the hopper paper, eqs. (1)-(19), as matrices.

Spatial vectors are [angular; linear] (eq. 4), every vector in world axes, velocities and
moments at each link frame's origin. The operators are built literally: Phi (the block
lower-triangular propagation of eq. 13), H (joint axes, eq. 6), M (link spatial inertias,
eq. 15), the bias vectors a and b, Phi_b (base to link 1) and Phi_t (last link to tip), and
eq. (19)'s generalised mass matrix, bias and base coupling are their products. This is the
paper's method, the path the readable model steps with; its compiled copy
``dynval.handrolled.hopper.fast.recursive`` computes the same terms by the O(n) recursions
(12), (15), (18) for simulation, and the tests hold the two together.

Two forms (``Form``), which differ for prismatic joints only:
* ``printed``: in ``velocities``, the scalar kinematics (1)-(2) as printed: every joint adds
  h_k theta_dot_k to the angular velocity (1) and nothing to the linear one (2), where the
  matrix form (3), (6) has H_2 = [0; h_2]; in ``operators``, the bias of (12) as printed,
  a_k = [w_{k-1} x w_k; w_{k-1} x (w_{k-1} x l_{k-1,k})], with the velocities of (3) (the
  form the operator products use), so that the bias is the only difference there.
* ``corrected``: velocities from (3) with (6), and the prismatic bias
  a_k = [0; w_{k-1} x (w_{k-1} x l_{k-1,k}) + 2 w_{k-1} x h_k theta_dot_k] (the Coriolis
  term of a joint that slides along a turning axis; l_{k-1,k} grows at theta_dot_k).

Gravity enters as an upward acceleration g of the base (V_b_dot - [0; g]), so that eq.
(19)'s C "includes Coriolis and gravity" as the paper says.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from dynval.handrolled.hopper.chain import REVOLUTE, Chain
from dynval.handrolled.so3 import cross, exp, skew

Form = Literal["printed", "corrected"]
FORMS: tuple[Form, ...] = ("printed", "corrected")


def check_form(form: str) -> None:
    """Refuse, in one sentence, a form that is not one of FORMS."""
    if form not in FORMS:
        raise ValueError(f"unknown form {form!r}; use printed or corrected")


@dataclass(frozen=True)
class Frames:
    """World pose of every link frame at a configuration."""

    R: np.ndarray  # (n, 3, 3) link axes in world
    p: np.ndarray  # (n, 3) link frame origins
    h: np.ndarray  # (n, 3) joint axes h_k in world
    l: np.ndarray  # (n, 3) l_{k-1,k}: parent origin (base for k = 1) to link origin
    l_c: np.ndarray  # (n, 3) l_{k,c}: link origin to its centre
    l_t: np.ndarray  # (3,) l_{n,t}: last link origin to the tip
    tip: np.ndarray  # (3,) tip position


def frames(chain: Chain, q: np.ndarray, R_b: np.ndarray | None = None,
           p_b: np.ndarray | None = None) -> Frames:
    """Forward kinematics of the chain on a base at (R_b, p_b) (the world by default)."""
    n = chain.n
    R_prev = np.eye(3) if R_b is None else np.asarray(R_b, float)
    p_prev = np.zeros(3) if p_b is None else np.asarray(p_b, float)
    R, p, h, l, l_c = (np.zeros((n, 3, 3)), np.zeros((n, 3)), np.zeros((n, 3)),
                       np.zeros((n, 3)), np.zeros((n, 3)))
    for k in range(n):
        h[k] = R_prev @ chain.axis[k]
        if chain.kind[k] == REVOLUTE:
            R[k] = R_prev @ exp(chain.axis[k] * q[k])
            p[k] = p_prev + R_prev @ chain.offset[k]
        else:
            R[k] = R_prev
            p[k] = p_prev + R_prev @ (chain.offset[k] + chain.axis[k] * q[k])
        l[k] = p[k] - p_prev
        l_c[k] = R[k] @ chain.com[k]
        R_prev, p_prev = R[k], p[k]
    l_t = R[-1] @ chain.tip
    return Frames(R, p, h, l, l_c, l_t, p[-1] + l_t)


def Phi_kk1(l: np.ndarray) -> np.ndarray:
    """Phi_{k,k-1} = [I 0; -L_{k-1,k} I], eq. (5): a spatial velocity carried from frame
    k-1 to frame k (its transpose carries a spatial force back)."""
    out = np.eye(6)
    out[3:, :3] = -skew(l)
    return out


def H_k(kind: int, h: np.ndarray) -> np.ndarray:
    """H_k of eq. (6): [h; 0] for a revolute joint, [0; h] for a prismatic one."""
    out = np.zeros(6)
    if kind == REVOLUTE:
        out[:3] = h
    else:
        out[3:] = h
    return out


def velocities(chain: Chain, fr: Frames, qd: np.ndarray, V_b: np.ndarray,
               form: Form) -> np.ndarray:
    """Spatial velocity of every link, (n, 6): eqs. (1)-(2) as printed, or eq. (3)."""
    V = np.zeros((chain.n, 6))
    prev = np.asarray(V_b, float)
    for k in range(chain.n):
        w_prev, v_prev = prev[:3], prev[3:]
        if form == "printed":  # eqs. (1)-(2)
            w = w_prev + fr.h[k] * qd[k]
            v = v_prev - cross(fr.l[k], w_prev)
            V[k] = np.concatenate([w, v])
        else:  # eq. (3)
            V[k] = Phi_kk1(fr.l[k]) @ prev + H_k(chain.kind[k], fr.h[k]) * qd[k]
        prev = V[k]
    return V


def bias_a(chain: Chain, fr: Frames, V: np.ndarray, V_b: np.ndarray, qd: np.ndarray,
           form: Form) -> np.ndarray:
    """The spatial bias accelerations a_k of eq. (12), (n, 6)."""
    a = np.zeros((chain.n, 6))
    for k in range(chain.n):
        w_prev = (V_b if k == 0 else V[k - 1])[:3]
        w_k = V[k, :3]
        lin = cross(w_prev, cross(w_prev, fr.l[k]))
        if chain.kind[k] == REVOLUTE or form == "printed":  # eq. (12) as printed
            a[k, :3] = cross(w_prev, w_k)
            a[k, 3:] = lin
        else:  # a prismatic joint: the Coriolis term, no angular part
            a[k, 3:] = lin + 2.0 * cross(w_prev, fr.h[k]) * qd[k]
    return a


def spatial_inertia(m: float, I_c: np.ndarray, l_c: np.ndarray) -> np.ndarray:
    """M_k of eq. (15) about the link frame origin: [I_k, m L_{k,c}; -m L_{k,c}, m I],
    with I_k = I_c - m L_{k,c} L_{k,c} (the inertia about the origin; see FRAMES.md)."""
    L = skew(l_c)
    out = np.zeros((6, 6))
    out[:3, :3] = I_c - m * L @ L
    out[:3, 3:] = m * L
    out[3:, :3] = -m * L
    out[3:, 3:] = m * np.eye(3)
    return out


def bias_b(M_k: np.ndarray, m: float, l_c: np.ndarray, V_k: np.ndarray) -> np.ndarray:
    """b_k of eq. (15): [w x I_k w; m w x (w x l_{k,c})]."""
    w = V_k[:3]
    return np.concatenate([cross(w, M_k[:3, :3] @ w), m * cross(w, cross(w, l_c))])


@dataclass(frozen=True)
class Operators:
    """The stacked operators of eqs. (13), (16), (19) at one state."""

    Phi: np.ndarray  # (6n, 6n)
    H: np.ndarray  # (6n, n)
    M: np.ndarray  # (6n, 6n) block diagonal
    a: np.ndarray  # (6n,)
    b: np.ndarray  # (6n,)
    Phi_b: np.ndarray  # (6n, 6): the base's velocity into link 1
    Phi_t: np.ndarray  # (6, 6n): the last link's velocity to the tip


def operators(chain: Chain, q: np.ndarray, qd: np.ndarray, V_b: np.ndarray | None = None,
              R_b: np.ndarray | None = None, p_b: np.ndarray | None = None,
              form: Form = "corrected") -> Operators:
    """Phi, H, M, a, b, Phi_b, Phi_t at (q, qd) on a base moving at V_b."""
    n = chain.n
    V_b = np.zeros(6) if V_b is None else np.asarray(V_b, float)
    fr = frames(chain, q, R_b, p_b)
    V = velocities(chain, fr, qd, V_b, "corrected")  # eq. (3): the operator form's
    a = bias_a(chain, fr, V, V_b, qd, form)
    steps = [Phi_kk1(fr.l[k]) for k in range(n)]
    Phi = np.zeros((6 * n, 6 * n))
    for i in range(n):
        block = np.eye(6)
        Phi[6 * i:6 * i + 6, 6 * i:6 * i + 6] = block
        for j in range(i - 1, -1, -1):  # Phi(i, j) = Phi_{i,i-1} ... Phi_{j+1,j}
            block = block @ steps[j + 1]
            Phi[6 * i:6 * i + 6, 6 * j:6 * j + 6] = block
    H = np.zeros((6 * n, n))
    M = np.zeros((6 * n, 6 * n))
    b = np.zeros(6 * n)
    for k in range(n):
        H[6 * k:6 * k + 6, k] = H_k(chain.kind[k], fr.h[k])
        M_k = spatial_inertia(chain.mass[k], fr.R[k] @ chain.inertia[k] @ fr.R[k].T, fr.l_c[k])
        M[6 * k:6 * k + 6, 6 * k:6 * k + 6] = M_k
        b[6 * k:6 * k + 6] = bias_b(M_k, chain.mass[k], fr.l_c[k], V[k])
    Phi_b = np.zeros((6 * n, 6))
    Phi_b[:6] = steps[0]
    Phi_t = np.zeros((6, 6 * n))
    Phi_t[:, -6:] = Phi_kk1(fr.l_t)
    return Operators(Phi, H, M, a.reshape(-1), b, Phi_b, Phi_t)


def gravity_acceleration(g: float) -> np.ndarray:
    """The base acceleration that stands for gravity: the ground accelerating up at g."""
    return np.array([0.0, 0.0, 0.0, 0.0, 0.0, g])


@dataclass(frozen=True)
class Terms:
    """Eq. (19)'s terms and eq. (9)'s Jacobians at one state."""

    M: np.ndarray  # generalised mass matrix H^T Phi^T M Phi H
    C: np.ndarray  # H^T Phi^T (M Phi a + b): Coriolis and centrifugal
    M_b: np.ndarray  # H^T Phi^T M Phi Phi_b: base coupling
    J: np.ndarray  # Phi_t Phi H, eq. (9)
    Phi_tb: np.ndarray  # Phi_t Phi Phi_b, eq. (9)

    def gravity(self, g: float) -> np.ndarray:
        """The gravity part of eq. (19)'s bias, M_b (-g)."""
        return self.M_b @ gravity_acceleration(g)


def terms(chain: Chain, q: np.ndarray, qd: np.ndarray, V_b: np.ndarray | None = None,
          R_b: np.ndarray | None = None, p_b: np.ndarray | None = None,
          form: Form = "corrected") -> Terms:
    """M, C, M_b of eq. (19) and J, Phi_t,b of eq. (9), as the operator products."""
    op = operators(chain, q, qd, V_b, R_b, p_b, form)
    HtPt = op.H.T @ op.Phi.T
    MPhi = op.M @ op.Phi
    return Terms(HtPt @ MPhi @ op.H, HtPt @ (MPhi @ op.a + op.b), HtPt @ MPhi @ op.Phi_b,
                 op.Phi_t @ op.Phi @ op.H, op.Phi_t @ op.Phi @ op.Phi_b)


def inverse_dynamics(chain: Chain, q: np.ndarray, qd: np.ndarray, qdd: np.ndarray, g: float,
                     F_t: np.ndarray | None = None, V_b: np.ndarray | None = None,
                     Vd_b: np.ndarray | None = None, form: Form = "corrected",
                     t: Terms | None = None) -> np.ndarray:
    """tau of eq. (19): M theta_dd + C + M_b (V_b_dot + gravity) + J^T F_t, where F_t is
    the spatial force the tip exerts on its surroundings; ``t``: ``terms(chain, q, qd, V_b,
    form=form)`` where the caller has them already (an audit of every term at a state)."""
    if t is None:
        t = terms(chain, q, qd, V_b, form=form)
    Vd = (np.zeros(6) if Vd_b is None else np.asarray(Vd_b, float)) + gravity_acceleration(g)
    tau = t.M @ qdd + t.C + t.M_b @ Vd
    if F_t is not None:
        tau = tau + t.J.T @ F_t
    return tau
