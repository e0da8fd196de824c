"""Description files from the wild: package:// lookup, the geometry-free copy the engines
load, and the notes and findings the report gets about a URDF."""

from __future__ import annotations

import tempfile
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from dynval.engines import DescriptionError
from dynval.engines.description_files import (
    CACHE_DIR_NAME,
    inertial_findings,
    link_inertials,
    prepare_mjcf,
    prepare_urdf,
)
from dynval.engines.packages import package_dirs, resolve_package

INERTIAL = """<inertial><origin xyz="0 0 0.1" rpy="0.3 0.2 0.1"/><mass value="{mass}"/>
  <inertia ixx="{ixx}" ixy="{ixy}" ixz="0" iyy="{iyy}" iyz="0" izz="{izz}"/></inertial>"""
GOOD = INERTIAL.format(mass=1.0, ixx=0.1, ixy=0.0, iyy=0.1, izz=0.1)


def geometry(uri: str) -> str:
    """A visual and a collision naming the same mesh."""
    shape = f'<geometry><mesh filename="{uri}"/></geometry>'
    return f"<visual>{shape}</visual><collision>{shape}</collision>"


def urdf(tmp: Path, *, base: str = GOOD, link: str = GOOD, joint: str = "revolute",
         extra: str = "", name: str = "robot.urdf") -> Path:
    """A two-link URDF written under ``tmp``/robot/urdf."""
    text = f"""<?xml version="1.0"?>
<robot name="two">
  <link name="base">{base}</link>
  <link name="arm">{link}</link>
  <joint name="shoulder" type="{joint}">
    <parent link="base"/><child link="arm"/><origin xyz="0 0 0.5"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="10" velocity="1"/>{extra}
  </joint>
</robot>"""
    path = tmp / "robot" / "urdf" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def mesh_package(root: Path, name: str = "mypkg") -> Path:
    """A package folder ``root``/``name`` holding meshes/arm.stl; returns ``root``."""
    (root / name / "meshes").mkdir(parents=True)
    (root / name / "meshes" / "arm.stl").write_text("solid arm\nendsolid arm\n")
    return root


def tags(path: Path) -> Counter[str]:
    return Counter(element.tag for element in ET.parse(path).getroot().iter())


def example_robot_data() -> Path:
    from dynval.engines.packages import example_robot_data_robots

    robots = example_robot_data_robots()
    assert robots is not None, "example-robot-data, a test dependency, is not installed"
    return robots


@pytest.fixture(autouse=True)
def _own_temp_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Prepared copies go under this test's folder, and no ROS workspace leaks in."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.delenv("ROS_PACKAGE_PATH", raising=False)


# --- package:// lookup ------------------------------------------------------------------------

def test_package_dirs_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROS_PACKAGE_PATH", f"{tmp_path / 'a'}:{tmp_path / 'b'}")
    dirs = package_dirs([tmp_path / "cli"])
    assert dirs[:3] == [tmp_path / "cli", tmp_path / "a", tmp_path / "b"]
    robots = example_robot_data()
    assert dirs[3:] == [robots, robots.parent.parent]


def test_resolve_package_forms(tmp_path: Path) -> None:
    pkgs = mesh_package(tmp_path / "pkgs")
    target = pkgs / "mypkg" / "meshes" / "arm.stl"
    assert resolve_package("package://mypkg/meshes/arm.stl", [pkgs]) == target
    assert resolve_package("package:///mypkg/meshes/arm.stl", [pkgs]) == target
    assert resolve_package("package://mypkg/meshes/arm.stl", [pkgs / "mypkg"]) == target
    assert resolve_package("$(find mypkg)/meshes/arm.stl", [pkgs]) == target
    assert resolve_package("package://mypkg/meshes/leg.stl", [pkgs]) is None
    assert resolve_package("package://other/meshes/arm.stl", [pkgs]) is None
    assert resolve_package("meshes/arm.stl", [], base=pkgs / "mypkg") == target
    assert resolve_package(f"file://{target}", []) == target


