"""A planar double pendulum of two uniform rods, its equations derived with SymPy's
``sympy.physics.mechanics`` (Lagrange's method) and lambdified: the way a user derives a
model symbolically and hands it to dynval.

    dynval audit --model docs/examples/double_pendulum.py:DoublePendulum \\
        --description docs/examples/double_pendulum.urdf

Rods of length l1 = 1 m, mass m1 = 1.2 kg and l2 = 0.8 m, m2 = 0.7 kg (inertia m l^2 / 12
about the centre), hanging along -z at zero angles, joint angles about y
(double_pendulum.urdf)."""

from __future__ import annotations

from functools import cache

import numpy as np
import sympy as sp
from sympy.physics import mechanics as me

L1, M1, L2, M2, G = 1.0, 1.2, 0.8, 0.7, 9.81


@cache
def _equations():
    """M(q) and the forcing F(q, v) of M q_dd = F, lambdified."""
    q1, q2 = me.dynamicsymbols("q1 q2")
    u1, u2 = me.dynamicsymbols("q1 q2", 1)
    N = me.ReferenceFrame("N")
    A = N.orientnew("A", "Axis", (q1, N.y))
    B = A.orientnew("B", "Axis", (q2, A.y))
    O = me.Point("O")
    O.set_vel(N, 0)
    c1 = O.locatenew("c1", -L1 / 2 * A.z)
    elbow = O.locatenew("elbow", -L1 * A.z)
    c2 = elbow.locatenew("c2", -L2 / 2 * B.z)
    for p in (c1, elbow, c2):
        p.v2pt_theory(O if p is not c2 else elbow, N, A if p is not c2 else B)
    I1 = M1 * L1**2 / 12
    I2 = M2 * L2**2 / 12
    rod1 = me.RigidBody("rod1", c1, A, M1, (me.inertia(A, I1, I1, 1e-4), c1))
    rod2 = me.RigidBody("rod2", c2, B, M2, (me.inertia(B, I2, I2, 1e-4), c2))
    rod1.potential_energy = M1 * G * c1.pos_from(O).dot(N.z)
    rod2.potential_energy = M2 * G * c2.pos_from(O).dot(N.z)
    lm = me.LagrangesMethod(me.Lagrangian(N, rod1, rod2), [q1, q2])
    lm.form_lagranges_equations()
    syms = sp.symbols("x1 x2 v1 v2")
    subs = dict(zip([q1, q2, u1, u2], syms, strict=True))
    M = sp.lambdify(syms, lm.mass_matrix.subs(subs), "numpy")
    F = sp.lambdify(syms, lm.forcing.subs(subs), "numpy")
    return M, F


class DoublePendulum:
    """M(q) q_dd + bias(q, v) = tau from the symbolic Lagrangian."""

    joint_names = ("j1", "j2")

    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        return np.array(_equations()[0](q[0], q[1], 0.0, 0.0), dtype=float)

    def bias(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        return -np.array(_equations()[1](q[0], q[1], v[0], v[1]), dtype=float).ravel()

    def gravity(self, q: np.ndarray) -> np.ndarray:
        return self.bias(q, np.zeros(2))
