"""dynval's Python API: ``dynval.audit`` and ``dynval.validate`` return results to look at
(passed, findings, the metric table), ``assert_model_matches`` returns its audit, a
description may be named instead of given as a file, and ``import dynval`` stays light."""

from __future__ import annotations

from typer.testing import CliRunner

from dynval.comparisons.cli import app
from dynval.engines.description_names import find_description

runner = CliRunner()


def test_a_name_finds_an_example_robot_data_robot() -> None:
    """A file's stem first (panda), then the ROS `<name>_robot` (ur5); the note says
    which file a name stood for and, where several matched, what else did."""
    panda, note = find_description("panda")
    assert panda.as_posix().endswith("panda_description/urdf/panda.urdf") and "panda" in note
    ur5, note = find_description("ur5")
    assert ur5.as_posix().endswith("ur_description/urdf/ur5_robot.urdf")
    talos, note = find_description("talos")  # the package folder: six match
    assert talos.name == "talos_full_v2.urdf" and "the first in sorted order of the 6" in note


def test_the_command_line_audits_a_robot_by_name() -> None:
    res = runner.invoke(app, ["audit", "--description", "ur5", "--samples", "3"])
    assert res.exit_code == 0, res.output
    assert "ur5: example-robot-data's ur_description/urdf/ur5_robot.urdf" in res.output


def test_an_unknown_name_is_one_sentence_with_close_names() -> None:
    res = runner.invoke(app, ["audit", "--description", "ur6"])
    assert res.exit_code == 2
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and "ur6: no such description file" in lines[0], res.output
    assert "close names: ur, ur3" in lines[0]
    res = runner.invoke(app, ["audit", "--description", "nowhere.urdf"])  # a path stays one
    assert res.exit_code == 2 and "nowhere.urdf: no such description file" in res.output
