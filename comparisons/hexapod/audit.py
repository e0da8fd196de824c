"""Hexapod audit: the closed-form terms of eq. (6) and the leg kinematics of eq. (4) against
MuJoCo, PyBullet and Pinocchio at seeded states.

* L1: the foot centre p_F and the foot Jacobian J_F of eq. (6), and the leg Jacobian J of
  eq. (4c) (hip minus foot, so J = -dp_F/d[theta_i1, theta_i2]), on one leg with its hip
  share on slide x / slide z (``hexapod_leg``: Theta = [x_iH, y_iH, theta_i1, theta_i2])
  and on the whole robot (``hexapod``: the three segments on their slides and six legs,
  every foot at once).
* L2: H(Theta), c(Theta, Theta_dot), g(Theta) and the inverse dynamics Gamma of eq. (6) on
  both trees (the whole robot's terms are the legs' summed over the shared segments).

Every engine reads both trees: the MJCF folds the massless slide-x links into their
segments (robots/description.py), the URDF keeps them. The engines' joint coordinates are
the paper's less a constant (FRAMES.md): x_iH - station, y_iH - H_B, the angles as they
are; the paper's plane x-y is the engines' x-z. The paper prints eq. (6) only in its
general form (no closed-form H, c, g), so there is no printed entry of these terms to audit
for an erratum; the printed forms of eqs. (1), (7), (10), (15b) are not rigid-body terms
and are measured elsewhere in the chapter.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np

from dynval.comparisons.ladder.audit import TermResult, compare_term, random_states
from dynval.engines import load_terms
from dynval.handrolled.hexapod import kinematics, lagrange
from dynval.handrolled.hexapod.robot import PlanarHexapod
from dynval.robots.hexapod.params import HexapodParams, leg_names, station_x

LEG_JOINTS = ["hip_x", "hip_z", "LF_hip", "LF_knee"]


def robot_joints(p: HexapodParams) -> list[str]:
    """The whole robot's joints in the hand model's coordinate order (FRAMES.md)."""
    segs = [f"seg{m + 1}_{a}" for m in range(p.n_seg) for a in ("x", "z")]
    return segs + [f"{leg}_{j}" for leg in leg_names(p) for j in ("hip", "knee")]


def robot_offset(p: HexapodParams) -> np.ndarray:
    """Hand coordinates minus engine coordinates: the stations and H_B on the slides."""
    off = np.zeros(2 * p.n_seg + 2 * p.n)
    off[0:2 * p.n_seg:2] = station_x(p)
    off[1:2 * p.n_seg:2] = p.H_B
    return off


def _plane(J2: np.ndarray) -> np.ndarray:
    """A paper-plane (x, y) row pair as the engines' (x, y, z) rows (y_W row zero)."""
    return np.vstack([J2[0], np.zeros(J2.shape[1]), J2[1]])


class _Leg:
    """Eq. (6) of one leg, in the engines' coordinates of hexapod_leg."""

    label = "one leg"
    stem = "hexapod_leg"

    def __init__(self, p: HexapodParams) -> None:
        self.p, self.lm = p, lagrange.LegMass.of(p)
        self.off = np.array([0.0, p.H_B, 0.0, 0.0])
        self.joints, self.feet, self.n = LEG_JOINTS, ["LF_foot"], 4

    def Th(self, q: np.ndarray) -> np.ndarray:
        return q + self.off

    def p_F(self, q):
        return kinematics.paper_to_world(lagrange.p_F(self.Th(q), self.lm))[None, :]

    def J_F(self, q):
        return _plane(lagrange.J_F(self.Th(q), self.lm))

    def H(self, q):
        return lagrange.H(self.Th(q), self.lm)

    def c(self, q, qd):
        return lagrange.c(self.Th(q), qd, self.lm)

    def g(self, q):
        return lagrange.g(self.Th(q), self.lm, self.p.g)

    def Gamma(self, q, qd, qdd):
        return lagrange.Gamma(self.Th(q), qd, qdd, self.lm, self.p.g)

    def leg_cols(self) -> list[np.ndarray]:
        return [np.array([2, 3])]


