"""The hand-rolled quadruped's fast path (fast.py, fastloop.py, fasttrip.py) against the
printed one (rnea.py, terms.py's Walker-Orin mass matrix, reduced.py, simulation.py, gait.py,
inverse.py, roundtrip.py and the Python closed loop): the same numbers to round-off.

Tolerances: the two paths sum the same products in another order (body axes instead of
link frames, J^T M J instead of unit-acceleration columns, Gaussian elimination instead
of LAPACK), so single terms differ by a few ulp of the largest term they are summed
with; 1e-12 of an output's largest entry is ~5000 ulp, room for the cancellation in
those sums and nothing more.  Trajectories compound that per step; over the horizons
below the observed gap stays at a few 1e-12 relative (the joint acceleration, a
difference of rates over dt, the largest), held at 1e-10.
"""

from dataclasses import fields

import numpy as np
import pytest

from dynval.comparisons.quadruped import section6
from dynval.comparisons.quadruped.loop import HandrolledPlant, QuadrupedLoop
from dynval.handrolled import ModelInputError, so3
from dynval.handrolled.quadruped import rnea, terms
from dynval.handrolled.quadruped.fast import loop as fastloop
from dynval.handrolled.quadruped.fast import model as fast
from dynval.handrolled.quadruped.fast import trip as fasttrip
from dynval.handrolled.quadruped.fast.simulation import CompiledPinnedFeetSimulation
from dynval.handrolled.quadruped.gait import TROT, WALK, Gait, plan
from dynval.handrolled.quadruped.inverse import feedforward
from dynval.handrolled.quadruped.kinematics import standing_height
from dynval.handrolled.quadruped.robot import build_model
from dynval.handrolled.quadruped.roundtrip import RoundTrip, round_trip
from dynval.handrolled.quadruped.simulation import PinnedFeetSimulation
from dynval.robots.quadruped.params import PARAMS

MODEL = build_model()
G = np.array([0.0, 0.0, -9.81])
ROUND_OFF = 1e-12  # of an output's largest entry (module docstring)
TRAJECTORY = 1e-10  # relative, after hundreds of steps (module docstring)


def _close(a: np.ndarray, b: np.ndarray, tol: float = ROUND_OFF) -> bool:
    a, b = np.asarray(a, float), np.asarray(b, float)
    return bool(np.max(np.abs(a - b)) <= tol * max(1.0, float(np.max(np.abs(a)))))


def _random_state(rng):
    return (so3.exp(rng.normal(size=3)), rng.uniform(-2.0, 2.0, 12), rng.normal(size=18),
            rng.normal(size=18))


def test_rnea_matches_the_printed_recursion():
    rng = np.random.default_rng(11)
    for _ in range(20):
        R, th, nu, nd = _random_state(rng)
        F = 50.0 * rng.normal(size=(4, 3))
        printed = rnea.inverse_dynamics(MODEL, R, nu[:6], nd[:6], th, nu[6:], nd[6:], G, F)
        compiled = fast.inverse_dynamics(MODEL, R, nu[:6], nd[:6], th, nu[6:], nd[6:], G, F)
        for a, b in zip(printed, compiled, strict=True):
            assert _close(a, b)
        assert _close(terms.generalized_forces(MODEL, R, th, nu, nd, G),
                      fast.generalized_forces(MODEL, R, th, nu, nd, G))


def test_mass_matrix_matches_walker_orin_columns():
    rng = np.random.default_rng(12)
    for _ in range(20):
        R, th, _, _ = _random_state(rng)
        M = fast.mass_matrix(MODEL, th)
        assert _close(terms.mass_matrix(MODEL, R, th), M)
        assert _close(terms.mass_matrix(MODEL, R, th, floating=False),
                      fast.mass_matrix(MODEL, th, floating=False))
        assert np.array_equal(M, M.T)


@pytest.mark.parametrize("before, after", [
    ((), ()), (("LF", "RB"), ("LF", "RB")), (("RF", "LB"), ("RF", "LB", "LF")),
    ((), ("LF", "RF", "LB", "RB")), (("LF", "RF", "LB"), ("LF", "RF", "LB", "RB"))])
