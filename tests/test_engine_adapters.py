"""Each engine convention the adapters handle, pinned on a tiny inline model with an exact
(closed-form) expected value, as MuJoCo's own binding tests do: MuJoCo's free-joint
quaternion and body-frame angular velocity, PyBullet's centre-of-mass link frame, limits of
prismatic joints in metres, joints looked up by name, a fixed-base planar robot (slide,
slide, hinge: the hopper's root) in all three engines, and the protocols of dynval.engines.base."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dynval.engines import DescriptionError, load_description, load_terms
from dynval.engines.base import (
    DescriptionFacts,
    DynamicsTerms,
    FloatingState,
    JointLimit,
    PointForce,
    Simulation,
)
from dynval.engines.mujoco_engine import MujocoSimulation, MujocoTerms
from dynval.engines.pinocchio_engine import PinocchioTerms
from dynval.engines.pybullet_engine import PybulletSimulation, PybulletTerms

G = 9.81
# the planar robot: a rail (fixed root), a cart sliding along x (m1), a cart sliding along
# z (m2), a torso pitching about y (m3, centre of mass c along its x axis, Iyy about it)
M1, M2, M3, C, IYY = 2.0, 0.5, 3.0, 0.25, 0.07
LIMITS = {"x": (-0.5, 0.5, "m"), "z": (-0.1, 0.25, "m"), "pitch": (-1.0, 1.2, "rad")}

PLANAR_MJCF = f"""
<mujoco model="planar">
  <compiler angle="radian" autolimits="true"/>
  <option gravity="0 0 {-G}" integrator="Euler"/>
  <worldbody>
    <body name="rail">
      <inertial pos="0 0 0" mass="1" diaginertia="0.1 0.1 0.1"/>
      <body name="cart_x">
        <joint name="x" type="slide" axis="1 0 0" range="-0.5 0.5"/>
        <inertial pos="0 0 0" mass="{M1}" diaginertia="0.01 0.01 0.01"/>
        <body name="cart_z">
          <joint name="z" type="slide" axis="0 0 1" range="-0.1 0.25"/>
          <inertial pos="0 0 0" mass="{M2}" diaginertia="0.01 0.01 0.01"/>
          <body name="torso">
            <joint name="pitch" type="hinge" axis="0 1 0" range="-1.0 1.2"/>
            <inertial pos="{C} 0 0" mass="{M3}" diaginertia="0.05 {IYY} 0.03"/>
            <site name="tip" pos="0.4 0 0"/>
          </body>
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>
"""


def _link(name: str, mass: float, com: str, diag: tuple[float, float, float]) -> str:
    ixx, iyy, izz = diag
    return (f'<link name="{name}"><inertial><origin xyz="{com}" rpy="0 0 0"/>'
            f'<mass value="{mass}"/><inertia ixx="{ixx}" ixy="0" ixz="0" iyy="{iyy}" '
            f'iyz="0" izz="{izz}"/></inertial></link>')


def _joint(name: str, kind: str, parent: str, child: str, axis: str) -> str:
    lo, hi, _ = LIMITS[name]
    return (f'<joint name="{name}" type="{kind}"><parent link="{parent}"/>'
            f'<child link="{child}"/><origin xyz="0 0 0" rpy="0 0 0"/><axis xyz="{axis}"/>'
            f'<limit lower="{lo}" upper="{hi}" effort="100" velocity="100"/></joint>')


# the joints are written in another order than the tree's, on purpose
PLANAR_URDF = "\n".join([
    '<robot name="planar">',
    _link("rail", 1.0, "0 0 0", (0.1, 0.1, 0.1)),
    _link("cart_x", M1, "0 0 0", (0.01, 0.01, 0.01)),
    _link("cart_z", M2, "0 0 0", (0.01, 0.01, 0.01)),
    _link("torso", M3, f"{C} 0 0", (0.05, IYY, 0.03)),
    _joint("pitch", "revolute", "cart_z", "torso", "0 1 0"),
    _joint("z", "prismatic", "cart_x", "cart_z", "0 0 1"),
    _joint("x", "prismatic", "rail", "cart_x", "1 0 0"),
    "</robot>",
])


def planar_M(q: np.ndarray) -> np.ndarray:
    """Closed-form mass matrix of the planar robot in (x, z, pitch): the torso's centre of
    mass is at (x + c cos th, z - c sin th)."""
    th = q[2]
    m = M1 + M2 + M3
    return np.array([[m, 0.0, -M3 * C * np.sin(th)],
                     [0.0, M2 + M3, -M3 * C * np.cos(th)],
                     [-M3 * C * np.sin(th), -M3 * C * np.cos(th), IYY + M3 * C**2]])


def planar_gravity(q: np.ndarray) -> np.ndarray:
    """dV/dq of V = (m2 + m3) g z - m3 g c sin th."""
    return np.array([0.0, (M2 + M3) * G, -M3 * G * C * np.cos(q[2])])


@pytest.fixture(scope="module")
def planar(tmp_path_factory) -> tuple[Path, Path]:
    d = tmp_path_factory.mktemp("planar")
    (d / "planar.xml").write_text(PLANAR_MJCF)
    (d / "planar.urdf").write_text(PLANAR_URDF)
    return d / "planar.xml", d / "planar.urdf"


ORDER = ["pitch", "x", "z"]  # the caller's joint order, unlike the tree's (x, z, pitch)
PERM = [2, 0, 1]  # ORDER as indices into (x, z, pitch)
Q = np.array([0.1, -0.05, 0.3])  # (x, z, pitch)


# --- the fixed-base planar robot -------------------------------------------------------
def test_planar_mass_matrix_and_gravity_equal_the_closed_form_in_every_engine(planar):
    terms = load_terms(*planar, (0.0, 0.0, -G), ["x", "z", "pitch"])
    assert list(terms) == ["mujoco", "pybullet", "pinocchio", "drake"]
    for name, e in terms.items():
        assert np.allclose(e.mass_matrix(Q), planar_M(Q), rtol=0, atol=1e-13), name
        assert np.allclose(e.gravity(Q), planar_gravity(Q), rtol=0, atol=1e-12), name
        assert np.allclose(e.bias(Q, np.zeros(3)), e.gravity(Q), rtol=0, atol=0), name


def test_joints_are_looked_up_by_name_not_by_position(planar):
    """Vectors come and go in the caller's order, whatever the file's order."""
    q = Q[PERM]
    vdot = np.array([0.3, -1.0, 2.0])
    for name, e in load_terms(*planar, (0.0, 0.0, -G), ORDER).items():
        M = planar_M(Q)[np.ix_(PERM, PERM)]
        assert np.allclose(e.mass_matrix(q), M, rtol=0, atol=1e-13), name
        tau = M @ vdot + planar_gravity(Q)[PERM]
        assert np.allclose(e.inverse_dynamics(q, np.zeros(3), vdot), tau, rtol=0,
                           atol=1e-12), name
        # the torso's centre of mass: (x + c cos th, 0, z - c sin th)
        com = np.array([Q[0] + C * np.cos(Q[2]), 0.0, Q[1] - C * np.sin(Q[2])])
        assert np.allclose(e.frame_position("torso", q, [C, 0.0, 0.0]), com, rtol=0,
                           atol=1e-15), name
        J = np.array([[1.0, 0.0, -C * np.sin(Q[2])], [0.0, 0.0, 0.0],
                      [0.0, 1.0, -C * np.cos(Q[2])]])[:, PERM]
        assert np.allclose(e.frame_jacobian("torso", q, [C, 0.0, 0.0]), J, rtol=0,
                           atol=1e-12), name


def test_a_fixed_base_planar_robot_steps_in_both_simulations(planar):
    """One semi-implicit Euler step from rest under joint efforts tau [N, N, N m]:
    qd = dt M^-1 (tau - G), in the caller's order; the fixed root stays where the file
    puts it."""
    dt = 1e-3
    tau = np.array([1.0, 2.0, -0.5])  # (x, z, pitch)
    expected = (dt * np.linalg.solve(planar_M(Q), tau - planar_gravity(Q)))[PERM]
    sims = [MujocoSimulation(planar[0], ORDER, dt, (0.0, 0.0, -G)),
            PybulletSimulation(planar[1], ORDER, dt, (0.0, 0.0, -G), floating=False)]
    for sim in sims:
        assert not sim.floating
        sim.reset(FloatingState(np.ones(3), np.eye(3), np.ones(3), np.ones(3), Q[PERM],
                                np.zeros(3)))
        s = sim.state()
        assert np.array_equal(s.q, Q[PERM]), sim.name
        assert np.allclose(s.p_WB, 0.0, atol=1e-15) and np.allclose(s.v_WB_W, 0.0), sim.name
        sim.step(tau[PERM], [])
        assert np.allclose(sim.state().qd, expected, rtol=1e-12, atol=1e-15), sim.name
        assert sim.time == pytest.approx(dt)


def test_prismatic_limits_are_in_metres_in_all_three_engines(planar):
    for name, facts in load_description(*planar, floating=False).items():
        assert facts.joint_limits() == {j: JointLimit(*lim) for j, lim in LIMITS.items()}, name
        axes = facts.joint_axes()
        assert {j: tuple(a) for j, a in axes.items()} == {
            "x": (1.0, 0.0, 0.0), "z": (0.0, 0.0, 1.0), "pitch": (0.0, 1.0, 0.0)}, name


# --- MuJoCo: the free joint --------------------------------------------------------------
FREE_MJCF = """
<mujoco model="free">
  <option gravity="0 0 0"/>
  <worldbody>
    <body name="box">
      <freejoint name="root"/>
      <inertial pos="0.1 0 0" mass="1" diaginertia="0.1 0.2 0.3"/>
    </body>
  </worldbody>
