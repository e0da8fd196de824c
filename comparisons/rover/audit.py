"""Rover audit: the DH kinematics of Table 3.1 with eq. (3.1) (hub positions and
Jacobians, L1) and the modified Newton-Euler terms of eq. (3.32) (L2) against MuJoCo,
PyBullet, Pinocchio and Drake on the explicit-chain description, whose joint coordinates are the
thesis' q. The wheel-force terms F(q)[F_w] + N(q)[N_w] are checked, printed and corrected,
against the generalised force sum(J_hub^T F) of the same forces applied at the hubs.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from dynval.comparisons.ladder.audit import (
    EnginePoint,
    TermResult,
    compare_term,
    engine_point,
    random_states,
)
from dynval.comparisons.ladder.terms import ModelCalls, protocol_rows
from dynval.engines import load_terms
from dynval.engines.base import DynamicsTerms
from dynval.handrolled.rover.dynamics import WHEEL_SIGN
from dynval.handrolled.rover.kinematics import (
    adjacent_transforms,
    joint_frames,
    joint_kinds,
    point_jacobian,
    segment_frame_index,
)
from dynval.handrolled.rover.protocol import RoverChain
from dynval.handrolled.so3 import cross
from dynval.robots.rover.model_description import hub_site, segment_name
from dynval.robots.rover.params import R_W0, SIDES, RoverParams, cg_position, hub_positions

# the protocol's terms (RoverChain) as the thesis names them
TERMS = {
    "M": ("M", "(3.32) mass matrix"),
    "C v": ("C", "(3.32) B[qd qd] + C[qd^2]"),
    "G": ("G", "(3.32) gravity"),
    "tau": ("tau", "(3.30)-(3.32) inverse dynamics"),
}


class _Hand(RoverChain):
    """The chain, with its hubs: their positions and Jacobians, and the wheel loads of
    hub forces."""

    def __init__(self, p: RoverParams) -> None:
        super().__init__(p)
        self.hubs = [(i, s, hub_positions(p, i)[s]) for i in range(1, p.n_segments + 1)
                     for s in SIDES]

    def hubs_0(self, q) -> tuple[np.ndarray, np.ndarray]:
        """Hub positions (k x 3) and Jacobians (3k x N) in frame 0."""
        T0 = joint_frames(adjacent_transforms(q, self.p.l))
        revolute = joint_kinds(q.shape[0])
        P, J = [], []
        for i, _, h in self.hubs:
            k = segment_frame_index(i)
            p0 = T0[k, :3, :3] @ h + T0[k, :3, 3]
            P.append(p0)
            J.append(point_jacobian(T0, revolute, k, p0))
        return np.array(P), np.vstack(J)

    def wheel_loads(self, q, F_0) -> tuple[np.ndarray, np.ndarray]:
        """(3.28)-(3.29) for hub forces F_0 (k x 3, frame 0)."""
        T0 = joint_frames(adjacent_transforms(q, self.p.l))
        F_Cw, N_Cw = np.zeros_like(self.none), np.zeros_like(self.none)
        for (i, _, h), F in zip(self.hubs, F_0, strict=True):
            k = segment_frame_index(i)
            F_link = T0[k, :3, :3].T @ F
            F_Cw[k] += F_link
            N_Cw[k] += cross(h - cg_position(self.p, i), F_link)  # np.cross's floats
        return F_Cw, N_Cw


def _per_state(f: Callable) -> Callable:
    """f of a state (or case), computed once per state object: a term compared against
    several references, or a reference against several forms, is the same numbers each
    time."""
    done: dict[int, object] = {}

    def g(s):
        key = id(s)
        if key not in done:
            done[key] = f(s)
        return done[key]
    return g


def chain_engines(desc_dir: Path, p: RoverParams) -> list[DynamicsTerms]:
    """The references (MuJoCo, PyBullet, Pinocchio, Drake), loaded from the explicit-chain
    files."""
    return list(load_terms(desc_dir / "rover_chain.xml", desc_dir / "rover_chain.urdf",
                           (0.0, 0.0, -p.g)).values())


def _hubs(engine: DynamicsTerms, hand: _Hand) -> list[EnginePoint]:
    """The hubs in ``engine``, in the hand model's order: each the point h of its
    segment's link (MuJoCo: its site)."""
    n = hand.p.n_segments
    return [engine_point(engine, hub_site(segment_name(i, n), side), segment_name(i, n), h)
            for i, side, h in hand.hubs]


