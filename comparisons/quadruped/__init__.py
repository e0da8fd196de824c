"""The quadruped's rungs of the validation ladder."""

from comparisons.quadruped.audit import full_audit
from comparisons.quadruped.scenarios import (
    CONTACT_MODES,
    IMPLEMENTATIONS,
    SCENARIOS,
    run_one,
    supports,
)
from comparisons.quadruped.validate import validate
from comparisons.registry import RobotComparison
from robots.quadruped.params import PARAMS

COMPARISON = RobotComparison(
    name="quadruped",
    default_params=PARAMS,
    scenarios=SCENARIOS,
    implementations=IMPLEMENTATIONS,
    contact_modes=CONTACT_MODES,
    validate=validate,
    run_one=run_one,
    audit=full_audit,
    supports=supports,
)
