"""The framework's plant contract (comparisons/ladder/plant.py): the hand-rolled plant
steps semi-implicit Euler exactly as the engines do, refuses what it cannot take, and a
controlled loop on MuJoCo's, PyBullet's and Drake's simulation of one description agrees with
the hand plant on the same equations to round-off."""

import numpy as np
import pytest

from dynval.comparisons.ladder import plant
from dynval.engines.base import PointForce


def test_the_hand_plant_steps_velocity_first_then_position():
    hp = plant.HandPlant(lambda q, v, tau: -4.0 * q + tau, 0.1, np.array([1.0]))
    hp.step(np.array([0.5]), ())
    v1 = 0.0 + 0.1 * (-4.0 * 1.0 + 0.5)
    assert hp.v[0] == v1 and hp.q[0] == 1.0 + 0.1 * v1


def test_the_hand_plant_takes_joint_efforts_only():
    hp = plant.HandPlant(lambda q, v, tau: tau, 0.1, np.zeros(1))
    with pytest.raises(ValueError, match="HandPlant takes joint efforts only"):
        hp.step(np.zeros(1), [PointForce("x", np.zeros(3), np.ones(3))])


def test_an_engine_that_does_not_simulate_is_one_sentence(tmp_path):
    with pytest.raises(ValueError, match="no engine plant for 'pinocchio'; the engines that "
                                         "simulate are mujoco, pybullet, drake"):
        plant.EnginePlant("pinocchio", tmp_path, "x", ["j"], 0.001, (0, 0, -9.81),
                          np.zeros(1))


def test_a_controlled_loop_records_its_efforts_and_its_clock():
    hp = plant.HandPlant(lambda q, v, tau: tau, 0.01, np.zeros(1))
    loop = plant.ControlledLoop(hp, lambda t, q, v: np.array([2.0 - q[0]]),
                                lambda lp: {"joint.rail.extension": lp.plant.joint_state()[0][0],
                                            "joint.rail.force": float(lp.tau[0])})
    trace = plant.run_scenario(loop, 0.05, None)
    assert list(trace.columns) == ["time", "joint.rail.extension", "joint.rail.force"]
    assert len(trace) == 6
    force = trace["joint.rail.force"].to_numpy()
    assert force[0] == 0.0 and force[1] == 2.0  # before the first step, then its effort
    assert loop.t == pytest.approx(0.05, abs=1e-12)


@pytest.mark.parametrize("engine", plant.ENGINES)
def test_an_engine_plant_under_a_loop_agrees_with_the_hand_plant(engine):
    """The landing gear's fixed-base leg (two hinges), driven by a PD law and a contact
    law (a spring on a point of the lower link, as point forces) in the engine's
    simulation, and in the hand plant built from that engine's own terms (M, bias and the
    point's Jacobian): the same equations, scheme and step, so round-off only."""
    from dynval.comparisons.landing_gear.audit import leg_engines
    from dynval.robots import robot_dir
    from dynval.robots.landing_gear.params import PARAMS

    if engine == "drake":  # not among the paper's audit engines: its terms of the URDF
        from dynval.engines.drake_engine import DrakeTerms

        terms = DrakeTerms(robot_dir("landing_gear") / "landing_gear_leg_as_derived.urdf",
                           (0.0, 0.0, -PARAMS.g), joint_names=["LF_hip", "LF_knee"])
    else:
        terms = {t.name: t for t in leg_engines(robot_dir("landing_gear"), PARAMS)}[engine]
    q0 = np.array([0.3, -0.6])

    foot = np.array([0.1, 0.0, 0.0])  # a point of the lower link

    def pd(t, q, v):
        return -20.0 * (q - 0.5 * q0) - 1.0 * v

    def spring(p):  # a contact law: a spring pulling that point towards the origin
        x, _ = eng.sim.point("LF_lower", foot)
        return [PointForce("LF_lower", foot, -50.0 * x)]

    def fd(q, v, tau):  # the same law through the engine's Jacobian: tau + J^T F
        x = terms.frame_position("LF_lower", q, foot)
        J = terms.frame_jacobian("LF_lower", q, foot)
        return np.linalg.solve(terms.mass_matrix(q), tau + J.T @ (-50.0 * x)
                               - terms.bias(q, v))

    def record(lp):
        q, _ = lp.plant.joint_state()
        return {"joint.LF.hip.angle": float(q[0]), "joint.LF.knee.angle": float(q[1])}

    eng = plant.EnginePlant(engine, robot_dir("landing_gear"), "landing_gear_leg_as_derived",
                            ["LF_hip", "LF_knee"], PARAMS.dt, (0.0, 0.0, -PARAMS.g), q0)
    a = plant.run_scenario(plant.ControlledLoop(eng, pd, record, spring), 0.2, None)
    b = plant.run_scenario(plant.ControlledLoop(plant.HandPlant(fd, PARAMS.dt, q0), pd,
                                                record), 0.2, None)
    assert np.max(np.abs(a.to_numpy() - b.to_numpy())) < 1e-12
    assert np.ptp(a["joint.LF.hip.angle"].to_numpy()) > 0.01  # it moved
    eng = plant.EnginePlant(engine, robot_dir("landing_gear"), "landing_gear_leg_as_derived",
                            ["LF_hip", "LF_knee"], PARAMS.dt, (0.0, 0.0, -PARAMS.g), q0)
    free = plant.run_scenario(plant.ControlledLoop(eng, pd, record), 0.2, None)
    assert np.max(np.abs(free.to_numpy() - b.to_numpy())) > 1e-3  # the contact law counts
