"""`dynval check` against the committed baselines: the flat landing reproduces them and a
5 % heavier lower leg moves them."""

from comparisons.check import BASELINE_DIR, compare_to_baseline, load_baselines
from comparisons.pipeline import validate_all


def _findings(tmp_path, overrides):
    metrics = validate_all(tmp_path, lambda *_: None, ["landing_gear"], ["flat"], overrides,
                           samples=200, seed=0)
    base = load_baselines(BASELINE_DIR, ["landing_gear"])
    # the audit rows of the baseline were computed with 1000 samples; compare the scenario
    return [f for f in compare_to_baseline(metrics, base, ["flat"]) if f.key[1] == "flat"]


def test_check_passes_on_unchanged_parameters(tmp_path):
    findings = _findings(tmp_path, [])
    assert findings and all(f.status == "ok" for f in findings), [
        f for f in findings if f.status != "ok"][:5]


def test_check_fails_when_a_leg_mass_changes_by_five_percent(tmp_path):
    findings = _findings(tmp_path, ["landing_gear.m_L=0.1575"])
    assert any(f.status == "moved" for f in findings)
