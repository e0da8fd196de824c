"""L1-L2 of any model, a paper robot's or a user's: each term it has against each engine,
with an error measure that cannot cry wolf.

The error of a term is max |model - engine| over its entries and the sampled states,
divided by the term's scale over those states: the largest magnitude either side reaches,
and for a derived term (C v = bias - gravity) the largest of its operands, whose round-off
it inherits.  A term that is nearly zero everywhere (the bias of a gripper whose joints
gravity does not load) is measured against the scale of its family instead (generalised
forces, inertias, lengths), floored at FLOOR of it: a difference of one unit in the last
place of the robot's largest force is never an alarm, and a model wrong by 1e-6 of a
term's scale still fails.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from dynval.comparisons.ladder.audit import ROUND_OFF, TermResult, compare_term
from dynval.model import call, capabilities

EPS = float(np.finfo(float).eps)
# the base's entries of v of a model on a free root (MuJoCo's free joint), before its joints
FREE_COORDINATES = ("base vx", "base vy", "base vz", "base wx", "base wy", "base wz")
# a term's scale is at least this part of its family's: the tolerance then never asks for
# less than about one ulp of the family's scale (ROUND_OFF * FLOOR = EPS)
FLOOR = EPS / ROUND_OFF

State = tuple[np.ndarray, np.ndarray, np.ndarray]


@dataclass(frozen=True)
class Term:
    """One audited term: its name, the model's call, the engine method it is compared
    with, the shape of its entries (for naming the worst one), its family and the terms
    whose round-off it inherits."""

    term: str
    equation: str
    model: Callable[[State], np.ndarray]
    engine: Callable[[object], Callable[[State], np.ndarray]]
    method: str
    kind: str  # "matrix", "vector", "frame", "jacobian"
    family: str  # "inertia", "force", "length"
    operands: tuple[str, ...] = ()

    @property
    def unit(self) -> str:
        """The unit of the term's entries: SI per joint where a joint's kind decides it (an
        entry of M is kg m², kg m or kg; of a Jacobian m/rad or 1), else N m or N for a
        generalised force and m for a position."""
        if self.family == "force":
            return "N m or N"
        return "m" if self.kind in ("frame", "frames") else "SI, per joint"


@dataclass(frozen=True)
class Worst:
    """Where one term differs most from one engine."""

    term: str
    engine: str
    coordinate: str
    q: np.ndarray
    v: np.ndarray
    vdot: np.ndarray
    model_value: float
    engine_value: float


def coordinate(names: Sequence[str], shape: tuple[int, ...], flat: int, kind: str,
               frames: Sequence[str] = ()) -> str:
    """The name of entry ``flat`` of a term of that shape and kind (``frames``: the frames
    of a stacked term, one block of three rows each)."""
    if kind == "frame":
        return "xyz"[flat]
    if kind == "frames":
        i, j = np.unravel_index(flat, shape)
        return f"{frames[i]} {'xyz'[j]}"
    if kind == "jacobians":
        i, j = np.unravel_index(flat, shape)
        return f"{frames[i // 3]} {'xyz'[i % 3]}, {names[j]}"
    if kind == "jacobian":
        i, j = np.unravel_index(flat, shape)
        return f"{'xyz'[i]}, {names[j]}"
    if len(shape) == 2:
        i, j = np.unravel_index(flat, shape)
        return f"{names[i]}, {names[j]}"
    return names[flat]


def values(fn: Callable[[State], np.ndarray], states: Sequence[State]) -> np.ndarray:
    """fn at every state, stacked (states first)."""
    return np.array([np.asarray(fn(s), dtype=float) for s in states])


def scales(terms: Sequence[Term], model: dict[str, np.ndarray],
           engine: dict[str, np.ndarray]) -> dict[str, float]:
    """Each term's scale: its own largest magnitude (either side) and its operands',
    floored at FLOOR of its family's largest."""
    own = {t.term: max(float(np.max(np.abs(model[t.term]), initial=0.0)),
                       float(np.max(np.abs(engine[t.term]), initial=0.0))) for t in terms}
    for t in terms:
        own[t.term] = max([own[t.term], *(own[o] for o in t.operands if o in own)])
    family = {}
    for t in terms:
        family[t.family] = max(family.get(t.family, 0.0), own[t.term])
    return {t.term: max(own[t.term], FLOOR * family[t.family]) for t in terms}