def _states(p: RoverParams, samples: int, seed: int) -> list:
    return random_states(samples, seed, p.n_joints, q_range=np.pi, qd_range=3.0,
                         qdd_range=10.0)


def kinematics_audit(p: RoverParams, desc_dir: Path, samples: int,
                     seed: int) -> list[TermResult]:
    """Hub positions (Table 3.1 with eq. 3.1) and hub Jacobians (3.14) vs the engines, in
    frame 0."""
    hand = _Hand(p)
    states = _states(p, samples, seed)
    hubs = {e.name: _hubs(e, hand) for e in chain_engines(desc_dir, p)}
    R_0W = R_W0.T
    refs_p = {name: lambda s, hs=hs: np.concatenate([R_0W @ h.position(s[0]) for h in hs])
              for name, hs in hubs.items()}
    refs_J = {name: lambda s, hs=hs: np.vstack([R_0W @ h.jacobian(s[0]) for h in hs])
              for name, hs in hubs.items()}
    hubs_0 = _per_state(lambda s: hand.hubs_0(s[0]))
    out = [compare_term("hub position", "Table 3.1, (3.1)", "printed", name,
                        lambda s: hubs_0(s)[0].ravel(), f, states, seed)
           for name, f in refs_p.items()]
    out += [compare_term("hub Jacobian", "(3.14)", "printed", name,
                         lambda s: hubs_0(s)[1], f, states, seed)
            for name, f in refs_J.items()]
    return out


def dynamics_audit(p: RoverParams, desc_dir: Path, samples: int,
                   seed: int) -> list[TermResult]:
    """M, velocity terms, gravity and inverse dynamics of (3.32) through the model protocol
    (:class:`RoverChain`) vs each engine."""
    chain = ModelCalls(RoverChain(p))
    engines = load_terms(desc_dir / "rover_chain.xml", desc_dir / "rover_chain.urdf",
                         (0.0, 0.0, -p.g), list(chain.model.joint_names))
    return protocol_rows(chain, engines, _states(p, samples, seed), seed, TERMS, "printed")


def wheel_force_audit(p: RoverParams, desc_dir: Path, samples: int,
                      seed: int) -> list[TermResult]:
    """F(q)[F_w] + N(q)[N_w] of (3.32)-(3.33) with eq. (3.30) printed and corrected, as
    the generalised force -(tau_with - tau_without) of soil forces at the hubs, against
    sum(J_hub^T F) from each engine's hub Jacobians."""
    hand = _Hand(p)
    states = _states(p, samples, seed)
    rng = np.random.default_rng(seed + 1)
    forces = [rng.uniform(-2000.0, 2000.0, (len(hand.hubs), 3)) for _ in states]
    cases = [(s[0], F) for s, F in zip(states, forces, strict=True)]
    R_0W = R_W0.T
    z = np.zeros(p.n_joints)

    loads = _per_state(lambda case: hand.wheel_loads(*case))
    unloaded = _per_state(lambda case: hand.tau(case[0], z, z, 0.0))

    def generalised(case, sign):
        F_Cw, N_Cw = loads(case)
        return -(hand.tau(case[0], z, z, 0.0, F_Cw, N_Cw, sign) - unloaded(case))

    def reference(hubs: list[EnginePoint]):  # the same for both forms of (3.30)
        def f(case):
            q, F = case
            return sum((R_0W @ h.jacobian(q)).T @ Fk for h, Fk in zip(hubs, F, strict=True))
        return _per_state(f)

    refs = {e.name: reference(_hubs(e, hand)) for e in chain_engines(desc_dir, p)}
    return [compare_term("F[F_w] + N[N_w]", "(3.28)-(3.33) wheel forces", form, name,
                         lambda c, sg=sign: generalised(c, sg), f, cases, seed)
            for name, f in refs.items() for form, sign in WHEEL_SIGN.items()]


def full_audit(p: RoverParams, desc_dir: Path, samples: int, seed: int) -> list[TermResult]:
    """Every audited term: kinematics (L1), dynamics and wheel-force terms (L2)."""
    return (kinematics_audit(p, desc_dir, samples, seed)
            + dynamics_audit(p, desc_dir, samples, seed)
            + wheel_force_audit(p, desc_dir, samples, seed))
