"""The cart-pole's audit: the pole's centre, its tip and the tip's Jacobian (L1; the
floor's law, model/contact.py, acts through them) and the terms of eqs. (1)-(4) (L2)
against MuJoCo, PyBullet and Pinocchio at seeded states."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from dynval.comparisons.ladder.audit import TermResult, compare_term, random_states
from dynval.comparisons.ladder.terms import ModelCalls, protocol_rows
from dynval.engines import load_terms
from dynval.engines.base import DynamicsTerms
from dynval_cartpole.model import dynamics
from dynval_cartpole.model.protocol import CartPole
from dynval_cartpole.robot.model_description import JOINTS
from dynval_cartpole.robot.params import CartPoleParams


def engines(p: CartPoleParams, desc_dir: Path) -> list[DynamicsTerms]:
    """MuJoCo, PyBullet, Pinocchio and Drake, loaded from the cart-pole's files."""
    return list(load_terms(desc_dir / "cartpole.xml", desc_dir / "cartpole.urdf",
                           (0.0, 0.0, -p.g), joint_names=list(JOINTS)).values())


def kinematics_audit(p: CartPoleParams, desc_dir: Path, samples: int,
                     seed: int) -> list[TermResult]:
    """The pole's centre, its tip and the tip's Jacobian against each engine's points l
    and 2 l up the pole."""
    states = random_states(samples, seed, 2)
    centre, tip = np.array([0.0, 0.0, p.l]), np.array([0.0, 0.0, 2.0 * p.l])
    rows = []
    for e in engines(p, desc_dir):
        rows += [compare_term("pole centre", "FRAMES.md pole centre", "closed form", e.name,
                              lambda s: dynamics.pole_centre(s[0], p.l),
                              lambda s, e=e: e.frame_position("pole", s[0], centre), states,
                              seed),
                 compare_term("pole tip", "FRAMES.md, 2 l up the pole", "closed form", e.name,
                              lambda s: dynamics.tip(s[0], p.l),
                              lambda s, e=e: e.frame_position("pole", s[0], tip), states, seed),
                 compare_term("tip Jacobian", "d tip / d q", "closed form", e.name,
                              lambda s: dynamics.tip_jacobian(s[0], p.l),
                              lambda s, e=e: e.frame_jacobian("pole", s[0], tip), states, seed)]
    return rows


# the protocol's terms (CartPole) as eqs. (1)-(4) name them
# (C q' is audited inside the bias C q' + G: alone it is the difference of two engine
# terms, and its zero second row is round-off relative to nothing)
TERMS = {"M": ("M", "(3) mass matrix"), "G": ("G", "(4) gravity"),
         "bias": ("C q' + G", "(4) centripetal and gravity"),
         "tau": ("tau", "(1)-(2) inverse dynamics")}


def dynamics_audit(p: CartPoleParams, desc_dir: Path, samples: int,
                   seed: int) -> list[TermResult]:
    """M, G, C q' + G and (F, tau) of eqs. (1)-(4), through the model protocol, against each
    engine."""
    return protocol_rows(ModelCalls(CartPole(p)), {e.name: e for e in engines(p, desc_dir)},
                         random_states(samples, seed, 2), seed, TERMS, "closed form")


def full_audit(p: CartPoleParams, desc_dir: Path, samples: int, seed: int
               ) -> list[TermResult]:
    """Every audited term, for ``dynval audit``."""
    return kinematics_audit(p, desc_dir, samples, seed) + dynamics_audit(p, desc_dir,
                                                                          samples, seed)
