"""Every robot parameter has a unit and a valid range next to its value, the defaults lie
inside them, and overrides outside them are refused before anything runs (issue 12, item
3), in one sentence naming robot.parameter, the value and the range."""

import dataclasses
import math

import numpy as np
import pytest

from dynval.comparisons.ladder.overrides import BadOverrideError
from dynval.comparisons.ladder.registry import apply_overrides
from dynval.robots import ROBOT_NAMES
from dynval.robots.parameters import ParameterError, Range, describe, specs, validate_params


def defaults(robot: str):
    import importlib

    return importlib.import_module(f"dynval.robots.{robot}.params").PARAMS


@pytest.mark.parametrize("robot", ROBOT_NAMES)
def test_every_parameter_has_a_unit_and_a_range(robot):
    p = defaults(robot)
    declared = specs(p)  # raises KeyError for a field not in params.toml
    assert list(declared) == [f.name for f in dataclasses.fields(p)]
    for name, s in declared.items():
        assert s.unit, f"{robot}.{name} has no unit"
        assert s.source, f"{robot}.{name} has no source"
        assert str(s.range), f"{robot}.{name} has no range"


@pytest.mark.parametrize("robot", ROBOT_NAMES)
def test_defaults_lie_inside_their_ranges(robot):
    p = defaults(robot)
    validate_params(p)
    for name, s in specs(p).items():
        assert s.range.problem(getattr(p, name), s.unit) is None, name
    assert all(row["unit"] and row["range"] for row in describe(p))


LENGTHS = {"landing_gear": ("l_U", "l_L", "D_x", "D_y", "D_z", "link_radius", "foot_radius"),
           "quadruped": ("l_2", "l_3", "foot_radius"), "rover": ("l", "w", "r", "b"),
           "hopper": ("r_0", "r_1", "r_2", "r_h", "foot_radius", "d"),
           "hexapod": ("S_P", "L_i1", "L_i2", "r_link", "r_F", "w_b", "h_b", "L_S", "H_B",
                       "F_C", "Delta_yF_max")}


@pytest.mark.parametrize("robot", ROBOT_NAMES)
def test_masses_lengths_and_steps_must_be_positive(robot):
    for name, s in specs(defaults(robot)).items():
        gain = name[0] in "kK"  # a controller gain may take any finite value (k_x in s)
        if (s.unit in ("kg", "s") and not gain) or name in LENGTHS[robot]:
            assert s.range.kind == "real" and (
                (s.range.lo == 0.0 and s.range.lo_open)
                or (name == "dt" and s.range.lo == 1e-7)), f"{robot}.{name} must be positive"


@pytest.mark.parametrize("override, parameter, value_text, range_text", [
    ("rover.m_seg=0", "rover.m_seg", "= 0 kg", "(0, inf) kg"),
    ("rover.m_seg=-200", "rover.m_seg", "= -200 kg", "(0, inf) kg"),
    ("rover.m_seg=nan", "rover.m_seg", "= nan", "(0, inf) kg"),
    ("rover.dt=0", "rover.dt", "= 0 s", "[1e-07, inf) s"),
    ("rover.n_segments=2.5", "rover.n_segments", "= 2.5", "integer >= 2"),
    ("rover.n_segments=1", "rover.n_segments", "= 1", "integer >= 2"),
    ("landing_gear.m=0", "landing_gear.m", "= 0 kg", "(0, inf) kg"),
    ("landing_gear.dt=inf", "landing_gear.dt", "= inf", "[1e-07, inf) s"),
    ("quadruped.dt=nan", "quadruped.dt", "= nan", "[1e-07, inf) s"),
    ("quadruped.l_2=-0.2", "quadruped.l_2", "= -0.2 m", "(0, inf) m"),
    ("quadruped.theta_2_stand_deg=200", "quadruped.theta_2_stand_deg", "= 200 deg",
     "[-180, 180] deg"),
    ("quadruped.m_thigh=0", "quadruped.m_thigh", "= 0 kg", "(0, inf) kg"),
])
def test_bad_overrides_are_refused_in_one_sentence(override, parameter, value_text, range_text):
    robot = override.split(".")[0]
    with pytest.raises(BadOverrideError) as err:
        apply_overrides(robot, defaults(robot), [override])
    msg = str(err.value)
    assert msg.startswith(parameter + " ") and value_text in msg and range_text in msg, msg
    assert "\n" not in msg and msg.count(". ") == 0, msg


def test_an_override_without_a_robot_is_refused():
    with pytest.raises(BadOverrideError, match="ROBOT.PARAMETER=VALUE"):
        apply_overrides("rover", defaults("rover"), ["dt=-0.001"])


