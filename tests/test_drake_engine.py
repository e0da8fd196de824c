"""Drake as the fourth reading of a description: its terms against Pinocchio's (an
independent implementation) through the adapter's orderings and free-root conventions, its
parser's warnings and refusals in words, and the odd reading named where one engine's
reader differs from the others."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from dynval.comparisons.own_model import loading
from dynval.comparisons.own_model.audit import audit_model
from dynval.comparisons.own_model.l0 import odd_one_out, odd_readings
from dynval.comparisons.own_model.parity import EngineModel, leaf_links
from dynval.engines import DescriptionError, EngineRefusalError

pytest.importorskip("pydrake")

from dynval.engines.drake_engine import DrakeTerms  # noqa: E402
from dynval.engines.pinocchio_engine import PinocchioFreeRoot, PinocchioTerms  # noqa: E402

# Two engines computing one rigid-body term in double precision differ by a few ulps of
# the term's scale per arithmetic layer (a chain of n bodies: ~10 n roundings); 1e-12 of
# the scale is far above that for the trees here (50 joints at most) and far below any
# modelling difference (a mass printed to 6 digits moves a term by ~1e-6).
ROUND_OFF = 1e-12

ARM = """<robot name="arm">
  <link name="base"><inertial><mass value="2"/>
    <inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="l1"><inertial><origin xyz="0.1 0.02 -0.03" rpy="0.3 -0.2 0.5"/>
    <mass value="1.5"/>
    <inertia ixx="0.02" iyy="0.03" izz="0.04" ixy="0.001" ixz="-0.002" iyz="0.003"/>
  </inertial></link>
  <link name="l2"><inertial><origin xyz="0.2 0 0.01" rpy="0 0.4 0"/><mass value="0.7"/>
    <inertia ixx="0.01" iyy="0.012" izz="0.015" ixy="-0.001" ixz="0.0005" iyz="0.001"/>
  </inertial></link>
  <link name="tip"><inertial><mass value="0.1"/>
    <inertia ixx="1e-4" iyy="1e-4" izz="1e-4" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/>
    <origin xyz="0 0 0.3" rpy="0.1 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" effort="10" velocity="5"/><dynamics damping="0.5"/></joint>
  <joint name="j2" type="continuous"><parent link="l1"/><child link="l2"/>
    <origin xyz="0.4 0 0" rpy="0 0.2 0"/><axis xyz="0 1 0"/></joint>
  <joint name="tip_joint" type="fixed"><parent link="l2"/><child link="tip"/>
    <origin xyz="0.3 0 0"/></joint>
