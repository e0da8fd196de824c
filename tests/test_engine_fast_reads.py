"""The engines' per-step reads on their fast paths against MuJoCo's own functions: a
point's velocity from cvel (compiled) equals mj_objectVelocity's at the link origin plus
omega x offset, and the state read from cached views equals a fresh read."""

from __future__ import annotations

import mujoco
import numpy as np

from dynval.comparisons.hopper.loop import make_plant
from dynval.comparisons.hopper.scenarios import initial_state
from dynval.engines.base import cross3
from dynval.robots import ROOT
from dynval.robots.hopper.params import PARAMS


def _moving_hopper():
    """A MuJoCo hopper a few hundred steps into a tumble (every rate non-zero)."""
    plant = make_plant("mujoco", PARAMS, "shared", ROOT / "hopper")
    q, qd = initial_state(PARAMS)
    plant.reset(q, qd + np.array([0.7, -0.4, 1.3, -2.0, 0.5]))
    for _ in range(300):
        plant.step(np.array([2.0, 150.0]), np.array([[5.0, 0.0, 40.0]]))
    return plant.sim


def test_point_equals_mj_object_velocity() -> None:
    sim = _moving_hopper()
    m, d = sim.model, sim.data
    for link in ("body", "leg"):
        b = sim.body_id(link)
        for offset in (np.zeros(3), np.array([0.03, -0.02, 0.11])):
            p, v = sim.point(link, offset)
            vel = np.zeros(6)
            mujoco.mj_objectVelocity(m, d, mujoco.mjtObj.mjOBJ_XBODY, b, vel, 0)
            p_ref = d.xpos[b] + d.xmat[b].reshape(3, 3) @ offset
            v_ref = vel[3:] + cross3(vel[:3], p_ref - d.xpos[b])
            np.testing.assert_allclose(p, p_ref, rtol=0, atol=1e-15)
            np.testing.assert_allclose(v, v_ref, rtol=0, atol=1e-13 * (1 + np.abs(v_ref).max()))
            P, V = sim.points([link, link], np.array([offset, offset]))
            np.testing.assert_array_equal(P[1], p)
            np.testing.assert_array_equal(V[1], v)


def test_state_from_cached_views_is_a_fresh_copy() -> None:
    sim = _moving_hopper()
    d = sim.data
    s = sim.state()
    np.testing.assert_array_equal(s.q, d.qpos[sim.qadr])
    np.testing.assert_array_equal(s.qd, d.qvel[sim.dof])
    np.testing.assert_array_equal(s.p_WB, d.qpos[0:3])
    q_before = s.q.copy()
    mujoco.mj_step(sim.model, d)  # a later step may not change a state already read
    np.testing.assert_array_equal(s.q, q_before)
    assert not np.array_equal(sim.state().q, q_before)


def test_contact_forces_from_the_contact_list_equal_a_struct_per_contact() -> None:
    """The quadruped standing on MuJoCo's native ground: the forces read from the contact
    list's fields equal those read one contact struct at a time."""
    from dynval.comparisons.quadruped.loop import QuadrupedLoop
    from dynval.comparisons.quadruped.loop import make_plant as quadruped_plant
    from dynval.handrolled.quadruped.gait import TROT
    from dynval.robots.quadruped.params import PARAMS as QUADRUPED

    loop = QuadrupedLoop(quadruped_plant("mujoco", QUADRUPED, ROOT / "quadruped"), QUADRUPED,
                         TROT)
    sim = loop.plant.sim
    seen = 0
    for _ in range(60):
        loop.advance()
        m, d = sim.model, sim.data
        ref = {name: np.zeros(3) for name in sim._geom_to_link.values()}
        f6 = np.zeros(6)
        for i in range(d.ncon):
            c = d.contact[i]
            for gid, sign in ((c.geom[0], -1.0), (c.geom[1], 1.0)):
                if gid in sim._geom_to_link:
                    mujoco.mj_contactForce(m, d, i, f6)
                    ref[sim._geom_to_link[gid]] += sign * (
                        np.asarray(c.frame).reshape(3, 3).T @ f6[:3])
        out = sim.contact_forces()
        assert out.keys() == ref.keys()
        for name in ref:
            np.testing.assert_array_equal(out[name], ref[name])
        seen += d.ncon
    assert seen > 0  # the feet did touch the ground


