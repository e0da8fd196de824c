"""The hexapod's Figs. 9-17 runs: the shared drives (8)-(9) stepped beside each plant, the
two grounds (11)-(12) in the walk, the engines against the hand model with flexible and
backlash drives, the Grunwald-Letnikov controller of the error budget, and the statement
measurements. Each tolerance says why it is that number."""

import math

import numpy as np
import pandas as pd
import pytest

from dynval.comparisons.hexapod import statements
from dynval.comparisons.hexapod.loop import HexapodLoop, SharedDrive, make_plant, planned_start
from dynval.comparisons.hexapod.scenarios import SCENARIOS, run_one, scenario_params
from dynval.handrolled.hexapod import fractional, transmission
from dynval.robots import ROOT
from dynval.robots.hexapod.params import PARAMS as p

DESC = ROOT / "hexapod"


# ---------------------------------------------------------------- the shared drive ----
def test_ideal_drive_passes_the_motor_torque_and_keeps_no_state():
    th = np.linspace(-0.5, 0.5, 12)
    d = SharedDrive(p.with_(transmission="ideal"), th, np.zeros(12))
    tau = np.linspace(-300.0, 300.0, 12)
    d.step(tau, th, 1.0 / p.f_sr)
    assert np.array_equal(d.link_torque(tau, th), tau)
    assert np.array_equal(d.th_m, th) and d.impacts == 0


def test_flexible_drive_settles_at_the_static_twist_of_eq_8():
    """A held link and a constant motor torque: (8a) settles where K_T (theta_m - theta) =
    tau_m, and the link receives tau_m (8b). Time constant B_m / K_T = 0.1 ms; after 0.2 s
    what is left is round-off of the 1e5 N m/rad spring (1e-9 N m)."""
    q = p.with_(transmission="flexible")
    th = np.zeros(12)
    d = SharedDrive(q, th, np.zeros(12))
    tau = np.full(12, 150.0)
    for _ in range(4000):
        d.step(tau, th, 1.0 / q.f_sr)
    assert np.allclose(d.th_m, 150.0 / q.K_ijT, rtol=1e-10, atol=0)
    assert np.allclose(d.link_torque(tau, th), tau, rtol=0, atol=1e-8)


def test_elastic_gear_impact_keeps_momentum_and_kinetic_energy():
    """(9b)-(9c) at eps = 1: an elastic collision of the two gear sides."""
    J_T, J_m = p.J_i1T, p.J_i1m
    vT, vm = transmission.impact(0.3, 2.0, J_T, J_m, 1.0)
    assert J_T * vT + J_m * vm == pytest.approx(J_T * 0.3 + J_m * 2.0, rel=1e-14)
    assert J_T * vT**2 + J_m * vm**2 == pytest.approx(J_T * 0.3**2 + J_m * 2.0**2, rel=1e-14)


def test_backlash_without_play_walks_as_the_flexible_drive_with_both_gear_sides():
    """h = 0, eps = 0 in the walk: after each semi-implicit Euler step the plastic impact
    joins motor and gear at their centre of inertia with their common momentum, which is
    exactly the step of one rotor J_m + J_T with friction B_m + B_T behind K_T (the flexible
    drive of eq. 8): the two walks agree to round-off (1e-9 rad: a millionth of Fig. 13's
    milliradians, and far above the 1e-14 rad measured)."""
    sc_b, sc_f = SCENARIOS["WG_50_backlash"], SCENARIOS["WG_50_flexible"]
    back = run_one(p, sc_b, "handrolled", "shared", DESC, until=0.15, h_ij=0.0, eps_ij=0.0)
    flex = run_one(p, sc_f, "handrolled", "shared", DESC, until=0.15,
                   J_i1m=p.J_i1m + p.J_i1T, J_i2m=p.J_i2m + p.J_i2T, B_ijm=p.B_ijm + p.B_ijT)
    assert back["hexapod.gear_impacts"].iloc[-1] > 1000  # the impacts do happen
    for sig in ("joint.LF.hip.angle", "joint.LF.knee.angle", "joint.LF.hip.motor_angle",
                "com.y", "foot.LF.y"):
        assert np.max(np.abs(back[sig] - flex[sig])) < 1e-9, sig
    assert np.max(np.abs(back["joint.LF.hip.torque"] - flex["joint.LF.hip.torque"])) < 1e-4