</mujoco>
"""


def test_mujoco_free_joint_quaternion_is_wxyz_and_angular_velocity_body_frame(tmp_path):
    """Half a turn about x is the quaternion (w, x, y, z) = (0, 1, 0, 0); a world spin
    about z is, in that body's axes, a spin about -z; a point one metre along the body's x
    axis then moves at omega x r."""
    path = tmp_path / "free.xml"
    path.write_text(FREE_MJCF)
    sim = MujocoSimulation(path, [], 1e-3)
    assert sim.floating
    R = np.diag([1.0, -1.0, -1.0])
    sim.reset(FloatingState(np.zeros(3), R, np.zeros(3), np.array([0.0, 0.0, 1.0]),
                            np.zeros(0), np.zeros(0)))
    assert np.array_equal(sim.data.qpos[3:7], [0.0, 1.0, 0.0, 0.0])
    assert np.array_equal(sim.data.qvel[3:6], [0.0, 0.0, -1.0])
    s = sim.state()
    assert np.array_equal(s.R_WB, R) and np.array_equal(s.w_WB_W, [0.0, 0.0, 1.0])
    p, v = sim.point("box", np.array([1.0, 0.0, 0.0]))
    assert np.array_equal(p, [1.0, 0.0, 0.0]) and np.allclose(v, [0.0, 1.0, 0.0], atol=1e-15)


def test_mujoco_refuses_a_free_joint_that_is_not_the_roots(tmp_path):
    path = tmp_path / "bad.xml"
    path.write_text(FREE_MJCF.replace('<body name="box">', '<body name="base"><inertial '
                                      'pos="0 0 0" mass="1" diaginertia="1 1 1"/>'
                                      '<body name="box">').replace("</body>",
                                                                   "</body></body>"))
    with pytest.raises(DescriptionError, match="free joint"):
        MujocoSimulation(path, [], 1e-3)


# --- PyBullet: link poses are centre-of-mass frames -----------------------------------
ARM_URDF = """
<robot name="arm">
  <link name="base"><inertial><origin xyz="0.2 0 0" rpy="0 0 0"/><mass value="2"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="arm"><inertial><origin xyz="0.3 0.1 0" rpy="0 0 0"/><mass value="1"/>
    <inertia ixx="0.02" ixy="0.005" ixz="0" iyy="0.03" iyz="0" izz="0.04"/></inertial></link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="arm"/>
    <origin xyz="0 0 1" rpy="0 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
