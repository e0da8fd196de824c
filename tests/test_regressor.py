"""Naming the parameter: Pinocchio's joint-torque regressor (engines) and the link whose
mass, centre of mass or inertia a model implies differently from its description
(comparisons.own_model.regressor).  The "model" is a modified copy of a small arm's URDF
in Pinocchio; the description is the original."""

from pathlib import Path

import numpy as np
import pytest

from dynval.comparisons.ladder.audit import random_states
from dynval.comparisons.own_model.regressor import (
    Ambiguous,
    LinkFinding,
    Unexplained,
    implied_parameters,
    to_parameters,
    to_physical,
)
from dynval.engines.pinocchio_engine import PinocchioTerms
from dynval.engines.pinocchio_regressor import body_parameters, torque_regressor

LIMIT = '<limit lower="-3" upper="3" effort="1" velocity="1"/>'
# shoulder about a vertical z (its link's mass is not identifiable), elbow about y, a
# continuous roll about x carrying a fixed tool, and a pitch about z at the end
ARM = f"""<robot name="arm">
  <link name="base"/>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/>
    <origin xyz="0 0 0.1"/><axis xyz="0 0 1"/>{LIMIT}</joint>
  <link name="upper"><inertial><origin xyz="0.02 0.01 0.15"/><mass value="2.0"/>
    <inertia ixx="0.03" ixy="0.001" ixz="0.002" iyy="0.035" iyz="0.0015" izz="0.01"/>
  </inertial></link>
  <joint name="elbow" type="revolute"><parent link="upper"/><child link="fore"/>
    <origin xyz="0.05 0 0.3"/><axis xyz="0 1 0"/>{LIMIT}</joint>
  <link name="fore"><inertial><origin xyz="0.2 0.02 0.03"/><mass value="1.5"/>
    <inertia ixx="0.004" ixy="0.0002" ixz="0.0003" iyy="0.02" iyz="0.0001" izz="0.021"/>
  </inertial></link>
  <joint name="roll" type="continuous"><parent link="fore"/><child link="wrist"/>
    <origin xyz="0.4 0 0"/><axis xyz="1 0 0"/></joint>
  <link name="wrist"><inertial><origin xyz="0.05 0.01 0.02"/><mass value="0.5"/>
    <inertia ixx="0.0005" ixy="0.00002" ixz="0.00003" iyy="0.001" iyz="0.00001" izz="0.0012"/>
  </inertial></link>
  <joint name="mount" type="fixed"><parent link="wrist"/><child link="tool"/>
    <origin xyz="0.08 0.03 0"/></joint>
  <link name="tool"><inertial><origin xyz="0.02 0 0.01"/><mass value="0.2"/>
    <inertia ixx="0.0001" ixy="0" ixz="0" iyy="0.0002" iyz="0" izz="0.00015"/>
  </inertial></link>
  <joint name="pitch" type="revolute"><parent link="wrist"/><child link="pole"/>
    <origin xyz="0.1 0 0"/><axis xyz="0 0 1"/>{LIMIT}</joint>
  <link name="pole"><inertial><origin xyz="0.12 0.01 0.02"/><mass value="0.27"/>
    <inertia ixx="0.0002" ixy="0.00001" ixz="0.00002" iyy="0.0015" iyz="0.000015" izz="0.0016"/>
  </inertial></link>
</robot>"""
JOINTS = ["shoulder", "elbow", "roll", "pitch"]
STATES = random_states(20, 3, len(JOINTS))


def _edit(old: str, new: str) -> str:
    assert ARM.count(old) == 1, old
    return ARM.replace(old, new)


def _terms(tmp_path: Path, text: str, name: str, joints=JOINTS) -> PinocchioTerms:
    path = tmp_path / f"{name}.urdf"
    path.write_text(text)
    return PinocchioTerms(path, joint_names=joints)


def _finding(tmp_path: Path, text: str, joints=JOINTS):
    desc = _terms(tmp_path, ARM, "description", joints)
    return implied_parameters(desc, _terms(tmp_path, text, "model", joints), STATES)


def _rel(a: float, b: float) -> float:
    return abs(a - b) / abs(b)


def test_regressor_reproduces_inverse_dynamics_in_callers_order(tmp_path):
    joints = ["pitch", "shoulder", "roll", "elbow"]
    terms = _terms(tmp_path, ARM, "arm", joints)
    bodies = body_parameters(terms)
    assert [(b.joint, b.link, b.fixed_links) for b in bodies] == [
        ("shoulder", "upper", ()), ("elbow", "fore", ()), ("roll", "wrist", ("tool",)),
        ("pitch", "pole", ())]
    pi = np.concatenate([b.pi for b in bodies])
    for q, v, a in random_states(5, 0, 4):
        tau = terms.inverse_dynamics(q, v, a)
        Y = torque_regressor(terms, q, v, a)
        assert Y.shape == (4, 40)
        assert np.max(np.abs(Y @ pi - tau)) <= 1e-12 * np.max(np.abs(tau))
    # pole: nothing welded to it, its URDF inertial read back through the conversion
    I_c = np.array([[0.0002, 0.00001, 0.00002], [0.00001, 0.0015, 0.000015],
                    [0.00002, 0.000015, 0.0016]])
    assert np.allclose(bodies[3].pi, to_parameters(0.27, [0.12, 0.01, 0.02], I_c), atol=1e-15)


