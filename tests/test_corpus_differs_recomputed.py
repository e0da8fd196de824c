"""No false alarm: every "differs" row the corpus's ci subset gives, recomputed apart from
dynval. The subset's own descriptions pass (no row differs); its broken variants are
where rows differ, so each failing term row of each caught variant of the subset's
fixed-base URDFs is recomputed here with Pinocchio's own calls on the two files, at the
state the row names: the broken file's value must be the row's model value, the unbroken
file's the row's engine value (every engine reads the unbroken file alike, to round-off),
and their difference must exceed the row's tolerance."""

from __future__ import annotations

import numpy as np
import pinocchio as pin
import pytest

from dynval.comparisons.own_model import loading
from dynval.comparisons.own_model.corpus import CI_SUBSET, entries
from dynval.comparisons.own_model.variants import INERTIAL, BrokenAudit, broken_audit

FIXED_URDFS = [e for e in entries(("pybullet_data",))
               if e.name in CI_SUBSET and e.base == "fixed" and e.name.endswith(".urdf")]
# a row's values recomputed agree to this relative to the term's scale (round-off of a
# few hundred operations; the rows' own tolerance is 1e-9 of it)
ROUND_OFF = 1e-12


def _term(model: pin.Model, term: str, q: np.ndarray, v: np.ndarray,
          vdot: np.ndarray) -> np.ndarray:
    data = model.createData()
    if term == "M":
        M = pin.crba(model, data, q)
        return np.triu(M) + np.triu(M, 1).T
    if term == "G":
        return pin.computeGeneralizedGravity(model, data, q)
    if term == "bias":
        return pin.rnea(model, data, q, v, np.zeros(model.nv))
    if term == "C v":
        return (pin.rnea(model, data, q, v, np.zeros(model.nv))
                - pin.computeGeneralizedGravity(model, data, q))
    return pin.rnea(model, data, q, v, vdot)  # tau


def _entry(model: pin.Model, term: str, names: list[str], where: str, q, v, vdot) -> float:
    """The entry ``where`` ("j" or "i, j", joint names) of a term, the state given in the
    audit's joint order ``names``, mapped into this model's by joint name."""
    order = [model.getJointId(n) for n in names]
    qm, vm, am = (pin.neutral(model), np.zeros(model.nv), np.zeros(model.nv))
    for k, jid in enumerate(order):
        j = model.joints[jid]
        if j.nq == 2:  # a continuous joint: Pinocchio holds (cos, sin) of its angle
            qm[j.idx_q:j.idx_q + 2] = np.cos(q[k]), np.sin(q[k])
        else:
            qm[j.idx_q] = q[k]
        vm[j.idx_v], am[j.idx_v] = v[k], vdot[k]
    value = _term(model, term, qm, vm, am)
    idx = [model.joints[model.getJointId(n.strip())].idx_v for n in where.split(",")]
    return float(value[tuple(idx)])


def test_the_subset_has_its_three_fixed_base_urdfs():
    """The cases below are not an empty set: cartpole, kuka_iiwa and pendulum5."""
    assert [e.name.rsplit("/", 1)[-1] for e in FIXED_URDFS] == [
        "cartpole.urdf", "model.urdf", "pendulum5.urdf"]


@pytest.mark.parametrize("entry", FIXED_URDFS, ids=lambda e: e.name)
@pytest.mark.parametrize("variant", INERTIAL[:2] + ("axis reversed",))
def test_each_differs_row_recomputed_apart(entry, variant):
    found = broken_audit(str(entry.path), entry.base, variant, 20, 0)
    # every one of the three breaks applies to each of the three URDFs: none may be
    # left out as "nothing to break"
    assert isinstance(found, BrokenAudit), f"{entry.name} [{variant}]: {found}"
    names, _ = loading.description_joints(loading.prepare(entry.path).path)
    broken = pin.buildModelFromUrdf(str(found.broken))
    whole = pin.buildModelFromUrdf(str(loading.prepare(entry.path).path))
    failing = [r for r in found.audit.failures if r.term in ("M", "bias", "G", "C v", "tau")]
    assert failing, f"{entry.name} [{variant}]: no term row differs"
    for r in failing:
        w = found.audit.worst[(r.term, r.reference)]
        model_value = _entry(broken, r.term, names, w.coordinate, w.q, w.v, w.vdot)
        engine_value = _entry(whole, r.term, names, w.coordinate, w.q, w.v, w.vdot)
        scale = abs(w.model_value - w.engine_value) / r.max_rel_error
        said = f"{entry.name} [{variant}] {r.term} vs {r.reference} at {w.coordinate}"
        assert abs(model_value - w.model_value) <= ROUND_OFF * scale, said
        assert abs(engine_value - w.engine_value) <= ROUND_OFF * scale, said
        assert abs(model_value - engine_value) > r.tolerance * scale, said