@pytest.mark.parametrize("level", ["flexible", "backlash"])
def test_engines_walk_with_the_shared_drives_as_the_hand_model(level):
    """0.2 s of the wave gait with the drives of (8) or (9) in MuJoCo and PyBullet: same
    tree, scheme and shared laws, so round-off only (1e-13 rad measured over the cycle),
    and the very same gear impacts."""
    sc = SCENARIOS[f"WG_50_{level}"]
    hand = run_one(p, sc, "handrolled", "shared", DESC, until=0.2)
    for impl in ("mujoco", "pybullet"):
        eng = run_one(p, sc, impl, "shared", DESC, until=0.2)
        for sig in ("com.y", "foot.LF.y", "joint.LF.hip.angle", "joint.LF.hip.motor_angle",
                    "joint.LF.hip.gear_angle"):
            assert np.max(np.abs(eng[sig] - hand[sig])) < 1e-9, (impl, sig)
        assert np.max(np.abs(eng["joint.LF.hip.torque"] - hand["joint.LF.hip.torque"])) < 1e-4
        assert np.array_equal(eng["hexapod.gear_impacts"], hand["hexapod.gear_impacts"])
    # the flexible motor lags its link by the twist that carries the torque (8b)
    twist = hand["joint.LF.hip.motor_angle"] - hand["joint.LF.hip.angle"]
    if level == "flexible":
        assert np.allclose(p.K_ijT * twist, hand["joint.LF.hip.torque"], rtol=1e-9, atol=1e-6)
    else:
        assert hand["hexapod.gear_impacts"].iloc[-1] > 0


# ---------------------------------------------------------------- the grounds in the walk
def _min_ground_force(name: str, until: float, **changes) -> float:
    """The least vertical ground force on any foot at any 20 kHz step of a hand-rolled
    walk (zero where no foot touches)."""
    q = scenario_params(p, SCENARIOS[name]).with_(**changes)
    plant = make_plant("handrolled", q, "shared", DESC)
    plant.reset(*planned_start(q))
    loop = HexapodLoop(plant, q)
    least = math.inf
    for _ in range(int(round(until * q.f_sr))):
        loop.advance()
        least = min(least, float(loop.F_feet[:, 1].min()))
    return least


def test_the_linear_ground_pulls_the_feet_and_the_non_linear_one_does_not():
    """Figs. 10-11 over leg 1's landing and the lift-offs after it (t < 0.5 s), at every
    step: eq. (11) pulls (f_yF < 0: its damping outweighs the spring as a foot rises; 10 N
    is far above round-off), eq. (12) does not while the robot walks (its damping vanishes
    with the penetration), with the scenario's K_c2 and with the position loop alone. With
    K_c2 = 1 the robot hops and a foot leaving the ground fast is pulled by eq. (12) too
    (measured -532 N): the law pulls when B' pen^nu v_y outweighs K_yF pen, whatever its
    damping does at touchdown."""
    assert _min_ground_force("WG_50_linear", 0.5) < -10.0
    assert _min_ground_force("WG_50", 0.5) >= 0.0
    assert _min_ground_force("WG_50", 0.5, control="position", K_c2=1.0) >= 0.0
    assert _min_ground_force("WG_50", 0.5, K_c2=1.0) < -100.0


# ---------------------------------------------------------------- the budget's controller
def test_grunwald_letnikov_sum_converges_to_the_half_derivative_at_first_order():
    """D^0.5 t = 2 sqrt(t / pi); the sum (15b) over the whole memory is first order in h
    (its error quarters when h does), with memory grown past its first chunk."""
    err = []
    for h in (1 / 500, 1 / 2000):
        g = fractional.GrunwaldLetnikov(0.5, h**-0.5, chunk=100)
        y = [g(k * h) for k in range(int(round(1 / h)) + 1)]
        err.append(abs(y[-1] / (2.0 * math.sqrt(1.0 / math.pi)) - 1.0))
    assert err[1] < 1e-4 and err[0] / err[1] == pytest.approx(4.0, rel=0.05)


def test_pade_filter_is_the_gl_sum_for_its_first_nine_samples():
    """Table III's [4/4] approximant matches the series of (1 - z^-1)^0.5 through z^-8: the
    two filters' responses to any input agree for nine samples, then part."""
    a, b = fractional.pade_coefficients(0.5)
    pade, gl = fractional.DiscreteFilter(a, b), fractional.GrunwaldLetnikov(0.5)
    e = np.random.default_rng(3).normal(size=40)
    y_p, y_g = np.array([pade(x) for x in e]), np.array([gl(x) for x in e])
    assert np.max(np.abs(y_p[:9] - y_g[:9])) < 1e-12
    assert np.max(np.abs(y_p[9:] - y_g[9:])) > 1e-6


