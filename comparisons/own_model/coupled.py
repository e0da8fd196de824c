"""Mimic couplings in a model's own coordinates: an engine's terms of the whole tree,
reduced to the independent joints a model that includes the couplings is written in.

A URDF's mimic joint follows another, q_f = m q_l + o.  With q_full = G q + o (G: the
identity on the independent joints, m in a follower's row at its leader's column; a free
root's six velocities pass through), v_full = G v and a_full = G a since G is constant,
and the coupling's constraint forces do no work along G, so the reduced terms are exact:
M_r = G^T M G, bias_r = G^T bias(q_full, G v), G_r = G^T G(q_full),
tau_r = G^T tau(q_full, G v, G a), and a frame's Jacobian J G.  Every engine gets the same
reduction, so the coupling is audited in all three without asking any to enforce it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


class Coupled:
    """An engine's terms on q_full = [names, followers], seen in the model's coordinates
    (``names``; a free root's seven and six first).  Everything else is the engine's."""

    def __init__(self, engine: Any, names: Sequence[str], followers: Sequence[str],
                 couplings: dict[str, tuple[str, float, float]], free: bool) -> None:
        self.engine = engine
        nb_q, nb_v = (7, 6) if free else (0, 0)
        n, f = len(names), len(followers)
        self.G = np.zeros((nb_v + n + f, nb_v + n))
        self.G[:nb_v + n, :] = np.eye(nb_v + n)
        self.offset = np.zeros(nb_q + n + f)
        for i, follower in enumerate(followers):
            leader, multiplier, offset = couplings[follower]
            self.G[nb_v + n + i, nb_v + list(names).index(leader)] = multiplier
            self.offset[nb_q + n + i] = offset
        self._nb_q, self._nb_v, self._n = nb_q, nb_v, n

    # the engine's own steps and forward dynamics know nothing of the coupling: a swing
    # takes M_r \\ -bias_r instead, and the engine's integrator is not compared
    simulate = acceleration = forward_dynamics = None

    def __getattr__(self, name: str) -> Any:  # description facts, names: the engine's own
        return getattr(self.engine, name)

    def _q(self, q: np.ndarray) -> np.ndarray:
        """q_full = G q + o on the joints (a free root's seven coordinates as they are)."""
        joints = self.G[self._nb_v:, self._nb_v:] @ np.asarray(q)[self._nb_q:]
        return np.concatenate((np.asarray(q)[:self._nb_q], joints)) + self.offset

    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        return self.G.T @ self.engine.mass_matrix(self._q(q)) @ self.G

    def bias(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        return self.G.T @ self.engine.bias(self._q(q), self.G @ v)

    def gravity(self, q: np.ndarray) -> np.ndarray:
        return self.G.T @ self.engine.gravity(self._q(q))

    def inverse_dynamics(self, q: np.ndarray, v: np.ndarray, vdot: np.ndarray) -> np.ndarray:
        return self.G.T @ self.engine.inverse_dynamics(self._q(q), self.G @ v, self.G @ vdot)

    def frame_position(self, name: str, q: np.ndarray) -> np.ndarray:
        return self.engine.frame_position(name, self._q(q))

    def frame_jacobian(self, name: str, q: np.ndarray) -> np.ndarray:
        return self.engine.frame_jacobian(name, self._q(q)) @ self.G

    def with_body_inertials(self, bodies: dict) -> Coupled:
        """The same reduction of the engine with other inertials."""
        other = object.__new__(Coupled)
        other.__dict__.update(self.__dict__)
        other.engine = self.engine.with_body_inertials(bodies)
        return other