class _Robot:
    """Eq. (6) of the whole robot, the legs summed over the shared segments."""

    label = "whole robot"
    stem = "hexapod"

    def __init__(self, p: HexapodParams) -> None:
        self.p, self.r = p, PlanarHexapod(p)
        self.off = robot_offset(p)
        self.joints, self.n = robot_joints(p), self.r.nq
        self.feet = [f"{leg}_foot" for leg in leg_names(p)]
        self.y_W = [0.5 * p.w_b if leg[0] == "L" else -0.5 * p.w_b for leg in leg_names(p)]

    def Th(self, q: np.ndarray) -> np.ndarray:
        return q + self.off

    def p_F(self, q):
        pos, _ = self.r.feet(self.Th(q), np.zeros(self.n))
        return np.array([kinematics.paper_to_world(f, y) for f, y in zip(pos, self.y_W,
                                                                          strict=True)])

    def J_F(self, q):
        Th, out = self.Th(q), []
        for idx in self.r.idx:
            J = np.zeros((2, self.n))
            J[:, idx] = lagrange.J_F(Th[idx], self.r.lm)
            out.append(_plane(J))
        return np.vstack(out)

    def H(self, q):
        return self.r.H(self.Th(q))

    def c(self, q, qd):
        Th, out = self.Th(q), np.zeros(self.n)
        for idx in self.r.idx:
            out[idx] += lagrange.c(Th[idx], qd[idx], self.r.lm)
        return out

    def g(self, q):
        Th, out = self.Th(q), np.zeros(self.n)
        for idx in self.r.idx:
            out[idx] += lagrange.g(Th[idx], self.r.lm, self.p.g)
        return out

    def Gamma(self, q, qd, qdd):
        return self.H(q) @ qdd + self.r.bias(self.Th(q), qd)

    def leg_cols(self) -> list[np.ndarray]:
        return [idx[2:] for idx in self.r.idx]


def _cases(p: HexapodParams, desc_dir: Path, samples: int, seed: int
           ) -> Iterator[tuple[object, list[tuple], str, object]]:
    """(hand model, seeded states, reference label, engine terms) for one leg and the whole
    robot against every engine."""
    for model in (_Leg(p), _Robot(p)):
        states = random_states(samples, seed, model.n)
        engines = load_terms(desc_dir / f"{model.stem}.xml", desc_dir / f"{model.stem}.urdf",
                             (0.0, 0.0, -p.g), model.joints)
        for name, eng in engines.items():
            yield model, states, f"{name} ({model.label})", eng


def _eng_feet(eng, feet: list[str], q: np.ndarray) -> np.ndarray:
    return np.array([eng.frame_position(f, q) for f in feet])


def _eng_jac(eng, feet: list[str], q: np.ndarray) -> np.ndarray:
    return np.vstack([eng.frame_jacobian(f, q) for f in feet])


def kinematics_audit(p: HexapodParams, desc_dir: Path, samples: int, seed: int
                     ) -> list[TermResult]:
    """p_F and J_F of eq. (6), J of eq. (4c)."""
    L1, L2 = p.L_i1, p.L_i2
    out = []
    for model, states, ref, eng in _cases(p, desc_dir, samples, seed):
        out.append(compare_term(
            "p_F", "(4) foot centre, hip + L_i1 u(theta_i1) + L_i2 u(theta_i1 + theta_i2)",
            "closed form", ref, lambda s, m=model: m.p_F(s[0]),
            lambda s, e=eng, m=model: _eng_feet(e, m.feet, s[0]), states, seed))
        out.append(compare_term(
            "J_F", "(6) foot Jacobian J_F = dp_F/dTheta", "closed form", ref,
            lambda s, m=model: m.J_F(s[0]),
            lambda s, e=eng, m=model: _eng_jac(e, m.feet, s[0]), states, seed))

        def hand_J(s, m=model):
            Th = m.Th(s[0])
            return np.vstack([kinematics.J(Th[c[0]], Th[c[1]], L1, L2) for c in m.leg_cols()])

        def eng_J(s, e=eng, m=model):
            J = _eng_jac(e, m.feet, s[0])
            return np.vstack([-J[3 * i:3 * i + 3:2][:, c] for i, c in enumerate(m.leg_cols())])

        out.append(compare_term("J", "(4c) J = dPsi/dTheta, Psi = hip - foot", "closed form",
                                ref, hand_J, eng_J, states, seed))
    return out


def dynamics_audit(p: HexapodParams, desc_dir: Path, samples: int, seed: int
                   ) -> list[TermResult]:
    """H, c, g and the inverse dynamics Gamma of eq. (6)."""
    out = []
    for model, states, ref, eng in _cases(p, desc_dir, samples, seed):
        out.append(compare_term("H", "(6) H(Theta)", "closed form", ref,
                                lambda s, m=model: m.H(s[0]),
                                lambda s, e=eng: e.mass_matrix(s[0]), states, seed))
        out.append(compare_term("c", "(6) c(Theta, Theta_dot)", "closed form", ref,
                                lambda s, m=model: m.c(s[0], s[1]),
                                lambda s, e=eng: e.bias(s[0], s[1]) - e.gravity(s[0]),
                                states, seed))
        out.append(compare_term("g", "(6) g(Theta)", "closed form", ref,
                                lambda s, m=model: m.g(s[0]),
                                lambda s, e=eng: e.gravity(s[0]), states, seed))
        out.append(compare_term("Gamma", "(6) inverse dynamics", "closed form", ref,
                                lambda s, m=model: m.Gamma(*s),
                                lambda s, e=eng: e.inverse_dynamics(*s), states, seed))
    return out


def full_audit(p: HexapodParams, desc_dir: Path, samples: int, seed: int) -> list[TermResult]:
    """Every audited term, L1 and L2."""
    return (kinematics_audit(p, desc_dir, min(samples, 200), seed)
            + dynamics_audit(p, desc_dir, samples, seed))
