"""Quadruped audit: D-H kinematics against the engines (L1) and the RNEA's M, bias and
inverse dynamics against MuJoCo, Pinocchio and PyBullet, fixed base and floating base (L2),
at seeded random states."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from dynval.comparisons.ladder.audit import TermResult, compare_term
from dynval.comparisons.ladder.terms import ModelCalls, coordinate, protocol_rows
from dynval.comparisons.quadruped import frames
from dynval.engines import load_terms
from dynval.engines.base import DynamicsTerms
from dynval.handrolled.quadruped import kinematics, terms
from dynval.handrolled.quadruped.protocol import QuadrupedLegs
from dynval.handrolled.quadruped.robot import QuadrupedModel, build_model
from dynval.robots.quadruped.model_description import joint_names, link_name
from dynval.robots.quadruped.params import LEGS, R_B0_PRINTED, QuadrupedParams

BASE_DOFS = ("v_x", "v_y", "v_z", "omega_x", "omega_y", "omega_z")


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


# --- the hand-rolled side, floating base (the protocol's QuadrupedLegs: fixed base) -----
def floating_terms(model: QuadrupedModel, s: State, g_W: np.ndarray) -> dict:
    """M, bias h = C + G and the inverse dynamics at one state, in the body's coordinates
    nu = (v_B, omega_B, theta_dot)."""
    M = terms.mass_matrix(model, s.R_WB, s.theta, True)
    h = terms.generalized_forces(model, s.R_WB, s.theta, s.nu, np.zeros_like(s.nu), g_W,
                                 floating=True)
    tau = terms.generalized_forces(model, s.R_WB, s.theta, s.nu, s.nudot, g_W, floating=True)
    return {"M": M, "h": h, "tau": tau}


# --- the engines' side, in hand-rolled coordinates ------------------------------------
def _fixed_engines(desc_dir: Path, g: tuple = (0.0, 0.0, -9.81)) -> dict[str, DynamicsTerms]:
    """The welded-body quadruped in the three engines, joints in the hand model's order."""
    return load_terms(desc_dir / "quadruped_fixed.xml", desc_dir / "quadruped_fixed.urdf", g,
                      joint_names())


def _floating_refs(desc_dir: Path, g: tuple) -> dict:
    """Each engine's M, h, tau mapped to nu coordinates: M = T^-T M_e T^-1, h and tau
    likewise, after removing the T-dot term the engine folds into its bias."""
    from dynval.engines.mujoco_engine import MujocoTerms
    from dynval.engines.pinocchio_engine import PinocchioTerms
    from dynval.engines.pybullet_engine import PybulletTerms

    mj = MujocoTerms(desc_dir / "quadruped.xml", g)
    pn = PinocchioTerms(desc_dir / "quadruped.urdf", g, floating=True,
                        joint_names=joint_names())
    pb = PybulletTerms(desc_dir / "quadruped_6dof.urdf", g)

    def back(T, Q):  # Q_e = T^T Q  ->  Q
        return np.linalg.solve(T.T, Q)

    def mj_terms(s: State) -> dict:
        q = frames.mujoco_qpos(s.p_WB, s.R_WB, s.theta)
        T = frames.mujoco_T(s.R_WB)
        qvel, qacc = frames.mujoco_qvel_qacc(s.R_WB, s.nu, s.nudot)
        M_e = mj.mass_matrix(q)
        M = back(T, np.linalg.solve(T.T, M_e.T).T)
        # d/dt(R^T v_W) = R^T a_W - omega x v_B: T qacc = nudot - Tdot qvel
        Tdot_qd = np.concatenate([-np.cross(s.nu[3:6], s.nu[:3]), np.zeros(15)])
        h = back(T, mj.bias(q, qvel)) - M @ Tdot_qd
        tau = back(T, mj.inverse_dynamics(q, qvel, qacc))
        return {"M": M, "h": h, "tau": tau}

    def pb_terms(s: State) -> dict:
        q, qd, qdd = frames.six_joint_state(s.p_WB, s.R_WB, s.theta, s.nu, s.nudot)
        T = frames.six_joint_T(q)
        M = back(T, np.linalg.solve(T.T, pb.mass_matrix(q).T).T)
        h = back(T, pb.bias(q, qd)) - M @ frames.six_joint_Tdot_qd(q, qd)
        tau = back(T, pb.inverse_dynamics(q, qd, qdd))
        return {"M": M, "h": h, "tau": tau}

    def pn_terms(s: State) -> dict:
        q = frames.pinocchio_q(s.p_WB, s.R_WB, s.theta)
        return {"M": pn.mass_matrix(q), "h": pn.bias(q, s.nu),
                "tau": pn.inverse_dynamics(q, s.nu, s.nudot)}

    return {"mujoco": mj_terms, "pinocchio": pn_terms, "pybullet": pb_terms}


