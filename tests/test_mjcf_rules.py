"""An MJCF read by MuJoCo's rules: Pinocchio and PyBullet are built from MuJoCo's compiled
model (their algorithms compared on MuJoCo's numbers), and their own MJCF readers are
asked, each difference a reader finding naming the reader, the body and both values,
which fails neither the file nor the user's model.  Each case is a small inline MJCF as
MuJoCo users write them (several joints in one body, default classes, settotalmass,
geoms that do not collide, a free object beside the robot, a height field)."""

from __future__ import annotations

from pathlib import Path

import mujoco
import numpy as np
import pytest

from dynval.comparisons.own_model.audit import audit_model
from dynval.comparisons.own_model.parity import parity_audit
from dynval.engines.mujoco_engine import MujocoTerms
from dynval.engines.pinocchio_from_mujoco import PinocchioCompiled, PinocchioCompiledFreeRoot

G = 9.81
ROUND_OFF = 1e-12  # relative to the largest entry: two algorithms on the same numbers


def write(tmp_path: Path, body: str, head: str = "", name: str = "robot.xml") -> Path:
    path = tmp_path / name
    path.write_text(f"<mujoco model='t'>{head}<worldbody>{body}</worldbody></mujoco>")
    return path


def compare(path: Path, names: list[str], free: bool = False) -> float:
    """The largest difference of M, bias and inverse dynamics between MuJoCo and Pinocchio
    built from MuJoCo's compiled model, relative to each term's largest entry."""
    mj = MujocoTerms(path, joint_names=names, free_root=free, rigid_body=True)
    pn = (PinocchioCompiledFreeRoot(path, joint_names=names) if free
          else PinocchioCompiled(path, joint_names=names))
    rng = np.random.default_rng(1)
    worst = 0.0
    for _ in range(5):
        q = rng.uniform(-1.5, 1.5, len(names))
        if free:
            quat = rng.normal(size=4)
            q = np.r_[rng.uniform(-1, 1, 3), quat / np.linalg.norm(quat), q]
        v = rng.uniform(-2, 2, len(names) + 6 * free)
        a = rng.uniform(-2, 2, len(v))
        for x, y in ((mj.mass_matrix(q), pn.mass_matrix(q)), (mj.bias(q, v), pn.bias(q, v)),
                     (mj.inverse_dynamics(q, v, a), pn.inverse_dynamics(q, v, a))):
            worst = max(worst, float(np.max(np.abs(x - y)) / np.max(np.abs(x))))
    return worst


WALKER = """<body name="torso" pos="0 0 1.2">
  <joint name="rootx" type="slide" axis="1 0 0"/><joint name="rootz" type="slide" axis="0 0 1"/>
  <joint name="rooty" type="hinge" axis="0 1 0" pos="0 0 0.1" ref="0.2"/>
  <geom type="capsule" fromto="0 0 0.2 0 0 -0.2" size="0.05"/>
  <body name="thigh" pos="0 0 -0.2" euler="0 10 0">
    <joint name="hip_x" axis="1 0 0" pos="0 0 0.02"/><joint name="hip_y" axis="0 1 0"/>
    <joint name="hip_z" axis="0 0 1" pos="0.01 0 0"/>
    <geom type="capsule" fromto="0 0 0 0 0 -0.45" size="0.05"/>
    <body pos="0 0 -0.45"><joint name="knee" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.1 0 -0.5" size="0.04"/></body>
  </body>
</body>"""
WALKER_JOINTS = ["rootx", "rootz", "rooty", "hip_x", "hip_y", "hip_z", "knee"]


def test_several_joints_in_one_body_and_an_unnamed_body_agree_to_round_off(tmp_path):
    """A planar root of three joints in one body, a hip of three hinges (anchors off the
    body's origin, a ref, degrees) and an unnamed shank: M, bias and inverse dynamics of
    Pinocchio on MuJoCo's compiled model agree with MuJoCo's to round-off, and the audit
    compares all three engines with nothing differing."""
    path = write(tmp_path, WALKER, "<compiler angle='degree'/>")
    assert compare(path, WALKER_JOINTS) < ROUND_OFF
    audit = parity_audit(path, 20, 0, l3=False)
    assert set(audit.engines) == {"mujoco", "pybullet", "drake"} and not audit.refused
    assert audit.outcome == "agrees", audit.failure_sentences() + audit.l0_failures
    assert any(r.term == "M" and r.reference == "pybullet" for r in audit.results)
    assert any("#3 (child of 'thigh')" in r["quantity"] for r in audit.l0)