def compare(term: Term, engine_name: str, h: np.ndarray, r: np.ndarray, scale: float,
            states: Sequence[State], names: Sequence[str], seed: int, tolerance: float
            ) -> tuple[TermResult, Worst]:
    """The report row and the worst state of one term against one engine."""
    diff = np.abs(h - r).reshape(len(states), -1)
    per_state = diff.max(axis=1)
    k = int(np.argmax(per_state))
    i = int(np.argmax(diff[k]))
    rel = float(per_state[k]) / scale if scale > 0.0 else 0.0
    where = coordinate(names, h.shape[1:], i, term.kind)
    worst = Worst(term.term, engine_name, where, *states[k], float(h[k].ravel()[i]),
                  float(r[k].ravel()[i]))
    row = TermResult(term.term, term.equation, "model", engine_name, rel,
                     float(per_state.max()), i if rel > 0.0 else -1, len(states), seed,
                     tolerance, where, term.unit)
    return row, worst


def term_list(call: Callable[..., np.ndarray], has: Sequence[str], n: int,
              frames: Sequence[str]) -> list[Term]:
    """The terms a model with methods ``has`` can be audited on; ``call(method, shape,
    *args)`` calls the model and checks what it returns."""
    terms: list[Term] = []
    if "mass_matrix" in has:
        terms.append(Term("M", "mass_matrix(q)", lambda s: call("mass_matrix", (n, n), s[0]),
                          lambda e: lambda s: e.mass_matrix(s[0]), "mass_matrix", "matrix",
                          "inertia"))
    if "bias" in has:
        terms.append(Term("bias", "bias(q, v) = C v + G",
                          lambda s: call("bias", (n,), s[0], s[1]),
                          lambda e: lambda s: e.bias(s[0], s[1]), "bias", "vector", "force"))
    if "gravity" in has:
        terms.append(Term("G", "gravity(q)", lambda s: call("gravity", (n,), s[0]),
                          lambda e: lambda s: e.gravity(s[0]), "gravity", "vector", "force"))
    if "bias" in has and "gravity" in has:
        terms.append(Term("C v", "bias - gravity",
                          lambda s: call("bias", (n,), s[0], s[1]) - call("gravity", (n,), s[0]),
                          lambda e: lambda s: e.bias(s[0], s[1]) - e.gravity(s[0]), "bias",
                          "vector", "force", ("bias", "G")))
    if "inverse_dynamics" in has:
        terms.append(Term("tau", "inverse_dynamics(q, v, vdot)",
                          lambda s: call("inverse_dynamics", (n,), *s),
                          lambda e: lambda s: e.inverse_dynamics(*s), "inverse_dynamics",
                          "vector", "force"))
    for f in frames:
        if "frame_position" in has:
            terms.append(Term(f"p[{f}]", f"frame_position({f!r}, q)",
                              lambda s, f=f: call("frame_position", (3,), f, s[0]),
                              lambda e, f=f: lambda s: e.frame_position(f, s[0]),
                              "frame_position", "frame", "length"))
        if "frame_jacobian" in has:
            terms.append(Term(f"J[{f}]", f"frame_jacobian({f!r}, q)",
                              lambda s, f=f: call("frame_jacobian", (3, n), f, s[0]),
                              lambda e, f=f: lambda s: e.frame_jacobian(f, s[0]),
                              "frame_jacobian", "jacobian", "length"))
    return terms


