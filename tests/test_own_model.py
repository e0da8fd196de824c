"""Your own robot: the model protocol, `dynval audit --model`, `dynval.testing` and the
worked examples of docs/examples (the acrobot, the SymPy double pendulum, the acrobot with
a sign error), and each kind of bad input."""

import textwrap
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from dynval.comparisons.cli import app
from dynval.comparisons.ladder.integrate import free_root_position_step
from dynval.comparisons.own_model.audit import audit_model
from dynval.model import ModelError, load_object
from dynval.testing import assert_model_matches

EX = Path(__file__).resolve().parent.parent / "docs" / "examples"
ACROBOT = f"{EX / 'acrobot.py'}:Acrobot"
URDF = EX / "acrobot.urdf"
runner = CliRunner()


def test_acrobot_closed_forms_match_all_four_engines():
    audit = audit_model(load_object(ACROBOT), URDF, 200, 1)
    assert {r.reference for r in audit.results} == {"mujoco", "pybullet", "pinocchio", "drake"}
    assert {r.term for r in audit.results} >= {"M", "bias", "G", "C v", "tau", "p[hand]"}
    assert not audit.failures, [audit.explain(r) for r in audit.failures]
    assert audit.l0 and all(r["passed"] for r in audit.l0)
    # L3: the free swing follows both engines to round-off at every step, and the scheme's
    # own error halves with the step (first order)
    assert audit.l3 and not audit.l3_failures
    err = [r["max_abs"] for r in audit.l3 if r["comparison"].startswith("semi-implicit")]
    assert len(err) == 3 and all(1.8 < a / b < 2.2 for a, b in zip(err[:-1], err[1:], strict=True))
    assert_model_matches(load_object(ACROBOT), URDF)


def test_sympy_double_pendulum_matches():
    model = load_object(f"{EX / 'double_pendulum.py'}:DoublePendulum")
    assert_model_matches(model, EX / "double_pendulum.urdf", samples=50)


def test_a_floating_body_on_a_six_joint_base_chain_matches_pybullet_and_pinocchio():
    """The floating body's SymPy equations against its explicit base chain: round-off in
    the engines that load it; MuJoCo's refusal of the massless base links is said, not
    reported as passed; its free fall follows PyBullet's."""
    model = load_object(f"{EX / 'floating_body.py'}:FloatingBody")
    audit = audit_model(model, EX / "floating_body.urdf", 100, 2)
    assert {r.reference for r in audit.results} == {"pybullet", "pinocchio", "drake"}
    assert {r.term for r in audit.results} == {"M", "bias", "G", "C v"}
    assert not audit.failures, [audit.explain(r) for r in audit.failures]
    assert any("MuJoCo refuses floating_body.urdf" in u and "without mass" in u
               for u in audit.unchecked), audit.unchecked
    assert audit.l0 and all(r["passed"] for r in audit.l0)
    assert audit.l3 and not audit.l3_failures
    assert not any("mujoco" in r["comparison"] for r in audit.l3)


def test_a_floating_body_without_its_coriolis_terms_fails_on_them():
    body = type(load_object(f"{EX / 'floating_body.py'}:FloatingBody"))

    class QuasiStatic(body):  # C v dropped: the bias is gravity alone
        def bias(self, q, v):
            return super().bias(q, 0.0 * v)

    model = QuasiStatic()
    audit = audit_model(model, EX / "floating_body.urdf", 50, 0)
    assert {r.term for r in audit.failures} == {"bias", "C v"}
    assert "worst at" in audit.explain(audit.failures[0])


