"""Name the parameter, not only the term: which link's mass, centre of mass or inertia a
user's model implies differently from its description.

Inverse dynamics is linear in each body's ten inertial parameters, tau = Y(q, v, a) pi
(Pinocchio's joint-torque regressor, ``dynval.engines.pinocchio_regressor``).  Over seeded
states the torque difference r = tau_model - tau_description is fitted, one body at a
time, by a change of that body's parameters alone: Y_j dpi_j = r.  A body whose fit leaves
only round-off explains the difference; its parameters and the fitted ones are turned
back into mass, centre of mass and inertia about the centre, and those that differ are
named.

Identifiability.  Torques fix only the combinations of parameters in the row space of
Y_j (the base parameters); along its null space the data say nothing (the mass of a link
turning about a vertical first axis, say).  A quantity is reported only when every
parameter it is computed from is determined; otherwise the determined combinations that
differ are named, and the quantities the data leave open are said to be so.  Where
several links each explain the difference alone (a child's mass and its parent's inertia
about a vertical axis, say), the finding lists them all and says the data cannot tell
them apart.  A difference no single link explains is kinematic or structural (an axis, a
frame, a missing term) and is reported as such.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from dynval.comparisons.ladder.audit import ROUND_OFF

if TYPE_CHECKING:
    from dynval.engines.pinocchio_engine import PinocchioTerms
    from dynval.engines.pinocchio_regressor import BodyParameters

State = tuple[np.ndarray, np.ndarray, np.ndarray]

# A body explains the difference when its fit leaves less than this part of |r|: a fit of
# the right body leaves round-off, eps |tau| ~ 1e-16 |tau|, which is below 1e-7 |r| for
# any r above the ROUND_OFF floor (|r| > 1e-9 |tau|); a wrong body or a kinematic error
# leaves a part of order one (1e-3 and up in every case tried).
EXPLAINED = 1e-6
# A direction of a body's regressor (parameters in the robot's scale) whose singular value
# is below this part of the largest is not determined: r carries round-off of ~eps
# relative, which such a direction amplifies by 1/s, so its value would be known to no
# better than eps / s ~ 1e-8.
# Structural null directions sit at ~1e-16; excited ones at 1e-3 and up with random states.
RANK_TOL = 1e-8
# A determined quantity differs when it moves by more than this part of the robot's scale
# (its largest body mass, length and inertia): well above the fit's round-off (~1e-12),
# well below any edit worth naming.
DIFFERS = 1e-7

_SCALAR = {"xx": (0, 0), "xy": (0, 1), "yy": (1, 1), "xz": (0, 2), "yz": (1, 2), "zz": (2, 2)}
_PI_INERTIA = ("xx", "xy", "yy", "xz", "yz", "zz")  # pi[4:10], Pinocchio's order
_PI_LABELS = ("m", "m c_x", "m c_y", "m c_z") + tuple(f"I_{e}" for e in _PI_INERTIA)
_PI_UNITS = ("kg",) + ("kg m",) * 3 + ("kg m²",) * 6


# --- pi <-> (mass, centre of mass, inertia about it) ----------------------------------------
def _skew2(c: np.ndarray) -> np.ndarray:
    """S(c)^T S(c) = |c|^2 I - c c^T, the parallel-axis term per unit mass."""
    return float(c @ c) * np.eye(3) - np.outer(c, c)


def to_physical(pi: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """(mass, centre of mass, inertia about the centre of mass) of the ten parameters pi
    (m, m c, inertia about the body frame's origin; the body frame's axes)."""
    m = float(pi[0])
    c = np.asarray(pi[1:4], dtype=float) / m
    I_o = np.array([[pi[4], pi[5], pi[7]], [pi[5], pi[6], pi[8]], [pi[7], pi[8], pi[9]]])
    return m, c, I_o - m * _skew2(c)


def to_parameters(mass: float, com: np.ndarray, inertia_com: np.ndarray) -> np.ndarray:
    """The ten parameters pi of a mass, centre of mass and inertia about it."""
    com = np.asarray(com, dtype=float)
    I_o = np.asarray(inertia_com, dtype=float) + mass * _skew2(com)
    return np.r_[mass, mass * com, [I_o[_SCALAR[e]] for e in _PI_INERTIA]]


def _physical_quantities() -> list[tuple[str, str, str, tuple[int, ...]]]:
    """(name, unit, group, the pi indices it is computed from) of each physical quantity."""
    out = [("mass", "kg", "mass", (0,))]
    out += [(f"centre of mass {a}", "m", "centre of mass", (0, 1 + k)) for k, a in enumerate("xyz")]
    for k, e in enumerate(_PI_INERTIA):
        a, b = _SCALAR[e]
        # I_c = I_o - (|h|^2 I - h h^T) / m: a diagonal entry uses the other two moments,
        # an off-diagonal one its own two
        moments = tuple(1 + i for i in range(3) if i != a) if a == b else (1 + a, 1 + b)
        out.append((f"I_{e} about the centre of mass", "kg m²", "inertia", (0, 4 + k) + moments))
    return out


def _value(name: str, mass: float, com: np.ndarray, I_c: np.ndarray) -> float:
    """The named centre-of-mass component or inertia entry."""
    if name.startswith("centre of mass"):
        return float(com["xyz".index(name[-1])])
    return float(I_c[_SCALAR[name[2:4]]])


# --- records ------------------------------------------------------------------------------
@dataclass(frozen=True)
class ParameterChange:
    """One determined quantity of a link as the description has it and as the model
    implies it: a physical one (mass [kg], centre of mass [m] and inertia about it [kg m²],
    link axes) or a combination of Pinocchio's parameters about the joint origin."""

    quantity: str
    description: float
    implied: float
    unit: str

    def phrase(self, short: bool = False) -> str:
        if short:
            return f"{self.quantity} {self.description:.6g} -> {self.implied:.6g} {self.unit}"
        return (f"{self.quantity} {self.description:.6g} {self.unit} in the description, "
                f"{self.implied:.6g} {self.unit} implied by the model")


