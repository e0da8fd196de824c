"""Hexapod audit: the closed-form terms of eq. (6) and the leg kinematics of eq. (4) against
MuJoCo, PyBullet, Pinocchio and Drake at seeded states.

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
from dynval.comparisons.ladder.terms import ModelCalls, protocol_rows
from dynval.engines import load_terms
from dynval.handrolled.hexapod import kinematics
from dynval.handrolled.hexapod.protocol import HexapodLeg, HexapodRobot
from dynval.robots.hexapod.params import HexapodParams

# the protocol's terms as the paper names them, L1 and L2
FEET = {
    "p": ("p_F", "(4) foot centre, hip + L_i1 u(theta_i1) + L_i2 u(theta_i1 + theta_i2)"),
    "J": ("J_F", "(6) foot Jacobian J_F = dp_F/dTheta"),
}
TERMS = {
    "M": ("H", "(6) H(Theta)"),
    "C v": ("c", "(6) c(Theta, Theta_dot)"),
    "G": ("g", "(6) g(Theta)"),
    "tau": ("Gamma", "(6) inverse dynamics"),
}


def _cases(p: HexapodParams, desc_dir: Path, samples: int, seed: int
           ) -> Iterator[tuple[ModelCalls, list[tuple], str, object]]:
    """(the model's calls, seeded states, engine name, engine terms) for one leg and the
    whole robot against every engine."""
    for label, stem, model in (("one leg", "hexapod_leg", HexapodLeg(p)),
                               ("whole robot", "hexapod", HexapodRobot(p))):
        calls = ModelCalls(model)
        states = random_states(samples, seed, len(model.joint_names))
        engines = load_terms(desc_dir / f"{stem}.xml", desc_dir / f"{stem}.urdf",
                             (0.0, 0.0, -p.g), list(model.joint_names))
        for name, eng in engines.items():
            yield calls, states, f"{name} ({label})", eng


def _leg_columns(model: HexapodLeg | HexapodRobot) -> list[list[int]]:
    """Each foot's leg: the columns of its hip and knee angles."""
    names = list(model.joint_names)
    return [[names.index(f"{foot[:-5]}_{j}") for j in ("hip", "knee")] for foot in model.frames]


def _leg_jacobian_row(p: HexapodParams, calls: ModelCalls, states: list[tuple], ref: str,
                      eng, seed: int) -> TermResult:
    """J of eq. (4c), hip minus foot, so J = -dp_F/d[theta_i1, theta_i2]: against the
    engines' foot Jacobians."""
    model = calls.model
    cols = _leg_columns(model)

    def hand_J(s):
        Th = s[0] + model.off
        return np.vstack([kinematics.J(Th[c[0]], Th[c[1]], p.L_i1, p.L_i2) for c in cols])

    def eng_J(s):
        return np.vstack([-eng.frame_jacobian(f, s[0])[::2][:, c]
                          for f, c in zip(model.frames, cols, strict=True)])

    return compare_term("J", "(4c) J = dPsi/dTheta, Psi = hip - foot", "closed form", ref,
                        hand_J, eng_J, states, seed)


def kinematics_audit(p: HexapodParams, desc_dir: Path, samples: int, seed: int
                     ) -> list[TermResult]:
    """p_F and J_F of eq. (6), J of eq. (4c)."""
    out = []
    for calls, states, ref, eng in _cases(p, desc_dir, samples, seed):
        out += protocol_rows(calls, {ref: eng}, states, seed, FEET, "closed form", "{engine}")
        out.append(_leg_jacobian_row(p, calls, states, ref, eng, seed))
    return out


def dynamics_audit(p: HexapodParams, desc_dir: Path, samples: int, seed: int
                   ) -> list[TermResult]:
    """H, c, g and the inverse dynamics Gamma of eq. (6)."""
    return [row for calls, states, ref, eng in _cases(p, desc_dir, samples, seed)
            for row in protocol_rows(calls, {ref: eng}, states, seed, TERMS, "closed form")]


def full_audit(p: HexapodParams, desc_dir: Path, samples: int, seed: int) -> list[TermResult]:
    """Every audited term, L1 and L2."""
    return (kinematics_audit(p, desc_dir, min(samples, 200), seed)
            + dynamics_audit(p, desc_dir, samples, seed))