def test_a_free_root_matches_mujoco_and_pinocchio_in_mujocos_convention():
    """A rigid body on a free joint, Newton-Euler in closed form (q with a quaternion, v
    with the world linear and body angular velocity): round-off against MuJoCo's free joint
    and PyBullet's floating base and Pinocchio's free flyer converted. L3 from a seeded
    tumbling state: round-off against MuJoCo's own step at every step size, and PyBullet's
    own step (which moves the centre of mass) differs by O(dt): the difference halves with
    the step, as does the scheme's own error against RK4."""
    model = load_object(f"{EX / 'free_body.py'}:FreeBody")
    audit = audit_model(model, EX / "free_body.urdf", 200, 3)
    assert {r.reference for r in audit.results} == {"mujoco", "pybullet", "pinocchio", "drake"}
    assert {r.term for r in audit.results} == {"M", "bias", "G", "C v"}
    assert not audit.failures, [audit.explain(r) for r in audit.failures]
    assert {r["engine"] for r in audit.l0} == {"mujoco vs pinocchio", "pybullet vs pinocchio",
                                               "drake vs pinocchio"}
    assert all(r["passed"] for r in audit.l0)
    assert audit.l3 and not audit.l3_failures
    mj = [r for r in audit.l3 if "vs mujoco" in r["comparison"]]
    assert len(mj) == 6 and all(r["max_abs"] < 1e-12 for r in mj)
    ratios = [r["ratio_to_half_step"] for r in audit.l3 if "ratio_to_half_step" in r]
    assert len(ratios) == 2 and all(1.9 < x < 2.1 for x in ratios)
    err = [r["max_abs"] for r in audit.l3 if r["comparison"].startswith("semi-implicit")]
    assert len(err) == 3 and all(1.9 < a / b < 2.1 for a, b in zip(err[:-1], err[1:], strict=True))


def test_a_free_body_with_its_inertia_about_the_centre_fails_on_the_rotation():
    """The classic slip: the inertia about the centre of mass where the equations are
    written about the body frame's origin. M and bias fail, at a rotational coordinate."""
    body = type(load_object(f"{EX / 'free_body.py'}:FreeBody"))
    I_C = body.mass_matrix.__globals__["I_C"]  # the example's inertia about the centre

    class AboutCentre(body):
        def mass_matrix(self, q):
            M = super().mass_matrix(q)
            M[3:, 3:] = I_C
            return M

    audit = audit_model(AboutCentre(), EX / "free_body.urdf", 50, 0)
    assert "M" in {r.term for r in audit.failures}
    worst = audit.worst[("M", "mujoco")].coordinate
    assert worst.startswith("base w"), worst
    # its tumble leaves MuJoCo's and no longer converges to PyBullet's (ratio near 1)
    failed = {r["comparison"].split(" (")[0] for r in audit.l3_failures}
    assert failed == {"handrolled vs mujoco", "handrolled vs pybullet",
                      *(f"handrolled vs {e} accelerations, hand integrator"
                        for e in ("mujoco", "pybullet", "pinocchio", "drake"))}, failed
    assert all(r["ratio_to_half_step"] < 1.2 for r in audit.l3 if "ratio_to_half_step" in r)
    said = [audit.explain_l3(r) for r in audit.l3_failures if "ratio_to_half_step" in r]
    assert said and "a modelling difference, not integration error" in said[0]


FLOATING_TWO_LINK = """<?xml version="1.0"?>
<robot name="two">
  <link name="base">
    <inertial><origin xyz="0.1 -0.05 0.2" rpy="0.3 0.2 0.1"/><mass value="2.5"/>
      <inertia ixx="0.30" ixy="0.01" ixz="0.02" iyy="0.20" iyz="0.03" izz="0.12"/></inertial>
  </link>
  <link name="arm">
    <inertial><origin xyz="0.3 0.02 -0.01" rpy="0 0.4 0"/><mass value="1.2"/>
      <inertia ixx="0.02" ixy="0" ixz="0.001" iyy="0.05" iyz="0" izz="0.04"/></inertial>
  </link>
  <link name="hand">
    <inertial><origin xyz="0.1 0 0" rpy="0 0 0"/><mass value="0.4"/>
      <inertia ixx="0.002" ixy="0" ixz="0" iyy="0.003" iyz="0" izz="0.003"/></inertial>
  </link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="arm"/>
    <origin xyz="0.2 0.1 0.0" rpy="0.1 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="0" velocity="0"/></joint>
  <joint name="wrist" type="prismatic"><parent link="arm"/><child link="hand"/>
    <origin xyz="0.5 0 0" rpy="0 0 0.2"/><axis xyz="1 0 0"/>
    <limit lower="-1" upper="1" effort="0" velocity="0"/></joint>
</robot>
"""


