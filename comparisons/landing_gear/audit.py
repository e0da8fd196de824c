"""Landing-gear audit: the single-leg Lagrange equations (12)-(13) against MuJoCo,
PyBullet, Pinocchio and Drake on the fixed-base as-derived leg, the moment sums (7)-(9)
against r x F, and the leg kinematics (18)-(19) against the engines (L1)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from dynval.comparisons.ladder.audit import (
    TermResult,
    compare_term,
    engine_point,
    random_states,
)
from dynval.comparisons.ladder.terms import ModelCalls, protocol_rows
from dynval.engines import TERM_ENGINES, load_terms
from dynval.engines.base import DynamicsTerms
from dynval.handrolled.landing_gear import com_dynamics, single_leg
from dynval.handrolled.landing_gear.protocol import LandingGearLeg
from dynval.robots.landing_gear.params import R_WP, LandingGearParams

# the protocol's terms (LandingGearLeg) as the paper names them
TERMS = {
    "M": ("M", "(12)-(13) inertia"),
    "C v": ("C", "(12)-(13) Coriolis/centrifugal"),
    "G": ("G", "(12)-(13) gravity"),
    "tau": ("tau", "(12)-(13) inverse dynamics"),
}


def leg_engines(desc_dir: Path, p: LandingGearParams,
                engines: Sequence[str] = TERM_ENGINES) -> list[DynamicsTerms]:
    """The references (MuJoCo, PyBullet, Pinocchio, Drake; ``engines``: only these),
    loaded from the as-derived fixed-base leg files."""
    stem = desc_dir / "landing_gear_leg_as_derived"
    return list(load_terms(stem.with_suffix(".xml"), stem.with_suffix(".urdf"),
                           (0.0, 0.0, -p.g), engines=engines).values())


def leg_dynamics_audit(p: LandingGearParams, desc_dir: Path, samples: int,
                       seed: int) -> list[TermResult]:
    """Eqs. (12)-(13), printed and corrected, through the model protocol
    (:class:`LandingGearLeg`), against each engine at seeded states."""
    states = random_states(samples, seed, 2)
    legs = {form: ModelCalls(LandingGearLeg(p, form)) for form in single_leg.FORMS}
    return [row for engine in leg_engines(desc_dir, p) for form in single_leg.FORMS
            for row in protocol_rows(legs[form], {engine.name: engine}, states, seed, TERMS,
                                     form)]


def moment_audit(samples: int, seed: int, n_feet: int = 4) -> list[TermResult]:
    """Eqs. (7)-(9), printed and corrected, against sum(r_i x F_i) at random r and F."""
    rng = np.random.default_rng(seed)
    states = [(rng.uniform(-0.3, 0.3, (n_feet, 3)), rng.uniform(-40, 40, (n_feet, 3)))
              for _ in range(samples)]

    def reference(s):
        return np.cross(s[0], s[1]).sum(axis=0)

    return [
        compare_term("sum M", "(7)-(9) moment sums", form, "r x F",
                     lambda s, pr=single_leg.is_printed(form): com_dynamics.moment_sums(
                         s[0], s[1], pr), reference, states, seed)
        for form in single_leg.FORMS
    ]


def leg_kinematics_audit(p: LandingGearParams, desc_dir: Path, samples: int,
                         seed: int) -> list[TermResult]:
    """Eqs. (18)-(19) and their Jacobian against the engines (L1).  The leg plane is
    (y_W, z_W) of the engine frame."""
    states = random_states(samples, seed, 2)
    foot = np.array([p.l_L, 0.0, 0.0])
    engines = leg_engines(desc_dir, p)
    plane = R_WP[:, :2]  # paper leg-plane axes x_L, y_L as W columns

    def hand_fk(s):
        return single_leg.forward_kinematics(s[0][0], s[0][1], p.l_U, p.l_L)

    def hand_J(s):
        return single_leg.jacobian(s[0][0], s[0][1], p.l_U, p.l_L)

    feet = [engine_point(e, "LF_foot", "LF_lower", foot) for e in engines]  # l_L down the leg
    refs_fk = {f.engine.name: lambda s, f=f: plane.T @ f.position(s[0]) for f in feet}
    refs_J = {f.engine.name: lambda s, f=f: plane.T @ f.jacobian(s[0]) for f in feet}
    out = [compare_term("foot position", "(18)-(19)", "printed", name, hand_fk, f, states, seed)
           for name, f in refs_fk.items()]
    out += [compare_term("foot Jacobian", "J of (14)", "derived", name, hand_J, f, states, seed)
            for name, f in refs_J.items()]
    return out


def full_audit(p: LandingGearParams, desc_dir: Path, samples: int, seed: int) -> list[TermResult]:
    """Every audited term: kinematics (L1), leg dynamics and moment sums (L2)."""
    return (leg_kinematics_audit(p, desc_dir, samples, seed)
            + leg_dynamics_audit(p, desc_dir, samples, seed) + moment_audit(samples, seed))