class Pendulum:
    """A sphere of mass m and radius r on a massless arm of length L, about the y axis:
    M = m L^2 + 2/5 m r^2, G = m g L sin q (the arm turns (0, 0, -L) to (-L sin q, 0,
    -L cos q), so V = -m g L cos q)."""

    joint_names = ("swing",)

    def __init__(self, m: float, r: float = 0.05, L: float = 0.5) -> None:
        self.m, self.r, self.L = m, r, L

    def mass_matrix(self, q):
        return np.array([[self.m * self.L ** 2 + 0.4 * self.m * self.r ** 2]])

    def gravity(self, q):
        return np.array([self.m * G * self.L * np.sin(q[0])])

    def bias(self, q, v):
        return self.gravity(q)


PENDULUM = """<body name="bob"><joint name="swing" axis="0 1 0"/>
  <geom {attrs} type="sphere" size="0.05" pos="0 0 -0.5"/></body>"""


@pytest.mark.parametrize(("head", "attrs", "mass", "missed_by"), [
    ("<default><default class='heavy'><geom mass='2.5'/></default></default>",
     "class='heavy'", 2.5, ("Pinocchio's MJCF reader",)),
    ("<compiler settotalmass='3'/>", "", 3.0,
     ("Pinocchio's MJCF reader", "Drake's MJCF reader")),
], ids=["default class mass", "settotalmass"])
def test_a_compiled_mass_the_readers_miss_is_a_reader_finding(tmp_path, head, attrs, mass,
                                                              missed_by):
    """MuJoCo's compiler gives the bob ``mass``; Pinocchio's reader (and Drake's, for
    settotalmass; it follows a default class) computes it from the sphere's volume
    (1000 kg/m^3: 0.5236 kg).  The reader finding names the reader, the
    body and both masses; the compiled-model comparison agrees, and a hand model with
    MuJoCo's mass passes (one with the reader's mass does not)."""
    path = write(tmp_path, PENDULUM.format(attrs=attrs), head)
    assert mujoco.MjModel.from_xml_path(str(path)).body_mass[1] == pytest.approx(mass)
    audit = audit_model(Pendulum(mass), path, 20, 0)
    volume = 4 / 3 * np.pi * 0.05 ** 3 * 1000
    for reader in ("Pinocchio's MJCF reader", "Drake's MJCF reader"):
        said = f"{reader}: body 'bob' mass {volume:.6g} kg, MuJoCo {mass:.6g} kg"
        assert (said in audit.readers) == (reader in missed_by), audit.readers
    assert audit.outcome == "agrees" and audit.passed, audit.failure_sentences()
    assert {r.reference for r in audit.results} == {"mujoco", "pybullet", "pinocchio", "drake"}
    assert audit_model(Pendulum(volume), path, 20, 0).outcome == "differs"


def test_a_geom_that_does_not_collide_has_its_mass(tmp_path):
    """contype=0 conaffinity=0 geoms are visual to a collision engine but carry mass in
    MuJoCo; the finding names both readings of the body."""
    path = write(tmp_path, PENDULUM.format(attrs="contype='0' conaffinity='0' mass='1.5'"))
    audit = audit_model(Pendulum(1.5), path, 20, 0)
    assert audit.passed, audit.failure_sentences()
    assert any(s.startswith("Pinocchio's MJCF reader: body 'bob' mass ") and
               s.endswith("MuJoCo 1.5 kg") for s in audit.readers), audit.readers


def test_gravity_disabled_is_honoured_by_every_engine(tmp_path):
    """``<flag gravity="disable">``: every engine's G is zero, and a model that keeps
    gravity differs from each."""
    head = "<option><flag gravity='disable'/></option>"
    path = write(tmp_path, PENDULUM.format(attrs="mass='2'"), head)

    class Weightless(Pendulum):
        def gravity(self, q):
            return np.zeros(1)

    def gravity_rows(model):
        rows = [r for r in audit_model(model, path, 20, 0).results if r.term == "G"]
        assert {r.reference for r in rows} == {"mujoco", "pinocchio", "pybullet", "drake"}
        return rows

    assert all(r.passed for r in gravity_rows(Weightless(2.0)))
    assert not any(r.passed for r in gravity_rows(Pendulum(2.0)))  # a model with gravity


FREE_ROBOT = """<body name="ball" pos="2 0 0.3"><freejoint name="ball_free"/>
  <geom type="sphere" size="0.1"/></body>
<body name="base" pos="0 0 0.5"><freejoint name="root"/>
  <geom type="box" size="0.2 0.1 0.05"/>
  <body name="arm" pos="0.2 0 0"><joint name="j1" axis="0 1 0"/><joint name="j2" axis="1 0 0"/>
    <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03"/></body>
</body>"""


