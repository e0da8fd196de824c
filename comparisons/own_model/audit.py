"""Your own robot: a user's hand-derived model (``dynval.model``'s protocol) audited against
its URDF or MJCF in MuJoCo, PyBullet and Pinocchio, rung by rung as the papers' robots are.

* L0: the description loads in every engine that reads it, and the engines agree on each
  link's mass, centre and inertia and each joint's axis;
* L1: each frame the model names (``frames``), its position and linear Jacobian;
* L2: M, bias (C v + G), gravity, C v (bias less gravity, where both exist) and inverse
  dynamics over seeded states;
* L3: where the model has ``forward_dynamics(q, v, tau)``, or M and bias to solve for the
  accelerations, a free swing from rest (no torque) by semi-implicit Euler against
  MuJoCo's and PyBullet's own steps, at three step sizes, and the scheme's own error
  against RK4 (first order: halving the step halves it).

The worst state of every term is kept with both values, so that a failure names the term,
the coordinate, the state and what each side computed. A fixed root, or a floating body
on an explicit six-joint base chain (three slides and three hinges through massless links:
q means the same in every engine); MuJoCo refuses the massless links, so such a URDF is
audited in PyBullet and Pinocchio and the audit says so. A free root (``base = "free"``):
q and v in MuJoCo's free-joint convention, audited in MuJoCo (a free joint added to the
URDF's root link), PyBullet (its floating base converted, ``PybulletFreeRoot``) and
Pinocchio (its free flyer converted, ``PinocchioFreeRoot``). A free root's L3 starts from a
seeded state (at rest it would only fall) and integrates the quaternion as MuJoCo does;
PyBullet's steps move the centre of mass rather than the root's origin, so they differ by
O(dt), and that difference must halve with the step.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from dynval.comparisons.ladder.audit import ROUND_OFF, TermResult, random_states, worst_state
from dynval.comparisons.ladder.free_swing import compare_swings, integration_error_row
from dynval.comparisons.ladder.integrate import integrate_free_euler, integrate_free_rk4
from dynval.engines import DescriptionError
from dynval.model import ModelError, call, capabilities, check_model

L0_TOL = 1e-9  # what two engines read from one file: parsing, not arithmetic
SWING_SECONDS = 2.0  # [s]
SWING_STEPS = (1e-3, 5e-4, 2.5e-4)  # [s]
SWING_TOL = 1e-9  # [rad or m]: the same scheme on the same dynamics leaves round-off
SWING_REASON = ("same semi-implicit Euler scheme and, if the model is right, the same "
                "dynamics: only round-off remains")
MIN_RATIO = 1.5  # a first-order difference halves with the step: ratio 2, less O(dt^2)
RATIO_REASON = ("PyBullet's own first-order step of the same dynamics (it moves the centre of "
                "mass, not the root's origin): the difference must fall as dt (ratio 2 per "
                "halving; 1.5 allows for the O(dt^2) terms); a modelling difference would not")


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


@dataclass
class OwnAudit:
    """The audit of one model: report rows, worst states, L0 rows and what was not
    checked (each a sentence)."""

    label: str
    description: Path
    results: list[TermResult] = field(default_factory=list)
    worst: dict[tuple[str, str], Worst] = field(default_factory=dict)
    l0: list[dict] = field(default_factory=list)
    l3: list[dict] = field(default_factory=list)
    unchecked: list[str] = field(default_factory=list)

    @property
    def failures(self) -> list[TermResult]:
        return [r for r in self.results if not r.passed]

    @property
    def l3_failures(self) -> list[dict]:
        return [r for r in self.l3 if not l3_passed(r)]

    def explain_l3(self, row: dict) -> str:
        """One failing L3 row in words: what differs by how much, or fails to converge."""
        what = f"{self.label}: L3 {row['comparison']} at dt = {row['step']:g} s"
        if row["tolerance"] is not None and not row["max_abs"] <= row["tolerance"]:
            return f"{what} differs by {row['max_abs']:.3g} (tolerance {row['tolerance']:g})"
        return (f"{what}: the difference ({row['max_abs']:.3g}) falls by only "
                f"{row['ratio_to_half_step']:.3g} when the step halves (at least "
                f"{row['min_ratio']:g}): a modelling difference, not integration error")

    def explain(self, r: TermResult) -> str:
        """One failing term in words: term, coordinate, state and both values."""
        w = self.worst[(r.term, r.reference)]
        return (f"{self.label}: {r.term} ({r.equation}) differs from {r.reference} by "
                f"relative {r.max_rel_error:.3g} (tolerance {r.tolerance:g}); worst at "
                f"{w.coordinate}: model {w.model_value:.9g}, {r.reference} "
                f"{w.engine_value:.9g}, at q = {np.array2string(w.q, precision=4)}, "
                f"v = {np.array2string(w.v, precision=4)}, "
                f"vdot = {np.array2string(w.vdot, precision=4)}")


def l3_passed(row: dict) -> bool:
    """An L3 row within its tolerance and, where it has one, its halving ratio at least
    its lower bound (a row with neither is reported, not judged)."""
    ratio = row.get("ratio_to_half_step")
    return ((row["tolerance"] is None or row["max_abs"] <= row["tolerance"])
            and (ratio is None or ratio >= row["min_ratio"]))


FREE_COORDINATES = ("base vx", "base vy", "base vz", "base wx", "base wy", "base wz")


def _free_root(model: Any, label: str) -> bool:
    """Whether the model declares a free root (``base = "free"``; the default is fixed)."""
    base = getattr(model, "base", "fixed")
    if base not in ("fixed", "free"):
        raise ModelError(f"{label}.base is {base!r}: it is 'fixed' (the default) or 'free'")
    return base == "free"


def _quat(rotation_vector: np.ndarray) -> np.ndarray:
    """The unit quaternion (w, x, y, z) of a rotation vector."""
    angle = float(np.linalg.norm(rotation_vector))
    axis = rotation_vector / angle if angle > 0.0 else np.zeros(3)
    return np.r_[np.cos(angle / 2), np.sin(angle / 2) * axis]


def engines_for(description: Path, joint_names: Sequence[str], gravity: Sequence[float],
                free: bool = False) -> tuple[dict[str, Any], list[str]]:
    """The term engines that read the description, and what is left out and why.  A free
    root is MuJoCo's free joint, PyBullet's floating base and Pinocchio's free flyer, the
    last two converted to MuJoCo's convention (URDF)."""
    from dynval.engines.mujoco_engine import MasslessBodyError, MujocoTerms
    from dynval.engines.pinocchio_engine import PinocchioFreeRoot, PinocchioTerms
    from dynval.engines.pybullet_engine import PybulletFreeRoot, PybulletTerms

    if free:
        if description.suffix.lower() != ".urdf":
            raise DescriptionError(f"{description}: a free root is audited on a URDF (an "
                                   "MJCF names its free joint: list it in joint_names)")
        names = list(joint_names)
        return ({"mujoco": MujocoTerms(description, gravity, joint_names=names,
                                       free_root=True),
                 "pybullet": PybulletFreeRoot(description, gravity, joint_names=names),
                 "pinocchio": PinocchioFreeRoot(description, gravity, joint_names=names)},
                [])

    if not description.is_file():
        raise DescriptionError(f"{description}: no such description file")
    kind = description.suffix.lower()
    if kind not in (".urdf", ".xml"):
        raise DescriptionError(f"{description}: a description is a .urdf or an MJCF .xml")
    names = list(joint_names)
    if kind == ".xml":
        return ({"mujoco": MujocoTerms(description, gravity, joint_names=names)},
                ["PyBullet and Pinocchio read URDF only: the MJCF is audited in MuJoCo"])
    out: dict[str, Any] = {}
    left_out = []
    try:
        out["mujoco"] = MujocoTerms(description, gravity, joint_names=names)
    except MasslessBodyError:
        left_out.append("MuJoCo refuses moving bodies without mass (the links of an explicit "
                        "base chain): the URDF is audited in PyBullet and Pinocchio")
    out["pybullet"] = PybulletTerms(description, gravity, joint_names=names)
    out["pinocchio"] = PinocchioTerms(description, gravity, joint_names=names)
    return out, left_out


