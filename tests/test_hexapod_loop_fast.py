"""The hexapod's compiled comparison loop (HexapodLoop fast=True: hexapod.fast.loop, and
comparisons/hexapod/compiled.py for the engines, with the shared ground or their own)
against its Python path (fast=False): the plan's references, and whole traces of the
scenarios with every shared law in play (ideal, flexible and backlash drives, the
non-linear and the linear ground, the Pade and the Grunwald-Letnikov controller), as the
harness records them."""

import numpy as np
import pytest

from dynval.comparisons.hexapod.loop import HexapodLoop, make_plant, planned_start
from dynval.comparisons.hexapod.scenarios import SCENARIOS, scenario_params
from dynval.comparisons.ladder import harness
from dynval.handrolled.hexapod import planning
from dynval.handrolled.hexapod.fast import loop as fastloop
from dynval.robots import ROOT
from dynval.robots.hexapod.params import PARAMS

DESC = ROOT / "hexapod"
# The torque split of eq. (6) squares the rates by x * x compiled and by numpy's scalar
# power (pow(x, 2)) on the Python path, which differ in the last bit now and then
# (measured: 1e-17 of the signal's scale); every other signal is bit-identical here.
REL = 1e-12
SPLIT = ("torque_inertial", "torque_coriolis", "torque_gravity")


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


def _same_traces(old, new) -> None:
    assert list(new.columns) == list(old.columns) and len(new) == len(old)
    for name in old.columns:
        a, b = old[name].to_numpy(), new[name].to_numpy()
        if name.endswith(SPLIT):
            assert np.max(np.abs(a - b)) <= REL * np.max(np.abs(a)), name
        else:
            assert np.array_equal(a, b, equal_nan=True), name


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
    """Every recorded signal the Python path's bit for bit but leg 1's torque split,
    within 1e-12 of its scale (its largest magnitude in the run), the same names in the
    same order, the same gear impacts."""
    old = _traces(scenario, implementation, duration, contact, False)
    new = _traces(scenario, implementation, duration, contact, True)
    _same_traces(old, new)
    impacts = old["hexapod.gear_impacts"].to_numpy()
    assert np.array_equal(impacts, new["hexapod.gear_impacts"].to_numpy())
    if scenario == "WG_50_backlash":
        assert impacts[-1] > 0


def _gl_traces(implementation: str, duration: float, fast: bool):
    p = scenario_params(PARAMS, SCENARIOS["WG_50"]).with_(fo_form="gl")
    plant = make_plant(implementation, p, "shared", DESC)
    plant.reset(*planned_start(p))
    loop = HexapodLoop(plant, p, fast=fast)
    assert loop.fast == fast
    return harness.run(loop, duration, 1.0 / p.f_sr, 20)


@pytest.mark.parametrize("implementation, duration", [("handrolled", 2.1),
                                                      ("mujoco", 0.1)])
def test_grunwald_letnikov_controller_compiled_is_the_python_form(implementation, duration):
    """The Grunwald-Letnikov sum (15b) compiled (fastloop.controller with ``gl``, its
    memory grown by fastloop.memory_room past a chunk of 4096 samples) against
    fractional.GrunwaldLetnikov on the Python path: every signal but leg 1's torque split
    bit for bit, that within REL of its scale."""
    _same_traces(_gl_traces(implementation, duration, False),
                 _gl_traces(implementation, duration, True))


def test_grunwald_letnikov_memory_room_keeps_the_samples():
    """memory_room grows the memory by whole chunks, the samples held at its end and the
    weights gl_weights' (the Python form's) for each joint's alpha."""
    from dynval.handrolled.hexapod.fractional import gl_weights

    p = PARAMS.with_(fo_form="gl")
    laws = fastloop.memory_room(fastloop.loop_laws(p, "corrected", True), p, 3, chunk=4)
    ctrl = laws.ctrl
    assert ctrl.memory.shape == (2 * p.n, 4)
    ctrl.memory[:, 1:] = np.arange(3.0)
    ctrl.count[0] = 3
    grown = fastloop.memory_room(laws, p, 6, chunk=4).ctrl
    assert grown.memory.shape == (2 * p.n, 8) and grown.count is ctrl.count
    assert np.array_equal(grown.memory[:, 5:], ctrl.memory[:, 1:])
    assert np.array_equal(grown.w[1], gl_weights(p.alpha_2, 8))
    assert fastloop.memory_room(laws, p, 4, chunk=4) is laws


@pytest.mark.parametrize("contact", ["shared", "native"])
@pytest.mark.parametrize("implementation", ["mujoco", "pybullet"])
def test_engines_step_in_compiled_chunks_with_either_contact(implementation, contact):
    """The engines' whole loop runs compiled (comparisons/hexapod/compiled.py) with the
    shared ground and with their own contact alike: the planar model has no free root,
    and the chunks need only the engine's library and, for MuJoCo's own contact, its
    contact list, not the free-root reads of the other robots' chunks."""
    p = scenario_params(PARAMS, SCENARIOS["WG_50"])
    plant = make_plant(implementation, p, contact, DESC)
    plant.reset(*planned_start(p))
    assert plant.sim.compiled() is not None  # the engine's library is installed here
    assert HexapodLoop(plant, p)._fast.route.__name__ == f"_{implementation}"
