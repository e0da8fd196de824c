"""L1-L2 of a user's model: each term it has against each engine, with an error measure
that cannot cry wolf.

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
from dataclasses import dataclass

import numpy as np

from dynval.comparisons.ladder.audit import ROUND_OFF, TermResult

EPS = float(np.finfo(float).eps)
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


def coordinate(names: Sequence[str], shape: tuple[int, ...], flat: int, kind: str) -> str:
    """The name of entry ``flat`` of a term of that shape and kind."""
    if kind == "frame":
        return "xyz"[flat]
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
                     tolerance, where)
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