@pytest.mark.parametrize("uri", ["package://mypkg/../../outside.stl",
                                 "package://mypkg/meshes/../../../outside.stl",
                                 "package://mypkg//outside.stl",
                                 "$(find mypkg)/../../outside.stl"])
def test_resolve_package_refuses_a_path_that_leaves_its_package(tmp_path: Path,
                                                                uri: str) -> None:
    """``..`` above the package's folder, or an absolute path, would read any file."""
    pkgs = mesh_package(tmp_path / "pkgs")
    (tmp_path / "outside.stl").write_text("solid x\nendsolid x\n")
    with pytest.raises(DescriptionError, match=r"leaves its package 'mypkg'"):
        resolve_package(uri, [pkgs])
    inside = "package://mypkg/meshes/../meshes/arm.stl"
    found = resolve_package(inside, [pkgs])
    assert found is not None and found.resolve() == (pkgs / "mypkg/meshes/arm.stl").resolve()


def test_resolve_package_by_package_xml(tmp_path: Path) -> None:
    """A ROS package is found by the name in its package.xml, whatever its folder's name."""
    workspace = mesh_package(tmp_path / "ws", "mypkg-src")
    (workspace / "mypkg-src" / "package.xml").write_text(
        "<package format='2'><name>mypkg</name></package>")
    found = resolve_package("package://mypkg/meshes/arm.stl", [workspace])
    assert found == workspace / "mypkg-src" / "meshes" / "arm.stl"


def test_prepare_finds_meshes_in_an_extra_dir(tmp_path: Path) -> None:
    path = urdf(tmp_path, link=GOOD + geometry("package://mypkg/meshes/arm.stl"))
    assert prepare_urdf(path).meshes_missing == ("package://mypkg/meshes/arm.stl",)
    prepared = prepare_urdf(path, [mesh_package(tmp_path / "pkgs")])
    assert (prepared.meshes_found, prepared.meshes_missing) == (1, ())


