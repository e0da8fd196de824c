"""The rover's rungs of the validation ladder."""

from comparisons.registry import RobotComparison
from comparisons.rover.audit import full_audit
from comparisons.rover.scenarios import CONTACT_MODES, IMPLEMENTATIONS, SCENARIOS, run_one
from comparisons.rover.validate import validate
from robots.rover.params import PARAMS

COMPARISON = RobotComparison(
    name="rover",
    default_params=PARAMS,
    scenarios=SCENARIOS,
    implementations=IMPLEMENTATIONS,
    contact_modes=CONTACT_MODES,
    validate=validate,
    run_one=run_one,
    audit=full_audit,
)
