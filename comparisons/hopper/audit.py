"""Hopper audit: the spatial-operator terms of eqs. (1)-(19), built as the paper builds
them (operator products), against MuJoCo, PyBullet and Pinocchio at seeded states.

* L1: the tip position and Jacobian of eq. (9), and the tip velocity by the printed scalar
  recursion (1)-(2) and by the matrix form (3), on the fixed-base manipulator (hip and leg
  on a welded body) and on the 8-DoF chain of Fig. 3.
* L2: M, C (Coriolis and centrifugal), the gravity part of eq. (19)'s bias and the inverse
  dynamics tau, with the bias a_k of eq. (12) as printed and corrected, on both chains;
  and M_b, the base coupling of eq. (19), through the 8-DoF chain's joint-base block
  (M_b J_b = M[joints, base], J_b the body's spatial Jacobian).

The 8-DoF chain has massless base links, which MuJoCo rejects: PyBullet and Pinocchio
audit it (``robots/hopper/model_description.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from dynval.comparisons.ladder.audit import TermResult, compare_term, random_states
from dynval.engines import load_terms
from dynval.handrolled.hopper import chain as chains
from dynval.handrolled.hopper import soa
from dynval.handrolled.hopper.recursive import Recursive
from dynval.robots.hopper.model_description import BASE_JOINTS
from dynval.robots.hopper.params import HopperParams

FIXED_JOINTS = ["hip", "leg"]
FULL_JOINTS = [name for name, _, _ in BASE_JOINTS] + ["base_roll", "hip", "leg"]
TIP = "leg"  # the foot is the leg frame's origin
BODY_IN_FULL = 5  # the body is the sixth link of the 8-DoF chain


def _states(n: int, seed: int, dim: int) -> list[tuple]:
    """Seeded states with the leg length (the last coordinate) in [0.5, 1.3] m."""
    out = []
    for q, qd, qdd in random_states(n, seed, dim):
        q = q.copy()
        q[-1] = 0.9 + 0.4 * q[-1] / np.pi
        out.append((q, qd, qdd))
    return out


def _references(desc_dir: Path, p: HopperParams, full: bool) -> dict:
    g = (0.0, 0.0, -p.g)
    if full:
        return load_terms(None, desc_dir / "hopper_6dof.urdf", g, FULL_JOINTS)
    return load_terms(desc_dir / "hopper_fixed.xml", desc_dir / "hopper_fixed.urdf", g,
                      FIXED_JOINTS)


def _cases(p: HopperParams, desc_dir: Path, samples: int, seed: int
           ) -> Iterator[tuple[chains.Chain, bool, list[tuple], str, object]]:
    """(chain, whether it is the 8-DoF chain, seeded states, reference label, engine) for
    the fixed-base manipulator and the 8-DoF chain against each engine that reads it."""
    for label, chain, full in (("fixed base", chains.manipulator(p), False),
                               ("8-DoF chain", chains.full(p), True)):
        states = _states(samples, seed, chain.n)
        for name, eng in _references(desc_dir, p, full).items():
            yield chain, full, states, f"{name} ({label})", eng


def kinematics_audit(p: HopperParams, desc_dir: Path, samples: int, seed: int
                     ) -> list[TermResult]:
    """Eq. (9)'s tip position and Jacobian, and the tip velocity of (1)-(2) vs (3)."""
    results = []
    for chain, _, states, ref, eng in _cases(p, desc_dir, samples, seed):
        results.append(compare_term(
            "p_t", "(9) tip position", "operator", ref,
            lambda s, c=chain: soa.frames(c, s[0]).tip,
            lambda s, e=eng: e.frame_position(TIP, s[0]), states, seed))
        results.append(compare_term(
            "J", "(9) J = Phi_t Phi H", "operator", ref,
            lambda s, c=chain: soa.terms(c, s[0], s[1]).J[3:],
            lambda s, e=eng: e.frame_jacobian(TIP, s[0]), states, seed))
        for form in soa.FORMS:
            eq = "(1)-(2) tip velocity" if form == "printed" else "(3) tip velocity"
            results.append(compare_term(
                "v_t", eq, form, ref,
                lambda s, c=chain, f=form: soa.velocities(
                    c, soa.frames(c, s[0]), s[1], np.zeros(6), f)[-1, 3:],
                lambda s, e=eng: e.frame_jacobian(TIP, s[0]) @ s[1], states, seed))
    return results