def test_free_root_engines_agree_in_mujocos_convention(tmp_path):
    """A free root with a hinge and a slide, the root's inertial frame turned off the link
    frame, the joints named out of file order: PyBullet's floating base (its inverse
    dynamics' Euler-angle order, point acceleration and output order worked around) and
    Pinocchio's free flyer, converted, give MuJoCo's free-joint M, bias and tau to
    round-off (PyBullet's principal-axes conversion of the turned inertia leaves ~1e-13)."""
    from dynval.engines.mujoco_engine import MujocoTerms
    from dynval.engines.pinocchio_engine import PinocchioFreeRoot
    from dynval.engines.pybullet_engine import PybulletFreeRoot

    urdf = tmp_path / "two.urdf"
    urdf.write_text(FLOATING_TWO_LINK)
    names = ["wrist", "shoulder"]
    mj = MujocoTerms(urdf, joint_names=names, free_root=True)
    others = [PybulletFreeRoot(urdf, joint_names=names),
              PinocchioFreeRoot(urdf, joint_names=names)]
    rng = np.random.default_rng(7)
    for _ in range(50):
        q = np.r_[rng.uniform(-3, 3, 3), rng.normal(size=4), rng.uniform(-1, 1, 2)]
        q[3:7] /= np.linalg.norm(q[3:7])
        v, a = rng.uniform(-5, 5, 8), rng.uniform(-20, 20, 8)
        for eng in others:
            for mine, ref in ((eng.mass_matrix(q), mj.mass_matrix(q)),
                              (eng.bias(q, v), mj.bias(q, v)),
                              (eng.inverse_dynamics(q, v, a), mj.inverse_dynamics(q, v, a))):
                np.testing.assert_allclose(mine, ref, rtol=0, atol=1e-11 * np.abs(ref).max(),
                                           err_msg=eng.name)


def test_free_root_euler_step_turns_the_body_by_its_body_frame_rate():
    """MuJoCo's free-joint position step: a spin w_B about a body axis for one step turns
    the quaternion by exactly |w| dt about that axis, on the right (body frame)."""
    q0 = np.r_[1.0, 2.0, 3.0, np.cos(0.3), 0.0, np.sin(0.3), 0.0, 0.5]  # turned 0.6 about y
    q1 = free_root_position_step(q0, np.r_[0.1, 0.0, 0.0, 0.0, 0.0, 2.0, -1.0], 0.25)
    turn = np.r_[np.cos(0.25), 0.0, 0.0, np.sin(0.25)]  # 0.5 rad about body z
    w, x, y, z = q0[3:7]
    right = np.array([[w, -x, -y, -z], [x, w, -z, y], [y, z, w, -x], [z, -y, x, w]]) @ turn
    np.testing.assert_allclose(q1, np.r_[1.025, 2.0, 3.0, right, 0.25], atol=1e-15)


def test_a_model_base_other_than_fixed_or_free_is_one_sentence():
    model = load_object(f"{EX / 'free_body.py'}:FreeBody")
    model.base = "floating"
    with pytest.raises(ModelError, match="FreeBody.base is 'floating'"):
        audit_model(model, EX / "free_body.urdf", 5, 0)


def test_wrong_sign_is_named_with_term_coordinate_state_and_values():
    model = load_object(f"{EX / 'acrobot_wrong_sign.py'}:AcrobotWrongSign")
    with pytest.raises(AssertionError) as err:
        assert_model_matches(model, URDF, samples=50)
    msg = str(err.value)
    assert "C v" in msg and "worst at shoulder" in msg and "at q = [" in msg
    assert "mujoco" in msg and "pinocchio" in msg
    # the mass matrix and gravity are right: only the terms with the Coriolis part fail
    audit = audit_model(model, URDF, 50, 0)
    assert {r.term for r in audit.failures} == {"bias", "C v", "tau"}
    assert audit.l3_failures  # and it swings differently


