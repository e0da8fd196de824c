"""What a failing model audit points at, beyond "the term differs": the mistakes a hand
derivation makes that leave a recognisable pattern in the terms.

* joints in another order than ``joint_names`` says: every term differs, yet M, bias, G
  (and tau and the frames, where the model has them) agree with the engine's once the
  model's coordinates are taken as the description's joints in another order.  The order
  is searched on states that every order leaves alone (all joints at one angle, one rate,
  one acceleration), where the model's terms are the engine's rows and columns permuted:
  every order for up to MAX_EXHAUSTIVE joints, else the assignment of joints that best
  matches the diagonal of M and the entries of the vector terms; then confirmed on the
  audit's own states at the audit's tolerance;
* one entry of a term wrong: the term fails in a single entry (a matrix's mirror entry
  counted with it) while every other entry agrees; its value is minus the engine's (a
  flipped sign) or something else (a mistyped coefficient).  A bias or tau failing in the
  same entry alone follows from a C v or G entry, and is said with it rather than apart.

Each diagnosis is one sentence, judged by the same measure as the rows (the difference
relative to the term's scale, at the row's tolerance), so it cannot fire on agreement.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from dynval.comparisons.ladder.terms import State, Term, coordinate, values
from dynval.comparisons.own_model.regressor import join_names
from dynval.model import ModelError

MAX_EXHAUSTIVE = 6  # joints up to which every order is tried (6! = 720)
ORDER = ("M", "G", "C v", "bias", "tau")  # the term a shared entry is blamed on first
# joint angles, rates and accelerations of the states every order of the joints leaves
# alone (each joint the same): the model's terms there are the engine's permuted
INVARIANT = ((0.4, -0.7, 1.1), (-0.9, 1.3, -0.6), (1.3, 0.2, 2.4))


@dataclass(frozen=True)
class Side:
    """One engine's values of the audited terms at the audit's states, with the scale and
    tolerance each term's row was judged by."""

    engine: str
    model: object  # the engine's terms, what Term.engine is called on
    values: dict[str, np.ndarray]
    scale: dict[str, float]
    tolerance: dict[str, float]

    def fails(self, term: str, model: np.ndarray) -> bool:
        """Whether ``term`` (the model's values ``model``) differs beyond its tolerance."""
        return _rel(model - self.values[term], self.scale[term]) > self.tolerance[term]


@dataclass(frozen=True)
class Diagnosis:
    """One cause found for failing terms: the terms it explains and the sentence."""

    terms: tuple[str, ...]
    sentence: str


@dataclass(frozen=True)
class Layout:
    """Where the joints sit in q and v: after a free root's 7 and 6 entries, if any."""

    names: tuple[str, ...]  # the model's joint names, in the order of its q
    q0: int = 0
    v0: int = 0


def _rel(diff: np.ndarray, scale: float) -> float:
    """The largest magnitude of ``diff`` relative to ``scale`` (0 where the scale is 0)."""
    return float(np.max(np.abs(diff), initial=0.0)) / scale if scale > 0.0 else 0.0


def diagnose(terms: Sequence[Term], mine: dict[str, np.ndarray], sides: Sequence[Side],
             states: Sequence[State], coords: Sequence[str], layout: Layout) -> list[Diagnosis]:
    """The causes the failing terms point at: a joint order, else single wrong entries;
    none where every term agrees with every engine."""
    failing = [t for t in terms if any(t.term in s.values and s.fails(t.term, mine[t.term])
                                       for s in sides)]
    if not failing:
        return []
    order = joint_order(terms, mine, sides, states, layout)
    if order is not None:
        return [order]
    return entry_diagnoses(failing, mine, sides, coords)


# --- joints in another order ------------------------------------------------------------
def joint_order(terms: Sequence[Term], mine: dict[str, np.ndarray], sides: Sequence[Side],
                states: Sequence[State], layout: Layout) -> Diagnosis | None:
    """The finding that the model's joints are the description's in another order, where
    an order other than its joint_names' makes every term agree with the engine that
    differs most; None where none does (or the model has no joint term to tell by)."""
    side = max(sides, key=lambda s: sum(s.fails(t, mine[t]) for t in s.values), default=None)
    own = [t for t in terms if side is not None and t.term in side.values]
    if len(layout.names) < 2 or not any(t.kind in ("matrix", "vector") for t in own):
        return None
    try:
        found = _best_order(own, side, states[0], layout)
    except (ModelError, np.linalg.LinAlgError):  # the model cannot be evaluated there
        return None
    if found is None or not _agrees(own, mine, side, states, found, layout):
        return None
    moved = [(k, j) for k, j in enumerate(found) if j != k]
    lead = "the description's "  # said of the first joint only
    said = ", ".join(f"q[{layout.q0 + k}] is {'' if i else lead}{layout.names[j]!r}"
                     for i, (k, j) in enumerate(moved))
    agreed = [t.term for t in own if t.family != "length"]
    frames = ", and so do the frames" if len(agreed) < len(own) else ""
    return Diagnosis(tuple(t.term for t in own),
                     "the model's joints are in another order than its joint_names say: "
                     f"its {said} ({join_names(agreed)} agree under that order{frames})")


