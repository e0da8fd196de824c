"""L3 cannot agree by accident: its envelope comes from each implementation's own
round-off and the system's own sensitivity, never from the difference between the two
readings it judges, and the difference it reports is the largest one."""

from __future__ import annotations

import numpy as np
import pytest

from dynval.comparisons.own_model import swing
from dynval.comparisons.own_model.audit import audit_model
from dynval.comparisons.own_model.parity import parity_audit
from tests.test_any_robot import arm, inertial, model_of


def _judged(audit) -> list[dict]:
    return [r for r in audit.l3 if r["tolerance"] is not None]


@pytest.mark.parametrize("mass", [5.6, 0.707])  # the forearm x8, and 1 % heavier
def test_a_wrong_mass_fails_l3_on_its_own(tmp_path, mass):
    """The model's forearm x8 or +1 % against the file: every engine's L3 rows differ, by
    more than the envelope (which the wrong mass must not widen)."""
    path = arm(tmp_path)
    wrong = arm(tmp_path, lower=inertial(mass, "0 0 -0.25"), name="wrong.urdf")
    audit = audit_model(model_of(wrong), path, 40, 0)
    failed = {r["comparison"] for r in audit.l3_failures}
    for engine in ("mujoco", "pybullet", "pinocchio"):
        assert f"handrolled vs {engine} accelerations, hand integrator" in failed, failed
    for r in audit.l3_failures:  # no evidence can explain a wrong model
        assert not r.get("evidence")
        assert r["max_abs"] > 100 * r["tolerance"], r


def test_a_correct_model_passes_l3_with_every_row_judged(tmp_path):
    """Two readings that agree to round-off: every judged row within its envelope."""
    path = arm(tmp_path)
    audit = audit_model(model_of(path), path, 40, 0)
    assert _judged(audit) and not audit.l3_failures, [audit.explain_l3(r)
                                                      for r in audit.l3_failures]
    assert max(r["max_abs"] for r in _judged(audit)) < 1e-9


DOUBLE_PENDULUM = """<mujoco model="double">
  <default><default class="heavy"><geom mass="{mass}"/></default></default>
  <worldbody>
    <body name="upper" pos="0 0 1">
      <joint name="shoulder" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0 0 -0.5" size="0.05" mass="1"/>
      <body name="lower" pos="0 0 -0.5">
        <joint name="elbow" type="hinge" axis="0 1 0"/>
        <geom class="heavy" type="capsule" fromto="0 0 0 0 0 -0.5" size="0.05"/>
      </body>
    </body>
  </worldbody>
</mujoco>"""


def test_two_readings_a_factor_8_apart_are_a_reader_finding(tmp_path):
    """A default class sets the lower link's mass to 8 kg: MuJoCo reads 8 kg, Pinocchio's
    reader, which ignores default classes, the geometry's mass.  MuJoCo defines the MJCF, so
    that is a reader finding with both masses, and the engines, built from MuJoCo's compiled
    model, agree at L0-L3."""
    path = tmp_path / "double.xml"
    path.write_text(DOUBLE_PENDULUM.format(mass=8.0))
    audit = parity_audit(path, 40, 0)
    assert any(s.startswith("Pinocchio's MJCF reader: body 'lower' mass ") and
               s.endswith("MuJoCo 8 kg") for s in audit.readers), audit.readers
    assert audit.l3 and not audit.l3_failures and audit.outcome == "agrees"


def test_the_reported_difference_is_the_largest_and_an_early_excess_is_named():
    """max_abs is the maximum over the horizon; where the difference leaves a growing
    envelope before its maximum, the row names that time with both values."""
    diff = np.array([0.0, 3.0, 1.0, 5.0])
    env = np.array([1.0, 2.0, 4.0, 8.0])
    row = swing.judge(diff, env, 0.5)
    assert row["max_abs"] == 5.0 and row["tolerance"] == 8.0 and row["at"] == 1.5
    assert row["exceeds_at"] == 0.5 and row["exceeds"] == (3.0, 2.0)
    assert not swing.l3_within({**row})
    assert swing.l3_within(swing.judge(np.array([0.0, 1.0]), np.array([1.0, 1.0]), 1.0))