def _match_joints(description: Path, label: str, names: Sequence[str]) -> None:
    """The model's joint names must be the description's moving joints, each once."""
    from dynval.engines.mujoco_engine import MasslessBodyError, MujocoTerms
    from dynval.engines.pinocchio_engine import PinocchioTerms

    try:
        joints = list(MujocoTerms(description).joint_axes())
    except MasslessBodyError:  # an explicit base chain: Pinocchio reads it (URDF only)
        joints = list(PinocchioTerms(description).joint_axes())
    unknown = [n for n in names if n not in joints]
    if unknown:
        raise ModelError(f"{label}.joint_names names {unknown[0]!r}, which {description.name} "
                         f"does not have (its joints: {', '.join(joints)})")
    if len(set(names)) != len(names):
        raise ModelError(f"{label}.joint_names repeats a joint")
    missing = [j for j in joints if j not in names]
    if missing:
        raise ModelError(f"{label}.joint_names leaves out {missing[0]!r} of "
                         f"{description.name}: the model's q must cover every joint")


def _l0(description: Path, engines: dict[str, Any]) -> list[dict]:
    """Each engine's links and joint axes against the first engine's."""
    rows = []
    first_name, first = next(iter(engines.items()))
    ref_links, ref_axes = first.link_inertials(), first.joint_axes()
    for name, eng in list(engines.items())[1:]:
        links, axes = eng.link_inertials(), eng.joint_axes()
        for link in sorted(set(ref_links) & set(links)):
            a, b = ref_links[link], links[link]
            if a.mass == 0.0 and b.mass == 0.0:
                continue
            err = max(abs(a.mass - b.mass), float(np.max(np.abs(a.com - b.com))),
                      float(np.max(np.abs(a.inertia - b.inertia))))
            rows.append({"file": description.name, "engine": f"{name} vs {first_name}",
                         "quantity": f"link {link}: mass, centre, inertia", "max_error": err,
                         "tolerance": L0_TOL, "passed": err <= L0_TOL})
        for joint in sorted(set(ref_axes) & set(axes)):
            err = float(np.max(np.abs(np.asarray(ref_axes[joint]) - np.asarray(axes[joint]))))
            rows.append({"file": description.name, "engine": f"{name} vs {first_name}",
                         "quantity": f"joint {joint}: axis", "max_error": err,
                         "tolerance": L0_TOL, "passed": err <= L0_TOL})
    return rows