def test_a_free_object_beside_the_robot_is_a_tree_of_its_own(tmp_path):
    """A ball listed before a free-floating robot: the robot's free joint is the one at the
    root of its joints' tree, Pinocchio keeps the ball as a separate tree, PyBullet is given
    the robot's tree alone, and everything agrees; Pinocchio's reader, which keeps the first
    tree only, is a reader finding."""
    path = write(tmp_path, FREE_ROBOT)
    assert compare(path, ["j1", "j2"], free=True) < ROUND_OFF
    audit = parity_audit(path, 15, 0, l3=False)
    assert audit.dof == 8 and audit.outcome == "agrees", audit.failure_sentences()
    assert set(audit.engines) == {"mujoco", "pybullet", "drake"}
    assert any("leaves out body" in s for s in audit.readers), audit.readers
    assert any("'ball' (another tree) left out" in n for n in audit.notes)


def test_a_height_field_is_geometry_not_a_stop(tmp_path):
    """A terrain height field stops Pinocchio's reader; dynamics uses no geometry, so the
    robot is compared and the refusal is a reader finding, not a fault of the file."""
    head = "<asset><hfield name='terrain' nrow='3' ncol='3' size='1 1 0.1 0.1'/></asset>"
    body = "<geom type='hfield' hfield='terrain'/>" + PENDULUM.format(attrs="mass='2'")
    path = write(tmp_path, body, head)
    audit = audit_model(Pendulum(2.0), path, 20, 0)
    assert audit.outcome == "agrees", audit.failure_sentences()
    assert "pinocchio" in {r.reference for r in audit.results}


def test_real_mjcfs_shipped_with_pybullet(tmp_path):
    """Two of the gym MJCFs in pybullet_data: the reacher (a target on slides beside the
    arm, which PyBullet's loadMJCF splits off) and the pusher (armature in a default class,
    an object and a target beside the arm): every engine is compared on MuJoCo's compiled
    model and agrees; what the readers did is said, naming PyBullet's split."""
    from dynval.engines.packages import pybullet_data_dir

    reacher = parity_audit(pybullet_data_dir() / "mjcf" / "reacher.xml", 10, 0, l3=False)
    assert reacher.engines == ("mujoco", "pybullet", "drake") and reacher.outcome == "agrees"
    assert any(s.startswith("PyBullet's loadMJCF split the file into ")
               for s in reacher.readers), reacher.readers
    pusher = parity_audit(pybullet_data_dir() / "mjcf" / "pusher.xml", 10, 0, l3=False)
    assert pusher.engines == ("mujoco", "pybullet", "drake") and pusher.outcome == "agrees", \
        pusher.failure_sentences()
    assert any("armature" in n for n in pusher.notes)
    assert any(s.startswith("Pinocchio's MJCF reader: body 'shoulder_pan_link' mass 0 kg")
               for s in pusher.readers), pusher.readers


def test_a_ball_joint_is_built_in_pinocchio_and_dynval_says_why_pybullet_is_not_run(tmp_path):
    """A shoulder on a ball joint (turned at qpos0 by the body's quat) and a hinged elbow:
    Pinocchio's build agrees with MuJoCo on the elbow's terms; dynval writes no URDF of a
    ball joint and says that it decided so."""
    body = """<body name="upper" pos="0 0 1" quat="0.9 0.3 0.2 0.1">
      <joint name="shoulder" type="ball"/><geom type="capsule" fromto="0 0 0 0 0 -0.4" size="0.04"/>
      <body name="fore" pos="0 0 -0.4"><joint name="elbow" axis="0 1 0" pos="0 0 0.01"/>
        <geom type="capsule" fromto="0 0 0 0.3 0 -0.1" size="0.03"/></body></body>"""
    path = write(tmp_path, body)
    assert compare(path, ["elbow"]) < ROUND_OFF
    audit = parity_audit(path, 10, 0, l3=False)
    assert audit.outcome == "agrees" and "pybullet" in audit.decided
    assert any(s.startswith("dynval does not run PyBullet on robot.xml: dynval writes no URDF "
                            "of ball joint 'shoulder'") for s in audit.unchecked), audit.unchecked


@pytest.mark.parametrize("pitch", [0.3, np.pi / 2 - 1e-6, -np.pi / 2 + 1e-9, np.pi / 2])
def test_the_urdf_written_from_mujoco_keeps_a_rotation_near_gimbal_lock(pitch):
    """URDF's rpy of a body turned near +-90 deg in pitch: read back to round-off (an asin
    of -R[2, 0] there lost half the digits, 5e-9 m in dm_control's arm.xml, which PyBullet
    and Drake then read as a difference)."""
    from scipy.spatial.transform import Rotation

    from dynval.engines.urdf_from_mujoco import _rpy

    R = Rotation.from_euler("ZYX", [0.3, pitch, 0.2]).as_matrix()
    roll, p, yaw = (float(x) for x in _rpy(R).split())
    back = Rotation.from_euler("ZYX", [yaw, p, roll]).as_matrix()
    assert np.abs(back - R).max() < 1e-14