def test_own_roundoff_is_measured_on_the_implementation_alone():
    """A smooth implementation's own round-off is at the level of a few ulps of its
    scale; a noisy one (an error of 1e-9 of its scale that changes with the last bits of
    the state) shows its noise; a systematic error (a mass 1 % off) shows nothing."""
    rng = np.random.default_rng(0)
    states = [(rng.normal(size=2), rng.normal(size=2)) for _ in range(20)]

    def pendulum(q, v, m2=1.0):
        return np.array([-9.81 * np.sin(q[0]), -9.81 / m2 * np.sin(q[1]) - v[0] * v[1]])

    def noisy(q, v):
        bits = np.frombuffer(q.tobytes(), dtype=np.uint64) & 0xFF
        return pendulum(q, v) * (1.0 + 1e-9 * (bits / 255.0 - 0.5))

    assert swing.own_roundoff(pendulum, states) < 1e-14
    assert swing.own_roundoff(lambda q, v: pendulum(q, v, 1.01), states) < 1e-14
    assert 1e-11 < swing.own_roundoff(noisy, states) < 2e-9


def test_pinocchios_free_root_with_anothers_inertials_reads_them_back(tmp_path):
    """The free root's copy with PyBullet's inertials says it holds them (the L3
    ablation decides from them whether PyBullet reads the file differently)."""
    from dynval.engines.pinocchio_engine import PinocchioFreeRoot

    path = arm(tmp_path, root="base", root_inertial=inertial(2.0))
    pin = PinocchioFreeRoot(path)
    bodies = pin.body_inertials()
    name = next(iter(bodies))
    heavier = {**bodies, name: type(bodies[name])(2 * bodies[name].mass, bodies[name].com,
                                                   bodies[name].inertia)}
    assert pin.with_body_inertials(heavier).body_inertials()[name].mass == \
        2 * bodies[name].mass


@pytest.mark.parametrize("option, g", [('<option gravity="0 0 -1.62"/>', 1.62),
                                       ('<option><flag gravity="disable"/></option>', 0.0)])
def test_a_files_own_gravity_is_honoured_and_said(tmp_path, option, g):
    """An MJCF on the moon, or with gravity switched off: every engine is audited with
    the file's gravity (not replaced by 9.81), and a note says so."""
    from dynval.comparisons.own_model import loading

    def gravity_terms(text: str, name: str) -> tuple[dict, list[str]]:
        path = tmp_path / name
        path.write_text(text)
        loaded = loading.load(loading.prepare(path), ["shoulder", "elbow"],
                              loading.STANDARD_GRAVITY, False)
        return {e: t.gravity(np.array([0.3, -0.4])) for e, t in loaded.engines.items()}, \
            loaded.notes

    earth, _ = gravity_terms(DOUBLE_PENDULUM.format(mass=1.0), "earth.xml")
    text = DOUBLE_PENDULUM.format(mass=1.0).replace("<worldbody>", f"{option}<worldbody>")
    there, notes = gravity_terms(text, "there.xml")
    assert set(there) == set(earth) and len(there) >= 2
    for e in earth:
        np.testing.assert_allclose(there[e], earth[e] * g / 9.81, rtol=1e-12, atol=1e-15)
    assert any("sets its own gravity" in n for n in notes), notes


def test_an_mjcf_is_given_to_pybullet_and_drake_as_mujoco_compiles_it(tmp_path):
    """PyBullet and Drake are asked (on the URDF written from MuJoCo's compiled model), so
    no sentence says that one of them refused the file, or that dynval did not run it."""
    path = tmp_path / "double.xml"
    path.write_text(DOUBLE_PENDULUM.format(mass=8.0))
    audit = parity_audit(path, 10, 0)
    assert {"pybullet", "drake"} <= set(audit.engines), audit.unchecked
    assert not any("PyBullet" in u or "Drake" in u for u in audit.unchecked), audit.unchecked


def test_a_gravity_set_in_an_included_file_is_the_files_own(tmp_path):
    """MuJoCo reads an <option> from an included file as from the main one."""
    from dynval.comparisons.own_model import loading

    (tmp_path / "physics.xml").write_text('<mujocoinclude><option gravity="0 0 -1.62"/>'
                                          "</mujocoinclude>")
    path = tmp_path / "double.xml"
    path.write_text(DOUBLE_PENDULUM.format(mass=1.0).replace(
        "<worldbody>", '<include file="physics.xml"/><worldbody>'))
    assert loading.prepare(path).gravity == (0.0, 0.0, -1.62)
