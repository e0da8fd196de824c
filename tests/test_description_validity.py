"""Bad descriptions are named before any engine loads them: a file that is not UTF-8 or
is cut short.  Each is one sentence naming the file, and the CLI exits 2 with that line
and no traceback."""

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
