"""Your own robot: a user's hand-derived model (``dynval.model``'s protocol) audited against
its URDF or MJCF in MuJoCo, PyBullet, Pinocchio and Drake, rung by rung as the papers'
robots are; or, without a model, the engines audited against each other (Pinocchio's
terms standing in for the model).

* the description is loaded as it comes (``loading``): packages looked up, geometry left
  out, and what each engine adds beyond rigid-body dynamics switched off and said; an
  engine that refuses the file is listed as not checked, with the reason;
* L0 (``l0``): the engines agree on each moving body's mass, centre and inertia (welded
  links merged the same way everywhere) and each joint's axis;
* L1: each frame the model names (``frames``), its position and linear Jacobian;
* L2: M, bias (C v + G), gravity, C v (bias less gravity, where both exist) and inverse
  dynamics over seeded states, each error relative to the term's scale (``terms``); a
  disagreement with the description's inertias is traced to the link and parameter by
  the regressor (``regressor``);
* L3 (``swing``): where the model has ``forward_dynamics(q, v, tau)``, or M and bias to
  solve for the accelerations, a free swing by semi-implicit Euler against each engine's
  own steps and accelerations at three step sizes, judged against the system's own
  sensitivity, and the scheme's own error against RK4.

The worst state of every term is kept with both values, so that a failure names the term,
the coordinate, the state and what each side computed. A fixed root, or a floating body
on an explicit six-joint base chain (three slides and three hinges through massless links:
q means the same in every engine). A free root (``base = "free"``): q and v in MuJoCo's
free-joint convention, audited in MuJoCo (a free joint added to a URDF's root link, or an
MJCF's own), PyBullet (its floating base converted, ``PybulletFreeRoot``), Pinocchio (its
free flyer converted, ``PinocchioFreeRoot``) and Drake (its quaternion floating joint
converted, ``DrakeTerms``); its L3 starts from a seeded state (at
rest it would only fall).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from dynval.comparisons.ladder.audit import ROUND_OFF, TermResult, random_states
from dynval.comparisons.own_model import loading, readings, swing
from dynval.comparisons.own_model.coupled import Coupled
from dynval.comparisons.own_model.diagnose import Diagnosis, Layout, Side, diagnose
from dynval.comparisons.own_model.l0 import (
    l0_rows,
    name_findings,
    odd_readings,
)
from dynval.comparisons.own_model.regressor import join_names
from dynval.comparisons.own_model.swing_rows import swing_rows
from dynval.comparisons.own_model.terms import Term, Worst, compare, scales, term_list, values
from dynval.model import ModelError, NonFiniteError, call, capabilities, check_model

FREE_COORDINATES = ("base vx", "base vy", "base vz", "base wx", "base wy", "base wz")
MIN_RATIO = swing.MIN_RATIO
REGRESSOR_STATES = 40  # states the regressor fits over: 40 n equations for 10 per body
FIRST_FAILURES = 20  # failure sentences `dynval audit` prints: a screenful
# the regressor's cause where a diagnosis already names the equations' mistake
NAMED_ABOVE = ("not a link's inertias but the equations themselves (the finding on the "
               "joint order or the entry says where)")


# What an audit's outcome means, and the exit code `dynval audit` gives it.
OUTCOMES = {"agrees": (0, "everything compared agrees"),
            "differs": (1, "a figure differs: the model, or an engine's reading of the file"),
            "nothing compared": (5, "nothing could be compared"),
            "file at fault": (6, "the file itself is at fault (an impossible inertia or axis) "
                                 "and everything that could be compared agrees")}


@dataclass
class OwnAudit:
    """The audit of one model: report rows, worst states, L0 rows, what was not checked
    (each a sentence), findings about the file or the model, and notes."""

    label: str
    description: Path
    results: list[TermResult] = field(default_factory=list)
    worst: dict[tuple[str, str], Worst] = field(default_factory=dict)
    l0: list[dict] = field(default_factory=list)
    l3: list[dict] = field(default_factory=list)
    unchecked: list[str] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    engines: tuple[str, ...] = ()
    refused: dict[str, str] = field(default_factory=dict)
    decided: set[str] = field(default_factory=set)  # of ``refused``, those dynval chose
    readers: list[str] = field(default_factory=list)  # an engine's reader, not the file
    dof: int = 0  # entries of v (a free root's six included)
    implied: Any = None  # the regressor's account of the model's inertias, where it ran
    diagnoses: list[Diagnosis] = field(default_factory=list)  # what failing terms point at

    @property
    def failures(self) -> list[TermResult]:
        return [r for r in self.results if not r.passed]

    @property
    def l3_failures(self) -> list[dict]:
        """L3 rows outside their tolerance with no measured evidence of their cause."""
        return [r for r in self.l3 if not l3_passed(r) and not r.get("evidence")]

    @property
    def l3_known(self) -> list[dict]:
        """L3 rows outside their tolerance whose cause an ablation measured."""
        return [r for r in self.l3 if not l3_passed(r) and r.get("evidence")]

    @property
    def l0_failures(self) -> list[dict]:
        return [r for r in self.l0 if not r["passed"]]

    @property
    def file_faults(self) -> list[dict]:
        """Failing L0 rows whose cause is the file itself: an engine refusing it for an
        impossible inertia, or engines reading such an inertia (or a non-unit axis)
        differently."""
        return [r for r in self.l0_failures if r["quantity"] == "loads the file"
                or r["reason"].startswith("the file's own finding")]

    @property
    def outcome(self) -> str:
        """The audit in one phrase (OUTCOMES): a figure differs; nothing could be compared;
        the file is at fault while everything compared agrees; or everything agrees."""
        faults = self.file_faults
        if self.failures or self.l3_failures or len(self.l0_failures) > len(faults):
            return "differs"
        if not self.results:
            return "nothing compared"
        return "file at fault" if faults else "agrees"

    @property
    def passed(self) -> bool:
        """Something compared, every compared figure within its tolerance, and no engine
        kept out by a fault of the file (an L0 row of its own)."""
        return bool(self.results) and not (self.failures or self.l0_failures
                                           or self.l3_failures)

    def explain_l0(self, row: dict) -> str:
        """One L0 reading outside its tolerance in words: which engines, what, by how much
        and why the reading is judged so."""
        return (f"L0: {row['engine']} disagree on {row['quantity']} by "
                f"{row['max_error']:.3g} ({row['reason']})")

    def first_failures(self, limit: int = FIRST_FAILURES) -> tuple[list[str], int]:
        """A screenful: at most ``limit`` sentences, the most informative first (what the
        failing terms point at, then the first failing figure of each rung and term: an
        L0 quantity, a term against the first engine it fails against, L3's first row),
        and how many failing figures they leave unsaid (all are in the metric table)."""
        heads: dict[tuple[str, str], list[str]] = {}
        for r in self.l0_failures:
            heads.setdefault(("L0", r["quantity"]), []).append(self.explain_l0(r))
        for r in self.failures:
            heads.setdefault((rung_of(r.term), r.term), []).append(r.reference)
        for r in self.l3_failures:
            heads.setdefault(("L3", "joint coordinates"), []).append(self.explain_l3(r))
        lines = [f"finding: {d.sentence}" for d in self.diagnoses][:limit]
        for (rung, term), said in sorted(heads.items(), key=lambda kv: kv[0][0]):
            if len(lines) == limit:
                break
            lines.append(said[0] if rung in ("L0", "L3") else self._first_of(term, said))
        shown = len(lines) - min(len(self.diagnoses), limit)
        total = len(self.l0_failures) + len(self.failures) + len(self.l3_failures)
        return lines, total - shown

    def _first_of(self, term: str, engines: Sequence[str]) -> str:
        """A failing term against the first engine it fails against, and the others."""
        first = next(r for r in self.failures if r.term == term and r.reference == engines[0])
        also = f" (and from {join_names(engines[1:])})" if engines[1:] else ""
        return self.explain(first) + also

    def failure_sentences(self, terms: Sequence[str] | None = None) -> list[str]:
        """Each figure outside its tolerance without a measured cause, one sentence each,
        after what the failing terms point at (``diagnoses``): L0's, the terms' (only those
        named in ``terms`` where given) and, without ``terms``, L3's.  ``dynval.testing``
        raises with them; ``dynval.audit`` lists them."""
        failed = [r for r in self.failures if terms is None or r.term in terms]
        swing = self.l3_failures if terms is None else []
        found = [d.sentence for d in self.diagnoses
                 if terms is None or set(d.terms) & set(terms)]
        return (found + [self.explain_l0(r) for r in self.l0_failures]
                + [self.explain(r) for r in failed] + [self.explain_l3(r) for r in swing])

    def explain_l3(self, row: dict) -> str:
        """One L3 row outside its tolerance in words: who diverged, what differs by how
        much and when, or what fails to converge; the measured cause where an ablation
        found it."""
        what = f"{self.label}: L3 {row['comparison']} at dt = {row['step']:g} s"
        known = f"; known: {row['known']}" if row.get("evidence") else ""
        if "diverged" in row:
            return f"{what}: {row['diverged']}"
        if "exceeds_at" in row:
            diff, env = row["exceeds"]
            return (f"{what} differs by {diff:.3g} at t = {row['exceeds_at']:g} s (the "
                    f"envelope there {env:.3g}), by up to {row['max_abs']:.3g} at t = "
                    f"{row['at']:g} s{known}")
        if row["tolerance"] is not None and not row["max_abs"] <= row["tolerance"]:
            return (f"{what} differs by up to {row['max_abs']:.3g} at t = {row['at']:g} s "
                    f"(the envelope there {row['tolerance']:.3g}){known}")
        return (f"{what}: the difference ({row['max_abs']:.3g}) falls by only "
                f"{row['ratio_to_half_step']:.3g} when the step halves (at least "
                f"{row['min_ratio']:g}): a modelling difference, not integration error"
                f"{known}")

    def brief(self, r: TermResult) -> str:
        """One failing term in a line of a summary: the term, the engine, by how much, and
        both values at its worst entry with their unit."""
        w = self.worst[(r.term, r.reference)]
        return (f"{r.term} differs from {r.reference} by {r.max_rel_error:.3g} of its scale "
                f"(tolerance {r.tolerance:.3g}); worst at {w.coordinate}: model "
                f"{w.model_value:.6g}, {r.reference} {w.engine_value:.6g} ({r.unit})")

    def explain(self, r: TermResult) -> str:
        """One failing term in words: term, coordinate, state and both values."""
        w = self.worst[(r.term, r.reference)]
        return (f"{self.label}: {r.term} ({r.equation}) differs from {r.reference} by "
                f"{r.max_rel_error:.3g} of its scale (tolerance {r.tolerance:.3g}); worst at "
                f"{w.coordinate}: model {w.model_value:.9g}, {r.reference} "
                f"{w.engine_value:.9g}, at q = {np.array2string(w.q, precision=4)}, "
                f"v = {np.array2string(w.v, precision=4)}, "
                f"vdot = {np.array2string(w.vdot, precision=4)}")


def rung_of(term: str) -> str:
    """The rung of a term's row: L1 for a frame's position or Jacobian, else L2."""
    return "L1" if term.startswith(("p[", "J[")) else "L2"


def l3_passed(row: dict) -> bool:
    """An L3 row within its envelope at every step and, where it has one, its halving
    ratio at least its lower bound (a row with neither is reported, not judged)."""
    ratio = row.get("ratio_to_half_step")
    return swing.l3_within(row) and (ratio is None or ratio >= row["min_ratio"])


def _free_root(model: Any, label: str) -> bool:
    """Whether the model declares a free root (``base = "free"``; the default is fixed)."""
    base = getattr(model, "base", "fixed")
    if base not in ("fixed", "free"):
        raise ModelError(f"{label}.base is {base!r}: it is 'fixed' (the default) or 'free'")
    return base == "free"


INCLUDABLE = ("damping", "limits", "mimic")  # what a model may declare beyond rigid bodies


def _includes(model: Any, label: str) -> set[str]:
    """What the model declares it includes beyond rigid-body dynamics (``includes``; by
    default nothing): the file's joint damping, in its inverse and forward dynamics; the
    file's joint limits, the ranges within which it holds; the URDF's mimic couplings,
    its q then holding the independent joints only."""
    inc = getattr(model, "includes", ())
    if isinstance(inc, str) or not all(isinstance(x, str) for x in inc):
        raise ModelError(f"{label}.includes is a sequence of names, such as ('damping',)")
    unknown = [x for x in inc if x not in INCLUDABLE]
    if unknown:
        raise ModelError(f"{label}.includes names {unknown[0]!r}: a model may include "
                         "'damping' (the file's joint damping, compared in MuJoCo), "
                         "'limits' (the file's joint ranges, within which it holds) and "
                         "'mimic' (the URDF's couplings); contacts are constraint forces "
                         "of each engine's solver and stay off")
    return set(inc)


def _couplings(description: Path, label: str, names: Sequence[str],
               includes: set[str]) -> dict[str, tuple[str, float, float]]:
    """The URDF's mimic couplings when the model includes them (else none: every engine
    then treats the joints as independent), each follower's leader among the model's
    joints."""
    if "mimic" not in includes:
        return {}
    if description.suffix.lower() != ".urdf":
        raise ModelError(f"{label}.includes 'mimic': mimic couplings are read from a URDF")
    from dynval.engines.description_files import mimic_couplings

    couplings = mimic_couplings(description)
    for follower, (leader, _, _) in couplings.items():
        if leader not in names:
            raise ModelError(f"{label}.joint_names leaves out {leader!r}, which "
                             f"{follower!r} follows in {description.name}")
    return couplings


def _quat(rotation_vector: np.ndarray) -> np.ndarray:
    """The unit quaternion (w, x, y, z) of a rotation vector."""
    angle = float(np.linalg.norm(rotation_vector))
    axis = rotation_vector / angle if angle > 0.0 else np.zeros(3)
    return np.r_[np.cos(angle / 2), np.sin(angle / 2) * axis]


def _load(description: Path, label: str, names: list[str], free: bool, includes: set[str],
          gravity: Sequence[float], package_paths: Sequence[Path]
          ) -> tuple[Path, loading.Loaded]:
    """The description as the model's audit reads it: the file a name stands for, and
    every engine's reading in the model's joints (through the URDF's mimic couplings where
    the model includes them); a free root the model does not declare is a ModelError."""
    prepared = loading.prepare(description, package_paths)
    description = prepared.source  # the file a name stands for
    joints, own_free = loading.description_joints(prepared.path)
    if own_free and not free:
        raise ModelError(f"{description.name}'s root moves on a free joint: {label} "
                         "declares base = 'free' (q and v in MuJoCo's free-joint "
                         "convention) to be audited with it")
    couplings = _couplings(description, label, names, includes)
    loading.match_joints([j for j in joints if j not in couplings], description, label,
                         names)
    loaded = loading.load(prepared, [*names, *couplings], gravity, free,
                          "damping" in includes, "limits" in includes)
    if couplings:  # every engine seen in the model's independent coordinates
        loaded.engines = {e: Coupled(t, names, list(couplings), couplings, free)
                          for e, t in loaded.engines.items()}
        loaded.notes = [n for n in loaded.notes if " mimic" not in n] + [
            f"{label} includes the URDF's mimic couplings ({', '.join(couplings)}): "
            "every engine's terms are reduced to its independent joints; the engines' "
            "own steps are not compared"]
    return description, loaded


def _with_l0(label: str, description: Path, loaded: loading.Loaded) -> OwnAudit:
    """The audit begun from the loaded description: its notes, what was not checked, the
    file's findings, and L0 (an engine refusing the file, then the engines' readings)."""
    audit = OwnAudit(label, description, notes=[*loaded.notes,
                                                *loading.switched_off_sentence(loaded)],
                     unchecked=loading.not_checked(loaded), refused=dict(loaded.refused),
                     decided=set(loaded.decided),
                     findings=list(loaded.findings), readers=list(loaded.readers))
    audit.l0 = [{"file": description.name, "engine": e, "quantity": "loads the file",
                 "max_error": float("inf"), "tolerance": 0.0, "passed": False,
                 "reason": f"{loading.ENGINE_LABELS[e]} refuses it: {loaded.refused[e]}"}
                for e in sorted(loaded.faulted)] + l0_rows(description.name, loaded.engines)
    if "pinocchio" in loaded.engines and loaded.findings:
        name_findings(audit.l0, loaded.engines["pinocchio"].welded_links(), loaded.findings)
    audit.findings += odd_readings(loaded.engines)  # with three readings, the odd one named
    return audit


def audit_model(model: Any, description: Path | str, samples: int = 200, seed: int = 0,
                gravity: Sequence[float] = (0.0, 0.0, -9.81), tolerance: float = ROUND_OFF,
                label: str | None = None, package_paths: Sequence[Path] = (),
                reference: str | None = None, loaded: loading.Loaded | None = None,
                l3: bool = True) -> OwnAudit:
    """L0-L3 of a user model against its description (module docstring).  ``reference``
    names the engine the model stands for (an audit without a hand model), which is then
    not compared with itself; ``loaded`` is the description already loaded; ``l3``
    False stops after L2."""
    label = label or type(model).__name__
    check_model(model, label)
    description = Path(description)
    names = list(model.joint_names)
    free = _free_root(model, label)
    includes = _includes(model, label)
    coords = [*FREE_COORDINATES, *names] if free else names  # the entries of v
    n = len(coords)
    if loaded is None:
        description, loaded = _load(description, label, names, free, includes, gravity,
                                    package_paths)
    ranges = loading.joint_ranges(loaded, names) if "limits" in includes else None
    audit = _with_l0(label, description, loaded)
    engines = {e: t for e, t in loaded.engines.items() if e != reference}
    audit.engines, audit.dof = tuple(engines), n
    # with the model's damping, its inverse and forward dynamics meet MuJoCo's only
    undamped = {e for e in engines if e != "mujoco"} if "damping" in includes else set()
    if undamped:
        audit.notes.append(f"{label} includes the file's joint damping: inverse dynamics and "
                           "L3 are compared with MuJoCo, whose damping is kept on; "
                           f"{', '.join(sorted(loading.ENGINE_LABELS[e] for e in undamped))} "
                           "model none")
    has = capabilities(model)
    states = random_states(samples, seed, n)
    if free:  # q = (p, unit quaternion w, x, y, z, joints): the draw's rotation vector
        states = [(np.r_[q[:3], _quat(q[3:6]), q[6:]], v, a) for q, v, a in states]
    if ranges is not None:
        states = _within(states, ranges, free)
        audit.notes.append(_limits_note(label, names, ranges))

    def checked(method: str, shape: tuple[int, ...], *args: Any) -> np.ndarray:
        return call(model, label, method, shape, *args)

    frames = list(getattr(model, "frames", ()) or ())
    terms = term_list(checked, has, n, frames)
    _say_unchecked(audit, label, has, frames)
    with_reading = readings.with_readings(loaded.engines, audit.l0)
    mine, sides = _audit_terms(audit, terms, engines, states, coords, seed, tolerance,
                               loaded, with_reading, undamped)
    audit.findings += readings.odd_terms(terms, sides, reference, mine, coords, tolerance)
    if reference is None:  # an engine standing for the model mistypes nothing
        audit.diagnoses = diagnose(terms, mine, sides, states, coords,
                                   Layout(tuple(names), 7 * free, 6 * free))
    _trace_parameters(audit, model, loaded, states, free)
    qdd = _accelerations(model, label, n, has)
    if not l3:
        audit.unchecked.append("L3 (trajectories) not asked for")
    elif qdd is None:
        audit.unchecked.append(f"{label} has neither forward_dynamics nor mass_matrix with "
                               "bias: L3 (trajectories) not run")
    elif not {e for e in engines if e not in undamped}:
        audit.unchecked.append("no engine to swing against: L3 not run")
    else:
        q0, v0 = states[0][:2] if free else (states[0][0], np.zeros(n))
        try:
            qdd(q0, v0)
        except NonFiniteError:
            pass  # a swing that diverges at once: L3's finding, made there
        except np.linalg.LinAlgError:
            audit.unchecked.append(f"{label}'s mass matrix is singular at the start (a moving "
                                   "body without mass or inertia): L3 cannot integrate it")
            return audit
        swingers = {e: t for e, t in engines.items() if e not in undamped}
        audit.l3 = swing_rows(qdd, swingers, q0, v0, free,
                                    readings.swing_readings(loaded.engines.get("pinocchio"),
                                                            with_reading),
                                    [(q, v) for q, v, _ in states],
                                    None if ranges is None else (*ranges, names),
                                    who=reference or "handrolled")
        audit.findings += [audit.explain_l3(r) for r in audit.l3_known]
    return audit


def _within(states: list[tuple], ranges: tuple[np.ndarray, np.ndarray], free: bool
            ) -> list[tuple]:
    """The states with each limited joint's angle mapped from the draw's +-pi onto its
    range, (q + pi) / 2 pi of the way from lower to upper: the domain a model that
    includes the limits holds on, where the engines' limits exert no force."""
    lo, hi = ranges
    limited = np.isfinite(lo)
    out = []
    for q, v, a in states:
        q = np.array(q, dtype=float)
        joints = q[7:] if free else q
        joints[limited] = lo[limited] + (joints[limited] + np.pi) / (2 * np.pi) * (
            hi[limited] - lo[limited])
        out.append((q, v, a))
    return out