</robot>
"""

def _robots() -> Path:
    from dynval.engines.packages import example_robot_data_robots

    folder = example_robot_data_robots()
    assert folder is not None, "example-robot-data, a test dependency, is not installed"
    return folder


@pytest.fixture
def arm(tmp_path: Path) -> Path:
    path = tmp_path / "arm.urdf"
    path.write_text(ARM)
    return path


def _states(n_joints: int, free: bool, k: int = 12, seed: int = 3):
    rng = np.random.default_rng(seed)
    n = n_joints + 6 * free
    for _ in range(k):
        q = rng.uniform(-np.pi, np.pi, n_joints)
        if free:
            quat = rng.normal(size=4)
            q = np.r_[rng.normal(size=3), quat / np.linalg.norm(quat), q]
        yield q, rng.normal(size=n), rng.normal(size=n)


def _max_rel(drake, pin, joints: list[str], free: bool, frames: list[str]) -> dict[str, float]:
    """Drake's worst difference from Pinocchio per term, relative to the term's largest
    magnitude over the states."""
    diff: dict[str, float] = {}
    scale: dict[str, float] = {}
    for q, v, a in _states(len(joints), free):
        pairs = {"M": (drake.mass_matrix(q), pin.mass_matrix(q)),
                 "bias": (drake.bias(q, v), pin.bias(q, v)),
                 "G": (drake.gravity(q), pin.gravity(q)),
                 "tau": (drake.inverse_dynamics(q, v, a), pin.inverse_dynamics(q, v, a))}
        for f in frames:
            pairs[f"p[{f}]"] = (drake.frame_position(f, q), pin.frame_position(f, q))
            pairs[f"J[{f}]"] = (drake.frame_jacobian(f, q), pin.frame_jacobian(f, q))
        for term, (x, y) in pairs.items():
            diff[term] = max(diff.get(term, 0.0), float(np.max(np.abs(x - y))))
            scale[term] = max(scale.get(term, 0.0), float(np.max(np.abs(y))))
    return {t: diff[t] / scale[t] for t in diff if scale[t] > 0.0}


def test_drake_signs_and_terms_match_pinocchio_on_a_fixed_arm(arm):
    drake = DrakeTerms(arm, joint_names=["j1", "j2"])
    pin = PinocchioTerms(arm, joint_names=["j1", "j2"])
    worst = _max_rel(drake, pin, ["j1", "j2"], False, ["tip", "l1"])
    assert max(worst.values()) < ROUND_OFF, worst
    # the gravity of a raised arm is not zero, so its sign is tested, not just its size
    assert np.max(np.abs(pin.gravity(np.array([0.3, 0.7])))) > 0.1


def test_joint_order_is_the_callers(arm):
    ab = DrakeTerms(arm, joint_names=["j1", "j2"])
    ba = DrakeTerms(arm, joint_names=["j2", "j1"])
    q, v = np.array([0.4, -1.1]), np.array([0.5, 2.0])
    np.testing.assert_allclose(ba.mass_matrix(q[::-1]), ab.mass_matrix(q)[::-1, ::-1],
                               rtol=0, atol=1e-15)
    np.testing.assert_allclose(ba.bias(q[::-1], v[::-1]), ab.bias(q, v)[::-1], atol=1e-14)
    np.testing.assert_allclose(ba.frame_jacobian("tip", q[::-1]),
                               ab.frame_jacobian("tip", q)[:, ::-1], atol=1e-15)


def test_free_root_in_mujocos_convention_matches_pinocchio(arm):
    """q = (p, w x y z, joints), v = (v_WB in W, w_WB in B, joints): Drake's quaternion
    joint takes (w x y z, p) and (w in W, v in W); mapped right, every term and frame
    agrees with Pinocchio's free flyer mapped its own way."""
    drake = DrakeTerms(arm, joint_names=["j1", "j2"], free_root=True)
    pin = PinocchioFreeRoot(arm, joint_names=["j1", "j2"])
    worst = _max_rel(drake, pin, ["j1", "j2"], True, ["tip", "base"])
    assert max(worst.values()) < ROUND_OFF, worst
    # the mapping matters: Drake's own velocity order gives a different M
    q = next(_states(2, True))[0]
    assert np.max(np.abs(drake.mass_matrix(q) - pin.mass_matrix(q))) < 1e-12
    raw = drake.plant.CalcMassMatrix(drake.context)
    assert np.max(np.abs(raw[:8, :8] - pin.mass_matrix(q))) > 0.1


@pytest.mark.parametrize("relative, free", [
    ("ur_description/urdf/ur5_robot.urdf", False),
    ("panda_description/urdf/panda.urdf", False),
    ("solo_description/robots/solo12.urdf", True),
])
def test_real_robots_agree_with_pinocchio_to_round_off(relative, free):
    prepared = loading.prepare(_robots() / relative)
    joints, _ = loading.description_joints(prepared.path)
    drake = DrakeTerms(prepared.path, joint_names=joints, free_root=free)
    pin = (PinocchioFreeRoot(prepared.path, joint_names=joints) if free
           else PinocchioTerms(prepared.path, joint_names=joints))
    worst = _max_rel(drake, pin, joints, free, leaf_links(prepared.path))
    assert max(worst.values()) < ROUND_OFF, worst
    # the description facts agree too: every moving body, every axis
    bodies, theirs = drake.body_inertials(), pin.body_inertials()
    assert set(bodies) == set(theirs)
    for name, y in theirs.items():
        assert abs(bodies[name].mass - y.mass) <= 1e-12 * max(y.mass, 1e-300)
        np.testing.assert_allclose(bodies[name].inertia, y.inertia, rtol=0, atol=1e-12)
    for joint, axis in pin.joint_axes().items():
        np.testing.assert_allclose(drake.joint_axes()[joint], axis, atol=1e-12)


