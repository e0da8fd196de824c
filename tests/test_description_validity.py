"""Bad descriptions are named before any engine loads them: a zero or non-finite axis, a
NaN or negative mass, an infinite origin, a missing include, a file that is not UTF-8 or
is cut short, a package path that leaves its package.  Each is one sentence naming the
file, the element and the value, and the CLI exits 2 with that line and no traceback."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dynval.comparisons.cli import app
from dynval.comparisons.own_model import loading
from dynval.engines import DescriptionError

runner = CliRunner()


@pytest.fixture(autouse=True)
def _own_temp_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Prepared copies go under this test's folder, and no ROS workspace leaks in."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.delenv("ROS_PACKAGE_PATH", raising=False)


def leg(tmp: Path, *, axis: str = "0 1 0", mass: str = "1.5", origin: str = "0 0 0.5",
        mesh: str = "", name: str = "leg.urdf") -> Path:
    """A one-joint leg: a thigh on a knee."""
    path = tmp / name
    path.write_text(f"""<?xml version="1.0"?>
<robot name="leg">
  <link name="hip"/>
  <link name="thigh">
    <inertial><origin xyz="0 0 -0.2"/><mass value="{mass}"/>
      <inertia ixx="0.02" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.01"/></inertial>{mesh}
  </link>
  <joint name="knee" type="revolute"><parent link="hip"/><child link="thigh"/>
    <origin xyz="{origin}"/><axis xyz="{axis}"/>
    <limit lower="-1" upper="1" effort="10" velocity="1"/></joint>
</robot>
""")
    return path


def said(path: Path) -> str:
    """What preparing the file says, which must be a DescriptionError."""
    with pytest.raises(DescriptionError) as caught:
        loading.prepare(path)
    return str(caught.value)


def one_line_exit_2(path: Path, *extra: str) -> str:
    """The CLI's audit of the file: exit 2, one line, no traceback; that line."""
    res = runner.invoke(app, ["audit", "--description", str(path), "--samples", "5", *extra])
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output and len(res.output.strip().splitlines()) == 1, \
        res.output
    return res.output.strip()


@pytest.mark.parametrize(("fault", "words"), [
    (dict(axis="0 0 0"), "joint 'knee' <axis> xyz is '0 0 0': a moving joint's axis must not "
                         "be zero"),
    (dict(axis="0 nan 1"), "joint 'knee' <axis> xyz is '0 nan 1': it must be finite"),
    (dict(mass="nan"), "link 'thigh' <inertial><mass> value is 'nan': it must be finite"),
    (dict(mass="-1.5"), "link 'thigh' <inertial><mass> value is '-1.5': a mass must not be "
                        "negative"),
    (dict(origin="0 inf 0.5"), "joint 'knee' <origin> xyz is '0 inf 0.5': it must be finite"),
], ids=["zero axis", "nan axis", "nan mass", "negative mass", "inf origin"])
def test_a_bad_urdf_value_is_named_with_its_element(tmp_path: Path, fault: dict,
                                                     words: str) -> None:
    path = leg(tmp_path, **fault)
    assert said(path) == f"{path}: {words}"
    assert words in one_line_exit_2(path)


def test_a_fixed_joints_zero_axis_and_a_sound_file_pass(tmp_path: Path) -> None:
    """A fixed joint reads no axis (real files write 0 0 0 there); a sound file prepares."""
    path = leg(tmp_path)
    path.write_text(path.read_text().replace(
        "</robot>", '<link name="tip"/><joint name="weld" type="fixed"><parent link="thigh"/>'
                    '<child link="tip"/><axis xyz="0 0 0"/></joint></robot>'))
    assert loading.prepare(path).source == path


def test_every_bad_value_is_counted_in_the_one_sentence(tmp_path: Path) -> None:
    path = leg(tmp_path, axis="0 0 0", mass="nan", origin="nan 0 0")
    assert said(path).endswith("(and 2 more such values)")


def test_a_file_that_is_not_utf8_is_named_with_the_byte(tmp_path: Path) -> None:
    path = leg(tmp_path)
    path.write_bytes(path.read_bytes().replace(b'name="leg"', 'name="l\u00e9g"'.encode("latin-1")))
    assert said(path) == (f"{path}: this URDF is not UTF-8 text (byte 0xe9 on line 2), and "
                          "the engines read a description as UTF-8")
    assert "not UTF-8 text" in one_line_exit_2(path)


@pytest.mark.parametrize("cut", [0.5, 0.97], ids=["in an element", "in a tag"])
def test_a_truncated_file_is_said_to_be_cut_short(tmp_path: Path, cut: float) -> None:
    path = leg(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data[:int(len(data) * cut)])
    assert "is not well-formed XML: it ends on line" in said(path)
    assert "as a truncated file does" in one_line_exit_2(path)