def test_relations_between_parameters_are_checked():
    with pytest.raises(BadOverrideError, match=r"landing_gear.m .* leaves the body no mass"):
        apply_overrides("landing_gear", defaults("landing_gear"), ["landing_gear.m=0.9"])
    with pytest.raises(BadOverrideError, match="out of the leg's reach"):
        apply_overrides("landing_gear", defaults("landing_gear"), ["landing_gear.y_0=0.3"])
    with pytest.raises(BadOverrideError, match="rover.control_period"):
        apply_overrides("rover", defaults("rover"), ["rover.control_period=1e-4"])
    with pytest.raises(BadOverrideError, match="quadruped.I_hip_xx..I_hip_yz describe no rigid"):
        apply_overrides("quadruped", defaults("quadruped"), ["quadruped.I_hip_yy=0.01"])


def test_validate_params_raises_a_value_error_subclass():
    p = dataclasses.replace(defaults("rover"), m_seg=math.nan)
    with pytest.raises(ParameterError) as err:
        validate_params(p)
    assert isinstance(err.value, ValueError)
    with pytest.raises(ParameterError, match="rover.rover .* is not one of A, B, C"):
        validate_params(dataclasses.replace(defaults("rover"), rover="D"))


def test_good_overrides_keep_their_types():
    p = apply_overrides("rover", defaults("rover"), ["rover.n_segments=3", "rover.rover=B",
                                                     "rover.m_seg=150", "quadruped.dt=2e-3"])
    assert p.n_segments == 3 and isinstance(p.n_segments, int)
    assert p.rover == "B" and p.m_seg == 150.0
    assert apply_overrides("rover", defaults("rover"), []) == defaults("rover")


def test_a_quadruped_mass_override_reaches_the_model_and_the_descriptions():
    from dynval.handrolled.quadruped.robot import build_model
    from dynval.robots.quadruped import descriptions
    from dynval.robots.quadruped.params import LEGS, total_mass

    p0 = defaults("quadruped")
    p = apply_overrides("quadruped", p0, ["quadruped.m_thigh=1.2"])
    assert np.all(build_model(p).m[:, 1] == 1.2)  # link 2 of every leg is the thigh
    desc = descriptions(p)["quadruped"]
    assert all(desc.link(f"{leg}_thigh").inertial.mass == 1.2 for leg in LEGS)
    assert total_mass(p) == pytest.approx(total_mass(p0) + 4 * (1.2 - p0.m_thigh))


def test_range_notation():
    assert str(Range.parse("(0, inf)")) == "(0, inf)"
    assert Range.parse("[0, 90)").problem(90.0) is not None
    assert Range.parse("[0, 90)").problem(0.0) is None
    assert Range.parse("integer >= 2").problem(2) is None
    bounded = Range.parse("integer in [2, 1000]")
    assert str(bounded) == "integer in [2, 1000]"
    assert bounded.problem(1000) is None and bounded.problem(2) is None
    assert "outside its valid range" in bounded.problem(1001)
    assert "outside its valid range" in bounded.problem(1)
    with pytest.raises(ValueError):
        Range.parse("[0, inf]")  # closed at infinity


def test_the_command_line_refuses_a_bad_override_before_running(tmp_path):
    """Exit 2 with the one sentence, and nothing written (issue 12, item 3)."""
    from typer.testing import CliRunner

    from dynval.comparisons.cli import app

    out = tmp_path / "out"
    res = CliRunner().invoke(app, ["run", "rover", "--set", "rover.m_seg=nan", "--out", str(out)])
    assert res.exit_code == 2, res.output
    assert "rover.m_seg (segment mass) = nan is not a finite number" in res.output
    assert "Traceback" not in res.output and not out.exists()


TOY_TABLE = '''
[m]
value = 1.5
unit = "kg"
range = "(0, inf)"
source = "a test"
about = "a mass"

[n]
value = 3
unit = "-"
range = "integer >= 1"
source = "a test"
about = "a count"
'''


TOY_FIELDS = "    m: float\n    n: int\n"