def test_parser_warnings_are_findings_about_the_link_named(tmp_path):
    """An impossible inertia: Drake warns, and the warning is kept as a finding naming the
    link (not printed), the ignored tags as notes."""
    bad = ARM.replace('ixx="0.02" iyy="0.03" izz="0.04"', 'ixx="0.01" iyy="0.01" izz="0.04"')
    bad = bad.replace('<dynamics damping="0.5"/>',
                      '<dynamics damping="0.5"/><safety_controller k_velocity="1"/>')
    path = tmp_path / "bad.urdf"
    path.write_text(bad)
    drake = DrakeTerms(path, joint_names=["j1", "j2"])
    assert len(drake.findings) == 1
    assert drake.findings[0].startswith("Drake warns of link 'l1': ")
    assert "triangle inequality" in drake.findings[0] and "\n" not in drake.findings[0]
    assert any("safety_controller" in n for n in drake.notes)


def test_a_file_drake_refuses_is_one_sentence(tmp_path, arm):
    """A transmission naming a joint the file lacks: the other engines ignore it, Drake
    refuses the file, and the audit says so in one sentence and goes on."""
    stale = ARM.replace("</robot>", '<transmission name="t"><type>transmission_interface/'
                                    'SimpleTransmission</type><joint name="gone"/>'
                                    '<actuator name="m"/></transmission></robot>')
    path = tmp_path / "stale.urdf"
    path.write_text(stale)
    with pytest.raises(EngineRefusalError) as err:
        DrakeTerms(path)
    said = str(err.value).split(": ", 1)[1]
    assert said == "Transmission specifies joint 'gone' which does not exist"
    loaded = loading.load(loading.prepare(path), ["j1", "j2"], (0, 0, -9.81), False)
    assert "drake" not in loaded.engines and {"mujoco", "pybullet", "pinocchio"} <= set(
        loaded.engines)
    assert loading.not_checked(loaded) == [
        "Drake refuses stale.urdf: Transmission specifies joint 'gone' which does not exist"]
    # Drake's failed internal check (raised as SystemExit) is a refusal too, explained
    crossed = tmp_path / "crossed.urdf"
    crossed.write_text(ARM.replace('lower="-3" upper="3"', 'lower="1" upper="-1"'))
    with pytest.raises(EngineRefusalError) as err:
        DrakeTerms(crossed)
    assert str(err.value).split(": ", 1)[1].startswith(
        "a joint's lower limit is above its upper limit, which Drake does not accept (Joint(): "
        "condition '(pos_lower_limits.array() <= pos_upper_limits.array()).all()' failed")
    with pytest.raises(DescriptionError, match="Drake reads a .urdf, .sdf or MJCF"):
        DrakeTerms(arm.with_suffix(".obj"))


def test_odd_one_out_is_the_single_reading_apart():
    differ = lambda a, b: abs(a - b) > 0.5  # noqa: E731
    assert odd_one_out({"a": 1.0, "b": 1.0, "c": 1.0, "d": 5.0}, differ) == ("d",
                                                                              ["a", "b", "c"])
    assert odd_one_out({"a": 1.0, "b": 1.0, "c": 5.0, "d": 5.0}, differ) is None  # a tie
    assert odd_one_out({"a": 1.0, "b": 3.0, "c": 5.0}, differ) is None  # no majority
    assert odd_one_out({"a": 1.0, "b": 5.0}, differ) is None  # two readings: no majority


