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
from pathlib import Path
from typing import Any

import numpy as np

from dynval.comparisons.ladder.audit import ROUND_OFF, random_states
from dynval.comparisons.ladder.terms import (
    FREE_COORDINATES,
    Term,
    compare,
    scales,
    term_list,
    values,
)
from dynval.comparisons.own_model import loading, readings, swing
from dynval.comparisons.own_model.coupled import Coupled
from dynval.comparisons.own_model.diagnose import Layout, Side, diagnose
from dynval.comparisons.own_model.l0 import (
    l0_rows,
    name_findings,
    odd_readings,
)
from dynval.comparisons.own_model.outcome import (  # noqa: F401  (re-exported)
    FIRST_FAILURES,
    OUTCOMES,
    OwnAudit,
    l3_passed,
    rung_of,
)
from dynval.comparisons.own_model.swing_rows import swing_rows
from dynval.model import ModelError, NonFiniteError, call, capabilities, check_model

MIN_RATIO = swing.MIN_RATIO
REGRESSOR_STATES = 40  # states the regressor fits over: 40 n equations for 10 per body
# the regressor's cause where a diagnosis already names the equations' mistake
NAMED_ABOVE = ("not a link's inertias but the equations themselves (the finding on the "
               "joint order or the entry says where)")


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
                l3: bool = True, terms: bool = True) -> OwnAudit:
    """L0-L3 of a user model against its description (module docstring).  ``reference``
    names the engine the model stands for (an audit without a hand model), which is then
    not compared with itself; ``loaded`` is the description already loaded; ``l3``
    False stops after L2; ``terms`` False leaves out L1 and L2 (a paper robot's chapter
    audits its terms in the paper's own names and forms, ladder.terms)."""
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
    with_reading = readings.with_readings(loaded.engines, audit.l0)
    if terms:
        _l1_l2(audit, model, label, loaded, engines, states, coords, seed, tolerance,
               with_reading, undamped, reference, Layout(tuple(names), 7 * free, 6 * free))
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


def _l1_l2(audit: OwnAudit, model: Any, label: str, loaded: loading.Loaded,
           engines: dict[str, Any], states: list[tuple], coords: Sequence[str], seed: int,
           tolerance: float, with_reading: dict[str, Any], undamped: set[str],
           reference: str | None, layout: Layout) -> None:
    """L1 and L2: every term the model has against every engine, what the failures'
    pattern points at (a reference engine standing for the model mistypes nothing) and
    the regressor's account of the inertias the model implies."""
    def checked(method: str, shape: tuple[int, ...], *args: Any) -> np.ndarray:
        return call(model, label, method, shape, *args)

    has = capabilities(model)
    frames = list(getattr(model, "frames", ()) or ())
    terms = term_list(checked, has, len(coords), frames)
    _say_unchecked(audit, label, has, frames)
    mine, sides = _audit_terms(audit, terms, engines, states, coords, seed, tolerance,
                               loaded, with_reading, undamped)
    audit.findings += readings.odd_terms(terms, sides, reference, mine, coords, tolerance)
    if reference is None:
        audit.diagnoses = diagnose(terms, mine, sides, states, coords, layout)
    _trace_parameters(audit, model, loaded, states, layout.q0 > 0)


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