def _coordinate(names: Sequence[str], shape: tuple[int, ...], flat: int, kind: str) -> str:
    if kind == "frame":
        return "xyz"[flat]
    if kind == "jacobian":
        i, j = np.unravel_index(flat, shape)
        return f"{'xyz'[i]}, {names[j]}"
    if len(shape) == 2:
        i, j = np.unravel_index(flat, shape)
        return f"{names[i]}, {names[j]}"
    return names[flat]


def _term(audit: OwnAudit, term: str, equation: str, engine: str, states: list[tuple],
          seed: int, tolerance: float, names: Sequence[str], kind: str,
          hand: Callable[[tuple], np.ndarray], ref: Callable[[tuple], np.ndarray]) -> None:
    w = worst_state(hand, ref, states)
    where = _coordinate(names, w.shape, w.index, kind)
    audit.worst[(term, engine)] = Worst(term, engine, where, *w.state, w.hand_value,
                                        w.ref_value)
    audit.results.append(TermResult(term, equation, "model", engine, w.rel, w.abs, w.index,
                                    len(states), seed, tolerance, where))


def audit_model(model: Any, description: Path | str, samples: int = 200, seed: int = 0,
                gravity: Sequence[float] = (0.0, 0.0, -9.81), tolerance: float = ROUND_OFF,
                label: str | None = None) -> OwnAudit:
    """L0-L2 of a user model against its description (module docstring)."""
    label = label or type(model).__name__
    check_model(model, label)
    description = Path(description)
    names = list(model.joint_names)
    free = _free_root(model, label)
    coords = [*FREE_COORDINATES, *names] if free else names  # the entries of v
    n = len(coords)
    if not description.is_file():
        raise DescriptionError(f"{description}: no such description file")
    _match_joints(description, label, names)
    engines, unchecked = engines_for(description, names, gravity, free)
    audit = OwnAudit(label, description, unchecked=unchecked)
    audit.l0 = _l0(description, engines)
    has = capabilities(model)
    states = random_states(samples, seed, n)
    if free:  # q = (p, unit quaternion w, x, y, z, joints): the draw's rotation vector
        states = [(np.r_[q[:3], _quat(q[3:6]), q[6:]], v, a) for q, v, a in states]

    def m(method: str, shape: tuple[int, ...]) -> Callable[..., np.ndarray]:
        return lambda *a: call(model, label, method, shape, *a)

    # (term, equation, the model's side, the engine's side, kind, the engine's method)
    terms: list[tuple[str, str, Callable, Callable, str, str]] = []
    if "mass_matrix" in has:
        terms.append(("M", "mass_matrix(q)", lambda s: m("mass_matrix", (n, n))(s[0]),
                      lambda e: lambda s: e.mass_matrix(s[0]), "matrix", "mass_matrix"))
    if "bias" in has:
        terms.append(("bias", "bias(q, v) = C v + G", lambda s: m("bias", (n,))(s[0], s[1]),
                      lambda e: lambda s: e.bias(s[0], s[1]), "vector", "bias"))
    if "gravity" in has:
        terms.append(("G", "gravity(q)", lambda s: m("gravity", (n,))(s[0]),
                      lambda e: lambda s: e.gravity(s[0]), "vector", "gravity"))
    if "bias" in has and "gravity" in has:
        terms.append(("C v", "bias - gravity",
                      lambda s: m("bias", (n,))(s[0], s[1]) - m("gravity", (n,))(s[0]),
                      lambda e: lambda s: e.bias(s[0], s[1]) - e.gravity(s[0]), "vector",
                      "bias"))
    if "inverse_dynamics" in has:
        terms.append(("tau", "inverse_dynamics(q, v, vdot)",
                      lambda s: m("inverse_dynamics", (n,))(*s),
                      lambda e: lambda s: e.inverse_dynamics(*s), "vector",
                      "inverse_dynamics"))
    frames = list(getattr(model, "frames", ()) or ())
    for f in frames:
        if "frame_position" in has:
            terms.append((f"p[{f}]", f"frame_position({f!r}, q)",
                          lambda s, f=f: m("frame_position", (3,))(f, s[0]),
                          lambda e, f=f: lambda s: e.frame_position(f, s[0]), "frame",
                          "frame_position"))
        if "frame_jacobian" in has:
            terms.append((f"J[{f}]", f"frame_jacobian({f!r}, q)",
                          lambda s, f=f: m("frame_jacobian", (3, n))(f, s[0]),
                          lambda e, f=f: lambda s: e.frame_jacobian(f, s[0]), "jacobian",
                          "frame_jacobian"))
    if not frames and ("frame_position" in has or "frame_jacobian" in has):
        audit.unchecked.append(f"{label} has frame methods but names no frames (a `frames` "
                               "attribute): L1 not checked")
    if not frames and not ({"frame_position", "frame_jacobian"} & set(has)):
        audit.unchecked.append("no frame methods: L1 (kinematics) not checked")
    for method in ("mass_matrix", "bias", "gravity", "inverse_dynamics"):
        if method not in has:
            audit.unchecked.append(f"{label} has no {method}: not checked")
    lacking = {(engine, method) for *_, method in terms for engine, eng in engines.items()
               if not callable(getattr(eng, method, None))}
    audit.unchecked += [f"{engine} has no {method} here (a free root's frames are read in "
                        "MuJoCo and Pinocchio): not compared" for engine, method in
                        sorted(lacking)]
    for term, equation, hand, ref, kind, method in terms:
        for engine, eng in engines.items():
            if (engine, method) in lacking:
                continue
            try:
                _term(audit, term, equation, engine, states, seed, tolerance, coords, kind,
                      hand, ref(eng))
            except DescriptionError as exc:
                raise DescriptionError(f"{description}: {engine}: {exc}") from None
    qdd = _accelerations(model, label, n, has)
    if qdd is None:
        audit.unchecked.append(f"{label} has neither forward_dynamics nor mass_matrix with "
                               "bias: L3 (trajectories) not run")
    elif free:
        audit.l3 = free_root_swing(qdd, engines["mujoco"], engines["pybullet"],
                                   *states[0][:2])
    elif "pybullet" not in engines:
        audit.unchecked.append("L3 needs PyBullet: run on the URDF")
    else:
        audit.l3 = free_swing(qdd, engines.get("mujoco"), engines["pybullet"], states[0][0])
    return audit