class _Reading:
    """An engine's reading of one body, for odd_readings."""

    def __init__(self, mass: float, com: tuple) -> None:
        from dynval.engines.base import LinkInertial

        self.y = LinkInertial(mass, np.array(com, dtype=float), np.diag([0.1, 0.2, 0.25]))

    def body_inertials(self):
        return {"torso": self.y}

    def joint_axes(self):
        return {}


def test_odd_readings_judge_a_centre_on_the_bodys_size():
    """A centre 5e-20 m off another's is round-off on a body of metres' size, not a reader
    apart (PyBullet's reading of minitaur's chassis); a centre 1 cm off is named."""
    same = {"mujoco": _Reading(14.0, (0, 0, 0)), "pinocchio": _Reading(14.0, (0, 0, 0)),
            "drake": _Reading(14.0, (0, 0, 0))}
    assert odd_readings({**same, "pybullet": _Reading(14.0, (0, 0, 5.4e-20))}) == []
    assert odd_readings({**same, "pybullet": _Reading(14.0, (0, 0, 0.01))}) == [
        "PyBullet's reader differs from MuJoCo, Pinocchio and Drake: body `torso` centre of "
        "mass (0, 0, 0.01) vs (0, 0, 0) m"]
    assert odd_readings({**same, "pinocchio": _Reading(21.18, (0, 0, 0))}) == [
        "Pinocchio's reader differs from MuJoCo and Drake: body `torso` mass 21.18 vs 14 kg"]


def test_a_mass_only_drake_reads_is_caught_and_named(tmp_path, arm):
    """Drake given the arm with l1's mass x8, the others the file as it is: L0 fails for
    Drake alone, the finding names Drake, the body and both masses, and the terms differ
    from Drake only."""
    heavy = tmp_path / "heavy.urdf"
    heavy.write_text(ARM.replace('<mass value="1.5"/>', '<mass value="12"/>'))
    joints = ["j1", "j2"]
    loaded = loading.load(loading.prepare(arm), joints, (0, 0, -9.81), False)
    loaded.engines["drake"] = DrakeTerms(heavy, joint_names=joints)
    sentences = odd_readings(loaded.engines)
    assert sentences == ["Drake's reader differs from MuJoCo, PyBullet and Pinocchio: body "
                         "`l1` mass 12 vs 1.5 kg"]
    model = EngineModel(loaded.engines["pinocchio"], joints, ["tip"], "fixed")
    audit = audit_model(model, arm, samples=20, reference="pinocchio", label="pinocchio",
                        loaded=loaded, l3=False)
    assert sentences[0] in audit.findings
    # l1 turns about j1 alone: its mass enters M's constant j1 entry, G and tau, not C v
    terms = [f for f in audit.findings if f.startswith("Drake's terms differ")]
    assert len(terms) == 1 and terms[0].startswith(
        "Drake's terms differ from Pinocchio, MuJoCo and PyBullet's in M, bias, G and tau: "
        "M worst at j1, j1: "), audit.findings
    assert not any("Drake" in f for f in odd_readings(
        {e: t for e, t in loaded.engines.items() if e != "drake"}))
    assert {r["engine"] for r in audit.l0_failures} == {"drake vs pinocchio"}
    assert {r.reference for r in audit.failures} == {"drake"}
    assert audit.outcome == "differs"


def test_the_audit_cli_shows_drake_rows_and_agrees():
    from dynval.comparisons.cli import app

    _robots()
    res = CliRunner().invoke(app, ["audit", "--description", "ur5", "--samples", "20"])
    assert res.exit_code == 0, res.output
    assert "engines compared with pinocchio: mujoco, pybullet, drake" in res.output
    rows = [line for line in res.output.splitlines() if "│ drake " in line]
    assert len(rows) >= 5 and all("agrees" in line for line in rows), rows


