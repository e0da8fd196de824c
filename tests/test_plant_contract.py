"""The framework's plant contract (comparisons/ladder/plant.py): the hand-rolled plant
steps semi-implicit Euler exactly as the engines do, refuses what it cannot take, and a
controlled loop on MuJoCo's, PyBullet's and Drake's simulation of one description agrees with
the hand plant on the same equations to round-off, contact forces included."""

import numpy as np
import pytest

from dynval.comparisons.ladder import plant
from dynval.comparisons.ladder.scenario_run import ScenarioRun, run_scenario


def _run(loop: plant.ControlledLoop, duration: float, record_every: int = 1):
    """A loop's trace over ``duration`` [s], run as every scenario run is."""
    return run_scenario(ScenarioRun(loop, loop.plant.dt, duration, record_every))


def test_the_hand_plant_steps_velocity_first_then_position():
    hp = plant.HandPlant(lambda q, v, tau: -4.0 * q + tau, 0.1, np.array([1.0]))
    hp.step(np.array([0.5]), ())
    v1 = 0.0 + 0.1 * (-4.0 * 1.0 + 0.5)
    assert hp.v[0] == v1 and hp.q[0] == 1.0 + 0.1 * v1


class _Slider:
    """A point mass on a rail along x at height 1 m: the frame "tip" is the mass."""

    def frame_position(self, name, q):
        return np.array([q[0], 0.0, 1.0])

    def frame_jacobian(self, name, q):
        return np.array([[1.0], [0.0], [0.0]])


def test_a_force_on_a_contact_point_enters_through_the_models_jacobian():
    tip = plant.ContactPoint("tip", "cart")
    hp = plant.HandPlant(lambda q, v, tau: tau / 2.0, 0.1, np.zeros(1), [tip], _Slider())
    P, V = hp.points()
    assert P.tolist() == [[0.0, 0.0, 1.0]] and V.tolist() == [[0.0, 0.0, 0.0]]
    hp.step(np.array([1.0]), np.array([[3.0, 5.0, 7.0]]))  # only x does work on the rail
    assert hp.v[0] == 0.1 * (1.0 + 3.0) / 2.0
    assert hp.points()[1].tolist() == [[hp.v[0], 0.0, 0.0]]


def test_a_hand_plant_without_the_models_frames_refuses_contact_points():
    with pytest.raises(ValueError, match="contact points need the model's frame_position"):
        plant.HandPlant(lambda q, v, tau: tau, 0.1, np.zeros(1),
                        [plant.ContactPoint("tip", "cart")])


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
    trace = _run(loop, 0.05)
    assert list(trace.columns) == ["time", "joint.rail.extension", "joint.rail.force"]
    assert len(trace) == 6
    force = trace["joint.rail.force"].to_numpy()
    assert force[0] == 0.0 and force[1] == 2.0  # before the first step, then its effort
    assert loop.t == pytest.approx(0.05, abs=1e-12)


@pytest.mark.parametrize("engine", plant.ENGINES)
def test_an_engine_plant_under_a_loop_agrees_with_the_hand_plant(engine):
    """The landing gear's fixed-base leg (two hinges), driven by a PD law and a contact
    law (a spring on a point of the lower link) in the engine's simulation, and in the
    hand plant built from that engine's own terms (M, bias and the point's Jacobian): the
    same equations, scheme and step, so round-off only."""
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

    foot = plant.ContactPoint("foot", "LF_lower", (0.1, 0.0, 0.0))  # of the lower link

    class Model:  # the engine's terms as a hand-rolled model: M, bias and the foot
        def mass_matrix(self, q):
            return terms.mass_matrix(q)

        def bias(self, q, v):
            return terms.bias(q, v)

        def frame_position(self, name, q):
            return terms.frame_position(foot.link, q, np.array(foot.offset))

        def frame_jacobian(self, name, q):
            return terms.frame_jacobian(foot.link, q, np.array(foot.offset))

    def pd(t, q, v):
        return -20.0 * (q - 0.5 * q0) - 1.0 * v

    def spring(P, V):  # a contact law: a spring pulling the foot towards the origin
        return -50.0 * P

    def record(lp):
        q, _ = lp.plant.joint_state()
        return {"joint.LF.hip.angle": float(q[0]), "joint.LF.knee.angle": float(q[1])}

    eng = plant.EnginePlant(engine, robot_dir("landing_gear"), "landing_gear_leg_as_derived",
                            ["LF_hip", "LF_knee"], PARAMS.dt, (0.0, 0.0, -PARAMS.g), q0,
                            points=[foot])
    a = _run(plant.ControlledLoop(eng, pd, record, spring), 0.2)
    hand = plant.HandPlant.of_model(Model(), PARAMS.dt, q0, [foot])
    b = _run(plant.ControlledLoop(hand, pd, record, spring), 0.2)
    assert np.max(np.abs(a.to_numpy() - b.to_numpy())) < 1e-12
    assert np.ptp(a["joint.LF.hip.angle"].to_numpy()) > 0.01  # it moved
    eng = plant.EnginePlant(engine, robot_dir("landing_gear"), "landing_gear_leg_as_derived",
                            ["LF_hip", "LF_knee"], PARAMS.dt, (0.0, 0.0, -PARAMS.g), q0)
    free = _run(plant.ControlledLoop(eng, pd, record), 0.2)
    assert np.max(np.abs(free.to_numpy() - b.to_numpy())) > 1e-3  # the contact law counts