def test_cli_audits_a_model_and_fails_on_the_wrong_one():
    res = runner.invoke(app, ["audit", "--model", ACROBOT, "--description", str(URDF),
                              "--samples", "30"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["audit", "--model",
                              f"{EX / 'acrobot_wrong_sign.py'}:AcrobotWrongSign",
                              "--description", str(URDF), "--samples", "30"])
    assert res.exit_code == 1 and "DIFFERS" in res.output


def _module(tmp_path: Path, body: str) -> str:
    path = tmp_path / "user_model.py"
    path.write_text(textwrap.dedent(body))
    return str(path)


@pytest.mark.parametrize("body, obj, sentence", [
    ("import no_such_package\n", "Arm", "does not import"),
    ("class Arm:\n    joint_names = ('shoulder', 'elbow')\n", "Arm",
     "none of the protocol's methods"),
    ("class Arm:\n    def mass_matrix(self, q):\n        return q\n", "Arm", "no joint_names"),
    ("x = 1\n", "Arm", "has no object 'Arm'"),
])
def test_bad_models_are_one_sentence(tmp_path, body, obj, sentence):
    spec = f"{_module(tmp_path, body)}:{obj}"
    with pytest.raises(ModelError, match=sentence):
        load_object(spec)
    res = runner.invoke(app, ["audit", "--model", spec, "--description", str(URDF)])
    assert res.exit_code == 2 and sentence.split()[0] in res.output


class _Arm:
    joint_names = ("shoulder", "elbow")

    def __init__(self, out):
        self.out = out

    def mass_matrix(self, q):
        return self.out


@pytest.mark.parametrize("out, sentence", [
    (np.eye(3), "returned shape (3, 3); expected (2, 2)"),
    (np.array([[1.0, np.nan], [0.0, 1.0]]), "non-finite value"),
])
def test_wrong_shapes_and_nans_name_the_method(out, sentence):
    with pytest.raises(ModelError, match=r"_Arm\.mass_matrix"):
        audit_model(_Arm(out), URDF, 3, 0)
    with pytest.raises(ModelError, match=sentence.replace("(", r"\(").replace(")", r"\)")):
        audit_model(_Arm(out), URDF, 3, 0)


def test_joint_names_must_match_the_description():
    arm = _Arm(np.eye(2))
    arm.joint_names = ("shoulder", "wrist")
    with pytest.raises(ModelError, match="'wrist', which acrobot.urdf does not have"):
        audit_model(arm, URDF, 3, 0)
    arm.joint_names = ("shoulder",)
    with pytest.raises(ModelError, match="leaves out 'elbow'"):
        audit_model(arm, URDF, 3, 0)


def test_a_description_an_engine_rejects_is_one_sentence(tmp_path):
    bad = tmp_path / "broken.urdf"
    bad.write_text("<robot name='x'><link name='a'/><joint name='j' type='revolute'>"
                   "<parent link='a'/><child link='missing'/></joint></robot>")
    res = runner.invoke(app, ["audit", "--model", ACROBOT, "--description", str(bad)])
    assert res.exit_code == 2, res.output
    assert "broken.urdf" in res.output


def test_audit_writes_a_report_and_check_gates_the_model(tmp_path):
    res = runner.invoke(app, ["audit", "--model", ACROBOT, "--description", str(URDF),
                              "--samples", "20", "--out", str(tmp_path / "run")])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "run" / "report.pdf").is_file()
    assert (tmp_path / "run" / "manifest.json").is_file()
    base = str(tmp_path / "base")
    gate = ["check", "--model", ACROBOT, "--description", str(URDF), "--baseline", base]
    assert runner.invoke(app, [*gate, "--update"]).exit_code == 0
    res = runner.invoke(app, gate)
    assert res.exit_code == 0 and "0 of" in res.output, res.output
    # the same model with its elbow inertia mistyped: the gate turns red
    wrong = tmp_path / "model" / "acrobot.py"
    wrong.parent.mkdir()
    wrong.write_text((EX / "acrobot.py").read_text().replace("Ic2: float = 0.33",
                                                             "Ic2: float = 0.34"))
    res = runner.invoke(app, ["check", "--model", f"{wrong}:Acrobot", "--description",
                              str(URDF), "--baseline", base])
    assert res.exit_code == 1, res.output
