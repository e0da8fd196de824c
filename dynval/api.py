"""dynval from Python: the audit of a description (with or without your model) and a
validation of the built-in robots, each returning a result to look at (``passed``,
``findings``, ``to_dataframe()``) instead of an exit code.

    import dynval

    res = dynval.audit(description="my_arm.urdf")      # MuJoCo, PyBullet, Pinocchio
    res = dynval.audit(MyArm(), "my_arm.urdf")         # your model against them
    run = dynval.validate(robots=["landing_gear"], tier="ci")

They run what ``dynval audit`` and ``dynval validate`` run (the same functions), so a
figure here is the figure there."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dynval.api_results import AuditResult
from dynval.comparisons.own_model.run import GRAVITY, audit_of
from dynval.comparisons.run.options import check_options


def audit(model: Any = None, description: str | Path | None = None, *,
          base: str | None = None, samples: int = 200, seed: int = 0,
          package_paths: Sequence[str | Path] = (),
          gravity: Sequence[float] = GRAVITY) -> AuditResult:
    """Audit ``description`` (a URDF or MJCF file, or an example-robot-data robot's name
    such as "ur5"): with ``model`` (``dynval.model``'s protocol), the model's terms, frames
    and free swing against MuJoCo, PyBullet and Pinocchio over ``samples`` states drawn
    with ``seed``; without one, the engines against each other, on a ``base`` "fixed"
    (a URDF's default) or "free".  ``package_paths`` are where ``package://`` paths are
    looked up.  A mistake in the input raises ``dynval.engines.DescriptionError`` or
    ``dynval.model.ModelError``, one sentence naming the file, link or joint."""
    if description is None:
        raise TypeError("dynval.audit() needs a description: a URDF or MJCF file, or an "
                        "example-robot-data robot's name")
    check_options(None, None, samples=samples, seed=seed)
    found = audit_of(model, description, samples, seed, [Path(p) for p in package_paths],
                     base, gravity)
    return AuditResult(found, model_given=model is not None)

