"""Ground reaction forces from the body's six equations (3)-(4) under the paper's
assumptions (section 4): four legs, X forces equal and Y forces equal (4.1); three legs,
X forces equal, the Y force of the stance leg beside the lifted one free and the two
opposite Y forces equal (4.2); two legs, all six components free (4.3); none, zero.

Each assumption makes the foot forces a linear function F = P x of six unknowns x; the
body equations  sum F_j = f_b,  sum p_j x F_j = n_b  (body axes, body origin) become
A x = w with A = [sum P_j; sum p_j x P_j].  A is not always invertible, against what
sections 4.1 and 4.3 say: with four legs the yaw moment is fixed by the two common
horizontal forces, which the force balance already sets, and one split of the vertical
forces is free (rank 5); with two point contacts no force makes a moment about the line
through the feet (rank 5).  Those cases are solved in the least-squares sense (minimum
norm), with moments taken about the supporting feet's centroid so that the unbalanced
part of the wrench, returned as the residual, is a pure moment.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from dynval._numba_cache import njit
from dynval.handrolled.vec3 import cross
from dynval.robots.quadruped.params import LEGS, side_sign

# section 4.1 as printed; with one X force per side; every component free (minimum norm)
SPLITS = ("paper", "side-wise", "min-norm")


def _patterns(stance: tuple[str, ...], split: str = "paper") -> list[dict[str, np.ndarray]]:
    """The unknowns of the support case: each is a force direction on a set of legs.

    ``split`` "side-wise" replaces section 4.1's one X force on all four feet by one on
    each side's pair (the least change that supplies a yaw moment: the two sides' X
    forces differ by the yaw moment over the track width), leaving rank 6; "min-norm"
    frees all twelve components, so that the least-squares solve of ``solve_grf`` gives
    the distribution of the body wrench over the four feet with the least sum of squared
    forces (rank 6; as the solution set does not depend on the point moments are taken
    about, neither does that minimum)."""
    ex, ey, ez = np.eye(3)
    if split not in SPLITS:
        raise ValueError(f"unknown force split {split!r}; choose one of {SPLITS}")
    if len(stance) == 4 and split == "min-norm":
        return [{leg: e} for leg in stance for e in (ex, ey, ez)]
    if len(stance) == 4 and split == "side-wise":
        sides = [[leg for leg in stance if side_sign(leg) == sign] for sign in (1, -1)]
        return ([{leg: ez} for leg in stance] + [{leg: ex for leg in side} for side in sides]
                + [{leg: ey for leg in stance}])
    if len(stance) == 4:  # section 4.1
        return [{leg: ez} for leg in stance] + [{leg: ex for leg in stance},
                                                {leg: ey for leg in stance}]
    if len(stance) == 3:  # section 4.2
        lifted = next(leg for leg in LEGS if leg not in stance)
        same = [leg for leg in stance if side_sign(leg) == side_sign(lifted)]
        opposite = [leg for leg in stance if leg not in same]
        return ([{leg: ez} for leg in stance] + [{leg: ex for leg in stance},
                                                 {leg: ey for leg in same},
                                                 {leg: ey for leg in opposite}])
    if len(stance) == 2:  # section 4.3
        return [{leg: e} for leg in stance for e in (ex, ey, ez)]
    if len(stance) == 0:
        return []
    raise ValueError(f"no assumption of section 4 covers {len(stance)} legs in contact")


def assumption_matrix(stance: tuple[str, ...], p_B4: np.ndarray,
                      c: np.ndarray | None = None, split: str = "paper"
                      ) -> tuple[np.ndarray, list[dict[str, np.ndarray]]]:
    """A of the body equations for the support case, moments about the point c (body
    origin when omitted), and the unknowns' patterns."""
    pats = _patterns(tuple(stance), split)
    c = np.zeros(3) if c is None else np.asarray(c, float)
    return _assemble(np.ascontiguousarray(p_B4, dtype=float), c,
                     *_pattern_arrays(tuple(stance), split)), pats


@cache
def _pattern_arrays(stance: tuple[str, ...], split: str) -> tuple[np.ndarray, np.ndarray]:
    """``_patterns`` as arrays: the legs of each unknown (indices in LEGS in the pattern's
    order, -1 after the last) and its force direction."""
    pats = _patterns(stance, split)
    legs, dirs = np.full((len(pats), 4), -1, dtype=np.int64), np.zeros((len(pats), 3))
    for k, pat in enumerate(pats):
        for i, (leg, e) in enumerate(pat.items()):
            legs[k, i], dirs[k] = LEGS.index(leg), e  # one direction per unknown
    return legs, dirs


@njit(cache=True)
def _assemble(p_B4, c, legs, dirs):
    """A = [sum P_j; sum (p_j - c) x P_j]: column k the direction dirs[k] on each leg of
    legs[k] and its moment about c, summed leg by leg in the pattern's order."""
    A = np.zeros((6, legs.shape[0]))
    for k in range(legs.shape[0]):
        e = dirs[k]
        for i in range(legs.shape[1]):
            j = legs[k, i]
            if j < 0:
                break
            m = cross(p_B4[j] - c, e)
            for r in range(3):
                A[r, k] += e[r]
                A[3 + r, k] += m[r]
    return A


@njit(cache=True)
def _forces(x, legs, dirs, F):
    """F[j] += x[k] dirs[k] for each leg j of each unknown k, in order: the foot forces
    of the unknowns' values x (F: 4 x 3, legs in LEGS order)."""
    for k in range(legs.shape[0]):
        for i in range(legs.shape[1]):
            j = legs[k, i]
            if j < 0:
                break
            for r in range(3):
                F[j, r] += x[k] * dirs[k, r]


def solve_grf(stance: tuple[str, ...], p_B4: np.ndarray, f_b: np.ndarray, n_b: np.ndarray,
              split: str = "paper") -> tuple[np.ndarray, np.ndarray]:
    """Foot forces (4 x 3, body axes, legs in ``LEGS`` order) that supply the body wrench
    (f_b, n_b) under the assumption for ``stance`` (``split``: see ``_patterns``), and
    the part of the wrench they leave unbalanced (zero where A has full rank; otherwise a
    pure moment)."""
    F = np.zeros((4, 3))
    if not stance:
        return F, np.concatenate([f_b, n_b])
    legs, dirs = _pattern_arrays(tuple(stance), split)
    p_B4 = np.ascontiguousarray(p_B4, dtype=float)
    # moments about the centroid of the supporting feet: there the part of the wrench no
    # assumed force can make is a pure moment (about the support line, or yaw)
    c = np.mean([p_B4[LEGS.index(leg)] for leg in stance], axis=0)
    w = np.concatenate([f_b, n_b - np.array(cross(c, f_b))])
    A = _assemble(p_B4, c, legs, dirs)
    x = np.linalg.lstsq(A, w, rcond=None)[0]
    _forces(x, legs, dirs, F)
    residual = w - A @ x
    return F, residual