def test_a_truncated_mjcf_and_an_empty_one(tmp_path: Path) -> None:
    path = tmp_path / "cut.xml"
    path.write_text('<mujoco><worldbody><body name="a"><joint name="j"/>')
    assert "this MJCF is not well-formed XML: it ends on line 1" in said(path)
    path.write_text("\n")
    assert said(path) == f"{path}: this MJCF is empty"


def test_a_package_path_that_leaves_its_package_is_refused(tmp_path: Path) -> None:
    """``package://x/../../secret.stl`` with --package-path holding x/ would be followed to
    a file outside every package."""
    (tmp_path / "pkgs" / "x" / "meshes").mkdir(parents=True)
    (tmp_path / "secret.stl").write_text("solid s\nendsolid s\n")
    uri = "package://x/../../secret.stl"
    path = leg(tmp_path, mesh=f'<visual><geometry><mesh filename="{uri}"/></geometry></visual>')
    with pytest.raises(DescriptionError) as caught:
        loading.prepare(path, [tmp_path / "pkgs"])
    words = (f"link 'thigh' <mesh> filename '{uri}' leaves its package 'x', and a package "
             "path must stay inside its package")
    assert str(caught.value) == f"{path}: {words}"
    assert words in one_line_exit_2(path, "--package-path", str(tmp_path / "pkgs"))


# --- MJCF --------------------------------------------------------------------------------------

def mjcf(tmp: Path, body: str, head: str = "", name: str = "arm.xml") -> Path:
    path = tmp / name
    path.write_text(f"<mujoco>{head}<worldbody>{body}</worldbody></mujoco>")
    return path


LINK = ('<body name="upper" pos="{pos}"><joint name="shoulder" axis="{axis}"/>'
        '<inertial pos="0 0 -0.2" mass="{mass}" diaginertia="0.01 0.01 0.002"/></body>')


@pytest.mark.parametrize(("fault", "words"), [
    (dict(axis="0 0 0"), "joint 'shoulder' axis is '0 0 0': a moving joint's axis must not "
                         "be zero"),
    (dict(pos="0 0 nan"), "body 'upper' pos is '0 0 nan': it must be finite"),
    (dict(mass="-2"), "body 'upper' <inertial> mass is '-2': a mass must not be negative"),
], ids=["zero axis", "nan pos", "negative mass"])
def test_a_bad_mjcf_value_is_named_with_its_element(tmp_path: Path, fault: dict,
                                                     words: str) -> None:
    values = dict(pos="0 0 1", axis="0 1 0", mass="1") | fault
    path = mjcf(tmp_path, LINK.format(**values))
    assert said(path) == f"{path}: {words}"
    assert words in one_line_exit_2(path)


def test_a_missing_include_is_named_before_any_engine_reads_the_file(tmp_path: Path) -> None:
    """MuJoCo would refuse the file and Pinocchio would load it without the include."""
    path = mjcf(tmp_path, LINK.format(pos="0 0 1", axis="0 1 0", mass="1"),
                head='<include file="parts/hand.xml"/>')
    assert said(path) == (f"{path}: <include file='parts/hand.xml'> names no file (looked "
                          "for it next to arm.xml)")
    assert "names no file" in one_line_exit_2(path)


def test_an_included_files_values_are_checked_and_named_by_that_file(tmp_path: Path) -> None:
    """An include resolves next to the including file (or the main one), and a bad value
    in it names the included file."""
    (tmp_path / "parts").mkdir()
    hand = mjcf(tmp_path / "parts", '<body name="hand"><joint name="wrist" axis="inf 0 0"/>'
                '<geom type="sphere" size="0.05"/></body>', name="hand.xml")
    (tmp_path / "parts" / "both.xml").write_text('<mujoco><include file="hand.xml"/></mujoco>')
    path = mjcf(tmp_path, LINK.format(pos="0 0 1", axis="0 1 0", mass="1"),
                head='<include file="parts/both.xml"/>')
    assert said(path) == f"{hand}: joint 'wrist' axis is 'inf 0 0': it must be finite"


def test_an_unnamed_mjcf_joint_is_named_not_a_crash(tmp_path):
    """A hinge without a name crashed the process inside MuJoCo's name lookup (exit
    139); it is one sentence naming its body, before any engine reads the file."""
    from typer.testing import CliRunner

    from dynval.comparisons.cli import app

    path = tmp_path / "unnamed_joint.xml"
    path.write_text("""<mujoco model="unnamed"><worldbody>
  <body name="upper" pos="0 0 1"><joint type="hinge" axis="0 1 0"/>
    <geom type="capsule" fromto="0 0 0 0 0 -0.5" size="0.05" mass="1"/>
    <body name="lower" pos="0 0 -0.5"><joint name="elbow" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0 0 -0.5" size="0.05" mass="1"/></body>
  </body></worldbody></mujoco>""")
    res = CliRunner().invoke(app, ["audit", "--description", str(path), "--samples", "5"])
    assert res.exit_code == 2, res.output
    assert "body 'upper' <joint> (a hinge) has no name" in res.output