@dataclass(frozen=True)
class LinkFinding:
    """One link whose inertial parameters alone explain the model's difference: what
    differs, which determined groups do not, what the data leave open, and the part of
    the difference the fit leaves (round-off)."""

    link: str
    fixed_links: tuple[str, ...]
    changes: tuple[ParameterChange, ...]
    unchanged: tuple[str, ...]
    undetermined: tuple[str, ...]
    relative_residual: float

    def change(self, quantity: str) -> ParameterChange | None:
        return next((c for c in self.changes if c.quantity == quantity), None)

    def _who(self) -> str:
        if not self.fixed_links:
            return f"link `{self.link}`"
        fixed = ", ".join(f"`{n}`" for n in self.fixed_links)
        return f"link `{self.link}` and the links fixed to it ({fixed})"

    def sentence(self, short: bool = False) -> str:
        """One line; ``short``: the changes only, as 'description -> implied'."""
        parts = [c.phrase(short) for c in self.changes]
        if short:
            return f"{self._who()} ({', '.join(parts)})"
        if self.unchanged:
            parts.append(f"{join_names(self.unchanged)} unchanged")
        if self.undetermined:
            parts.append(f"the torques do not determine its {join_names(self.undetermined)}")
        return f"{self._who()}: " + "; ".join(parts)


@dataclass(frozen=True)
class Ambiguous:
    """Several links each explain the difference alone: the torques fix only a
    combination of their parameters, so the data cannot say which link differs."""

    candidates: tuple[LinkFinding, ...]

    def sentence(self) -> str:
        return ("any one of these links alone explains the difference, and the torques "
                "cannot tell which (they determine only a combination of their parameters): "
                + "; or ".join(c.sentence(short=True) for c in self.candidates))


@dataclass(frozen=True)
class Unexplained:
    """No single link's inertial parameters explain the difference; the best fit leaves
    ``relative_residual`` of it."""

    best_link: str
    relative_residual: float

    def sentence(self, cause: str = "a kinematic or structural difference, e.g. an axis "
                                    "or a frame") -> str:
        """One line; ``cause``: what the difference is instead (an audit that has named
        the wrong entry or the joint order says so rather than guess)."""
        return ("no single link's inertial parameters explain the difference (the closest, "
                f"link `{self.best_link}`, leaves {100 * self.relative_residual:.2g} % of it): "
                f"{cause}")


