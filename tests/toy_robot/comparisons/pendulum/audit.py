"""The pendulum's audit: the bob's position (L1) and the terms of eq. (1) (L2) against
MuJoCo, PyBullet and Pinocchio at seeded states.  The engines' terms are rigid-body only
(no damping), so the hand terms are taken with b = 0; the damping is compared in the
scenario (L4), where the engines apply it as a joint torque."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from dynval.comparisons.ladder.audit import TermResult, compare_term, random_states
from dynval.comparisons.own_model.terms import ModelCalls, protocol_rows
from dynval.engines import load_terms
from dynval.engines.base import DynamicsTerms
from dynval.handrolled.pendulum import model
from dynval.handrolled.pendulum.protocol import Pendulum
from dynval.robots.pendulum.params import PendulumParams


def engines(p: PendulumParams, desc_dir: Path) -> list[DynamicsTerms]:
    """MuJoCo, PyBullet and Pinocchio, loaded from the pendulum's files."""
    return list(load_terms(desc_dir / "pendulum.xml", desc_dir / "pendulum.urdf",
                           (0.0, 0.0, -p.g), joint_names=["pivot"]).values())


def kinematics_audit(p: PendulumParams, desc_dir: Path, samples: int,
                     seed: int) -> list[TermResult]:
    """The bob's centre against each engine's point l below the pivot on the rod."""
    states = random_states(samples, seed, 1)
    bob = np.array([0.0, 0.0, -p.l])
    return [compare_term("bob", "FRAMES.md bob position", "closed form", e.name,
                         lambda s: model.bob_position(s[0][0], p.l),
                         lambda s, e=e: e.frame_position("rod", s[0], bob), states, seed)
            for e in engines(p, desc_dir)]


# the protocol's terms (Pendulum) as eq. (1) names them
TERMS = {"M": ("M", "(1) inertia"), "G": ("G", "(1) gravity"),
         "tau": ("tau", "(1) inverse dynamics")}


def dynamics_audit(p: PendulumParams, desc_dir: Path, samples: int,
                   seed: int) -> list[TermResult]:
    """J = m l^2 + I, G = m g l sin theta and tau of eq. (1) (b = 0), through the model
    protocol, against each engine."""
    return protocol_rows(ModelCalls(Pendulum(p)), {e.name: e for e in engines(p, desc_dir)},
                         random_states(samples, seed, 1), seed, TERMS, "closed form")