def test_accelerations_are_pinocchios_forward_dynamics(arm):
    """The L3 swing's accelerations, fixed and free, against Pinocchio's articulated-body
    algorithm (an O(n) method that forms no mass matrix)."""
    for free, pin in ((False, PinocchioTerms(arm, joint_names=["j1", "j2"])),
                      (True, PinocchioFreeRoot(arm, joint_names=["j1", "j2"]))):
        drake = DrakeTerms(arm, joint_names=["j1", "j2"], free_root=free)
        for q, v, _ in _states(2, free, k=5):
            a, b = drake.acceleration(q, v), pin.acceleration(q, v)
            assert np.max(np.abs(a - b)) <= ROUND_OFF * np.max(np.abs(b)), (free, a, b)


def test_the_reference_itself_can_be_the_odd_reading(tmp_path, arm):
    """Pinocchio stands for the model in a parity audit; given a heavier l1 than the file
    says, every other engine differs from it, and the findings say it is Pinocchio's
    reading that stands apart, not the others'.  (The terms are judged without PyBullet:
    its rows allow its reading's effect measured through Pinocchio's terms, which a
    Pinocchio reading apart inflates.)"""
    heavy = tmp_path / "heavy.urdf"
    heavy.write_text(ARM.replace('<mass value="1.5"/>', '<mass value="12"/>'))
    joints = ["j1", "j2"]
    loaded = loading.load(loading.prepare(arm), joints, (0, 0, -9.81), False)
    loaded.engines["pinocchio"] = PinocchioTerms(heavy, joint_names=joints, rigid_body=True)
    assert odd_readings(loaded.engines) == [
        "Pinocchio's reader differs from MuJoCo, PyBullet and Drake: body `l1` mass 12 vs "
        "1.5 kg"]
    del loaded.engines["pybullet"]
    model = EngineModel(loaded.engines["pinocchio"], joints, ["tip"], "fixed")
    audit = audit_model(model, arm, samples=20, reference="pinocchio", label="pinocchio",
                        loaded=loaded, l3=False)
    assert ("Pinocchio's reader differs from MuJoCo and Drake: body `l1` mass 12 vs 1.5 kg"
            in audit.findings)
    assert any(f.startswith("Pinocchio's terms differ from MuJoCo and Drake's in M, bias, G "
                            "and tau: M worst at j1, j1: ") for f in audit.findings)
    assert {r.reference for r in audit.failures} == {"mujoco", "drake"}


# --- Drake as a simulating engine (dynval.engines.drake_simulation) ----------------------
CARTPOLE = (Path(__file__).resolve().parents[1] / "docs" / "examples" / "dynval-cartpole"
            / "dynval_cartpole" / "robot")


def _pushed_swing(sim, steps: int, dt: float) -> list[np.ndarray]:
    """The cart-pole tilted 0.2 rad and let go, a PD force on the cart and a varying
    push at the pole's tip (a point force off the body origin): the joint state each
    step."""
    from dynval.engines.base import FloatingState, PointForce

    z = np.zeros(3)
    sim.reset(FloatingState(z, np.eye(3), z, z, np.array([0.0, 0.2]), np.zeros(2)))
    out = []
    for k in range(steps):
        q, v = sim.joint_state()
        tip = PointForce("pole", np.array([0.0, 0.0, 1.0]),
                         np.array([0.3 * np.sin(10 * k * dt), 0.0, 0.0]))
        sim.step(np.array([-5.0 * q[0] - 2.0 * v[0], 0.0]), [tip])
        out.append(np.r_[sim.joint_state()])
    return out