def _best_order(own: Sequence[Term], side: Side, state: State, layout: Layout
                ) -> tuple[int, ...] | None:
    """The order of the joints that best maps the engine's terms onto the model's on the
    states every order leaves alone; None where that is the joint_names' own order."""
    alone = [_uniform(state, layout, *x) for x in INVARIANT]
    model = {t.term: values(t.model, alone) for t in own}
    engine = {t.term: values(t.engine(side.model), alone) for t in own}
    n = len(layout.names)
    if n <= MAX_EXHAUSTIVE:
        def cost(p: tuple[int, ...]) -> float:
            return max(_rel(model[t.term] - _in_model_order(engine[t.term], t.kind, p, layout),
                            side.scale[t.term]) for t in own)
        found = min(itertools.permutations(range(n)), key=cost)
    else:
        found = _assignment(own, model, engine, side, layout)
    return None if found == tuple(range(n)) else found


def _assignment(own: Sequence[Term], model: dict[str, np.ndarray],
                engine: dict[str, np.ndarray], side: Side, layout: Layout) -> tuple[int, ...]:
    """For many joints: each of the model's joints matched with the description's joint
    whose diagonal of M and entries of the vector terms are closest (the assignment of
    least total difference)."""
    from scipy.optimize import linear_sum_assignment

    n, v0 = len(layout.names), layout.v0
    cost = np.zeros((n, n))
    for t in own:
        if t.kind not in ("matrix", "vector"):
            continue
        h, r = model[t.term], engine[t.term]
        if t.kind == "matrix":
            h, r = np.diagonal(h, axis1=1, axis2=2), np.diagonal(r, axis1=1, axis2=2)
        h, r = h[:, v0:], r[:, v0:]
        cost += np.max(np.abs(h[:, :, None] - r[:, None, :]), axis=0) / max(
            side.scale[t.term], 1e-300)
    rows, cols = linear_sum_assignment(cost)
    return tuple(int(c) for _, c in sorted(zip(rows, cols, strict=True)))


def _agrees(own: Sequence[Term], mine: dict[str, np.ndarray], side: Side,
            states: Sequence[State], order: tuple[int, ...], layout: Layout) -> bool:
    """Whether, with the engine's q, v and vdot taken in ``order``, every term of the model
    agrees with the engine's on the audit's states at the rows' tolerance."""
    moved = [_moved(s, order, layout) for s in states]
    for t in own:
        theirs = _in_model_order(values(t.engine(side.model), moved), t.kind, order, layout)
        if _rel(mine[t.term] - theirs, side.scale[t.term]) > side.tolerance[t.term]:
            return False
    return True


def _uniform(state: State, layout: Layout, angle: float, rate: float, accel: float
             ) -> State:
    """``state`` with every joint at one angle, rate and acceleration (a free root's own
    coordinates kept): a state no order of the joints changes."""
    q, v, a = (np.array(x, dtype=float) for x in state)
    q[layout.q0:], v[layout.v0:], a[layout.v0:] = angle, rate, accel
    return q, v, a


def _indices(order: Sequence[int], start: int) -> np.ndarray:
    """Entries of a vector whose joint part (from ``start``) is taken in ``order``."""
    return np.r_[np.arange(start), start + np.asarray(order, dtype=int)]


def _moved(state: State, order: Sequence[int], layout: Layout) -> State:
    """The engine's state for the model's: the model's joint k is the engine's order[k]."""
    q, v, a = (np.array(x, dtype=float) for x in state)
    iq, iv = _indices(order, layout.q0), _indices(order, layout.v0)
    out = [np.empty_like(q), np.empty_like(v), np.empty_like(a)]
    out[0][iq], out[1][iv], out[2][iv] = q, v, a
    return out[0], out[1], out[2]


def _in_model_order(value: np.ndarray, kind: str, order: Sequence[int], layout: Layout
                    ) -> np.ndarray:
    """The engine's values (states along axis 0) in the model's order of the joints: both
    axes of a matrix, a vector's entries, a Jacobian's columns; a position is unchanged."""
    idx = _indices(order, layout.v0)
    if kind == "matrix":
        return value[:, idx][:, :, idx]
    if kind == "vector":
        return value[:, idx]
    if kind == "jacobian":
        return value[:, :, idx]
    return value


# --- one entry --------------------------------------------------------------------------
@dataclass(frozen=True)
class _Entry:
    """One term's single failing entry (with its mirror, for a matrix) against the
    engines where the term fails."""

    term: Term
    shape: tuple[int, ...]  # of the term's value at one state
    flat: tuple[int, ...]
    opposite: bool
    engines: tuple[str, ...]
    passing: tuple[str, ...]  # engines that compare the term and agree
    model_value: float
    engine_value: float


