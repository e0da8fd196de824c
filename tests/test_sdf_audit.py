"""An SDF is audited through Drake's reading: Drake reads the file, and MuJoCo, PyBullet
and Pinocchio (none of which reads SDF here) are given the URDF written from Drake's
plant, so that four algorithms are compared on one set of numbers.  A double pendulum
whose inertial frames are offset and turned must agree to round-off in every term; a
joint type URDF cannot carry is dynval's decision, said; a cut-short file is one
sentence."""

from pathlib import Path

import numpy as np
import pytest

from dynval.comparisons.own_model.parity import parity_audit
from dynval.engines import DescriptionError

SDF = """<?xml version="1.0"?>
<sdf version="1.7">
  <model name="double_pendulum">
    <link name="upper">
      <inertial><mass>1.0</mass><pose>0.01 0 -0.25 0.2 0 0</pose>
        <inertia><ixx>0.02</ixx><iyy>0.021</iyy><izz>0.002</izz>
          <ixy>0.001</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>
    </link>
    <link name="lower">
      <pose>0 0 -0.5 0 0.3 0</pose>
      <inertial><mass>0.8</mass><pose>0 0 -0.2 0 0 0</pose>
        <inertia><ixx>0.012</ixx><iyy>0.011</iyy><izz>0.001</izz>
          <ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>
    </link>
    <joint name="shoulder" type="revolute"><parent>world</parent><child>upper</child>
      <axis><xyz>0 1 0</xyz></axis></joint>
    <joint name="elbow" type="{elbow}"><parent>upper</parent><child>lower</child>
      <axis><xyz>1 0 0</xyz></axis></joint>
  </model>
</sdf>
"""


def _write(tmp_path: Path, elbow: str = "revolute") -> Path:
    path = tmp_path / "double_pendulum.sdf"
    path.write_text(SDF.format(elbow=elbow))
    return path


def test_an_sdf_is_compared_on_four_engines_to_round_off(tmp_path):
    audit = parity_audit(_write(tmp_path), 30, 0)
    assert set(audit.engines) | {audit.label} == {"mujoco", "pybullet", "pinocchio", "drake"}
    assert audit.passed, audit.failure_sentences()
    terms = {r.term for r in audit.results}
    assert {"M", "bias", "G", "tau"} <= terms
    worst = max(r.max_rel_error for r in audit.results if r.term in ("M", "bias"))
    assert worst < 1e-12  # one set of numbers: only the algorithms' round-off remains
    assert any("Drake's reading of the SDF" in n for n in audit.notes)


def test_a_wrong_inertia_in_the_urdf_would_be_seen(tmp_path):
    """The check can fail: the same SDF with the lower link's mass changed in the file
    Drake reads, against a URDF written from the unchanged file, differs in M."""
    from dynval.engines.drake_engine import DrakeTerms
    from dynval.engines.pinocchio_engine import PinocchioTerms
    from dynval.engines.urdf_from_drake import sdf_urdf

    good = _write(tmp_path)
    urdf = tmp_path / "from_drake.urdf"
    urdf.write_text(sdf_urdf(good, False))
    heavy = tmp_path / "heavy.sdf"
    heavy.write_text(good.read_text().replace("<mass>0.8</mass>", "<mass>0.808</mass>"))
    q = np.array([0.3, -0.7])
    names = ["shoulder", "elbow"]
    M_pin = PinocchioTerms(urdf, joint_names=names).mass_matrix(q)
    assert np.allclose(M_pin, DrakeTerms(good, joint_names=names).mass_matrix(q),
                       rtol=0, atol=1e-14)
    assert not np.allclose(M_pin, DrakeTerms(heavy, joint_names=names).mass_matrix(q),
                           rtol=1e-4)


def test_a_joint_urdf_cannot_carry_is_dynvals_decision(tmp_path):
    audit = parity_audit(_write(tmp_path, "ball"), 10, 0, l3=False)
    for engine in ("mujoco", "pybullet", "pinocchio"):
        assert engine in audit.decided, audit.refused
        assert ("as Drake reads it, and dynval writes no URDF of Drake's ball_rpy joint "
                "'elbow'") in audit.refused[engine]


def test_a_cut_short_sdf_is_one_sentence(tmp_path):
    path = tmp_path / "cut.sdf"
    path.write_text(SDF.format(elbow="revolute")[:300])
    with pytest.raises(DescriptionError, match="cut.sdf"):
        parity_audit(path, 10, 0)


def test_pybullets_own_sdf_reader_is_asked_and_its_refusal_quoted(tmp_path):
    """PyBullet is asked, not presumed: its loadSDF refuses a joint to the world and a
    revolute joint without limits, and the finding gives its own words as a reader's."""
    audit = parity_audit(_write(tmp_path), 10, 0, l3=False)
    said = [r for r in audit.readers if r.startswith("PyBullet's loadSDF")]
    assert said == ["PyBullet's loadSDF refuses it: Joint is of type REVOLUTE but it does "
                    "not specify limits; shoulder; joint xml is not initialized correctly"]
    assert audit.passed  # a reader's finding is about the reader, not the file


def test_pybullets_sdf_masses_are_held_to_drakes(tmp_path):
    """Where loadSDF reads the file (limits given, a base link instead of the world), its
    link masses agree with Drake's; a reading that differs is named with both values."""
    from dynval.engines.drake_engine import body_masses
    from dynval.engines.sdf_readers import ask_pybullet, compared

    limits = "<limit><lower>-3</lower><upper>3</upper></limit></axis>"
    text = SDF.format(elbow="revolute").replace("</xyz></axis>", "</xyz>" + limits)
    text = text.replace('<link name="upper">', '<link name="base"><inertial><mass>2.0</mass>'
                        "<inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz><ixy>0</ixy>"
                        "<ixz>0</ixz><iyz>0</iyz></inertia></inertial></link>"
                        '<link name="upper">').replace("<parent>world</parent>",
                                                        "<parent>base</parent>")
    path = tmp_path / "based.sdf"
    path.write_text(text)
    drakes = body_masses(path)
    assert drakes == pytest.approx({"base": 2.0, "upper": 1.0, "lower": 0.8}, rel=1e-12)
    assert ask_pybullet(path, drakes) == []
    assert compared({"base": 2.0, "upper": 1.5}, drakes) == [
        "PyBullet's loadSDF leaves out link 'lower'",
        "PyBullet's loadSDF: link 'upper' mass 1.5 kg, Drake 1 kg"]