# ---------------------------------------------------------------- the statements -------
def test_contacts_and_landing_read_from_the_ground_force():
    t = np.arange(0.0, 1.0, 0.001)
    f = np.where((t < 0.02) | ((t >= 0.44) & (t < 0.49)) | (t >= 0.64), 500.0, 0.0)
    y_ref = np.where((t > 0.0) & (t < 0.5), 0.1 * np.sin(2 * np.pi * t) ** 2, 0.0)
    df = pd.DataFrame({"time": t, statements.FY: f, statements.FX: 0.0 * f,
                       "foot.LF.y_ref": y_ref})
    c = statements.contacts(df)
    assert [(round(a, 3), round(b, 3)) for a, b in c] == [(0.0, 0.02), (0.44, 0.49),
                                                         (0.64, 0.999)]
    assert statements.landing(df) == pytest.approx(0.44)
    assert statements.takeoff(df) == pytest.approx(0.02)
    # a plan lifting the foot at 0.45 s (apex 0.525 s): the contact it scrapes through
    # early in its lift (0.44-0.49 s) is no landing, the next one is
    late = df.assign(**{"foot.LF.y_ref": np.where(
        (t > 0.45) & (t < 0.6), 0.1 * np.sin(np.pi * (t - 0.45) / 0.15) ** 2, 0.0)})
    assert statements.landing(late) == pytest.approx(0.64)


# ---------------------------------------------------------------- the compiled step ----
@pytest.mark.parametrize("transmission,ground", [("ideal", "nonlinear"), ("ideal", "linear"),
                                                 ("flexible", "nonlinear"),
                                                 ("backlash", "nonlinear")])
def test_compiled_step_is_the_printed_step(transmission, ground):
    """CompiledPlanarHexapod (hexapod.fast: the benchmark's real-time walk) against
    PlanarHexapod.step, the printed path, over 0.1 s of the WG walk (2000 Heun steps with
    touchdowns, lift-offs and, with backlash, the gear impacts): round-off only (1e-14 rad
    measured; 1e-11 rad and 1e-6 N leave room for its growth, and are a million times
    below any effect shown)."""
    from dynval.handrolled.hexapod.fast.robot import CompiledPlanarHexapod
    from dynval.handrolled.hexapod.robot import simulate

    q = p.with_(transmission=transmission, ground=ground)
    fast = simulate(q, 0.1, record_every=10, robot_class=CompiledPlanarHexapod)
    printed = simulate(q, 0.1, record_every=10)
    assert np.max(np.abs(fast["q"] - printed["q"])) < 1e-11
    assert np.max(np.abs(fast["qd"] - printed["qd"])) < 1e-8
    assert np.max(np.abs(fast["F"] - printed["F"])) < 1e-6
    assert np.max(np.abs(printed["F"])) > 100.0  # the feet do carry the robot


# ---------------------------------------------------------------- native contact -------
def test_native_contact_is_for_the_engines_only():
    with pytest.raises(ValueError, match="no native contact"):
        make_plant("handrolled", p, "native", DESC)


@pytest.mark.parametrize("impl", ["mujoco", "pybullet"])
def test_native_contact_carries_the_walking_robot(impl):
    """0.3 s of WG_50 on each engine's own contact: the body stays within 5 cm of H_B and
    the feet's vertical forces carry the weight on average (impulse balance: the body's
    vertical momentum changes by 88 kg x 0.08 m/s over the span, 2.4 % of m g T in the
    shared run; 5 % bounds it with the legs' share)."""
    df = run_one(p, SCENARIOS["WG_50"], impl, "native", DESC, until=0.3)
    assert np.max(np.abs(df["com.y"] - p.H_B)) < 0.05
    fy = sum(df[f"foot.{leg}.force.y"] for leg in ("LF", "RF", "LM", "RM", "LB", "RB"))
    assert fy.mean() == pytest.approx(p.m_total * p.g, rel=0.05)
    assert df["foot.LF.y"].max() > 0.05  # the swing tripod lifts


def test_compiled_comparison_plant_is_the_printed_one():
    """The hand-rolled plant of the L4 runs (compiled held_step and feet) against the
    printed path (eq. (6) through the model protocol on the framework's hand plant) over
    0.2 s of WG_50 with backlash (every shared law active): round-off only (1e-14 rad
    measured)."""
    q = scenario_params(p, SCENARIOS["WG_50_backlash"])
    runs = []
    for fast in (True, False):
        plant = make_plant("handrolled", q, "shared", DESC, fast=fast)
        plant.reset(*planned_start(q))
        loop = HexapodLoop(plant, q)
        for _ in range(int(round(0.2 * q.f_sr))):
            loop.advance()
        runs.append((loop.s.q.copy(), loop.s.qd.copy(), loop.F_feet.copy(), loop.drive.impacts))
    (qa, va, Fa, na), (qb, vb, Fb, nb) = runs
    assert np.max(np.abs(qa - qb)) < 1e-11 and np.max(np.abs(va - vb)) < 1e-8
    assert np.max(np.abs(Fa - Fb)) < 1e-6 and na == nb > 0