def test_pinned_feet_step_matches_the_printed_step(before, after):
    """A touchdown impact (feet joining the support) and then 100 steps."""
    rng = np.random.default_rng(13)
    R = so3.exp(0.1 * rng.normal(size=3))
    theta, nu, tau = rng.uniform(-1.0, 1.0, 12), rng.normal(size=18), rng.normal(size=12)
    sims = [PinnedFeetSimulation(MODEL, G, 1e-3), CompiledPinnedFeetSimulation(MODEL, G, 1e-3)]
    for s in sims:
        s.reset(np.array([0.0, 0.0, 0.3]), R, theta, nu, before)
    for _ in range(100):
        for s in sims:
            s.step(tau, after)
    a, b = sims
    assert a.t == b.t and a.stance == b.stance
    for name in ("p_WB", "R_WB", "theta", "nu", "F_foot_B", "nudot"):
        assert _close(getattr(a, name), getattr(b, name), TRAJECTORY), name


@pytest.mark.parametrize("gait", [TROT, WALK])
def test_compiled_plan_and_feedforward_match_the_printed_ones(gait):
    height = standing_height(PARAMS)
    ga = fastloop.gait_arrays(gait)
    dirs, count = fastloop.pattern_tables()
    c = fastloop.Planned(*(np.empty((4, 3)) for _ in range(4)), np.empty(3), np.empty(3))
    F, tau, residual = np.empty((4, 3)), np.empty(12), np.empty(6)
    compiled_plan = fastloop.Plan(MODEL.links, ga.scalars, ga.offsets, ga.starts,
                                  ga.start_side, dirs, count)
    for t in np.linspace(0.0, 2.0 * gait.period, 397):
        s = plan(MODEL, gait, t, height, PARAMS.foot_radius)
        ff = feedforward(MODEL, s, G)
        mask = fastloop.plan_and_feedforward(compiled_plan, t, height, PARAMS.foot_radius, G,
                                             c, tau, F, residual)
        assert fastloop.stance_of(mask) == s.stance
        for a, b in ((s.theta, c.theta), (s.thetad, c.thd), (s.thetadd, c.thdd),
                     (s.p_B4, c.p_B4), (ff.tau.ravel(), tau), (ff.F_foot_B, F),
                     (ff.residual, residual)):
            assert _close(a, b)


