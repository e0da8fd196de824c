"""Hopper audit: the spatial-operator terms of eqs. (1)-(19), built as the paper builds
them (operator products), against MuJoCo, PyBullet, Pinocchio and Drake at seeded states.

* L1: the tip position and Jacobian of eq. (9), and the tip velocity by the printed scalar
  recursion (1)-(2) and by the matrix form (3), on the fixed-base manipulator (hip and leg
  on a welded body) and on the 8-DoF chain of Fig. 3.
* L2: M, C (Coriolis and centrifugal), the gravity part of eq. (19)'s bias and the inverse
  dynamics tau, with the bias a_k of eq. (12) as printed and corrected, on both chains;
  and M_b, the base coupling of eq. (19), through the 8-DoF chain's joint-base block
  (M_b J_b = M[joints, base], J_b the body's spatial Jacobian).

The 8-DoF chain has massless base links, which MuJoCo rejects: PyBullet, Pinocchio and
Drake audit it (``robots/hopper/model_description.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np

from dynval.comparisons.ladder.audit import TermResult, compare_term, random_states
from dynval.comparisons.ladder.terms import ModelCalls, protocol_rows
from dynval.engines import load_terms
from dynval.handrolled.hopper import chain as chains
from dynval.handrolled.hopper import soa
from dynval.handrolled.hopper.protocol import HopperChain, HopperLeg
from dynval.robots.hopper.params import HopperParams

BODY_IN_FULL = 5  # the body is the sixth link of the 8-DoF chain
# the protocol's terms as the paper names them
TIP = {"p": ("p_t", "(9) tip position"), "J": ("J", "(9) J = Phi_t Phi H")}
FORM_FREE = {"M": ("M", "(19) H^T Phi^T M Phi H"), "G": ("G", "(19) gravity in C via the base")}
BY_FORM = {"C v": ("C", "(12), (19) H^T Phi^T (M Phi a + b)"),
           "tau": ("tau", "(19) inverse dynamics")}


def _states(n: int, seed: int, dim: int) -> list[tuple]:
    """Seeded states with the leg length (the last coordinate) in [0.5, 1.3] m."""
    out = []
    for q, qd, qdd in random_states(n, seed, dim):
        q = q.copy()
        q[-1] = 0.9 + 0.4 * q[-1] / np.pi
        out.append((q, qd, qdd))
    return out


def _references(desc_dir: Path, p: HopperParams, model: HopperLeg) -> dict:
    g, joints = (0.0, 0.0, -p.g), list(model.joint_names)
    if isinstance(model, HopperChain):
        return load_terms(None, desc_dir / "hopper_6dof.urdf", g, joints)
    return load_terms(desc_dir / "hopper_fixed.xml", desc_dir / "hopper_fixed.urdf", g, joints)


def _cases(p: HopperParams, desc_dir: Path, samples: int, seed: int
           ) -> Iterator[tuple[dict[str, ModelCalls], list[tuple], str, object]]:
    """(the model's calls in each form, seeded states, reference label, engine) for the
    fixed-base manipulator and the 8-DoF chain against each engine that reads it."""
    for label, kind in (("fixed base", HopperLeg), ("8-DoF chain", HopperChain)):
        calls = {form: ModelCalls(kind(p, form)) for form in soa.FORMS}
        model = calls["corrected"].model
        states = _states(samples, seed, len(model.joint_names))
        for name, eng in _references(desc_dir, p, model).items():
            yield calls, states, f"{name} ({label})", eng


def kinematics_audit(p: HopperParams, desc_dir: Path, samples: int, seed: int
                     ) -> list[TermResult]:
    """Eq. (9)'s tip position and Jacobian, and the tip velocity of (1)-(2) vs (3)."""
    results = []
    for calls, states, ref, eng in _cases(p, desc_dir, samples, seed):
        results += protocol_rows(calls["corrected"], {ref: eng}, states, seed, TIP, "operator")
        c, tip = calls["corrected"].model.chain, calls["corrected"].model.frames[0]
        for form in soa.FORMS:
            eq = "(1)-(2) tip velocity" if form == "printed" else "(3) tip velocity"
            results.append(compare_term(
                "v_t", eq, form, ref,
                lambda s, c=c, f=form: soa.velocities(c, soa.frames(c, s[0]), s[1],
                                                      np.zeros(6), f)[-1, 3:],
                lambda s, e=eng, tip=tip: e.frame_jacobian(tip, s[0]) @ s[1], states, seed))
    return results


def dynamics_audit(p: HopperParams, desc_dir: Path, samples: int, seed: int
                   ) -> list[TermResult]:
    """Eq. (19)'s M, C, gravity and tau, printed and corrected bias, and M_b."""
    results = []
    for calls, states, ref, eng in _cases(p, desc_dir, samples, seed):
        results += protocol_rows(calls["corrected"], {ref: eng}, states, seed, FORM_FREE,
                                 "operator")
        for form in soa.FORMS:
            results += protocol_rows(calls[form], {ref: eng}, states, seed, BY_FORM, form)
        if isinstance(calls["corrected"].model, HopperChain):
            results.append(_base_coupling(p, calls["corrected"].model.chain, eng, ref, states,
                                          seed))
    return results


def _base_coupling(p: HopperParams, full: chains.Chain, eng, ref: str, states: list,
                   seed: int) -> TermResult:
    """M_b of eq. (19) for the manipulator on the body, through the 8-DoF chain: the body's
    spatial velocity is J_b q_dot_base, so M_b J_b is the joint rows' base block of the
    chain's mass matrix."""
    manip = chains.manipulator(p)
    k = BODY_IN_FULL + 1  # the base chain's links, the body last
    base = chains.Chain(full.names[:k], full.kind[:k], full.axis[:k], full.offset[:k],
                        full.mass[:k], full.com[:k], full.inertia[:k], np.zeros(3))

    def hand(s):
        q_base, q_joint = s[0][:BODY_IN_FULL + 1], s[0][BODY_IN_FULL + 1:]
        fr = soa.frames(full, s[0])
        J_b = soa.terms(base, q_base, np.zeros(k)).J  # eq. (9): the body's own Jacobian
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
