"""A rigid body floating on an explicit six-joint base chain, its equations derived with
SymPy's ``sympy.physics.mechanics`` (Lagrange's method): the way to audit a floating-base
model without a free joint's conventions (MuJoCo, Pinocchio and PyBullet each order and
frame a free joint's velocity differently; free_body.py is the free-root way). The base is
three slides and three hinges in the description, so q = (x, y, z, yaw, pitch, roll)
means the same in every engine.

    dynval audit --model docs/examples/floating_body.py:FloatingBody \\
        --description docs/examples/floating_body.urdf

MuJoCo refuses moving massless bodies (the chain's five base links), so this URDF is
audited in PyBullet and Pinocchio, and the audit says so.

The body: m = 2.5 kg, centre of mass c = (0.1, -0.05, 0.2) m in the body frame, principal
inertia (0.30, 0.20, 0.12) kg m^2 about the centre along the body axes; its frame is at
(x, y, z) turned by R = Rz(yaw) Ry(pitch) Rx(roll) (floating_body.urdf)."""

from __future__ import annotations

from functools import cache

import numpy as np
import sympy as sp
from sympy.physics import mechanics as me

M, C, I_C, G = 2.5, (0.1, -0.05, 0.2), (0.30, 0.20, 0.12), 9.81


@cache
def _equations():
    """M(q) and the forcing F(q, v) of M q_dd = F, lambdified."""
    q = me.dynamicsymbols("x y z yaw pitch roll")
    u = me.dynamicsymbols("x y z yaw pitch roll", 1)
    N = me.ReferenceFrame("N")
    B = N.orientnew("B", "Body", q[3:], "ZYX")  # R = Rz(yaw) Ry(pitch) Rx(roll)
    O = me.Point("O")
    O.set_vel(N, 0)
    P = O.locatenew("P", q[0] * N.x + q[1] * N.y + q[2] * N.z)  # the body frame's origin
    P.set_vel(N, P.pos_from(O).dt(N))
    c = P.locatenew("c", C[0] * B.x + C[1] * B.y + C[2] * B.z)
    c.v2pt_theory(P, N, B)
    body = me.RigidBody("body", c, B, M, (me.inertia(B, *I_C), c))
    body.potential_energy = M * G * c.pos_from(O).dot(N.z)
    lm = me.LagrangesMethod(me.Lagrangian(N, body), q)
    lm.form_lagranges_equations()
    syms = sp.symbols("q0:6 v0:6")
    subs = dict(zip([*q, *u], syms, strict=True))
    # common subexpressions once: the audit's L3 calls these some 10^5 times
    mass = sp.lambdify(syms, lm.mass_matrix.subs(subs), "numpy", cse=True)
    forcing = sp.lambdify(syms, lm.forcing.subs(subs), "numpy", cse=True)
    return mass, forcing


class FloatingBody:
    """M(q) q_dd + bias(q, v) = tau from the symbolic Lagrangian; q and v are the six base
    joints' positions and rates."""

    joint_names = ("x", "y", "z", "yaw", "pitch", "roll")

    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        return np.array(_equations()[0](*q, *np.zeros(6)), dtype=float)

    def bias(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        return -np.array(_equations()[1](*q, *v), dtype=float).ravel()

    def gravity(self, q: np.ndarray) -> np.ndarray:
        return self.bias(q, np.zeros(6))