def entry_diagnoses(failing: Sequence[Term], mine: dict[str, np.ndarray],
                    sides: Sequence[Side], coords: Sequence[str]) -> list[Diagnosis]:
    """One sentence per term that fails in one entry alone, flipped or otherwise wrong; a
    force term that fails in the same joint alone as one named before is said with it."""
    found = [e for t in failing if (e := _entry(t, mine[t.term], sides)) is not None]
    found.sort(key=lambda e: (not e.opposite, _rank(e.term.term)))
    said: list[tuple[_Entry, list[str]]] = []
    for e in found:
        cause = next((c for c, _ in said if _follows(e, c)), None)
        if cause is None:
            said.append((e, []))
        else:
            next(f for c, f in said if c is cause).append(e.term.term)
    return [Diagnosis((e.term.term, *follows), _entry_sentence(e, follows, coords))
            for e, follows in said]


def _rank(term: str) -> int:
    return ORDER.index(term) if term in ORDER else len(ORDER)


def _follows(e: _Entry, cause: _Entry) -> bool:
    """Whether a force term failing in one joint alone follows from ``cause``: a
    generalised force failing in the same joint (bias from C v or G, tau from those)."""
    return (not e.opposite or e.term.term in ("bias", "tau")) and e.term.kind == "vector" \
        and cause.term.kind == "vector" and e.flat == cause.flat \
        and e.term.family == cause.term.family == "force"


def _entry(term: Term, model: np.ndarray, sides: Sequence[Side]) -> _Entry | None:
    """The single failing entry of ``term`` where every engine it fails against agrees on
    it, flipped or not; None where it fails in several entries or the engines differ."""
    against = [s for s in sides if term.term in s.values and s.fails(term.term, model)]
    found = [_single(model, s.values[term.term], s.scale[term.term],
                     s.tolerance[term.term]) for s in against]
    if not found or found[0] is None or any(f != found[0] for f in found):
        return None
    flat, opposite = found[0]
    ref = against[0].values[term.term].reshape(len(model), -1)
    mod = model.reshape(len(model), -1)
    k = int(np.argmax(np.abs(mod[:, flat[0]] - ref[:, flat[0]])))
    passing = tuple(s.engine for s in sides if term.term in s.values and s not in against)
    return _Entry(term, model.shape[1:], flat, opposite, tuple(s.engine for s in against), passing,
                  float(mod[k, flat[0]]), float(ref[k, flat[0]]))


def _single(model: np.ndarray, engine: np.ndarray, scale: float, tol: float
            ) -> tuple[tuple[int, ...], bool] | None:
    """The failing entries (flat indices) of a term where they are one entry, or a
    matrix entry and its mirror, and whether the model's value there is minus the
    engine's; None otherwise."""
    shape = model.shape[1:]
    h, r = model.reshape(len(model), -1), engine.reshape(len(engine), -1)
    if scale <= 0.0:
        return None
    bad = tuple(int(i) for i in np.flatnonzero(np.max(np.abs(h - r), axis=0) / scale > tol))
    if len(bad) == 2 and len(shape) == 2 and shape[0] == shape[1]:
        i, j = np.unravel_index(bad[0], shape)
        if np.ravel_multi_index((j, i), shape) != bad[1]:
            return None
    elif len(bad) != 1:
        return None
    opposite = all(np.max(np.abs(h[:, k] + r[:, k])) / scale <= tol for k in bad)
    return bad, opposite


def _entry_sentence(e: _Entry, follows: Sequence[str], coords: Sequence[str]) -> str:
    """'entry (0, 1) of M (joints 'shoulder', 'elbow') has the opposite sign: model
    -0.31, mujoco 0.31', or 'only entry ... differs: ... (a typo in that entry?)'."""
    t = e.term
    index = np.unravel_index(e.flat[0], e.shape)
    where = _where(coordinate(coords, e.shape, e.flat[0], t.kind), t.kind)
    entry = f"entry {index[0] if len(index) == 1 else tuple(int(i) for i in index)}"
    mirror = f" and its mirror {tuple(int(i) for i in index[::-1])}" if len(e.flat) == 2 else ""
    values_ = f"model {e.model_value:.6g}, {e.engines[0]} {e.engine_value:.6g}"
    if e.opposite:
        text = (f"{entry} of {t.term} ({where}){mirror} "
                f"{'have' if mirror else 'has'} the opposite sign: {values_}")
    else:
        text = (f"only {entry} of {t.term} ({where}){mirror} "
                f"{'differ' if mirror else 'differs'}: {values_} (a typo in that entry?)")
    if e.passing:
        text += (f" (against {join_names(e.engines)}; {join_names(e.passing)} "
                 f"agree{'s' if len(e.passing) == 1 else ''})")
    if follows:
        text += (f"; {join_names(follows)} differ{'s' if len(follows) == 1 else ''} in that "
                 "joint alone, as follows from it")
    return text


def _where(name: str, kind: str) -> str:
    """An entry's coordinates in words: "joints 'a', 'b'", "joint 'a'", "z, joint 'a'",
    "z"."""
    if kind == "matrix":
        a, b = name.split(", ")
        return f"joints {a!r}, {b!r}"
    if kind == "vector":
        return f"joint {name!r}"
    if kind == "jacobian":
        axis, joint = name.split(", ")
        return f"{axis}, joint {joint!r}"
    return name