def test_physical_round_trip():
    pi = to_parameters(1.3, [0.1, -0.2, 0.05], np.diag([0.01, 0.02, 0.025]) + 0.001)
    m, c, I_c = to_physical(pi)
    assert m == pytest.approx(1.3) and np.allclose(c, [0.1, -0.2, 0.05])
    assert np.allclose(I_c, np.diag([0.01, 0.02, 0.025]) + 0.001, atol=1e-15)


def test_unmodified_model_has_no_finding(tmp_path):
    assert _finding(tmp_path, ARM) is None


@pytest.mark.parametrize("joints", [JOINTS, ["roll", "pitch", "elbow", "shoulder"]])
def test_mass_one_percent_names_only_the_mass(tmp_path, joints):
    f = _finding(tmp_path, _edit('mass value="0.27"', 'mass value="0.2727"'), joints)
    assert isinstance(f, LinkFinding) and f.link == "pole" and f.fixed_links == ()
    assert [c.quantity for c in f.changes] == ["mass"]
    assert _rel(f.change("mass").implied, 0.2727) < 1e-9
    assert set(f.unchanged) == {"centre of mass", "inertia"} and not f.undetermined
    assert f.sentence() == ("link `pole`: mass 0.27 kg in the description, 0.2727 kg implied "
                            "by the model; centre of mass and inertia unchanged")


def test_centre_of_mass_moved_a_millimetre(tmp_path):
    f = _finding(tmp_path, _edit('xyz="0.12 0.01 0.02"', 'xyz="0.12 0.01 0.021"'))
    assert isinstance(f, LinkFinding) and f.link == "pole"
    assert [c.quantity for c in f.changes] == ["centre of mass z"]
    assert _rel(f.change("centre of mass z").implied, 0.021) < 1e-9
    assert set(f.unchanged) == {"mass", "inertia"}


def test_inertia_entry_changed(tmp_path):
    f = _finding(tmp_path, _edit('ixx="0.0002"', 'ixx="0.00021"'))
    assert isinstance(f, LinkFinding) and f.link == "pole"
    assert [c.quantity for c in f.changes] == ["I_xx about the centre of mass"]
    assert _rel(f.change("I_xx about the centre of mass").implied, 0.00021) < 1e-9
    assert set(f.unchanged) == {"mass", "centre of mass"}


def test_fixed_childs_mass_dropped_names_its_moving_link(tmp_path):
    f = _finding(tmp_path, _edit('mass value="0.2"', 'mass value="0"'))
    assert isinstance(f, LinkFinding) and f.link == "wrist" and f.fixed_links == ("tool",)
    assert _rel(f.change("mass").description, 0.7) < 1e-12
    assert _rel(f.change("mass").implied, 0.5) < 1e-9
    assert _rel(f.change("centre of mass x").implied, 0.05) < 1e-9  # the wrist's own
    assert f.sentence().startswith("link `wrist` and the links fixed to it (`tool`): mass 0.7 kg")


def test_axis_sign_flip_is_not_an_inertial_parameter(tmp_path):
    f = _finding(tmp_path, _edit('<axis xyz="0 1 0"/>', '<axis xyz="0 -1 0"/>'))
    assert isinstance(f, Unexplained) and f.relative_residual > 1e-3
    assert f.sentence().startswith("no single link's inertial parameters explain the difference")


def test_mass_about_a_vertical_first_axis_is_not_claimed(tmp_path):
    """The shoulder turns about the vertical, so torques see only the upper link's inertia
    about that axis (I_zz + m (c_x^2 + c_y^2)): +1 % mass moves it by 0.02 * 5e-4 kg m^2,
    which a point mass at the elbow (carried by the fore arm or the wrist) mimics too."""
    f = _finding(tmp_path, _edit('mass value="2.0"', 'mass value="2.02"'))
    assert isinstance(f, Ambiguous)
    upper = next(c for c in f.candidates if c.link == "upper")
    assert upper.change("mass") is None and "mass" in upper.undetermined
    assert [c.quantity for c in upper.changes] == ["I_zz about the joint origin"]
    assert _rel(upper.change("I_zz about the joint origin").implied, 0.011 + 1e-5) < 1e-9
    assert "cannot tell which" in f.sentence() and "link `upper` (I_zz" in f.sentence()


def test_model_given_as_mass_matrix_and_bias(tmp_path):
    model = _terms(tmp_path, _edit('mass value="0.27"', 'mass value="0.2727"'), "model")

    class MandBias:
        def mass_matrix(self, q):
            return model.mass_matrix(q)

        def bias(self, q, v):
            return model.bias(q, v)

    desc = _terms(tmp_path, ARM, "description")
    for m in (MandBias(), model.inverse_dynamics):
        f = implied_parameters(desc, m, STATES)
        assert isinstance(f, LinkFinding) and f.link == "pole"
        assert _rel(f.change("mass").implied, 0.2727) < 1e-9