def _accelerations(model: Any, label: str, n: int, has: list[str]
                   ) -> Callable[[np.ndarray, np.ndarray], np.ndarray] | None:
    """q_dd(q, v) at zero torque from the model, or None where it cannot give one."""
    if callable(getattr(model, "forward_dynamics", None)):
        return lambda q, v: call(model, label, "forward_dynamics", (n,), q, v, np.zeros(n))
    if "mass_matrix" in has and "bias" in has:
        return lambda q, v: np.linalg.solve(call(model, label, "mass_matrix", (n, n), q),
                                            -call(model, label, "bias", (n,), q, v))
    return None


def free_swing(qdd: Callable[[np.ndarray, np.ndarray], np.ndarray], mj: Any | None, pb: Any,
               q0: np.ndarray) -> list[dict]:
    """L3 rows: the model's swing from rest at q0 against each engine at each step, and
    the scheme's own error against RK4 at a tenth of the step."""
    rows = []
    for dt in SWING_STEPS:
        n = int(round(SWING_SECONDS / dt))
        hand, pairs = compare_swings(qdd, mj, pb, q0, dt, n, SWING_TOL, SWING_REASON)
        rows += pairs + [integration_error_row(qdd, hand, q0, dt, n, 10)]
    return rows


def free_root_swing(qdd: Callable[[np.ndarray, np.ndarray], np.ndarray], mj: Any, pb: Any,
                    q0: np.ndarray, v0: np.ndarray) -> list[dict]:
    """L3 rows of a free root from (q0, v0) at each step: the model's semi-implicit Euler
    (MuJoCo's, the quaternion turned by w_B dt) against MuJoCo's own step and against
    MuJoCo's accelerations through the same scheme, both at round-off; against PyBullet's
    own step, whose difference must halve with the step (RATIO_REASON); and the scheme's own
    error against RK4 at the smallest step (first order)."""
    fine = SWING_STEPS[-1]
    exact = integrate_free_rk4(qdd, q0, v0, fine, int(round(SWING_SECONDS / fine)))
    rows, pb_rows = [], []
    for dt in SWING_STEPS:
        n = int(round(SWING_SECONDS / dt))
        hand = integrate_free_euler(qdd, q0, v0, dt, n)
        for name, traj in (("mujoco (own integrator)", mj.simulate(q0, v0, dt, n)),
                           ("mujoco accelerations, hand integrator",
                            integrate_free_euler(mj.acceleration, q0, v0, dt, n))):
            rows.append({"step": dt, "comparison": f"handrolled vs {name}",
                         "max_abs": float(np.max(np.abs(traj - hand))),
                         "tolerance": SWING_TOL, "reason": SWING_REASON})
        pb_rows.append({"step": dt, "comparison": "handrolled vs pybullet (own integrator)",
                        "max_abs": float(np.max(np.abs(pb.simulate(q0, v0, dt, n) - hand))),
                        "tolerance": None, "reason": RATIO_REASON})
        rows.append({"step": dt, "comparison": f"semi-implicit Euler vs RK4 at dt={fine:g}",
                     "max_abs": float(np.max(np.abs(
                         hand - exact[::int(round(dt / fine))]))), "tolerance": None,
                     "reason": "integration error of the shared scheme, first order in dt"})
    for row, half in zip(pb_rows[:-1], pb_rows[1:], strict=True):
        ratio = row["max_abs"] / half["max_abs"] if half["max_abs"] > 0.0 else np.inf
        row.update(ratio_to_half_step=float(ratio), min_ratio=MIN_RATIO)
        row["comparison"] += f" (difference / difference at dt/2 = {ratio:.2f})"
    return rows + pb_rows