def _parameter_class(tmp_path, table: str, members: str = "", fields: str = TOY_FIELDS):
    """A parameter dataclass made from ``table`` by parameter_class, in a module of its own
    beside its params.toml (as a robot's params.py is), declaring ``fields``."""
    import importlib.util
    import sys

    (tmp_path / "params.toml").write_text(table)
    (tmp_path / "toy_params.py").write_text(
        "from typing import ClassVar\n\nfrom dynval.robots.parameters import parameter_class"
        "\n\n\n@parameter_class\nclass ToyParams:\n    ROBOT: ClassVar[str] = 'toy'\n"
        + fields + members)
    spec = importlib.util.spec_from_file_location(f"toy_params_{tmp_path.name}",
                                                  tmp_path / "toy_params.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module.ToyParams


def test_the_table_makes_a_frozen_dataclass_in_table_order(tmp_path):
    P = _parameter_class(tmp_path, TOY_TABLE,
                         "\n    @property\n    def twice(self) -> float:\n"
                         "        return 2 * self.m\n")
    p = P()
    assert [f.name for f in dataclasses.fields(p)] == ["m", "n"]
    assert (p.m, type(p.m), p.n, type(p.n)) == (1.5, float, 3, int)
    assert p.twice == 3.0 and P.ROBOT == "toy"
    s = specs(p)
    assert (s["m"].unit, str(s["m"].range), s["m"].source, s["m"].doc) == (
        "kg", "(0, inf)", "a test", "a mass")
    assert p.with_(m=2.0).m == 2.0 and p.m == 1.5
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.m = 3.0
    with pytest.raises(ParameterError, match=r"toy\.n \(a count\) = 0 is outside"):
        validate_params(p.with_(n=0))


@pytest.mark.parametrize("table, message", [
    (TOY_TABLE.replace('source = "a test"\nabout = "a count"', 'about = "a count"'),
     r"params\.toml: parameter 'n' must have exactly the keys value, unit, range, source"),
    (TOY_TABLE.replace('"integer >= 1"', '"[1, 0]"'),
     r"params\.toml: parameter 'n': the range '\[1, 0\]' is empty"),
    (TOY_TABLE.replace("value = 3", "value = true"),
     r"params\.toml: parameter 'n' has a value that is not a number or a name"),
    (TOY_TABLE.replace('unit = "-"', "unit = 1"),
     r"params\.toml: parameter 'n' must give its unit, range, source, about as text"),
    (TOY_TABLE.replace("[n]", "[n"), r"cannot read the parameter table .*params\.toml"),
])
def test_a_malformed_table_is_refused_naming_the_file_and_parameter(tmp_path, table, message):
    with pytest.raises(ValueError, match=message):
        _parameter_class(tmp_path, table)


def test_a_parameter_has_its_value_in_one_place_only(tmp_path):
    with pytest.raises(TypeError, match=r"ToyParams\.m is given a value in the class; its "
                                        r"value is the one in .*params\.toml"):
        _parameter_class(tmp_path, TOY_TABLE, fields="    m: float = 2.0\n    n: int\n")


@pytest.mark.parametrize("fields, said", [
    ("    m: float\n", r"n: nothing where the table has int"),
    ("    m: float\n    n: float\n", r"n: float where the table has int"),
    ("    n: int\n    m: float\n", r"the same fields in another order"),
    ("    m: float\n    n: int\n    k: float\n", r"k: float where the table has no such row"),
    ("", r"m: nothing where the table has float"),
])
def test_the_declared_fields_are_the_tables(tmp_path, fields, said):
    """The class's fields are what a type checker sees: they must be the table's rows, in
    its order, with their types; the generator writes them so."""
    with pytest.raises(TypeError, match=r"ToyParams declares other fields than .*params\.toml "
                                        rf"\({said}\); run python -m dynval.robots.generate"):
        _parameter_class(tmp_path, TOY_TABLE, fields=fields)


def test_the_generator_writes_the_fields_from_the_table(tmp_path):
    from dynval.robots.generate import with_fields

    (tmp_path / "params.toml").write_text(TOY_TABLE)
    bare = ('@parameter_class\nclass ToyParams:\n    """Toy."""\n\n    @property\n'
            '    def twice(self) -> float:\n        return 2 * self.m\n')
    once = with_fields(bare, tmp_path / "params.toml")
    assert "    m: float  # [kg]\n    n: int\n    # --- end of fields\n" in once
    assert with_fields(once, tmp_path / "params.toml") == once  # written again: unchanged
    (tmp_path / "params.toml").write_text(TOY_TABLE.replace("value = 3", "value = 3.5"))
    assert "    n: float\n" in with_fields(once, tmp_path / "params.toml")  # rewritten


def test_overrides_are_parsed_once_into_typed_values(monkeypatch):
    """``--set`` is parsed where it enters: typed as each parameter is (a count as an int,
    a choice as a name), kept as given for the manifest, and an Override given again is
    used as it is, never parsed a second time."""
    from dynval.comparisons.ladder import overrides

    parsed = overrides.parse_overrides(["rover.n_segments=3", "rover.rover=B",
                                        "hopper.k_L=1.2e3"])
    assert [(o.robot, o.name, o.value) for o in parsed] == [
        ("rover", "n_segments", 3), ("rover", "rover", "B"), ("hopper", "k_L", 1200.0)]
    assert isinstance(parsed[0].value, int) and str(parsed[2]) == "hopper.k_L=1.2e3"

    def parsed_again(*args):
        raise AssertionError("an Override was parsed again")

    monkeypatch.setattr(overrides, "_typed", parsed_again)
    assert overrides.parse_overrides(parsed) == parsed
    assert apply_overrides("hopper", defaults("hopper"), parsed).k_L == 1200.0
    with pytest.raises(BadOverrideError, match="no parameter 'k_X'"):
        overrides.parse_overrides(["hopper.k_X=1"])
