"""The quadruped's benchmark: RNEA and M per call against Pinocchio's, and the trot step
against the engines (``python -m dynval.comparisons.bench quadruped``)."""

from __future__ import annotations

from functools import partial

import numpy as np

from dynval.comparisons import bench
from dynval.robots import ROOT


def terms(calls: int) -> dict[str, dict[str, float]]:
    """Seconds per call from Python, floating base (18 coordinates), at a seeded state:
    the hand-rolled RNEA and M against Pinocchio's rnea and crba, by the fast path the
    simulation steps with (fast.py: body-axes recursion returning the 18 generalized
    forces, as pin.rnea does; M as sum J^T M J) and by the printed one (rnea.py's
    inverse_dynamics, which also returns the HAA reactions and feet accelerations; M by
    Walker-Orin's n RNEA calls)."""
    import pinocchio as pin

    from dynval.comparisons.quadruped import frames
    from dynval.comparisons.quadruped.audit import random_states
    from dynval.handrolled.quadruped import rnea, terms
    from dynval.handrolled.quadruped.fast import model as fast
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
        "RNEA": {"handrolled": bench.per_call(lambda: fast.generalized_forces(
            model, s.R_WB, s.theta, nu, nudot, g), calls),
            "printed": bench.per_call(lambda: rnea.inverse_dynamics(
                model, s.R_WB, nu[:6], nudot[:6], th, nu[6:], nudot[6:], g), calls),
            "pinocchio": bench.per_call(lambda: pin.rnea(pm, pd, q, v, a), calls)},
        "M": {"handrolled": bench.per_call(lambda: fast.mass_matrix(model, th), calls),
              "printed": bench.per_call(lambda: terms.mass_matrix(model, s.R_WB, th), calls),
              "pinocchio": bench.per_call(lambda: pin.crba(pm, pd, q), calls)},
    }


def run(steps: int) -> dict[str, dict[str, float]]:
    """Seconds per 1 ms trot step: the plant step alone ("model": the pinned-feet eq. (5)
    for the hand-rolled model, the engine's step with native contact) and the closed loop
    (plan, inverse dynamics with section 4's forces, PD) as the harness runs it: ten steps
    at a time (``advance_many``, compiled for the hand-rolled plant), then the signals
    recorded; the fastest of five runs of each."""
    from dynval.comparisons.quadruped.loop import QuadrupedLoop
    from dynval.comparisons.quadruped.loop import make_plant as quad_plant
    from dynval.handrolled.quadruped.gait import TROT
    from dynval.robots.quadruped.params import PARAMS as QUAD

    chunk = 10  # the harness records every tenth step
    n = min(steps, 250) // chunk * chunk  # a quarter of a trot cycle at most: the body
    # is not balanced; so the fastest of five runs from the start, each short enough for
    # noise to show

    def setup(impl: str) -> bench.Setup:
        loop = QuadrupedLoop(quad_plant(impl, QUAD, ROOT / "quadruped"), QUAD, TROT)

        def model_step():  # one step with the loop's last inputs: its torques and support
            loop.plant.support(loop.stance)
            return partial(loop.plant.step, loop.tau.copy(), None)

        return bench.Setup(loop.plant, loop, model_step)

    return bench.fastest_rows(setup, n, chunk, repeats=5)


def preface(steps: int) -> None:
    """The terms per call against Pinocchio, before the table."""
    for term, r in terms(steps).items():
        print(f"{term:<5} handrolled {r['handrolled'] * 1e6:8.2f} us/call, pinocchio "
              f"{r['pinocchio'] * 1e6:6.2f} us/call: {r['handrolled'] / r['pinocchio']:.1f} x"
              f" (printed path {r['printed'] * 1e6:.2f} us/call: "
              f"{r['printed'] / r['pinocchio']:.1f} x)")