# --- a paper robot's floating base and ground contact through the contract -------------
HOP_WINDOW = 0.6  # [s]: the drop, the landing at about 0.15 s and the leg's compression


def _hopper_loop(implementation: str, p):
    """The hopper's 8-DoF chain of Fig. 3 (its body on six base joints, hopper_6dof.urdf)
    dropped with its foot 0.1 m up onto the ground of eqs. (24)-(25); the leg spring
    carries it, a PD holds the hip. The hand plant is the protocol model HopperChain
    (eq. (19) by the paper's operator products), the ground force entering as J^T F."""
    from dynval.handrolled.hopper import contact
    from dynval.handrolled.hopper.protocol import HopperChain
    from dynval.robots import robot_dir

    model = HopperChain(p)
    q0 = np.zeros(8)
    q0[[2, 4, 6, 7]] = (1.5, 0.05, -0.05, p.r_0)  # height, pitch, hip, leg length
    foot = plant.ContactPoint("leg", "leg")  # the foot: the leg frame's origin

    def ground(P, V):  # eqs. (24)-(25) at the foot, the ground the plane z = 0
        F_n = contact.normal_force(P[0, 2], V[0, 2], p)
        return np.array([[contact.friction_force(F_n, V[0, 0], p),
                          contact.friction_force(F_n, V[0, 1], p), F_n]])

    def control(t, q, v):
        tau = np.zeros(8)
        tau[6] = -50.0 * q[6] - 2.0 * v[6]
        tau[7] = contact.leg_force(q[7], v[7], 0.0, p)
        return tau

    def record(lp):
        q, _ = lp.plant.joint_state()
        return {"body.z": float(q[2]), "body.pitch": float(q[4]),
                "joint.hip.angle": float(q[6]), "joint.leg.extension": float(q[7]),
                "foot.force.z": 0.0 if lp.F is None else float(lp.F[0, 2])}

    if implementation == "handrolled":
        robot = plant.HandPlant.of_model(model, p.dt, q0, [foot])
    else:
        robot = plant.EnginePlant(implementation, robot_dir("hopper"), "hopper_6dof",
                                  model.joint_names, p.dt, (0.0, 0.0, -p.g), q0, points=[foot])
    return plant.ControlledLoop(robot, control, record, ground)


@pytest.fixture(scope="module")
def hopper_hand():
    from dynval.robots.hopper.params import PARAMS

    return _run(_hopper_loop("handrolled", PARAMS), HOP_WINDOW, record_every=10)


@pytest.mark.parametrize("engine", ["pybullet", "drake"])  # MuJoCo: no MJCF of the chain
def test_a_paper_robots_floating_base_and_contact_through_the_contract(engine, hopper_hand):
    """The hopper's floating base as the model's own coordinates and its paper's ground
    law on the foot, in the framework's plants only: the hand model and the engine's
    simulation of the chain's URDF are round-off apart through the landing (measured
    3e-16 m and rad, the foot force 5e-11 N of 640 N), and a 1 % heavier body in the hand
    model is not (4.6 mm of height by the end of the window)."""
    from dynval.robots.hopper.params import PARAMS

    eng = _run(_hopper_loop(engine, PARAMS), HOP_WINDOW, record_every=10)
    force = hopper_hand["foot.force.z"].to_numpy()
    assert force.max() > PARAMS.m_total * PARAMS.g  # it landed, and the leg took its weight
    joints = ["body.z", "body.pitch", "joint.hip.angle", "joint.leg.extension"]
    assert np.max(np.abs(eng[joints].to_numpy() - hopper_hand[joints].to_numpy())) < 1e-12
    assert np.max(np.abs(eng["foot.force.z"].to_numpy() - force)) < 1e-12 * force.max()
    heavy = _run(_hopper_loop("handrolled", PARAMS.with_(M=1.01 * PARAMS.M)), HOP_WINDOW,
                 record_every=10)
    assert np.max(np.abs(heavy["body.z"].to_numpy() - eng["body.z"].to_numpy())) > 1e-4
