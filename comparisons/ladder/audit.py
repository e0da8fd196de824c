"""The dynamics audit (L2): a hand-derived term against each engine's, term by term,
at seeded random states.  Generic over robots: a robot supplies the sampler and the
hand-rolled term functions."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from dynval.results import AuditRow

# Relative agreement the audit demands where the hand model's assumptions match the
# description: a few hundred ulps of double precision for these small, well-scaled terms.
ROUND_OFF = 1e-9


# One audited term's result: the report's own record, computed here.
TermResult = AuditRow


@dataclass(frozen=True)
class WorstState:
    """Where a hand-derived term differs most from a reference, over sampled states:
    the worst relative error ||hand - ref||_inf / ||ref||_inf and the largest absolute
    difference over all states, and at the worst state the flat index of its largest
    difference, both values there and the term's shape."""

    rel: float
    abs: float
    index: int
    state: tuple
    hand_value: float
    ref_value: float
    shape: tuple[int, ...]


def worst_state(hand: Callable[[tuple], np.ndarray], ref: Callable[[tuple], np.ndarray],
                states: list[tuple]) -> WorstState:
    """The worst of ``hand`` against ``ref`` over ``states`` (the first state where the
    relative errors tie)."""
    worst_rel, worst_abs, worst = -1.0, 0.0, None
    for s in states:
        h = np.asarray(hand(s), dtype=float)
        r = np.asarray(ref(s), dtype=float).ravel()
        diff = np.abs(h.ravel() - r)
        rel = float(np.max(diff)) / max(float(np.max(np.abs(r))), 1e-300)
        worst_abs = max(worst_abs, float(np.max(diff)))
        if rel > worst_rel:
            i = int(np.argmax(diff))
            worst_rel, worst = rel, (i, s, float(h.ravel()[i]), float(r[i]), h.shape)
    return WorstState(worst_rel, worst_abs, *worst)


def compare_term(term: str, equation: str, form: str, reference: str,
                 hand: Callable[[tuple], np.ndarray], ref: Callable[[tuple], np.ndarray],
                 states: list[tuple], seed: int) -> TermResult:
    """Relative error ||hand - ref||_inf / ||ref||_inf, worst over the sampled states;
    ``worst_component`` is the flat index of the largest absolute difference there (-1
    where the two agree exactly everywhere)."""
    w = worst_state(hand, ref, states)
    return TermResult(term, equation, form, reference, w.rel, w.abs,
                      w.index if w.rel > 0.0 else -1, len(states), seed, ROUND_OFF)


def random_states(n: int, seed: int, dim: int, q_range: float = np.pi, qd_range: float = 5.0,
                  qdd_range: float = 20.0) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """n seeded (q, qd, qdd) triples, uniform in the given symmetric ranges."""
    rng = np.random.default_rng(seed)
    return [(rng.uniform(-q_range, q_range, dim), rng.uniform(-qd_range, qd_range, dim),
             rng.uniform(-qdd_range, qdd_range, dim)) for _ in range(n)]


@dataclass(frozen=True)
class EnginePoint:
    """One point of a robot's description as one engine is asked for it (made by
    :func:`engine_point`): its world position and linear Jacobian at q."""

    engine: Any
    name: str
    offset: np.ndarray | None

    def position(self, q: np.ndarray) -> np.ndarray:
        return self.engine.frame_position(self.name, q, self.offset)

    def jacobian(self, q: np.ndarray) -> np.ndarray:
        return self.engine.frame_jacobian(self.name, q, self.offset)


def engine_point(engine: Any, site: str, link: str, offset: np.ndarray) -> EnginePoint:
    """A point of the generated description in ``engine``: MuJoCo reads it at the site the
    MJCF puts there, the others as the point ``offset`` of ``link``."""
    return EnginePoint(engine, site, None) if engine.name == "mujoco" else EnginePoint(
        engine, link, offset)