def test_prepare_finds_meshes_on_ros_package_path(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = urdf(tmp_path, link=GOOD + geometry("package://mypkg/meshes/arm.stl"))
    monkeypatch.setenv("ROS_PACKAGE_PATH", str(mesh_package(tmp_path / "ros")))
    prepared = prepare_urdf(path)
    assert (prepared.meshes_found, prepared.meshes_missing) == (1, ())


def test_every_mesh_of_an_example_robot_data_robot_resolves() -> None:
    prepared = prepare_urdf(example_robot_data() / "ur_description/urdf/ur5_robot.urdf")
    assert prepared.meshes_found > 0
    assert prepared.meshes_missing == ()
    assert f"{prepared.meshes_found} of {prepared.meshes_found} meshes found" in prepared.notes[0]


# --- the copy ----------------------------------------------------------------------------------

def test_copy_has_no_geometry_and_the_same_dynamics(tmp_path: Path) -> None:
    path = urdf(tmp_path, base=GOOD + geometry("arm.stl"), link=GOOD + geometry("arm.stl"))
    prepared = prepare_urdf(path)
    before, after = tags(path), tags(prepared.path)
    assert before["visual"] == before["collision"] == 2
    assert after["visual"] == after["collision"] == after["geometry"] == after["mesh"] == 0
    for tag in ("link", "joint", "inertial", "mass", "inertia", "limit", "axis", "parent"):
        assert after[tag] == before[tag], tag
    assert prepared.source == path and prepared.path.name == path.name
    assert "4 visual or collision elements left out" in prepared.notes[0]


def test_copy_of_a_real_robot_keeps_its_inertials_and_joints() -> None:
    source = example_robot_data() / "ur_description/urdf/ur5_robot.urdf"
    before, after = tags(source), tags(prepare_urdf(source).path)
    assert before["visual"] > 0 and after["visual"] == after["collision"] == 0
    for tag in ("link", "joint", "inertial", "mass", "inertia", "limit", "axis"):
        assert after[tag] == before[tag], tag


def test_missing_mesh_is_a_note_not_an_error(tmp_path: Path) -> None:
    path = urdf(tmp_path, link=GOOD + geometry("package://nowhere/arm.dae"))
    prepared = prepare_urdf(path)
    assert prepared.meshes_missing == ("package://nowhere/arm.dae",)
    assert prepared.meshes_found == 0
    assert "0 of 1 meshes found, not found: package://nowhere/arm.dae" in prepared.notes[0]


def test_mimic_is_dropped_with_a_note(tmp_path: Path) -> None:
    path = urdf(tmp_path, extra='<mimic joint="elbow" multiplier="2"/>')
    prepared = prepare_urdf(path)
    assert tags(prepared.path)["mimic"] == 0
    assert ("joint 'shoulder' mimics 'elbow': every engine here treats them as independent "
            "joints; the coupling is not audited") in prepared.notes


def test_mimics_of_one_joint_share_a_note() -> None:
    notes = prepare_urdf(example_robot_data() / "talos_data/robots/talos_reduced.urdf").notes
    mimic = [n for n in notes if "mimic" in n]
    assert len(mimic) == 2  # one per gripper
    assert mimic[0].startswith("joints 'gripper_left_inner_double_joint', ")
    assert "mimic 'gripper_left_joint': every engine here" in mimic[0]


@pytest.mark.parametrize("kind", ["floating", "planar"])
def test_floating_or_planar_joint_is_refused(tmp_path: Path, kind: str) -> None:
    with pytest.raises(DescriptionError, match=f"joint 'shoulder' is {kind}: dynval audits"):
        prepare_urdf(urdf(tmp_path, joint=kind))


def test_output_path_is_deterministic(tmp_path: Path) -> None:
    path = urdf(tmp_path, link=GOOD + geometry("arm.stl"))
    first, second = prepare_urdf(path), prepare_urdf(path)
    assert first.path == second.path
    assert first.path.parent.parent == Path(tempfile.gettempdir()) / CACHE_DIR_NAME
    data = first.path.read_bytes()
    first.path.unlink()  # a copy that went missing is written again, byte for byte
    assert prepare_urdf(path).path.read_bytes() == data
    assert [p.name for p in first.path.parent.iterdir()] == [path.name]  # no temp files left


def test_blank_lines_before_the_declaration_and_a_trailing_nul_are_accepted(
        tmp_path: Path) -> None:
    path = urdf(tmp_path)
    path.write_bytes(b"\n\n" + path.read_bytes() + b"\r\n\0")
    assert tags(prepare_urdf(path).path)["link"] == 2


def test_bad_files_name_the_file(tmp_path: Path) -> None:
    missing = tmp_path / "missing.urdf"
    with pytest.raises(DescriptionError, match="missing.urdf: cannot read"):
        prepare_urdf(missing)
    broken = tmp_path / "broken.urdf"
    broken.write_text("<robot><link></robot>")
    with pytest.raises(DescriptionError, match="broken.urdf: this URDF is not well-formed"):
        prepare_urdf(broken)
    sdf = tmp_path / "model.urdf"
    sdf.write_text("<sdf><model/></sdf>")
    with pytest.raises(DescriptionError, match="model.urdf: .* must be <robot>, not <sdf>"):
        prepare_urdf(sdf)


# --- massless links and inertia ---------------------------------------------------------------

def test_massless_links_and_root(tmp_path: Path) -> None:
    prepared = prepare_urdf(urdf(tmp_path, base="", link=""))
    assert prepared.root_link == "base"
    assert prepared.findings == ()  # a fixed base needs no root inertial: a note only
    assert any(n.startswith("root link 'base' has no <inertial>") and "PyBullet" in n
               for n in prepared.notes)
    assert "link 'arm' has no <inertial>: massless, as URDF specifies" in prepared.notes


@pytest.mark.parametrize(("mass", "ixx", "ixy", "iyy", "izz", "words"), [
    (-1.0, 0.1, 0.0, 0.1, 0.1, "has mass -1 kg: a mass must be finite and not negative"),
    ("nan", 0.1, 0.0, 0.1, 0.1, "has mass nan kg"),
    (1.0, -0.1, 0.0, 0.1, 0.1, "not positive definite: its principal moments are (-0.1, "),
    (1.0, 0.1, 0.2, 0.1, 0.1, "not positive definite"),
    (1.0, 0.1, 0.0, 0.1, 0.3, "violates the triangle inequality: its principal moments "
                              "(0.1, 0.1, 0.3) kg m^2 break A + B >= C"),
    (2.0, 0.0, 0.0, 0.0, 0.0, "is a point mass: 2 kg with zero rotational inertia"),
])
def test_each_inertia_condition_names_the_link(tmp_path: Path, mass: object, ixx: float,
                                               ixy: float, iyy: float, izz: float,
                                               words: str) -> None:
    inertial = INERTIAL.format(mass=mass, ixx=ixx, ixy=ixy, iyy=iyy, izz=izz)
    prepared = prepare_urdf(urdf(tmp_path, link=inertial))
    assert any(f.startswith("link 'arm' ") and words in f for f in prepared.findings), \
        prepared.findings
    assert not any("'base'" in f for f in prepared.findings)


def test_sound_inertias_have_no_findings(tmp_path: Path) -> None:
    """A flat plate sits on the boundary A + B = C; rotated, its matrix has products of
    inertia and its moments carry rounding, which the tolerance absorbs.  A massless link
    with zero inertia is fine too."""
    plate = INERTIAL.format(mass=1.0, ixx=0.25, ixy=0.0, iyy=0.25, izz=0.5)
    rotated = INERTIAL.format(mass=1.0, ixx=0.375, ixy=0.125, iyy=0.375, izz=0.25)
    for base, link in [(plate, rotated), (INERTIAL.format(mass=0, ixx=0, ixy=0, iyy=0,
                                                          izz=0), GOOD)]:
        robot = ET.parse(urdf(tmp_path, base=base, link=link)).getroot()
        assert inertial_findings(robot) == []


def test_link_inertials_expose_principal_moments(tmp_path: Path) -> None:
    inertial = INERTIAL.format(mass=1.0, ixx=0.1, ixy=0.0, iyy=0.1, izz=0.3)
    arm = link_inertials(ET.parse(urdf(tmp_path, link=inertial)).getroot())["arm"]
    assert arm.principal_moments == pytest.approx((0.1, 0.1, 0.3))
    assert arm.positive_definite and not arm.satisfies_triangle
    assert arm.matrix.shape == (3, 3)


# --- the engines load the copies ----------------------------------------------------------------

def real_robots() -> list[Path]:
    import pybullet_data

    return [example_robot_data() / "talos_data/robots/talos_reduced.urdf",
            Path(pybullet_data.getDataPath()) / "kuka_iiwa/model.urdf"]


@pytest.mark.parametrize("which", [0, 1], ids=["talos_reduced", "kuka_iiwa"])
def test_engines_load_the_copy_of_a_real_robot(which: int) -> None:
    import mujoco
    import pinocchio
    import pybullet

    source = real_robots()[which]
    prepared = prepare_urdf(source)
    model = mujoco.MjSpec.from_file(str(prepared.path)).compile()
    pin_model = pinocchio.buildModelFromUrdf(str(prepared.path))
    client = pybullet.connect(pybullet.DIRECT)
    try:
        body = pybullet.loadURDF(str(prepared.path), useFixedBase=True,
                                 flags=pybullet.URDF_USE_INERTIA_FROM_FILE,
                                 physicsClientId=client)
        nb_joints = pybullet.getNumJoints(body, physicsClientId=client)
    finally:
        pybullet.disconnect(client)
    assert model.nv == pin_model.nv > 0
    assert nb_joints == len(ET.parse(source).getroot().findall("joint"))


# --- MJCF -------------------------------------------------------------------------------------

def test_prepare_mjcf_loads_the_file_as_written(tmp_path: Path) -> None:
    mjcf = tmp_path / "model.xml"
    mjcf.write_text("<mujoco><worldbody/></mujoco>")
    prepared = prepare_mjcf(mjcf)
    assert prepared.path == prepared.source == mjcf
    assert prepared.notes and prepared.findings == ()
    mjcf.write_text("<robot/>")
    with pytest.raises(DescriptionError, match="model.xml: an MJCF's root element"):
        prepare_mjcf(mjcf)
