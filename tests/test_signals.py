"""Signal declarations: every name a robot records has one SI unit, and figures show
angles in degrees."""

import math

import pytest

from dynval.comparisons.ladder.signals import UnknownSignalError, check_names, display, unit


@pytest.mark.parametrize("name,expected", [
    ("body.roll", "rad"), ("body.z", "m"), ("joint.LF.hip.angle", "rad"),
    ("joint.RB.HFE.rate", "rad/s"), ("joint.RB.HFE.acceleration", "rad/s^2"),
    ("joint.LB.knee.torque", "N m"), ("foot.RF.force.normal", "N"),
    ("foot.LF.force_assumed.z", "N"), ("joint.q7.angle", "rad"),
    ("wheel.rear_left.sinkage", "m"), ("wheel.rear_left.slip", "-"),
    ("rover.speed", "m/s"), ("com.x", "m"),
])
def test_declared_units(name, expected):
    assert unit(name) == expected


@pytest.mark.parametrize("name", ["body.roll_deg", "joint.FL.HFE.angle", "foot.LF.force.w",
                                  "wheel.rear_left.temperature"])
def test_an_undeclared_or_misnamed_signal_is_refused(name):
    # FL is front-first: the one convention is side first (LF)
    with pytest.raises(UnknownSignalError, match="not declared"):
        check_names(["body.x", name])


def test_figures_show_radians_in_degrees_and_si_otherwise():
    assert display("body.pitch") == ("deg", pytest.approx(180.0 / math.pi))
    assert display("joint.RB.HFE.rate") == ("deg/s", pytest.approx(180.0 / math.pi))
    assert display("foot.LF.force.z") == ("N", 1.0)