def _limits_note(label: str, names: Sequence[str],
                 ranges: tuple[np.ndarray, np.ndarray]) -> str:
    """What a model that includes the limits is compared on, in one sentence."""
    limited = int(np.sum(np.isfinite(ranges[0])))
    return (f"{label} includes the file's joint limits: states are drawn within the ranges "
            f"of its {limited} limited joint{'s' * (limited != 1)} (of {len(names)}), MuJoCo "
            "and PyBullet keep their limits on, and L3 is judged until a joint first reaches "
            "a limit (past it each engine's limit force is its solver's own law)")


def _say_unchecked(audit: OwnAudit, label: str, has: Sequence[str],
                   frames: Sequence[str]) -> None:
    """What the model's methods leave unchecked, one sentence each."""
    if not frames and ("frame_position" in has or "frame_jacobian" in has):
        audit.unchecked.append(f"{label} has frame methods but names no frames (a `frames` "
                               "attribute): L1 not checked")
    if not frames and not ({"frame_position", "frame_jacobian"} & set(has)):
        audit.unchecked.append("no frame methods: L1 (kinematics) not checked")
    for method in ("mass_matrix", "bias", "gravity", "inverse_dynamics"):
        if method not in has:
            audit.unchecked.append(f"{label} has no {method}: not checked")