</robot>
"""


@pytest.fixture
def arm(tmp_path) -> Path:
    path = tmp_path / "arm.urdf"
    path.write_text(ARM_URDF)
    return path


def test_pybullet_reports_the_centre_of_mass_frame_and_the_adapter_the_link_frame(arm):
    """getLinkState's first pose is the link's CoM frame; the adapter's point is offset
    from the link frame (joint origin (0, 0, 1)); its Jacobian is that point's, in PyBullet
    as in Pinocchio."""
    pb = PybulletTerms(arm)
    q = np.array([np.pi / 2])
    tip = np.array([0.5, 0.0, 0.0])
    pb.frame_position("arm", q)  # sets the joint
    raw = pb.client.getLinkState(pb.body, pb.link("arm"), computeForwardKinematics=1)
    assert np.allclose(raw[0], [-0.1, 0.3, 1.0], atol=1e-15)  # the CoM, not the joint origin
    assert np.allclose(pb.frame_position("arm", q), [0.0, 0.0, 1.0], atol=1e-15)
    assert np.allclose(pb.frame_position("arm", q, tip), [0.0, 0.5, 1.0], atol=1e-15)
    J_tip = [[-0.5], [0.0], [0.0]]
    assert np.allclose(pb.frame_jacobian("arm", q, tip), J_tip, atol=1e-15)
    assert np.allclose(PinocchioTerms(arm).frame_jacobian("arm", q, tip), J_tip, atol=1e-15)
    # calculateJacobian itself measures the point along the inertial frame's axes (here
    # turned 22.5 degrees about z by the off-diagonal inertia), not the link's
    J_raw, _ = pb.client.calculateJacobian(pb.body, pb.link("arm"), list(tip), [q[0]], [0.0],
                                           [0.0])
    assert np.allclose(np.linalg.norm(J_raw), 0.5) and not np.allclose(J_raw, J_tip, atol=0.1)
    assert np.allclose(pb.frame_position("base", q, [1.0, 0.0, 0.0]), [1.0, 0.0, 0.0])


def test_pybullet_floating_base_velocity_is_converted_at_the_link_origin(arm):
    """PyBullet's base velocity is its CoM's: spinning at 1 rad/s about z with the base
    origin at rest, the CoM 0.2 m along x moves at 0.2 m/s along y."""
    sim = PybulletSimulation(arm, ["shoulder"], 1e-3, (0.0, 0.0, 0.0))
    sim.reset(FloatingState(np.zeros(3), np.eye(3), np.zeros(3), np.array([0.0, 0.0, 1.0]),
                            np.zeros(1), np.zeros(1)))
    v_com, _ = sim.client.getBaseVelocity(sim.body)
    assert np.allclose(v_com, [0.0, 0.2, 0.0], atol=1e-15)
    s = sim.state()
    assert np.allclose(s.p_WB, 0.0, atol=1e-15) and np.allclose(s.v_WB_W, 0.0, atol=1e-15)
    sim.step(np.zeros(1), [PointForce("base", np.zeros(3), np.zeros(3))])


def test_pybullet_inertia_comes_back_in_link_axes(arm):
    """PyBullet stores principal moments and rotates the inertial frame; the adapter turns
    them back into the file's full inertia (to Bullet's diagonalisation accuracy)."""
    facts = PybulletTerms(arm).link_inertials()
    assert "base" not in facts  # a fixed base's inertial is discarded by PyBullet
    arm_ = facts["arm"]
    assert arm_.mass == 1.0 and np.allclose(arm_.com, [0.3, 0.1, 0.0], atol=1e-15)
    I = np.array([[0.02, 0.005, 0.0], [0.005, 0.03, 0.0], [0.0, 0.0, 0.04]])
    assert np.allclose(arm_.inertia, I, rtol=0, atol=1e-8 * 0.04)
    assert PybulletTerms(arm, floating=True).link_inertials()["base"].mass == 2.0


def test_pybullet_terms_refuse_a_floating_base(arm):
    with pytest.raises(DescriptionError, match="floating base"):
        PybulletTerms(arm, floating=True).mass_matrix(np.zeros(1))


# --- the protocols -----------------------------------------------------------------------
def test_every_adapter_satisfies_its_protocols(planar, arm):
    mjcf, urdf = planar
    terms = [MujocoTerms(mjcf), PybulletTerms(urdf), PinocchioTerms(urdf)]
    sims = [MujocoSimulation(mjcf, ORDER, 1e-3), PybulletSimulation(urdf, ORDER, 1e-3,
                                                                    floating=False)]
    for t in terms:
        assert isinstance(t, DynamicsTerms) and isinstance(t, DescriptionFacts), t.name
    for s in sims:
        assert isinstance(s, Simulation) and isinstance(s, DescriptionFacts), s.name
    assert not isinstance(object(), DynamicsTerms)


# --- L0 on the planar robot, written by the description generator -------------------
def _planar(m1: float = M1, axis: tuple = (1.0, 0.0, 0.0), pitch: tuple = LIMITS["pitch"][:2],
            com: float = C):
    from dynval.robots.description import Description, Inertial, Link

    def inertial(m: float, c: tuple, diag: tuple) -> Inertial:
        return Inertial(m, c, ((diag[0], 0.0, 0.0), (0.0, diag[1], 0.0), (0.0, 0.0, diag[2])))

    return Description("planar", (
        Link("rail", None, "fixed", inertial=inertial(1.0, (0.0, 0.0, 0.0), (0.1,) * 3)),
        Link("cart_x", "rail", "prismatic", "x", axis, LIMITS["x"][:2],
             inertial=inertial(m1, (0.0, 0.0, 0.0), (0.01,) * 3)),
        Link("cart_z", "cart_x", "prismatic", "z", (0.0, 0.0, 1.0), LIMITS["z"][:2],
             inertial=inertial(M2, (0.0, 0.0, 0.0), (0.01,) * 3)),
        Link("torso", "cart_z", "revolute", "pitch", (0.0, 1.0, 0.0), pitch,
             inertial=inertial(M3, (com, 0.0, 0.0), (0.05, IYY, 0.03))),
    ))


def test_l0_holds_every_file_to_its_parameter_set_and_fails_a_wrong_one(tmp_path):
    """L0 of a robot with a parameter set (ladder.l0): the files written from it agree in
    every engine, limits in their units; and a parameter set the files were not written
    from (a mass 1 % off, a centre 1 mm off, an axis turned, a limit moved by 1 mrad)
    fails that quantity's row in every engine that reads it."""
    from dynval.comparisons.ladder.l0 import description_rows
    from dynval.robots.description import to_mjcf, to_urdf

    (tmp_path / "planar.xml").write_text(to_mjcf(_planar()))
    (tmp_path / "planar.urdf").write_text(to_urdf(_planar()))
    rows = description_rows(_planar(), tmp_path)
    assert all(r["passed"] for r in rows), [r for r in rows if not r["passed"]]
    engines = ("mujoco", "pybullet", "pinocchio")
    limits = {(r["engine"], r["quantity"]) for r in rows if "limits" in r["quantity"]}
    assert limits == {(f"{e} vs parameters", f"joint {j}: limits [{u}]") for e in engines
                      for j, (_, _, u) in LIMITS.items()}
    for wrong, failing in ((_planar(m1=1.01 * M1), "body cart_x: mass, centre of mass"),
                           (_planar(com=C + 1e-3), "body torso: mass, centre of mass"),
                           (_planar(axis=(0.0, 1.0, 0.0)), "joint x: axis"),
                           (_planar(pitch=(-1.0, 1.201)), "joint pitch: limits [rad]")):
        bad = {(r["engine"], r["quantity"]) for r in description_rows(wrong, tmp_path)
               if not r["passed"]}
        assert bad == {(f"{e} vs parameters", failing) for e in engines}
