"""Benchmarks (not timed tests), as ratios against MuJoCo on the same run:
the landing gear's per-step cost on its slope scenario, the rover's simulated seconds
per wall-clock second at its 1 ms step (straight driving at 3 m/s), and the quadruped's
RNEA and mass matrix per call against Pinocchio's and its trot step against the engines.

    python -m dynval.comparisons.bench landing_gear [--steps N]
    python -m dynval.comparisons.bench rover [--steps N]
    python -m dynval.comparisons.bench quadruped [--steps N]
    python -m dynval.comparisons.bench hopper [--steps N]
    python -m dynval.comparisons.bench hexapod [--steps N]
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
from numba import njit

from dynval.comparisons.landing_gear.loop import LandingGearLoop, initial_state, make_plant
from dynval.comparisons.landing_gear.scenarios import SCENARIOS
from dynval.engines import chunk_args
from dynval.handrolled.landing_gear.model import Forms
from dynval.handrolled.rover.wheel_contact import wheel_contacts
from dynval.robots import ROOT
from dynval.robots.landing_gear.params import PARAMS


def _row(impl: str, model: float, closed: float, plant, n: int,
         points: tuple[list[str], np.ndarray] | None = None) -> dict[str, float]:
    """One row of the table: seconds per step of the plant ("model") and of the closed loop,
    and for an engine its bare step (mj_step / stepSimulation with the robot loaded, no
    force applied, nothing read; over n steps, from compiled code as the loops step), the
    yardstick of what a plant adds; with ``points`` (the links and offsets the loop's
    compiled chunks read and push on), the engine side of a compiled plant step too
    ("plant": efforts, forces at the points, the step, the state and points read; the
    robot's laws left out, chunk_args.plant_step_seconds); each the fastest of three."""
    row = {"model": model, "closed_loop": closed}
    if impl != "handrolled":
        row["bare"] = min(plant.sim.bare_step_seconds(n) for _ in range(3))
        if points is not None:
            row["plant"] = min(chunk_args.plant_step_seconds(plant.sim, *points, n)
                               for _ in range(3))
    return row


def _harness_seconds(loop, n: int, chunk: int) -> float:
    """Seconds per step of ``loop`` run as the harness runs it, ``chunk`` steps at a time
    (``advance_many``) and then the signals recorded, over n steps (a multiple of chunk),
    after one chunk of warm-up (numba compilation)."""
    loop.advance_many(chunk)
    loop.signals()
    t0 = time.perf_counter()
    for _ in range(n // chunk):
        loop.advance_many(chunk)
        loop.signals()
    return (time.perf_counter() - t0) / n


def bench_landing_gear(steps: int) -> dict[str, dict[str, float]]:
    """Seconds per step: the plant step alone ("model") and the whole closed loop
    (observation, controller, contact law, step) as the harness runs it: ten steps at a
    time (``advance_many``, compiled chunks for every plant with the shared contact law),
    then the signals recorded; the fastest of three runs of each."""
    p, sc = PARAMS, SCENARIOS["slope_lc"]
    aSL, aAZ = math.radians(sc.alpha_SL_deg), math.radians(sc.alpha_AZ_deg)
    chunk = 10  # the harness records every tenth step (1 kHz at dt = 0.1 ms)
    out = {}
    for impl in ("handrolled", "mujoco", "pybullet"):
        closed = model = math.inf
        for _ in range(3):
            plant = make_plant(
                impl, p, "as_derived", "shared", aSL, aAZ, Forms(), ROOT / "landing_gear"
            )
            plant.reset(initial_state(p, aSL, aAZ))
            loop = LandingGearLoop(plant, p, aSL, aAZ, True, "shared", Forms())
            loop.advance_many(200)  # warm-up (numba compilation, caches)
            t0 = time.perf_counter()
            for _ in range(steps // chunk):
                loop.advance_many(chunk)
                loop.signals()
            closed = min(closed, (time.perf_counter() - t0) / (steps // chunk * chunk))
            points = loop.engine_points()
            tau, F = np.zeros((4, 2)), loop.F_PF.copy()
            t0 = time.perf_counter()
            for _ in range(steps):
                plant.step(tau, F, 0.0)
            model = min(model, (time.perf_counter() - t0) / steps)
        out[impl] = _row(impl, model, closed, plant, steps, points)
    return out


def bench_rover(steps: int) -> dict[str, dict[str, float]]:
    """Seconds per 1 ms step of the plant alone ("model": wheel-soil forces from the
    implementation's state plus the dynamics step; compiled in MuJoCo's case), of the
    closed loop as the harness runs it (plus the torque-from-power drive, the state read
    back every tenth step for the 100 Hz trace), and of the engine's bare step, on
    straight driving at 3 m/s; the fastest of three runs of each."""
    from dynval.comparisons.rover.loop import RoverLoop
    from dynval.comparisons.rover.loop import make_plant as rover_plant
    from dynval.comparisons.rover.scenarios import SCENARIOS as ROVER_SCENARIOS
    from dynval.comparisons.rover.scenarios import initial_state as rover_initial
    from dynval.comparisons.rover.scenarios import scenario_params
    from dynval.robots.rover.params import PARAMS as ROVER
    from dynval.robots.rover.soil import load_soil

    sc = ROVER_SCENARIOS["straight_3"]
    p = scenario_params(ROVER, sc)
    soil = load_soil(p.soil)
    q, qd, T0, P0, _ = rover_initial(p, sc, soil)
    out = {}
    for impl in ("handrolled", "mujoco", "pybullet"):
        closed = model = math.inf
        for _ in range(3):  # the fastest of three runs, each from the scenario's start
            plant = rover_plant(impl, p, soil.as_tuple(), sc.rigid, ROOT / "rover")
            plant.reset(q, qd)
            loop = RoverLoop(plant, p, np.full((2, 2), T0), np.full((2, 2), P0), None)
            loop.advance_many(200)  # warm-up (numba compilation, caches)
            chunk = 10  # the harness steps from one 100 Hz sample to the next
            t0 = time.perf_counter()
            for _ in range(steps // chunk):
                loop.advance_many(chunk)
            closed = min(closed, (time.perf_counter() - t0) / (steps // chunk * chunk))
            T = loop.T.copy()
            t0 = time.perf_counter()
            if getattr(plant, "compiled", False):
                plant.advance_many(T, None, steps)
            else:
                for _ in range(steps):
                    plant.advance(T)
            model = min(model, (time.perf_counter() - t0) / steps)
        hubs = None if impl == "handrolled" else (plant.hub_links, plant.hub_offsets)
        out[impl] = _row(impl, model, closed, plant, steps, hubs)
        if impl != "handrolled":  # the wheel-soil law alone, on this engine's hubs
            law = (*plant.law_inputs(), T.ravel().copy(), p.r, p.b, p.D, soil.as_tuple())
            out[impl]["law"] = min(_per_call(lambda law=law: _law_loop(*law, steps), 1)
                                   for _ in range(3)) / steps
    return out


@njit(cache=True)
def _law_loop(p_0: np.ndarray, R_0: np.ndarray, v_0: np.ndarray, T: np.ndarray, r: float,
              b: float, D: float, soil: tuple, n: int) -> float:
    """n evaluations of the rover's wheel-soil law for all wheels, from compiled code as
    the compiled loops call it (timed from Python, numba's dispatch would add ~1 us a call:
    8 % of the law); returns a sum of the forces so that none is left out."""
    total = 0.0
    for _ in range(n):
        total += wheel_contacts(p_0, R_0, v_0, T, r, b, D, soil)[0][0, 0]
    return total


def _per_call(fn, n: int) -> float:
    fn()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t0) / n


def bench_quadruped_terms(calls: int) -> dict[str, dict[str, float]]:
    """Seconds per call from Python, floating base (18 coordinates), at a seeded state:
    the hand-rolled RNEA and M against Pinocchio's rnea and crba, by the fast path the
    simulation steps with (fast.py: body-axes recursion returning the 18 generalized
    forces, as pin.rnea does; M as sum J^T M J) and by the printed one (rnea.py's
    inverse_dynamics, which also returns the HAA reactions and feet accelerations; M by
    Walker-Orin's n RNEA calls)."""
    import pinocchio as pin

    from dynval.comparisons.quadruped import frames
    from dynval.comparisons.quadruped.audit import random_states
    from dynval.handrolled.quadruped import fast, rnea, terms
    from dynval.handrolled.quadruped.robot import build_model
    from dynval.robots.quadruped.model_description import joint_names

    model = build_model()
    s = random_states(1, 0)[0]
    th, g = s.theta.reshape(4, 3), np.array([0.0, 0.0, -9.81])
    nu, nudot = s.nu, s.nudot
    pm = pin.buildModelFromUrdf(str(ROOT / "quadruped" / "quadruped.urdf"),
                                pin.JointModelFreeFlyer())
    pd = pm.createData()
    from dynval.engines.pinocchio_engine import PinocchioTerms

    order = PinocchioTerms(ROOT / "quadruped" / "quadruped.urdf", floating=True,
                           joint_names=joint_names())
    q = order._q(frames.pinocchio_q(s.p_WB, s.R_WB, s.theta))
    v, a = order._v(nu), order._v(nudot)
    return {
        "RNEA": {"handrolled": _per_call(lambda: fast.generalized_forces(
            model, s.R_WB, s.theta, nu, nudot, g), calls),
            "printed": _per_call(lambda: rnea.inverse_dynamics(
                model, s.R_WB, nu[:6], nudot[:6], th, nu[6:], nudot[6:], g), calls),
            "pinocchio": _per_call(lambda: pin.rnea(pm, pd, q, v, a), calls)},
        "M": {"handrolled": _per_call(lambda: fast.mass_matrix(model, th), calls),
              "printed": _per_call(lambda: terms.mass_matrix(model, s.R_WB, th), calls),
              "pinocchio": _per_call(lambda: pin.crba(pm, pd, q), calls)},
    }


def bench_quadruped(steps: int) -> dict[str, dict[str, float]]:
    """Seconds per 1 ms trot step: the plant step alone ("model": the pinned-feet eq. (5)
    for the hand-rolled model, the engine's step with native contact) and the closed loop
    (plan, inverse dynamics with section 4's forces, PD) as the harness runs it: ten steps
    at a time (``advance_many``, compiled for the hand-rolled plant), then the signals
    recorded; the fastest of five runs of each."""
    from dynval.comparisons.quadruped.loop import QuadrupedLoop
    from dynval.comparisons.quadruped.loop import make_plant as quad_plant
    from dynval.handrolled.quadruped.gait import TROT
    from dynval.robots.quadruped.params import PARAMS as QUAD

    out = {}
    chunk = 10  # the harness records every tenth step
    n = min(steps, 250) // chunk * chunk  # a quarter of a trot cycle at most: the body
    repeats = 5  # is not balanced; so the fastest of five runs from the start, each
    for impl in ("handrolled", "mujoco", "pybullet"):  # short enough for noise to show
        closed = model = math.inf
        for _ in range(repeats):
            loop = QuadrupedLoop(quad_plant(impl, QUAD, ROOT / "quadruped"), QUAD, TROT)
            closed = min(closed, _harness_seconds(loop, n, chunk))
            tau = loop.tau.copy()
            loop.plant.step(tau, loop.stance)  # warm-up (the step's own compiled entry)
            t0 = time.perf_counter()
            for _ in range(n):
                loop.plant.step(tau, loop.stance)
            model = min(model, (time.perf_counter() - t0) / n)
        out[impl] = _row(impl, model, closed, loop.plant, n)
    return out


def bench_hopper(steps: int) -> dict[str, dict[str, float]]:
    """Seconds per step on the speed run (shared contact): the plant step alone ("model")
    and the closed loop (phase machine, eqs. 20-23, leg spring, contact law 24-25) as the
    harness runs it: five steps at a time (``advance_many``, compiled chunks for every
    plant), then the signals recorded; the fastest of three runs of each."""
    from dynval.comparisons.hopper.loop import HopperLoop
    from dynval.comparisons.hopper.loop import make_plant as hopper_plant
    from dynval.comparisons.hopper.scenarios import SCENARIOS as HOPPER_SCENARIOS
    from dynval.comparisons.hopper.scenarios import initial_state as hopper_initial
    from dynval.comparisons.hopper.scenarios import piecewise
    from dynval.robots.hopper.params import PARAMS as HOP

    sc = HOPPER_SCENARIOS["speed"]
    chunk = max(1, int(round(1e-3 / HOP.dt)))  # the harness records at 1 kHz
    n = steps // chunk * chunk
    out = {}
    for impl in ("handrolled", "mujoco", "pybullet"):
        closed = model = math.inf
        for _ in range(3):
            plant = hopper_plant(impl, HOP, "shared", ROOT / "hopper")
            plant.reset(*hopper_initial(HOP))
            loop = HopperLoop(plant, HOP, "shared", piecewise(sc.h_d), piecewise(sc.x_dot_d))
            closed = min(closed, _harness_seconds(loop, n, chunk))
            points = loop.engine_points()
            F = loop.F_foot.copy()
            t0 = time.perf_counter()
            for _ in range(n):
                plant.step(0.0, 0.0, F)
            model = min(model, (time.perf_counter() - t0) / n)
        out[impl] = _row(impl, model, closed, plant, n, points)
    return out


def bench_hopper_terms(calls: int) -> dict[str, float]:
    """Seconds per evaluation of eq. (19)'s M and bias on the 5-DoF planar chain: the
    literal operator products against the compiled recursions."""
    from dynval.handrolled.hopper import chain, soa
    from dynval.handrolled.hopper.recursive import Recursive
    from dynval.robots.hopper.params import PARAMS as HOP

    c = chain.planar(HOP)
    rec = Recursive(c)
    q, qd = np.array([0.1, 1.4, 0.05, 0.2, 0.9]), np.array([0.3, -1.0, 0.2, 1.0, -0.5])
    g, zero = soa.gravity_acceleration(HOP.g), np.zeros(5)

    def recursive() -> None:
        rec.mass_and_jacobian(q)
        rec.inverse_dynamics(q, qd, zero, g)

    recursive()  # compile
    return {"operator products": _per_call(lambda: soa.terms(c, q, qd), calls),
            "recursions": _per_call(recursive, calls)}


def bench_hexapod(steps: int) -> dict[str, dict[str, float]]:
    """Seconds per 50 us step of the WG beta = 50 % walk with the shared laws (the L4
    comparison loop: controller, drive, body springs and ground from each implementation's
    state): the plant step alone ("model") and the closed loop as the harness runs it
    (``advance_many`` from one 1 kHz sample to the next, then the signals), over ``steps``
    steps after a warm-up (numba compilation, caches); the fastest of three runs."""
    from dynval.comparisons.hexapod.loop import HexapodLoop, planned_start
    from dynval.comparisons.hexapod.loop import make_plant as hexapod_plant
    from dynval.comparisons.hexapod.scenarios import SCENARIOS as HEX_SCENARIOS
    from dynval.comparisons.hexapod.scenarios import scenario_params as hex_params
    from dynval.robots.hexapod.params import PARAMS as HEX

    p = hex_params(HEX, HEX_SCENARIOS["WG_50"])
    chunk = int(round(p.f_sr / 1000.0))  # the harness records at 1 kHz
    n = steps // chunk * chunk
    out = {}
    for impl in ("handrolled", "mujoco", "pybullet"):
        closed = model = math.inf
        for _ in range(3):
            plant = hexapod_plant(impl, p, "shared", ROOT / "hexapod")
            plant.reset(*planned_start(p))
            loop = HexapodLoop(plant, p)
            closed = min(closed, _harness_seconds(loop, n, chunk))
            args = (loop.F_seg.copy(), loop.tau_link.copy(), loop.F_feet.copy())
            plant.step(*args)  # warm-up
            t0 = time.perf_counter()
            for _ in range(n):
                plant.step(*args)
            model = min(model, (time.perf_counter() - t0) / n)
        out[impl] = _row(impl, model, closed, plant, n)
    return out


def bench_hexapod_walk(duration: float = 1.0) -> dict[str, float]:
    """Wall seconds per simulated second of the hand-rolled model's own WG beta = 50 % walk
    (PlanarHexapod: Heun at f_sr = 20 kHz, the FO controller at 2 kHz, non-linear ground,
    recording at 1 kHz), compiled step and printed (interpreted) step."""
    from dynval.handrolled.hexapod.robot import simulate
    from dynval.robots.hexapod.params import PARAMS as HEX

    p = HEX.with_(gait="WG", beta=0.5)
    simulate(p, 0.01, fast=True)  # compile (cached on disk after the first run)
    out = {}
    for name, fast in (("compiled", True), ("printed", False)):
        t0 = time.perf_counter()
        simulate(p, duration, fast=fast)
        out[name] = (time.perf_counter() - t0) / duration
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("robot", choices=["landing_gear", "rover", "quadruped", "hopper",
                                      "hexapod"])
    ap.add_argument("--steps", type=int, default=5000)
    args = ap.parse_args()
    if args.robot == "quadruped":
        for term, r in bench_quadruped_terms(args.steps).items():
            print(f"{term:<5} handrolled {r['handrolled'] * 1e6:8.2f} us/call, pinocchio "
                  f"{r['pinocchio'] * 1e6:6.2f} us/call: {r['handrolled'] / r['pinocchio']:.1f} x"
                  f" (printed path {r['printed'] * 1e6:.2f} us/call: "
                  f"{r['printed'] / r['pinocchio']:.1f} x)")
    if args.robot == "hopper":
        t = bench_hopper_terms(min(args.steps, 2000))
        ratio = t["operator products"] / t["recursions"]
        print(f"eq. (19) M and bias: operator products {t['operator products'] * 1e6:.1f} "
              f"us, recursions {t['recursions'] * 1e6:.1f} us: {ratio:.1f} x faster")
    bench = {"landing_gear": bench_landing_gear, "rover": bench_rover,
             "quadruped": bench_quadruped, "hopper": bench_hopper,
             "hexapod": bench_hexapod}[args.robot]
    res = bench(args.steps)
    ref = res["mujoco"]
    print(
        f"{'implementation':<12} {'model us/step':>14} {'x MuJoCo':>9} "
        f"{'loop us/step':>13} {'x MuJoCo':>9} {'loop/model':>11} {'bare us/step':>13} "
        f"{'model/bare':>11} {'loop/bare':>10} {'plant us/step':>14} {'plant/bare':>11}"
    )
    for impl, r in res.items():
        bare = (f"{r['bare'] * 1e6:13.1f} {r['model'] / r['bare']:11.2f} "
                f"{r['closed_loop'] / r['bare']:10.2f}") if "bare" in r else ""
        plant = (f" {r['plant'] * 1e6:14.1f} {r['plant'] / r['bare']:11.2f}"
                 if "plant" in r else "")
        print(
            f"{impl:<12} {r['model'] * 1e6:14.1f} {r['model'] / ref['model']:9.2f} "
            f"{r['closed_loop'] * 1e6:13.1f} {r['closed_loop'] / ref['closed_loop']:9.2f} "
            f"{r['closed_loop'] / r['model']:11.2f} {bare}{plant}"
        )
    print("bare: the engine's step alone, timed from compiled code; plant: the engine side "
          "of a compiled loop's step (efforts, forces at its points, the step, the state "
          "and points read), the robot's laws left out")
    if args.robot == "hexapod":
        for impl, r in res.items():
            print(f"{impl:<12} comparison loop runs {5e-5 / r['closed_loop']:.2f} x real time "
                  f"at f_sr = 20 kHz ({r['closed_loop'] / ref['closed_loop']:.2f} x MuJoCo's "
                  "time)")
        walk = bench_hexapod_walk()
        for name, w in walk.items():
            print(f"handrolled model's own WG walk (Heun, {name} step): {1.0 / w:.2f} x real "
                  f"time ({w:.2f} wall s per simulated s; "
                  f"{w / (20000 * res['mujoco']['closed_loop']):.2f} x MuJoCo's loop)")
    if args.robot == "rover":
        for impl, r in res.items():
            if "law" in r:
                print(f"{impl:<12} of the plant's {r['model'] * 1e6:.1f} us/step the "
                      f"wheel-soil law (4 wheels, 40-halving bisection each; compiled) is "
                      f"{r['law'] * 1e6:.1f} us = {r['law'] / r['bare']:.2f} x the bare step; "
                      f"the engine side (plant column) is {r['plant'] * 1e6:.1f} us")
        for impl, r in res.items():
            print(f"{impl:<12} closed loop runs {1e-3 / r['closed_loop']:.1f} x real time "
                  f"at dt = 1 ms (the thesis' MATLAB code: 0.03-0.04 x)")


if __name__ == "__main__":
    main()