def _audit_terms(audit: OwnAudit, terms: Sequence[Term], engines: dict[str, Any],
                 states: list[tuple], coords: Sequence[str], seed: int, tolerance: float,
                 loaded: loading.Loaded, with_reading: dict[str, Any],
                 undamped: set[str] = frozenset()
                 ) -> tuple[dict[str, np.ndarray], list[Side]]:
    """Every term against every engine that has its method.  The model is evaluated once
    per state; PyBullet's rows (and Drake's, where the file's own findings explain its
    reading) allow, on top of round-off, the measured effect of that engine's reading of
    the inertias (``readings``: Pinocchio's terms with its inertias against Pinocchio's
    own).  Returns the model's values and each engine's side (its
    values, scales and tolerances), for ``diagnose`` to read the failures' pattern."""
    lacking = sorted({(e, t.method) for t in terms for e, eng in engines.items()
                      if not callable(getattr(eng, t.method, None))})
    audit.unchecked += [f"{e} has no {method} here (a free root's frames are read in MuJoCo, "
                        "Pinocchio and Drake): not compared" for e, method in lacking]
    damped = sorted((e, "inverse_dynamics") for e in undamped)
    audit.unchecked += [f"{e}'s inverse dynamics has no joint damping: tau not compared"
                        for e, _ in damped]
    lacking = sorted({*lacking, *damped})
    mine = {t.term: values(t.model, states) for t in terms}
    effect = readings.effects(terms, loaded.engines.get("pinocchio"), states, with_reading)
    sides = []
    for e, eng in engines.items():
        own = [t for t in terms if (e, t.method) not in lacking]
        theirs = {t.term: values(t.engine(eng), states) for t in own}
        scale = scales(own, mine, theirs)
        tol = {t.term: tolerance + (effect.get(e, {}).get(t.term, 0.0) / scale[t.term]
                                    if scale[t.term] > 0.0 else 0.0)
               for t in own}
        for t in own:
            row, worst = compare(t, e, mine[t.term], theirs[t.term], scale[t.term], states,
                                 coords, seed, tol[t.term])
            audit.results.append(row)
            audit.worst[(t.term, e)] = worst
        sides.append(Side(e, eng, theirs, scale, tol))
    audit.notes += readings.allowance_notes(
        {s.engine: max((x - tolerance for x in s.tolerance.values()), default=0.0)
         for s in sides if s.engine in effect}, tolerance)
    return mine, sides


