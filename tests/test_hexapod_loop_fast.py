"""The hexapod's compiled comparison loop (HexapodLoop fast=True: hexapod.fastloop, and
comparisons/hexapod/compiled.py for the engines; native contact: the laws compiled, the
engine stepped from Python) against its Python path (fast=False): the
plan's references, and whole traces of the scenarios with every shared law in play (ideal,
flexible and backlash drives, the non-linear and the linear ground), as the harness
records them."""

import numpy as np
import pytest

from dynval.comparisons.hexapod.loop import HexapodLoop, make_plant, planned_start
from dynval.comparisons.hexapod.scenarios import SCENARIOS, scenario_params
from dynval.comparisons.ladder import harness
from dynval.handrolled.hexapod import fastloop, planning
from dynval.robots import ROOT
from dynval.robots.hexapod.params import PARAMS

DESC = ROOT / "hexapod"
# The torque split of eq. (6) squares the rates by x * x compiled and by numpy's scalar
# power (pow(x, 2)) on the Python path, which differ in the last bit now and then
# (measured: 1e-17 of the signal's scale); every other signal is bit-identical here.
REL = 1e-12


@pytest.mark.parametrize("gait, profile, form", [("WG", "cycloid", "corrected"),
                                                 ("EPFC", "sine", "corrected"),
                                                 ("WG", "sine", "printed")])
def test_compiled_references_are_planning_joint_angles(gait, profile, form):
    """fastloop.joint_references against planning.joint_angles over two cycles: the same
    numbers, bit for bit (math's acos and atan2 on both paths)."""
    p = PARAMS.with_(gait=gait, profile=profile, beta=0.35 if gait == "EPFC" else 0.5)
    pc, phi, x0 = fastloop.plan_constants(p, form)
    out = np.empty(2 * p.n)
    for t in np.linspace(0.0, 2.0 * p.T, 997):
        fastloop.joint_references(t, pc, phi, x0, out)
        ref = np.concatenate([planning.joint_angles(t, i, p, form) for i in range(p.n)])
        assert np.array_equal(out, ref), t
        pl, plc = planning.leg_plan(t, 1, p, form), fastloop.leg_plan(t, 1, pc, phi, x0)
        assert np.array_equal(plc, np.concatenate([pl.p_Hd, pl.p_Fd, pl.v_Fd, pl.a_Fd])), t


def _traces(scenario: str, implementation: str, duration: float, contact: str, fast: bool):
    p = scenario_params(PARAMS, SCENARIOS[scenario])
    plant = make_plant(implementation, p, contact, DESC)
    plant.reset(*planned_start(p))
    loop = HexapodLoop(plant, p, fast=fast)
    assert loop.fast == fast
    return harness.run(loop, duration, 1.0 / p.f_sr, 20)


@pytest.mark.parametrize("scenario, implementation, duration, contact", [
    ("WG_50", "handrolled", 1.0, "shared"),
    ("WG_50_linear", "handrolled", 1.0, "shared"),
    ("WG_50_flexible", "handrolled", 1.0, "shared"),
    ("WG_50_backlash", "handrolled", 1.0, "shared"),
    ("WG_50", "mujoco", 0.2, "shared"),
    ("WG_50_linear", "mujoco", 0.1, "shared"),
    ("WG_50_flexible", "mujoco", 0.1, "shared"),
    ("WG_50_backlash", "mujoco", 0.2, "shared"),
    ("WG_50", "mujoco", 0.05, "native"),
    ("WG_50", "pybullet", 0.05, "native"),
    ("WG_50", "pybullet", 0.05, "shared"),
    ("WG_50_linear", "pybullet", 0.05, "shared"),
    ("WG_50_flexible", "pybullet", 0.05, "shared"),
    ("WG_50_backlash", "pybullet", 0.1, "shared"),
])
def test_fast_loop_traces_are_the_python_paths(scenario, implementation, duration, contact):
    """Every recorded signal within 1e-12 of its scale (its largest magnitude in the run)
    of the Python path's, the same names in the same order, the same gear impacts."""
    old = _traces(scenario, implementation, duration, contact, False)
    new = _traces(scenario, implementation, duration, contact, True)
    assert list(new.columns) == list(old.columns) and len(new) == len(old)
    for name in old.columns:
        a, b = old[name].to_numpy(), new[name].to_numpy()
        assert np.max(np.abs(a - b)) <= REL * np.max(np.abs(a)), name
    impacts = old["hexapod.gear_impacts"].to_numpy()
    assert np.array_equal(impacts, new["hexapod.gear_impacts"].to_numpy())
    if scenario == "WG_50_backlash":
        assert impacts[-1] > 0


def test_grunwald_letnikov_controller_takes_the_python_path():
    p = scenario_params(PARAMS, SCENARIOS["WG_50"]).with_(fo_form="gl")
    plant = make_plant("handrolled", p, "shared", DESC)
    plant.reset(*planned_start(p))
    loop = HexapodLoop(plant, p)
    assert not loop.fast
    loop.advance_many(3)
    assert loop.steps == 3
