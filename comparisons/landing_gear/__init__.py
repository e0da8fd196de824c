"""The landing gear's rungs of the validation ladder."""

from comparisons.landing_gear.audit import full_audit
from comparisons.landing_gear.scenarios import CONTACT_MODES, IMPLEMENTATIONS, SCENARIOS, run_one
from comparisons.landing_gear.validate import validate
from comparisons.registry import RobotComparison
from robots.landing_gear.params import PARAMS

COMPARISON = RobotComparison(
    name="landing_gear",
    default_params=PARAMS,
    scenarios=SCENARIOS,
    implementations=IMPLEMENTATIONS,
    contact_modes=CONTACT_MODES,
    validate=validate,
    run_one=run_one,
    audit=full_audit,
)
