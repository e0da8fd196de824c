"""Engines' readings of one file side by side.  An engine's reading of the file's inertias
is told apart from its arithmetic: Pinocchio's terms with that engine's body inertials
against Pinocchio's own measure what the reading alone does to each term and to the
swing.  And with three engines' terms or more, the one whose terms differ from all the
others, which agree, is named (``odd_terms``).

Two readings are allowed for on top of round-off.  PyBullet's always differs a little
(its principal-axes conversion of every inertia).  Drake's differs where its parser
judges an inertia impossible and reads it its own way: allowed only where the file's own
findings name every body Drake reads differently (the file is at fault, and L0 says so),
never for a difference the file does not explain (that is a finding about Drake's
reader, and its rows fail).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from dynval.comparisons.ladder.terms import Term, coordinate, values
from dynval.comparisons.own_model import swing
from dynval.comparisons.own_model.l0 import PYBULLET_REASON, odd_one_out
from dynval.comparisons.own_model.regressor import join_names
from dynval.engines import EngineRefusalError

REASONS = {"pybullet": PYBULLET_REASON, "drake": swing.READINGS["drake"]}
FILE_FINDING = "the file's own finding"  # how l0.name_findings begins a row's reason


def with_readings(engines: dict[str, Any], l0: Sequence[dict]) -> dict[str, Any]:
    """Pinocchio's terms with each allowed reading of the inertias (module docstring), by
    the engine that reads them so; empty where Pinocchio did not load the file.  A reading
    Pinocchio cannot hold (an inertia it judges impossible) is allowed for nothing: that
    engine's rows are judged against round-off alone."""
    pin = engines.get("pinocchio")
    if pin is None:
        return {}
    wanted = ["pybullet"] if "pybullet" in engines else []
    apart = [r for r in l0 if r["engine"] == "drake vs pinocchio" and not r["passed"]]
    if "drake" in engines and apart and all(r["reason"].startswith(FILE_FINDING)
                                            for r in apart):
        wanted.append("drake")
    out = {}
    for engine in wanted:
        try:
            out[engine] = pin.with_body_inertials(engines[engine].body_inertials())
        except EngineRefusalError:
            continue
    return out


def effects(terms: Sequence[Term], pin: Any, states: list[tuple],
            readings: dict[str, Any]) -> dict[str, dict[str, float]]:
    """How far each reading alone moves each term: Pinocchio's terms with the reading
    against its own, worst over the states (absolute), by engine then term."""
    if pin is None:
        return {}
    usable = [t for t in terms if t.family != "length" and callable(getattr(pin, t.method,
                                                                            None))]
    own = {t.term: values(t.engine(pin), states) for t in usable} if readings else {}
    return {e: {t.term: float(np.max(np.abs(values(t.engine(other), states) - own[t.term]),
                                     initial=0.0)) for t in usable}
            for e, other in readings.items()}


def allowance_notes(allowed: dict[str, float], tolerance: float) -> list[str]:
    """A note for each engine whose rows allow its reading's effect (``allowed``: the
    largest allowance over its terms, relative to the term's scale, on top of round-off)."""
    return [f"{swing_label(e)}'s rows allow the effect of {REASONS[e]}, measured as "
            f"Pinocchio's terms with {swing_label(e)}'s inertias: up to {x:.2g} of a term's "
            "scale on top of round-off" for e, x in allowed.items() if x > 0.01 * tolerance]


def swing_label(engine: str) -> str:
    """An engine's name in a sentence."""
    from dynval.comparisons.own_model.loading import ENGINE_LABELS

    return ENGINE_LABELS.get(engine, engine)


def swing_readings(pin: Any, readings: dict[str, Any]
                   ) -> dict[str, tuple[Callable, Callable]]:
    """The ablation of an engine's L3 rows: Pinocchio's accelerations with its reading of
    the inertias and with Pinocchio's own, where the reading differs."""
    if pin is None:
        return {}
    mine = pin.body_inertials().values()
    return {e: (swing.engine_accelerations(other), swing.engine_accelerations(pin))
            for e, other in readings.items()
            if not all(np.array_equal(a.inertia, b.inertia) and a.mass == b.mass
                       and np.array_equal(a.com, b.com)
                       for a, b in zip(mine, other.body_inertials().values(), strict=True))}


def odd_terms(terms: Sequence[Term], sides: Sequence[Any], reference: str | None,
              mine: dict[str, np.ndarray], coords: Sequence[str], tolerance: float
              ) -> list[str]:
    """With three engines' values of a term or more (the reference's, ``mine``, among
    them where an engine stands for the model), each engine whose terms differ from all
    the others while those agree with each other, each within the tolerance its rows were
    judged by: one sentence per such engine, naming the terms and, for the first, the
    worst entry with both values (its, then the others')."""
    found: dict[str, list[tuple[Term, np.ndarray, np.ndarray, list[str]]]] = {}
    for t in terms:
        have = {s.engine: s.values[t.term] for s in sides if t.term in s.values}
        if reference is not None:
            have = {reference: mine[t.term], **have}
        if len(have) < 3:
            continue
        scale = max(s.scale[t.term] for s in sides if t.term in s.scale)
        allowed = {s.engine: s.tolerance[t.term] for s in sides if t.term in s.tolerance}
        engine_of = {id(v): e for e, v in have.items()}

        def differ(a: np.ndarray, b: np.ndarray, allowed=allowed, scale=scale,
                   engine_of=engine_of) -> bool:
            tol = max(allowed.get(engine_of[id(a)], tolerance),
                      allowed.get(engine_of[id(b)], tolerance))
            return float(np.max(np.abs(a - b))) > tol * scale

        odd = odd_one_out(have, differ)
        if odd:
            found.setdefault(odd[0], []).append((t, have[odd[0]], have[odd[1][0]], odd[1]))
    out = []
    for engine, hits in found.items():
        t, a, b, rest = hits[0]
        diff = np.abs(a - b).reshape(len(a), -1)
        k, i = np.unravel_index(int(np.argmax(diff)), diff.shape)
        where = coordinate(coords, a.shape[1:], int(i), t.kind)
        out.append(f"{swing_label(engine)}'s terms differ from "
                   f"{join_names([swing_label(e) for e in rest])}'s in "
                   f"{join_names([h[0].term for h in hits])}: {t.term} worst at {where}: "
                   f"{a[k].ravel()[i]:.6g} vs {b[k].ravel()[i]:.6g} ({t.unit})")
    return out
