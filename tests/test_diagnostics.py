"""A model that fails the audit is told what its failure points at: joints in another
order, one entry with its sign flipped or mistyped, the line of its own code that raised;
in a screenful, with units, and labelled by who computed what."""

from __future__ import annotations

import pytest

from dynval.comparisons.own_model.audit import audit_model
from dynval.comparisons.own_model.parity import EngineModel
from dynval.engines.pinocchio_engine import PinocchioTerms
from dynval.model import ModelError
from tests.test_any_robot import arm

JOINTS = ["shoulder", "elbow"]


class Raises(EngineModel):
    """A model whose bias divides by zero."""

    def bias(self, q, v):
        return 1 / 0


def test_a_model_that_raises_is_named_by_its_own_file_and_line(tmp_path):
    """The message points at the model's own line, not at dynval's call of it."""
    path = arm(tmp_path)
    model = Raises(PinocchioTerms(path, joint_names=JOINTS), JOINTS, [], "fixed")
    line = Raises.bias.__code__.co_firstlineno + 1
    with pytest.raises(ModelError) as err:
        audit_model(model, path, 5, 0)
    assert str(err.value) == ("Raises.bias raised ZeroDivisionError: division by zero "
                              f"(test_diagnostics.py, line {line}, in bias)"), err.value