def _trace_parameters(audit: OwnAudit, model: Any, loaded: loading.Loaded,
                      states: list[tuple], free: bool) -> None:
    """Where M, bias, G or tau disagree with Pinocchio on a fixed base, the regressor's
    account of which link's inertial parameters the model implies differently."""
    from dynval.comparisons.own_model.regressor import Unexplained, implied_parameters

    failed = {r.term for r in audit.failures if r.reference == "pinocchio"}
    if free or "pinocchio" not in loaded.engines or not failed & {"M", "bias", "G", "tau"} \
            or isinstance(loaded.engines["pinocchio"], Coupled):  # whole-tree regressor
        return
    if not (callable(getattr(model, "inverse_dynamics", None))
            or {"mass_matrix", "bias"} <= set(capabilities(model))):
        return
    finding = implied_parameters(loaded.engines["pinocchio"], model,
                                 states[:REGRESSOR_STATES])
    if finding is not None:
        audit.implied = finding
        audit.findings.append(finding.sentence(NAMED_ABOVE) if audit.diagnoses
                              and isinstance(finding, Unexplained) else finding.sentence())


def _accelerations(model: Any, label: str, n: int, has: list[str]
                   ) -> Callable[[np.ndarray, np.ndarray], np.ndarray] | None:
    """q_dd(q, v) at zero torque from the model, or None where it cannot give one."""
    if callable(getattr(model, "forward_dynamics", None)):
        return lambda q, v: call(model, label, "forward_dynamics", (n,), q, v, np.zeros(n))
    if "mass_matrix" in has and "bias" in has:
        def qdd(q: np.ndarray, v: np.ndarray) -> np.ndarray:
            out = np.linalg.solve(call(model, label, "mass_matrix", (n, n), q),
                                  -call(model, label, "bias", (n,), q, v))
            if not np.all(np.isfinite(out)):
                raise NonFiniteError(f"{label}'s accelerations went non-finite")
            return out
        return qdd
    return None
