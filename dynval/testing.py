"""Assertions for your own test suite, the way ``numpy.testing`` is used:

    from dynval.testing import assert_model_matches

    def test_my_arm_matches_its_urdf():
        assert_model_matches(MyArm(), "my_arm.urdf")

A failure names the term, the coordinate, the state and each side's value; a pass returns
the audit (``dynval.AuditResult``: its figures, findings and metric table)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dynval.comparisons.ladder.audit import ROUND_OFF

if TYPE_CHECKING:
    from dynval.api_results import AuditResult


def assert_model_matches(model: Any, description: str | Path, *, rtol: float = ROUND_OFF,
                         samples: int = 100, seed: int = 0,
                         gravity: Sequence[float] = (0.0, 0.0, -9.81),
                         terms: Sequence[str] | None = None) -> AuditResult:
    """Raise AssertionError unless every term the model has (or those named in ``terms``:
    "M", "bias", "G", "C v", "tau", "p[frame]", "J[frame]") agrees with MuJoCo, PyBullet
    and Pinocchio to relative ``rtol`` over ``samples`` seeded states, and the engines
    read the description alike (L0), and, without ``terms``, its free swing follows the
    engines' (L3) where it can swing.  Otherwise return the audit (``dynval.AuditResult``),
    for a test that goes on to look at its figures."""
    from dynval.api_results import AuditResult
    from dynval.comparisons.own_model.audit import audit_model

    audit = audit_model(model, description, samples, seed, gravity, rtol)
    if terms is not None:
        known = {r.term for r in audit.results}
        missing = [t for t in terms if t not in known]
        if missing:
            raise AssertionError(f"{audit.label} has no term {missing[0]!r} to check "
                                 f"(it has: {', '.join(sorted(known))})")
    lines = audit.failure_sentences(terms)
    if lines:
        raise AssertionError("\n".join(lines))
    return AuditResult(audit, model_given=True)
