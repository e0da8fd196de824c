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

import json
import logging
import tempfile
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dynval.api_results import AuditResult, ValidationResult
from dynval.comparisons.ladder.overrides import parse_overrides
from dynval.comparisons.ladder.registry import unused_overrides
from dynval.comparisons.own_model.run import GRAVITY, audit_of
from dynval.comparisons.run.defaults import MODEL_SAMPLES, ROBOT_SAMPLES, SEED
from dynval.comparisons.run.options import check_options
from dynval.comparisons.run.validation import (
    cache_held,
    check_validation,
    run_validation,
)

log = logging.getLogger("dynval")


def audit(model: Any = None, description: str | Path | None = None, *,
          base: str | None = None, samples: int = MODEL_SAMPLES, seed: int = SEED,
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



def validate(robots: Sequence[str] | str | None = None, tier: str = "full",
             scenarios: Sequence[str] | str | None = None, overrides: Sequence[str] = (),
             out: str | Path | None = None, workers: int | None = None,
             cache: bool = True) -> ValidationResult:
    """Validate the built-in ``robots`` (default: all) as ``dynval validate`` does, every
    rung, on the ``tier`` "full" or "ci", their ``scenarios`` (default: all) with
    ``overrides`` ("ROBOT.PARAMETER=VALUE", as --set), on ``workers`` processes (default:
    every core), reading and writing the results cache unless ``cache`` is False.  The
    files go to ``out``, or to a new temporary folder that is kept (the result's ``out``);
    ``dynval report --out`` draws their PDF.  A warning says which override no run uses;
    a mistake in the options raises before any work, in one sentence."""
    robots, scenarios = _names(robots), _names(scenarios)
    overrides = list(parse_overrides(overrides))  # parsed once, as --set is
    chosen = check_validation(robots, scenarios, overrides, ROBOT_SAMPLES, SEED, tier,
                              workers, None)
    for line in unused_overrides(chosen, overrides, scenarios):
        _warn(line)
    folder = Path(tempfile.mkdtemp(prefix="dynval-validate-")) if out is None else Path(out)
    with cache_held(cache, log.info, _warn):
        metrics = run_validation(folder, robots, scenarios, overrides, ROBOT_SAMPLES, SEED,
                                 tier=tier, workers=workers, cache=cache)
    return ValidationResult(folder, metrics, json.loads((folder / "summary.json").read_text()))


def _names(given: Sequence[str] | str | None) -> list[str] | None:
    """A list of names from one name, several or none (None: all)."""
    return None if given is None else [given] if isinstance(given, str) else list(given)


def _warn(line: str) -> None:
    """A warning to the caller of ``validate`` (Python's warnings: shown once, and a
    test suite can turn them into errors)."""
    warnings.warn(line, UserWarning, stacklevel=3)