@pytest.mark.parametrize("gait, steps", [(TROT, 600), (WALK, 1200)])
def test_compiled_closed_loop_follows_the_printed_loop(gait, steps):
    """advance_many (fastloop.run_chunk) against advance() with the printed plant, every
    recorded signal, one trot cycle and the walk's first 1.2 s."""
    printed = QuadrupedLoop(HandrolledPlant(PARAMS, fast=False), PARAMS, gait)
    compiled = QuadrupedLoop(HandrolledPlant(PARAMS, fast=True), PARAMS, gait)
    for _ in range(steps // 10):
        for _ in range(10):
            printed.advance()
        compiled.advance_many(10)
        assert printed.t == compiled.t and printed.stance == compiled.stance
        a, b = printed.signals(), compiled.signals()
        assert list(a) == list(b)
        for name in a:
            assert abs(a[name] - b[name]) <= TRAJECTORY * max(1.0, abs(a[name])), name


# a swing lift no leg reaches
FAR = Gait("far", stride=0.2, height=0.7, period=0.6, swing_fraction=0.5, offsets=TROT.offsets)


def _raise_at_the_same_time(python: QuadrupedLoop, chunked: QuadrupedLoop) -> None:
    """advance() and advance_many(10) both stop with the plan's own error, at one time."""
    with pytest.raises(ModelInputError, match="out of reach"):
        for _ in range(1000):
            python.advance()
    with pytest.raises(ModelInputError, match="out of reach"):
        for _ in range(100):
            chunked.advance_many(10)
    assert python.t == chunked.t


def test_compiled_loop_raises_where_the_plan_leaves_the_legs_reach():
    """The hand-rolled chunk stops and the plan's own error comes out."""
    _raise_at_the_same_time(*(QuadrupedLoop(HandrolledPlant(PARAMS, fast=f), PARAMS, FAR)
                              for f in (False, True)))


def test_engine_loops_take_the_compiled_reference_at_round_off():
    # MuJoCo trotting on its native ground: the plan and feedforward from
    # fastloop.plan_and_feedforward against the printed plan() and feedforward() at every
    # step; the closed loop (PD on the engine's state) keeps them within 1e-9 of each
    # signal's scale over 0.3 s (measured 1.2e-13 trot, 2.8e-13 walk: round-off grown
    # through the contacts)
    from unittest import mock

    from dynval.comparisons.ladder import harness
    from dynval.comparisons.quadruped.loop import _CompiledReference, make_plant
    from dynval.robots import ROOT

    def trace():
        loop = QuadrupedLoop(make_plant("mujoco", PARAMS, ROOT / "quadruped"), PARAMS, TROT)
        return loop, harness.run(loop, 0.3, PARAMS.dt, 10)

    def step_by_step(self, n):  # the Python loop, calling the printed plan each step
        for _ in range(n):
            self.advance()

    fast_loop, fast_df = trace()
    assert isinstance(fast_loop._reference, _CompiledReference)
    with (mock.patch.object(_CompiledReference, "at", lambda self, t: None),
          mock.patch.object(QuadrupedLoop, "advance_many", step_by_step)):
        _, slow_df = trace()
    scale = np.maximum(1.0, slow_df.abs().max())
    assert float(((fast_df - slow_df).abs().max() / scale).max()) < 1e-9


def test_engine_chunk_raises_where_the_plan_leaves_the_legs_reach():
    """On MuJoCo: the chunk stops at the step after which the plan fails and the printed
    plan's error comes out at the same time as the Python loop's."""
    from dynval.comparisons.quadruped.loop import make_plant
    from dynval.robots import ROOT

    _raise_at_the_same_time(*(QuadrupedLoop(make_plant("mujoco", PARAMS, ROOT / "quadruped"),
                                            PARAMS, FAR) for _ in range(2)))


HEIGHT = standing_height(PARAMS) - PARAMS.foot_radius  # section 6's: feet as points on z = 0


def assert_same_round_trip(printed: RoundTrip, compiled: RoundTrip) -> None:
    """Every recorded trace of two round trips within ROUND_OFF of its scale: the time grid
    and the plan's joint traces to round-off, the integrated ones after the open loop's
    steps (measured at most 5e-13)."""
    for f in fields(RoundTrip):
        assert _close(getattr(printed, f.name), getattr(compiled, f.name)), f.name


@pytest.mark.parametrize("gait, dt, duration, start, kwargs", [
    # the walk's first change of support at 0.8 s (RB lands, RF lifts): a restart, the
    # support taken 1 ns late, as section 6's whole cycle runs
    (WALK, 2e-3, 0.2, 0.7, {"split": "side-wise", "restart": True}),
    # into its first four-leg phase (1.6 s) under each split, with the touchdown impact
    (WALK, 1e-3, 0.3, 1.5, {"split": "paper"}),
    (WALK, 1e-3, 0.3, 1.5, {"split": "side-wise"}),
    (WALK, 1e-3, 0.3, 1.5, {"split": "min-norm", "restart": True}),
    (TROT, 1e-3, 0.15, 0.0, {}),
])
def test_compiled_round_trip_follows_the_printed_one(gait, dt, duration, start, kwargs):
    """fasttrip.round_trip_euler against roundtrip.round_trip (semi-implicit Euler), each
    walk case with section 6's snapped support."""
    snap = section6.SNAP if gait is WALK else 0.0
    planner = section6.snapped_planner(MODEL, gait, HEIGHT) if snap else None
    printed = round_trip(MODEL, gait, HEIGHT, G, dt, duration, planner=planner, start=start,
                         **kwargs)
    compiled = fasttrip.round_trip_euler(MODEL, gait, HEIGHT, G, dt, duration, start=start,
                                         snap=snap, **kwargs)
    assert_same_round_trip(printed, compiled)


def test_compiled_round_trip_raises_the_printed_plans_error():
    with pytest.raises(ModelInputError, match="out of reach"):
        fasttrip.round_trip_euler(MODEL, FAR, HEIGHT, G, 1e-3, 0.3)