TERMS = {"M": "(5) inertia matrix by the RNEA", "h": "(5) C + G by the RNEA",
         "tau": "(3)-(4), Craig (6.45)-(6.53) inverse dynamics"}
FIXED = {"M": ("M (fixed base)", TERMS["M"]), "bias": ("h (fixed base)", TERMS["h"]),
         "tau": ("tau (fixed base)", TERMS["tau"])}  # the protocol's terms, as named here
ENGINES = ("mujoco", "pinocchio", "pybullet")  # the order of the audit's rows


def dynamics_audit(model: QuadrupedModel, p: QuadrupedParams, desc_dir: Path, samples: int,
                   seed: int, form: str = "corrected") -> list[TermResult]:
    """M, h and tau against the three engines: on the welded body through the model
    protocol (:class:`QuadrupedLegs`), and on the floating base."""
    g = (0.0, 0.0, -p.g)
    states = random_states(samples, seed)
    fixed = _fixed_engines(desc_dir, g)
    results = protocol_rows(ModelCalls(QuadrupedLegs(p, model)), {e: fixed[e] for e in ENGINES},
                            [(s.theta, s.nu[6:], s.nudot[6:]) for s in states], seed, FIXED,
                            form)
    hand = [floating_terms(model, s, np.array(g)) for s in states]
    per_engine = {name: [f(s) for s in states]
                  for name, f in _floating_refs(desc_dir, g).items()}
    names = [*BASE_DOFS, *joint_names()]
    for engine, ref in per_engine.items():
        for term, eq in TERMS.items():
            r = compare_term(f"{term} (floating base)", eq, form, engine,
                             lambda k, t=term: hand[k][t], lambda k, t=term, rf=ref: rf[k][t],
                             list(range(len(states))), seed)
            kind = "matrix" if term == "M" else "vector"
            r.worst_name = (coordinate(names, hand[0][term].shape, r.worst_component, kind)
                            if r.worst_component >= 0 else "")
            results.append(r)
    return results


def kinematics_audit(model: QuadrupedModel, desc_dir: Path, samples: int, seed: int,
                     form: str = "corrected") -> list[TermResult]:
    """Table 1 forward kinematics and the foot Jacobians against the engines (fixed base:
    the body frame is the world frame)."""
    states = random_states(samples, seed)
    engines = _fixed_engines(desc_dir)
    mj, pn, pb = engines["mujoco"], engines["pinocchio"], engines["pybullet"]
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

    fk = {
        "mujoco": lambda s: np.concatenate([mj.frame_position(f"{leg}_foot", s.theta)
                                            for leg in LEGS]),
        "pinocchio": lambda s: np.concatenate([pn.frame_position(link_name(leg, 3), s.theta,
                                                                 foot) for leg in LEGS]),
        "pybullet": lambda s: np.concatenate([pb.frame_position(link_name(leg, 3), s.theta,
                                                                foot) for leg in LEGS]),
    }
    jac = {
        "mujoco": lambda s: np.vstack([mj.frame_jacobian(f"{leg}_foot", s.theta)
                                       for leg in LEGS]),
        "pinocchio": lambda s: np.vstack([pn.frame_jacobian(link_name(leg, 3), s.theta, foot)
                                          for leg in LEGS]),
    }
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
