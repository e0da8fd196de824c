"""Quadruped audit: D-H kinematics against the engines (L1) and the RNEA's M, bias and
inverse dynamics through the model protocol against MuJoCo, Pinocchio, PyBullet and Drake,
fixed base and free root (L2), at seeded random states."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from dynval.comparisons.ladder.audit import TermResult, compare_term, engine_point
from dynval.comparisons.ladder.terms import ModelCalls, protocol_rows
from dynval.comparisons.quadruped import frames
from dynval.engines import load_terms
from dynval.engines.base import DynamicsTerms
from dynval.handrolled.quadruped import kinematics
from dynval.handrolled.quadruped.protocol import QuadrupedLegs, QuadrupedRobot
from dynval.handrolled.quadruped.robot import QuadrupedModel, build_model
from dynval.robots.quadruped.model_description import joint_names, link_name
from dynval.robots.quadruped.params import LEGS, R_B0_PRINTED, QuadrupedParams


@dataclass
class State:
    """One audit sample: body pose and motion and the joints' (the base part is unused
    for the fixed base)."""

    p_WB: np.ndarray
    R_WB: np.ndarray
    theta: np.ndarray
    nu: np.ndarray
    nudot: np.ndarray


def random_states(n: int, seed: int) -> list[State]:
    """n seeded states: joints uniform in +-pi, rates +-5 rad/s, accelerations
    +-20 rad/s^2; body anywhere within 1 m, any attitude, v +-2 m/s, omega +-3 rad/s,
    accelerations +-10."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        p = rng.uniform(-1, 1, 3)
        R = frames.random_rotation(rng)
        theta = rng.uniform(-np.pi, np.pi, 12)
        nu = np.concatenate([rng.uniform(-2, 2, 3), rng.uniform(-3, 3, 3),
                             rng.uniform(-5, 5, 12)])
        nudot = np.concatenate([rng.uniform(-10, 10, 6), rng.uniform(-20, 20, 12)])
        out.append(State(p, R, theta, nu, nudot))
    return out


def _fixed_engines(desc_dir: Path, g: tuple = (0.0, 0.0, -9.81)) -> dict[str, DynamicsTerms]:
    """The welded-body quadruped in the three engines, joints in the hand model's order."""
    return load_terms(desc_dir / "quadruped_fixed.xml", desc_dir / "quadruped_fixed.urdf", g,
                      joint_names())


def _free_engines(desc_dir: Path, g: tuple) -> dict[str, Any]:
    """The whole quadruped on a free root in every engine, as the generic audit loads it:
    MuJoCo's free joint, PyBullet's floating base and Pinocchio's free flyer, the last two
    converted to MuJoCo's coordinates (QuadrupedRobot's)."""
    from dynval.comparisons.own_model import loading

    return loading.load(loading.prepare(desc_dir / "quadruped.urdf"), joint_names(), g,
                        free=True).engines


def free_state(s: State) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(q, v, v_dot) of a state in MuJoCo's free-joint coordinates."""
    qvel, qacc = frames.mujoco_qvel_qacc(s.R_WB, s.nu, s.nudot)
    return frames.mujoco_qpos(s.p_WB, s.R_WB, s.theta), qvel, qacc


TERMS = {"M": "(5) inertia matrix by the RNEA", "h": "(5) C + G by the RNEA",
         "tau": "(3)-(4), Craig (6.45)-(6.53) inverse dynamics"}
# the protocol's terms, as named here
FIXED = {"M": ("M (fixed base)", TERMS["M"]), "bias": ("h (fixed base)", TERMS["h"]),
         "tau": ("tau (fixed base)", TERMS["tau"])}
FLOATING = {"M": ("M (floating base)", TERMS["M"]), "bias": ("h (floating base)", TERMS["h"]),
            "tau": ("tau (floating base)", TERMS["tau"])}
ENGINES = ("mujoco", "pinocchio", "pybullet", "drake")  # the order of the audit's rows


def _in_order(engines: dict[str, Any]) -> dict[str, Any]:
    """The engines at hand in the order of ENGINES (Drake where pydrake is installed)."""
    return {e: engines[e] for e in ENGINES if e in engines}


def dynamics_audit(model: QuadrupedModel, p: QuadrupedParams, desc_dir: Path, samples: int,
                   seed: int, form: str = "corrected") -> list[TermResult]:
    """M, h and tau against the three engines through the model protocol: on the welded
    body (:class:`QuadrupedLegs`), and on a free root (:class:`QuadrupedRobot`, in MuJoCo's
    free-joint coordinates, each engine's as the generic audit reads it)."""
    g = (0.0, 0.0, -p.g)
    states = random_states(samples, seed)
    fixed, free = _fixed_engines(desc_dir, g), _free_engines(desc_dir, g)
    results = protocol_rows(ModelCalls(QuadrupedLegs(p, model)), _in_order(fixed),
                            [(s.theta, s.nu[6:], s.nudot[6:]) for s in states], seed, FIXED,
                            form)
    results += protocol_rows(ModelCalls(QuadrupedRobot(p, model)), _in_order(free),
                             [free_state(s) for s in states], seed, FLOATING, form)
    return results


def kinematics_audit(model: QuadrupedModel, desc_dir: Path, samples: int, seed: int,
                     form: str = "corrected") -> list[TermResult]:
    """Table 1 forward kinematics and the foot Jacobians against the engines (fixed base:
    the body frame is the world frame)."""
    states = random_states(samples, seed)
    engines = _fixed_engines(desc_dir)
    foot = np.array([model.a[3], 0.0, 0.0])

    def hand_fk(s):
        return np.concatenate([kinematics.foot_position(model, k, s.theta[3 * k:3 * k + 3])
                               for k in range(4)])

    def hand_J(s):
        J = np.zeros((12, 12))
        for k in range(4):
            J[3 * k:3 * k + 3, 3 * k:3 * k + 3] = kinematics.foot_jacobian(
                model, k, s.theta[3 * k:3 * k + 3])
        return J

    feet = {name: [engine_point(e, f"{leg}_foot", link_name(leg, 3), foot) for leg in LEGS]
            for name, e in _in_order(engines).items()}  # a_3 along link 3
    fk = {name: lambda s, fs=fs: np.concatenate([f.position(s.theta) for f in fs])
          for name, fs in feet.items()}
    jac = {name: lambda s, fs=fs: np.vstack([f.jacobian(s.theta) for f in fs])
           for name, fs in feet.items()}
    out = [compare_term("foot positions", "Table 1 D-H chain", form, name, hand_fk, f,
                        states, seed) for name, f in fk.items()]
    out += [compare_term("foot Jacobians", "z_i x (p_4 - p_i)", form, name, hand_J, f,
                         states, seed) for name, f in jac.items()]
    return out


def full_audit(p: QuadrupedParams, desc_dir: Path, samples: int, seed: int
               ) -> list[TermResult]:
    """Every audited term, L1 (also with section 2's printed frame 0) and L2."""
    model = build_model(p)
    return (kinematics_audit(model, desc_dir, samples, seed)
            + kinematics_audit(build_model(p, R_B0=R_B0_PRINTED), desc_dir, samples, seed,
                               form="printed")
            + dynamics_audit(model, p, desc_dir, samples, seed))