def stacked_frames(call: Callable[..., np.ndarray], has: Sequence[str], n: int,
                   frames: Sequence[str]) -> list[Term]:
    """Every frame's position ("p") and Jacobian ("J") as one term each, the frames
    stacked in order: one row for all the feet of a robot."""
    k = len(frames)
    terms: list[Term] = []
    if "frame_position" in has:
        terms.append(Term("p", "frame_position(f, q) for every frame f",
                          lambda s: np.array([call("frame_position", (3,), f, s[0])
                                              for f in frames]).reshape(k, 3),
                          lambda e: lambda s: np.array([e.frame_position(f, s[0])
                                                        for f in frames]).reshape(k, 3),
                          "frame_position", "frames", "length"))
    if "frame_jacobian" in has:
        terms.append(Term("J", "frame_jacobian(f, q) for every frame f",
                          lambda s: np.vstack([call("frame_jacobian", (3, n), f, s[0])
                                               for f in frames]),
                          lambda e: lambda s: np.vstack([e.frame_jacobian(f, s[0])
                                                         for f in frames]),
                          "frame_jacobian", "jacobians", "length"))
    return terms


ARGUMENTS = {"inverse_dynamics": 3, "bias": 2}  # (q, v, vdot), (q, v); the rest q alone


class ModelCalls:
    """A model's answers at an audit's states, checked as the model protocol checks them
    (``dynval.model.call``) and each computed once per state (and frame): C v = bias -
    gravity reuses the bias and gravity rows' values, and a model audited against
    several engines is evaluated once."""

    def __init__(self, model: Any) -> None:
        self.model, self._memo = model, {}

    def __call__(self, method: str, shape: tuple[int, ...], *args: Any) -> np.ndarray:
        key = (method, *(id(a) if isinstance(a, np.ndarray) else a for a in args))
        if key not in self._memo:  # the arguments kept beside the value: their ids stay theirs
            value = call(self.model, type(self.model).__name__, method, shape, *args)
            self._memo[key] = (args, value)
        return self._memo[key][1]


def protocol_rows(calls: ModelCalls, engines: dict[str, Any], states: Sequence[State],
                  seed: int, labels: dict[str, tuple[str, str]], form: str,
                  reference: str = "{engine}") -> list[TermResult]:
    """A paper's model given through the model protocol (``dynval.model``), as its
    chapter's rows: each term named in ``labels`` (a term of :func:`term_list`, or "p" and
    "J" of :func:`stacked_frames`), renamed and labelled with the paper's symbol and
    equation, against each engine, by the ladder's relative error at each state
    (:func:`~dynval.comparisons.ladder.audit.compare_term`); the worst entry named by
    the model's joints and frames."""
    model = calls.model
    names, has = list(model.joint_names), capabilities(model)
    if getattr(model, "base", "fixed") == "free":  # v: the base's twist, then the joints
        names = [*FREE_COORDINATES, *names]
    frames = tuple(getattr(model, "frames", ()) or ())
    n = len(names)
    terms = {t.term: t for t in term_list(calls, has, n, ()) + stacked_frames(calls, has, n,
                                                                               frames)}
    # state by state, the velocity terms first: a model that keeps what it computed at
    # the state (its kinematics at q) serves M, G and the frames from it
    first = sorted(labels, key=lambda k: -ARGUMENTS.get(terms[k].method, 1))
    at = [{key: np.asarray(terms[key].model(s), dtype=float) for key in first}
          for s in states]
    mine = {key: np.array([a[key] for a in at]) for key in first}
    index = list(range(len(states)))
    rows = []
    for e, eng in engines.items():
        for key, (term, equation) in labels.items():
            t = terms[key]
            row = compare_term(term, equation, form, reference.format(engine=e),
                               lambda k, m=mine[key]: m[k],
                               lambda k, f=t.engine(eng): f(states[k]), index, seed)
            shape = mine[key].shape[1:]
            where = (coordinate(names, shape, row.worst_component, t.kind, frames)
                     if row.worst_component >= 0 else "")
            rows.append(replace(row, worst_name=where))
    return rows
