"""The one parser of ``--set ROBOT.PARAMETER=VALUE`` and ``--vary ROBOT.NAME=LO:HI:N``:
typed, frozen values checked against each robot's declared parameters (params.toml),
bad input one sentence and exit 2 before any work, and the command line's defaults of
the audit states declared in one place."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from dynval.comparisons.cli import app
from dynval.comparisons.ladder import overrides
from dynval.comparisons.ladder.overrides import Axis, BadOverrideError, Override, parse_axis
from dynval.comparisons.ladder.registry import comparison
from dynval.comparisons.run import defaults
from dynval.robots import UnknownRobotError

runner = CliRunner()
CLI = Path(overrides.__file__).parents[1] / "cli.py"


def test_an_override_is_a_frozen_typed_value_with_its_text_for_the_manifest():
    (o,) = overrides.parse_overrides(["landing_gear.m_L=0.2"])
    assert (o.robot, o.name, o.value, str(o)) == ("landing_gear", "m_L", 0.2,
                                                  "landing_gear.m_L=0.2")
    with pytest.raises(dataclasses.FrozenInstanceError):
        o.value = 0.3
    assert o == Override("landing_gear", "m_L", 0.2)  # the text is not part of the value


@pytest.mark.parametrize("item, exc, says", [
    ("landing_gear.m_L", BadOverrideError, "must read ROBOT.PARAMETER=VALUE"),
    ("m_L=0.2", BadOverrideError, "must read ROBOT.PARAMETER=VALUE"),
    ("a=b", BadOverrideError, "must read ROBOT.PARAMETER=VALUE"),
    ("robot9.m=1", UnknownRobotError, "unknown robot 'robot9'"),
    ("landing_gear.mass=1", BadOverrideError, "robot landing_gear has no parameter 'mass'"),
    ("landing_gear.m_L=-0.1", BadOverrideError, "outside its valid range (0, inf) kg"),
    ("landing_gear.m_L=nan", BadOverrideError, "not a finite number"),
    ("landing_gear.m_L=0,2", BadOverrideError, "ASCII decimal"),
    ("rover.n_segments=2.5", BadOverrideError, "not a whole number"),
    ("rover.n_segments=1", BadOverrideError, "integer >= 2"),
    ("rover.rover=D", BadOverrideError, "is not one of A, B, C"),
])
def test_bad_overrides_are_one_sentence(item, exc, says):
    with pytest.raises(exc) as info:
        overrides.parse_overrides([item])
    assert says in str(info.value) and "\n" not in str(info.value)


def test_already_parsed_overrides_are_returned_as_they_are(monkeypatch):
    parsed = overrides.parse_overrides(["rover.n_segments=3", "hopper.k_L=1200"])

    def checked_again(*args):
        raise AssertionError("parsed overrides were checked a second time")

    monkeypatch.setattr(overrides, "applied", checked_again)
    assert overrides.parse_overrides(parsed) == parsed


def test_a_bad_override_exits_2_in_one_sentence_before_any_work(tmp_path):
    out = tmp_path / "out"
    for command in (["run", "landing_gear"], ["validate"], ["check"],
                    ["sweep", "landing_gear", "--scenario", "flat", "--vary",
                     "landing_gear.m_L=0.1:0.2:2"]):
        res = runner.invoke(app, [*command, "--set", "landing_gear.m_L=-1", "--out", str(out)])
        assert res.exit_code == 2, (command, res.output)
        assert "outside its valid range" in res.output and "Traceback" not in res.output
        assert not out.exists()  # refused before a file was written


def _flat():
    ladder = comparison("landing_gear")
    return ladder.default_params, ladder.scenarios["flat"]


def test_an_axis_holds_numpys_evenly_spaced_values_typed_as_the_parameter():
    params, flat = _flat()
    axis = parse_axis("landing_gear.m_L=0.12:0.18:4", "landing_gear", params, flat)
    assert axis.values == tuple(np.linspace(0.12, 0.18, 4)) and not axis.on_scenario
    assert str(axis) == "landing_gear.m_L=0.12:0.18:4"
    assert parse_axis(axis, "landing_gear", params, flat) is axis  # parsed once
    ladder = comparison("rover")
    rover_sc = ladder.scenarios["steady_A"]
    speed = parse_axis("rover.speed=1:3:1", "rover", ladder.default_params, rover_sc)
    assert speed.values == (1.0,) and speed.on_scenario  # a field of the scenario
    count = parse_axis("rover.n_segments=2:4:3", "rover", ladder.default_params, rover_sc)
    assert count == Axis("rover", "n_segments", (2, 3, 4), False)
    assert all(isinstance(v, int) for v in count.values)


@pytest.mark.parametrize("item, says", [
    ("landing_gear.m_L=0.1:0.2", "must read LO:HI:N"),
    ("landing_gear.m_L=0.1:0.2:0", "a whole N of at least 1"),
    ("landing_gear.m_L=0.1:0.2:2.5", "a whole N of at least 1"),
    ("landing_gear.m_L=0.1:inf:2", "finite"),
    ("landing_gear.m_L=-0.1:0.2:3", "outside its valid range (0, inf) kg"),
    ("hopper.k_L=1:2:2", "varies 'hopper', but the sweep runs 'landing_gear'"),
    ("landing_gear.colour=0:1:2", "no parameter and the scenario no field"),
    ("landing_gear.m_L 0.1:0.2:2", "must read ROBOT.NAME=LO:HI:N"),
])
def test_bad_axes_are_one_sentence(item, says):
    params, flat = _flat()
    with pytest.raises(BadOverrideError) as info:
        parse_axis(item, "landing_gear", params, flat)
    assert says in str(info.value) and "\n" not in str(info.value)


def test_an_axis_of_a_count_refuses_fractions_and_one_of_a_choice_is_refused():
    ladder = comparison("rover")
    sc = next(iter(ladder.scenarios.values()))
    with pytest.raises(BadOverrideError, match="not a whole number"):
        parse_axis("rover.n_segments=2:3:3", "rover", ladder.default_params, sc)
    with pytest.raises(BadOverrideError, match="is a name, not a number"):
        parse_axis("rover.rover=0:1:2", "rover", ladder.default_params, sc)


def test_the_command_line_holds_no_sample_count_or_seed_of_its_own():
    """Every default of --samples and --seed is a name declared in run.defaults, so the
    command line, the Python API and the shipped baselines cannot drift apart."""
    tree = ast.parse(CLI.read_text())
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef):
            continue
        args = fn.args.args[len(fn.args.args) - len(fn.args.defaults):]
        for arg, default in zip(args, fn.args.defaults, strict=True):
            if arg.arg in ("samples", "seed"):
                assert not isinstance(default, ast.Constant) or default.value is None, \
                    f"{fn.name}: --{arg.arg} has a literal default"
    assert len(CLI.read_text().splitlines()) < 300
    assert (defaults.ROBOT_SAMPLES, defaults.MODEL_SAMPLES, defaults.SEED) == (1000, 200, 0)


def test_check_takes_the_audit_states_as_options():
    said = " ".join(runner.invoke(app, ["check", "--help"]).output.split())
    assert "--samples N" in said and "--seed K" in said
    assert f"default: {defaults.ROBOT_SAMPLES} for the robots, {defaults.MODEL_SAMPLES} " \
           "for --model" in said
    res = runner.invoke(app, ["check", "--samples", "0"])
    assert res.exit_code == 2 and "--samples must be at least 1 (got 0)" in res.output
    res = runner.invoke(app, ["check", "--seed", "-1"])
    assert res.exit_code == 2 and "--seed must be zero or positive" in res.output