def test_drake_steps_a_fixed_base_tree_as_mujoco_does():
    """Drake's discrete step and MuJoCo's Euler are one scheme (semi-implicit Euler) on
    one description: 4 s of the pushed cart-pole (4000 steps, joint efforts and a point
    force) agree to round-off (measured 1.1e-16), where Drake given a pole 1 % heavier
    parts from MuJoCo by 0.08 (measured)."""
    from dynval.engines.drake_simulation import DrakeSimulation
    from dynval.engines.mujoco_engine import MujocoSimulation

    dt, joints = 1e-3, ["slider", "hinge"]
    drake = _pushed_swing(DrakeSimulation(CARTPOLE / "cartpole.urdf", joints, dt), 4000, dt)
    mujoco = _pushed_swing(MujocoSimulation(CARTPOLE / "cartpole.xml", joints, dt,
                                            (0.0, 0.0, -9.81), None), 4000, dt)
    assert max(float(np.max(np.abs(a - b))) for a, b in zip(drake, mujoco, strict=True)) < ROUND_OFF
    assert float(np.max(np.abs(drake[-1] - drake[0]))) > 0.1  # it moved


def test_drake_free_root_converges_to_mujocos_with_the_step(tmp_path):
    """A free root: Drake advances the quaternion by dt N(q) v and normalises it, MuJoCo
    by the exponential of w dt, so the tumbling body's attitude differs by O(dt^2) per
    step and the difference falls four times per halving of dt (measured 4.0); the
    joints stay at round-off."""
    from scipy.spatial.transform import Rotation

    from dynval.engines.base import FloatingState
    from dynval.engines.drake_simulation import DrakeSimulation
    from dynval.engines.mujoco_engine import MujocoSimulation
    from dynval.robots import ROOT
    from dynval.robots.quadruped.model_description import joint_names

    joints, d = joint_names(), ROOT / "quadruped"
    rng = np.random.default_rng(0)
    start = FloatingState(np.array([0.1, 0.2, 1.0]),
                          Rotation.from_rotvec([0.3, -0.2, 0.5]).as_matrix(),
                          np.array([0.5, -0.3, 0.2]), np.array([1.0, -2.0, 0.5]),
                          rng.uniform(-0.5, 0.5, len(joints)), rng.uniform(-1, 1, len(joints)))
    apart = []
    for dt in (2e-3, 1e-3):
        sims = (DrakeSimulation(d / "quadruped.urdf", joints, dt, floating=True),
                MujocoSimulation(d / "quadruped.xml", joints, dt, (0.0, 0.0, -9.81), None))
        for sim in sims:
            sim.reset(start)
            for _ in range(round(0.5 / dt)):
                sim.step(np.zeros(len(joints)), [])
        a, b = (sim.state() for sim in sims)
        assert float(np.max(np.abs(a.q - b.q))) < 1e-12
        apart.append(float(np.max(np.abs(a.R_WB - b.R_WB))))
    assert 3.5 < apart[0] / apart[1] < 4.5, apart


def test_drake_is_given_no_ground_and_says_so():
    from dynval.engines.base import Ground
    from dynval.engines.drake_simulation import DrakeSimulation, NoDrakeGroundError

    ground = Ground(np.array([0.0, 0.0, 1.0]), np.zeros(3), 1e4, 10.0, 0.8, None)
    with pytest.raises(NoDrakeGroundError, match="dynval gives Drake no ground"):
        DrakeSimulation(CARTPOLE / "cartpole.urdf", ["slider", "hinge"], 1e-3, ground=ground)


def test_a_robot_that_does_not_declare_drake_refuses_it_in_one_sentence(tmp_path):
    """The quadruped's engines run its walks on their own ground only, which dynval does
    not give Drake: `dynval run` with Drake names the engines that run them, and exits 2."""
    from dynval.comparisons.cli import app

    res = CliRunner().invoke(app, ["run", "quadruped", "--engine", "drake", "--out",
                                   str(tmp_path / "run")])
    assert res.exit_code == 2, res.output
    assert "quadruped: drake does not run its scenarios (the engines that do: mujoco, " \
           "pybullet)" in " ".join(res.output.split())