def _terms_once() -> Callable[[chains.Chain, tuple, str], soa.Terms]:
    """soa.terms(chain, q, qd, form=form) for a state (q, qd, qdd) of an audit, computed
    once for every term and reference that reads it (the operator products cost 0.2-0.6
    ms): the same Terms object, so the same floats, as a call per term."""
    memo: dict[tuple[int, int, str], tuple[tuple, soa.Terms]] = {}

    def terms(chain: chains.Chain, s: tuple, form: str) -> soa.Terms:
        key = (id(chain), id(s), form)
        if key not in memo:  # the state kept beside its terms: its id stays its own
            memo[key] = (s, soa.terms(chain, s[0], s[1], form=form))
        return memo[key][1]

    return terms


def dynamics_audit(p: HopperParams, desc_dir: Path, samples: int, seed: int
                   ) -> list[TermResult]:
    """Eq. (19)'s M, C, gravity and tau, printed and corrected bias, and M_b."""
    results = []
    terms = _terms_once()
    for chain, full, states, ref, eng in _cases(p, desc_dir, samples, seed):
        results.append(compare_term(
            "M", "(19) H^T Phi^T M Phi H", "operator", ref,
            lambda s, c=chain: terms(c, s, "corrected").M,
            lambda s, e=eng: e.mass_matrix(s[0]), states, seed))
        results.append(compare_term(
            "G", "(19) gravity in C via the base", "operator", ref,
            lambda s, c=chain: terms(c, s, "corrected").gravity(p.g),
            lambda s, e=eng: e.gravity(s[0]), states, seed))
        for form in soa.FORMS:
            results.append(compare_term(
                "C", "(12), (19) H^T Phi^T (M Phi a + b)", form, ref,
                lambda s, c=chain, f=form: terms(c, s, f).C,
                lambda s, e=eng: e.bias(s[0], s[1]) - e.gravity(s[0]), states, seed))
            results.append(compare_term(
                "tau", "(19) inverse dynamics", form, ref,
                lambda s, c=chain, f=form: soa.inverse_dynamics(c, *s, p.g, form=f,
                                                                t=terms(c, s, f)),
                lambda s, e=eng: e.inverse_dynamics(*s), states, seed))
        if full:
            results.append(_base_coupling(p, chain, eng, ref, states, seed))
    return results


def _base_coupling(p: HopperParams, full: chains.Chain, eng, ref: str, states: list,
                   seed: int) -> TermResult:
    """M_b of eq. (19) for the manipulator on the body, through the 8-DoF chain: the body's
    spatial velocity is J_b q_dot_base, so M_b J_b is the joint rows' base block of the
    chain's mass matrix."""
    manip = chains.manipulator(p)
    rec = Recursive(chains.Chain(full.names[:BODY_IN_FULL + 1], full.kind[:BODY_IN_FULL + 1],
                                 full.axis[:BODY_IN_FULL + 1], full.offset[:BODY_IN_FULL + 1],
                                 full.mass[:BODY_IN_FULL + 1], full.com[:BODY_IN_FULL + 1],
                                 full.inertia[:BODY_IN_FULL + 1], np.zeros(3)))

    def hand(s):
        q_base, q_joint = s[0][:BODY_IN_FULL + 1], s[0][BODY_IN_FULL + 1:]
        fr = soa.frames(full, s[0])
        _, J_b = rec.mass_and_jacobian(q_base)
        M_b = soa.terms(manip, q_joint, np.zeros(2), R_b=fr.R[BODY_IN_FULL],
                        p_b=fr.p[BODY_IN_FULL]).M_b
        return M_b @ J_b

    return compare_term("M_b", "(19) H^T Phi^T M Phi Phi_b", "operator", ref, hand,
                        lambda s, e=eng: e.mass_matrix(s[0])[BODY_IN_FULL + 1:, :BODY_IN_FULL + 1],
                        states, seed)


def full_audit(p: HopperParams, desc_dir: Path, samples: int, seed: int) -> list[TermResult]:
    """Every audited term, L1 and L2."""
    return (kinematics_audit(p, desc_dir, min(samples, 200), seed)
            + dynamics_audit(p, desc_dir, samples, seed))