Finding = LinkFinding | Ambiguous | Unexplained


def join_names(names: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# --- the fit ------------------------------------------------------------------------------
def _combination(w: np.ndarray) -> str:
    """A row of Pinocchio parameters as a readable sum, e.g. 'I_xx + I_zz'."""
    terms = []
    for k in np.flatnonzero(w)[::-1]:  # the pivot, the inertia, first
        c = float(w[k])
        sign = "-" if c < 0 else "+"
        mag = "" if abs(abs(c) - 1.0) < 1e-9 else f"{abs(c):.6g} "
        terms.append(f"{sign} {mag}{_PI_LABELS[k]}")
    text = " ".join(terms)
    return text[2:] if text.startswith("+") else "-" + text[2:]


def _rref(A: np.ndarray, tol: float = 1e-9) -> np.ndarray:
    """Reduced row echelon form of A's row space (earlier columns pivot first), entries
    below ``tol`` of A's largest taken as zero."""
    A = A / np.max(np.abs(A))
    row = 0
    for col in range(A.shape[1]):
        if row == A.shape[0]:
            break
        p = row + int(np.argmax(np.abs(A[row:, col])))
        if abs(A[p, col]) < tol:
            continue
        A[[row, p]] = A[[p, row]]
        A[row] /= A[row, col]
        others = np.arange(A.shape[0]) != row
        A[others] -= np.outer(A[others, col], A[row])
        row += 1
    return A[:row]


def _fit_body(Y_j: np.ndarray, r: np.ndarray, scale: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Minimum-norm least-squares dpi with Y_j dpi = r over the determined directions.
    The parameters are measured in the robot's scale first (p = pi / scale), so that each
    column is the torque of a typical-size change: units do not decide the rank, and a
    column that is zero up to round-off stays negligible.  Returns dpi, the determined
    combinations of p (rows), the undetermined ones (columns) and the relative residual."""
    Ys = Y_j * scale
    U, s, Vt = np.linalg.svd(Ys, full_matrices=False)
    rank = int(np.sum(s > RANK_TOL * s[0])) if s[0] > 0 else 0
    U, s, V, V0 = U[:, :rank], s[:rank], Vt[:rank].T, Vt[rank:].T
    dp = V @ ((U.T @ r) / s)
    resid = float(np.linalg.norm(r - Ys @ dp) / np.linalg.norm(r))
    return dp * scale, V.T, V0, resid


def _describe(body: BodyParameters, dpi: np.ndarray, rows: np.ndarray, V0: np.ndarray,
              resid: float, scale: np.ndarray) -> LinkFinding:
    """Body j's finding from its fitted change dpi: determined physical quantities that
    differ, then (when some are undetermined) the determined combinations that differ."""
    determined = np.linalg.norm(V0, axis=1) < 1e-6 if V0.size else np.ones(10, bool)
    before, after = body.pi, body.pi + dpi
    massive = before[0] > 0 and after[0] > 0  # else no centre of mass to speak of
    phys = (to_physical(before), to_physical(after)) if massive else None
    tols = {"kg": scale[0], "m": scale[1] / scale[0], "kg m²": scale[4]}
    changes, undetermined, open_indices = [], [], set()
    groups: dict[str, list[bool]] = {}
    for name, unit, group, deps in _physical_quantities():
        if not (all(determined[list(deps)]) and (phys or name == "mass")):
            undetermined.append(name)
            open_indices.update(deps)
            continue
        a, b = (before[0], after[0]) if name == "mass" else (_value(name, *p) for p in phys)
        differs = abs(b - a) > DIFFERS * tols[unit]
        groups.setdefault(group, []).append(differs)
        if differs:
            changes.append(ParameterChange(name, float(a), float(b), unit))
    size = {"mass": 1, "centre of mass": 3, "inertia": 6}
    unchanged = [g for g, flags in groups.items() if len(flags) == size[g] and not any(flags)]
    if undetermined:  # name the determined combinations that the open quantities hide in
        # in units of the robot's scale (dimensionless); inertia first, so that the
        # combinations read 'I_zz + 0.0025 m' rather than 'm + 400 I_zz'
        for w_unit in _rref(rows[:, ::-1])[:, ::-1]:
            used = np.flatnonzero(np.abs(w_unit) > 1e-9)
            if not open_indices & set(used.tolist()):
                continue
            pivot = int(used[-1])
            w = np.where(np.abs(w_unit) > 1e-9, w_unit, 0.0) / scale * scale[pivot]
            a, b = float(w @ before), float(w @ after)
            if abs(b - a) > DIFFERS * float(np.abs(w) @ scale):
                changes.append(ParameterChange(
                    f"{_combination(w)} about the joint origin", a, b, _PI_UNITS[pivot]))
    return LinkFinding(body.link, body.fixed_links, tuple(changes), tuple(unchanged),
                       _compact(undetermined), resid)


def _compact(names: list[str]) -> tuple[str, ...]:
    """'centre of mass' for all three of its components, 'inertia about the centre of
    mass' for all six of its entries."""
    out = [n for n in names if not n.startswith(("centre", "I_"))]
    for prefix, count, whole in (("centre", 3, "centre of mass"),
                                 ("I_", 6, "inertia about the centre of mass")):
        part = [n for n in names if n.startswith(prefix)]
        out += [whole] if len(part) == count else part
    return tuple(out)


def _scale(bodies: Sequence[BodyParameters]) -> np.ndarray:
    """Reference size of each of the ten parameters: the robot's largest body mass m,
    length L (centre of mass, radius of gyration, joint offset) and m L^2."""
    m = max(float(b.pi[0]) for b in bodies) or 1.0
    lengths = [b.offset for b in bodies]
    for b in bodies:
        if b.pi[0] > 0:
            mass, c, I_c = to_physical(b.pi)
            lengths += [float(np.linalg.norm(c)), float(np.sqrt(max(np.trace(I_c), 0) / mass))]
    L = max(lengths) or 1.0
    return np.r_[m, [m * L] * 3, [m * L * L] * 6]


def explain(Y: np.ndarray, r: np.ndarray, tau: np.ndarray,
            bodies: Sequence[BodyParameters]) -> Finding | None:
    """The finding for a torque difference r = tau_model - tau (stacked over states) with
    the stacked regressor Y (columns body by body, ten each) and the description's bodies;
    None when r is round-off (below ``ROUND_OFF`` of |tau|)."""
    if np.max(np.abs(r)) <= ROUND_OFF * max(float(np.max(np.abs(tau))), 1e-300):
        return None
    scale = _scale(bodies)
    fits = [(_fit_body(Y[:, 10 * j:10 * j + 10], r, scale), body)
            for j, body in enumerate(bodies)]
    found = [_describe(body, *fit, scale) for fit, body in fits if fit[3] < EXPLAINED]
    if not found:
        (_, _, _, resid), body = min(fits, key=lambda f: f[0][3])
        return Unexplained(body.link, resid)
    return found[0] if len(found) == 1 else Ambiguous(tuple(found))


def implied_parameters(terms: PinocchioTerms, model: Any | Callable[..., np.ndarray],
                       states: Sequence[State]) -> Finding | None:
    """Which link's inertial parameters ``model`` implies differently from the description
    ``terms`` (a fixed-base ``PinocchioTerms`` in the model's joint order), over ``states``
    (q, v, a).  ``model`` is a callable tau(q, v, a), or an object with
    ``inverse_dynamics`` or else ``mass_matrix`` and ``bias``.  None when they agree."""
    from dynval.engines.pinocchio_regressor import body_parameters, torque_regressor

    if hasattr(model, "inverse_dynamics"):
        tau_model = model.inverse_dynamics
    elif callable(model):
        tau_model = model
    else:
        def tau_model(q, v, a):
            return model.mass_matrix(q) @ a + model.bias(q, v)
    Y = np.vstack([torque_regressor(terms, *s) for s in states])
    tau = np.concatenate([terms.inverse_dynamics(*s) for s in states])
    r = np.concatenate([np.asarray(tau_model(*s), dtype=float) for s in states]) - tau
    return explain(Y, r, tau, body_parameters(terms))