def test_contact_force_rows_and_joint_state_equal_the_full_reads() -> None:
    """The quadruped's per-step reads on each engine: contact_force_rows (MuJoCo: one
    compiled pass calling mj_contactForce; PyBullet: sums on plain floats) equals
    contact_forces, and joint_state equals state()'s q and qd, float for float."""
    from dynval.comparisons.quadruped.loop import QuadrupedLoop
    from dynval.comparisons.quadruped.loop import make_plant as quadruped_plant
    from dynval.handrolled.quadruped.gait import TROT
    from dynval.robots.quadruped.params import PARAMS as QUADRUPED

    for engine in ("mujoco", "pybullet"):
        loop = QuadrupedLoop(quadruped_plant(engine, QUADRUPED, ROOT / "quadruped"),
                             QUADRUPED, TROT)
        sim, feet = loop.plant.sim, tuple(loop.plant.point_links)
        touching = 0
        for _ in range(60):
            sim.step(loop.tau, ())  # joint_state first: nothing of the state read yet
            q, qd = sim.joint_state()
            rows = sim.contact_force_rows(feet)
            forces = sim.contact_forces()
            s = sim.state()
            np.testing.assert_array_equal(q, s.q)
            np.testing.assert_array_equal(qd, s.qd)
            np.testing.assert_array_equal(rows, np.array([forces[foot] for foot in feet]))
            touching += int(np.count_nonzero(rows[:, 2]))
        assert touching > 0  # the feet did touch the ground



def test_compiled_contact_list_is_the_live_list() -> None:
    """MujocoSimulation.compiled_contacts (views that compiled code reads after each step,
    made once) against the bindings' list read afresh at each step of the quadruped on
    MuJoCo's native ground: the count, the geom pairs and the frames the same, and the
    forces summed from them (mujoco_compiled.listed_contact_forces) equal to
    contact_forces' contact by contact, float for float; the count read back unchanged."""
    from dynval.comparisons.quadruped.loop import QuadrupedLoop
    from dynval.comparisons.quadruped.loop import make_plant as quadruped_plant
    from dynval.engines import mujoco_compiled
    from dynval.handrolled.quadruped.gait import TROT
    from dynval.robots.quadruped.params import PARAMS as QUADRUPED

    loop = QuadrupedLoop(quadruped_plant("mujoco", QUADRUPED, ROOT / "quadruped"), QUADRUPED,
                         TROT)
    sim, feet = loop.plant.sim, tuple(loop.plant.point_links)
    contacts = sim.compiled_contacts()
    assert contacts is not None and sim.compiled_contacts() is contacts
    rows, seen = sim.contact_row_table(feet), 0
    for _ in range(60):
        loop.advance()
        d = sim.data
        n = d.ncon
        assert contacts.ncon[0] == n
        np.testing.assert_array_equal(contacts.geom[:n], d.contact.geom)
        np.testing.assert_array_equal(contacts.frame[:n], d.contact.frame)
        out = np.zeros((len(feet), 3))
        mujoco_compiled.listed_contact_forces(sim.compiled(), contacts, rows, out)
        forces = sim.contact_forces()  # contact by contact, in Python
        np.testing.assert_array_equal(out, [forces.get(f, np.zeros(3)) for f in feet])
        seen += n
    assert seen > 0  # the feet did touch the ground

def test_flat_state_equals_state_and_points() -> None:
    """flat_state (MuJoCo: one compiled pass over qpos, qvel and cvel; PyBullet: its
    numbers in one compiled pass) against state() and points(), float for float, on a
    tumbling hopper in each engine (the foot and a point off the leg's axis); PyBullet
    keeps the points' positions for step(), as point() does."""
    from dynval.engines.pybullet_engine import PybulletSimulation

    offsets = np.array([[0.0, 0.0, 0.0], [0.03, -0.02, 0.11]])
    for engine in ("mujoco", "pybullet"):
        plant = make_plant(engine, PARAMS, "shared", ROOT / "hopper")
        q, qd = initial_state(PARAMS)
        plant.reset(q, qd + np.array([0.7, -0.4, 1.3, -2.0, 0.5]))
        sim = plant.sim
        for _ in range(50):
            plant.step(np.array([2.0, 150.0]), np.array([[5.0, 0.0, 40.0]]))
            flat = sim.flat_state(("leg", "leg"), offsets)
            s = sim.state()
            P, V = sim.points(("leg", "leg"), offsets)
            ref = np.concatenate([s.p_WB, s.R_WB.ravel(), s.v_WB_W, s.w_WB_W, s.q, s.qd,
                                  np.hstack([P, V]).ravel()])
            np.testing.assert_array_equal(flat, ref)
            if isinstance(sim, PybulletSimulation):
                np.testing.assert_array_equal(
                    sim._positions[("leg", offsets[1].tobytes())], P[1])
