"""L0 of any description: what each engine read from a file, like with like, against one
reference reading: a robot's parameter set, which its files were written from, where it
has one (ladder.l0), else an engine's reading of the same file (a user's description).

Per moving body (a link a joint moves, with every link welded to it by fixed joints,
merged the same way in every reading: ``body_inertials``) the mass, the centre of mass and
the inertia about it in the link's axes, each relative to the body's own scale; per joint
its axis; and, against a parameter set, its limits.  MuJoCo and PyBullet keep welded
links apart and Pinocchio merges them, so comparing links one by one would flag every
fixed joint; and a link welded to the world moves nothing, so no reading keeps it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dynval.comparisons.own_model.loading import ENGINE_LABELS
from dynval.comparisons.own_model.regressor import join_names

L0_TOL = 1e-9  # relative: two engines reading one file differ by parsing round-off only
L0_REASON = "what two engines read from one file: parsing round-off, relative to the body"
# PyBullet keeps an inertia as principal moments and axes, found by Bullet's Jacobi
# rotation in its URDF importer (threshold 1e-6 of the trace, at most 30 sweeps): the
# off-diagonal left behind is below that threshold, and is measured here, not assumed
PYBULLET_INERTIA_TOL = 1e-6
PYBULLET_REASON = ("PyBullet's principal-axes conversion of each link's inertia (Bullet's "
                   "Jacobi rotation stops at 1e-6 of the trace)")


def body_error(a: Any, b: Any) -> tuple[float, float]:
    """(mass, centre and orientation error; inertia error) of two engines' readings of one
    body: mass relative to the mass, centre relative to the body's size (its distance from
    the joint and its radius of gyration), inertia relative to the trace of its inertia
    about the joint."""
    m = max(abs(a.mass), abs(b.mass))
    # the inertia that enters the dynamics is about the joint, not the centre: a point mass
    # off the joint has none about its centre and m |c|^2 about the joint
    trace = max(float(np.trace(a.inertia)) + a.mass * float(a.com @ a.com),
                float(np.trace(b.inertia)) + b.mass * float(b.com @ b.com))
    size = max(float(np.max(np.abs(a.com))), float(np.max(np.abs(b.com))),
               np.sqrt(trace / m) if m > 0 else 0.0)
    mass_com = max(abs(a.mass - b.mass) / m if m > 0 else 0.0,
                   float(np.max(np.abs(a.com - b.com))) / size if size > 0 else 0.0)
    inertia = float(np.max(np.abs(a.inertia - b.inertia))) / trace if trace > 0 else 0.0
    return mass_com, inertia


def name_findings(rows: list[dict], welded: dict[str, tuple[str, ...]],
                  findings: list[str]) -> None:
    """A failing body row whose links (the body and those welded to it), or a failing axis
    row whose joint, the file's own findings name says so: the engines read an
    impossible inertia or a non-unit axis differently, and that is the cause."""
    for row in rows:
        if row["passed"]:
            continue
        if row["quantity"].startswith("joint "):
            joint = row["quantity"][6:].split(":")[0]
            named = [f for f in findings if f.startswith(f"joint '{joint}'")]
        elif row["quantity"].startswith("body "):
            body = row["quantity"][5:].split(":")[0]
            named = [f for f in findings
                     if any(f"link '{link}'" in f for link in (body, *welded.get(body, ())))]
        else:
            continue
        if named:
            row["reason"] = f"the file's own finding: {'; '.join(named)}"


def l0_rows(file: str, engines: dict[str, Any], reference: str | None = None,
            reason: str = L0_REASON) -> list[dict]:
    """Each reading's moving bodies and joint axes against the reference's: ``reference``
    where named (a robot's parameter set, the source its files were written from), else
    Pinocchio when it loaded the file, since it reads the URDF without converting
    anything, else the first engine.  A body with mass that one reading has and the other
    lacks is a failing row; a massless one carries nothing into the dynamics (an MJCF
    folds a massless link between two joints into the body after them) and is left out.
    With a named reference, a joint of the reference that a reading lacks fails too."""
    order = sorted(engines, key=lambda e: e not in (reference, "pinocchio"))
    if reference is not None:
        order.remove(reference)
        order.insert(0, reference)
    first = order[0]
    ref_bodies, ref_axes = engines[first].body_inertials(), engines[first].joint_axes()
    rows = []

    def add(pair: str, quantity: str, err: float, tol: float, why: str = reason) -> None:
        rows.append({"file": file, "engine": pair, "quantity": quantity,
                     "max_error": float(err), "tolerance": tol, "passed": bool(err <= tol),
                     "reason": why})

    for name in order[1:]:
        bodies, axes = engines[name].body_inertials(), engines[name].joint_axes()
        pair = f"{name} vs {first}"
        for body in sorted(set(ref_bodies) | set(bodies)):
            if body in getattr(engines[name], "left_out", ()):
                continue  # a tree dynval did not give that engine (said in a note)
            if body not in bodies or body not in ref_bodies:
                has = first if body in ref_bodies else name
                if (ref_bodies.get(body) or bodies[body]).mass > 0.0:
                    add(pair, f"body {body}: only {has} has it as a moving body",
                        float("inf"), L0_TOL)
                continue
            a, b = ref_bodies[body], bodies[body]
            if a.mass == 0.0 and b.mass == 0.0:
                continue
            mass_com, inertia = body_error(a, b)
            add(pair, f"body {body}: mass, centre of mass", mass_com, L0_TOL)
            if name == "pybullet":
                add(pair, f"body {body}: inertia", inertia, PYBULLET_INERTIA_TOL,
                    PYBULLET_REASON)
            else:
                add(pair, f"body {body}: inertia", inertia, L0_TOL)
        for joint in sorted(set(ref_axes) & set(axes) if reference is None else ref_axes):
            err = (float("inf") if joint not in axes else
                   float(np.max(np.abs(np.asarray(ref_axes[joint]) - np.asarray(axes[joint])))))
            add(pair, f"joint {joint}: axis", err, L0_TOL)
    return rows


def limit_rows(file: str, engines: dict[str, Any], reference: str,
               reason: str = L0_REASON) -> list[dict]:
    """Each reading's limits of every joint the reference limits, against the reference's,
    relative to the larger bound; a limit read in another unit, or missing, fails.  An
    unlimited joint is left out: MuJoCo stores no range for it, a URDF a wide one."""
    limits = engines[reference].joint_limits()
    rows = []
    for name in (e for e in engines if e != reference):
        theirs = engines[name].joint_limits()
        for joint, lim in sorted(limits.items()):
            if not (np.isfinite(lim.lower) and np.isfinite(lim.upper)):
                continue
            other = theirs.get(joint)
            scale = max(abs(lim.lower), abs(lim.upper)) or 1.0
            err = (float("inf") if other is None or other.unit != lim.unit else
                   max(abs(other.lower - lim.lower), abs(other.upper - lim.upper)) / scale)
            rows.append({"file": file, "engine": f"{name} vs {reference}",
                         "quantity": f"joint {joint}: limits [{lim.unit}]",
                         "max_error": err, "tolerance": L0_TOL, "passed": bool(err <= L0_TOL),
                         "reason": reason})
    return rows


def odd_one_out(readings: dict[str, Any], differ: Any) -> tuple[str, list[str]] | None:
    """The one reading that differs from every other while the others (two or more) agree
    with each other (``differ(a, b)``: whether two readings differ beyond tolerance), and
    those others; None where no single reading stands out so."""
    names = list(readings)
    for odd in names:
        rest = [e for e in names if e != odd]
        if len(rest) >= 2 and all(differ(readings[odd], readings[e]) for e in rest) \
                and not any(differ(readings[a], readings[b])
                            for i, a in enumerate(rest) for b in rest[i + 1:]):
            return odd, rest
    return None


def _vector(x: np.ndarray) -> str:
    return "(" + ", ".join(f"{float(c):.6g}" for c in x) + ")"


def _body_quantities(engine_of: dict[int, str]) -> list[tuple[str, Any, Any, str]]:
    """(quantity, whether two readings of a body differ in it, the reading in words, its
    unit); ``engine_of`` says whose each reading is (PyBullet's inertia has its own
    tolerance)."""
    def mass(a: Any, b: Any) -> bool:
        m = max(abs(a.mass), abs(b.mass))
        return m > 0 and abs(a.mass - b.mass) / m > L0_TOL

    def com(a: Any, b: Any) -> bool:  # relative to the body's size, as its L0 row
        return body_error(a, b)[0] > L0_TOL

    def inertia(a: Any, b: Any) -> bool:
        pybullet = "pybullet" in (engine_of[id(a)], engine_of[id(b)])
        return body_error(a, b)[1] > (PYBULLET_INERTIA_TOL if pybullet else L0_TOL)

    return [("mass", mass, lambda y: f"{y.mass:.6g}", "kg"),
            ("centre of mass", com, lambda y: _vector(y.com), "m"),
            ("inertia about the centre (xx, yy, zz, xy, xz, yz)", inertia,
             lambda y: _vector(y.inertia[[0, 1, 2, 0, 0, 1], [0, 1, 2, 1, 2, 2]]), "kg m^2")]


def odd_readings(engines: dict[str, Any]) -> list[str]:
    """With three readings of the file or more, each body and joint axis on which one
    engine's reader differs from all the others, which agree among themselves: one sentence
    naming that engine, the body (its first such quantity: mass, centre, inertia) or joint
    and both values (its, then theirs)."""
    if len(engines) < 3:
        return []
    bodies = {e: eng.body_inertials() for e, eng in engines.items()}
    axes = {e: eng.joint_axes() for e, eng in engines.items()}
    labels = {e: ENGINE_LABELS.get(e, e) for e in engines}
    out = []

    def say(odd: str, rest: list[str], what: str) -> None:
        out.append(f"{labels[odd]}'s reader differs from "
                   f"{join_names([labels[e] for e in rest])}: {what}")

    for body in sorted(set.intersection(*(set(b) for b in bodies.values()))):
        readings = {e: bodies[e][body] for e in engines}
        for quantity, differ, show, unit in _body_quantities(
                {id(y): e for e, y in readings.items()}):
            found = odd_one_out(readings, differ)
            if found:  # the first quantity only: a mass apart moves a merged centre too
                odd, rest = found
                say(odd, rest, f"body `{body}` {quantity} {show(readings[odd])} vs "
                               f"{show(readings[rest[0]])} {unit}")
                break
    for joint in sorted(set.intersection(*(set(a) for a in axes.values()))):
        readings = {e: np.asarray(axes[e][joint], dtype=float) for e in engines}
        found = odd_one_out(readings, lambda a, b: float(np.max(np.abs(a - b))) > L0_TOL)
        if found:
            odd, rest = found
            say(odd, rest, f"joint `{joint}` axis {_vector(readings[odd])} vs "
                           f"{_vector(readings[rest[0]])}")
    return out

