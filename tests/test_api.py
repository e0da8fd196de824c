"""dynval's Python API: ``dynval.audit`` and ``dynval.validate`` return results to look at
(passed, findings, the metric table), ``assert_model_matches`` returns its audit, a
description may be named instead of given as a file, and ``import dynval`` stays light."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import dynval
from dynval.comparisons.cli import app
from dynval.engines.description_names import find_description
from dynval.results import METRIC_COLUMNS
from dynval.testing import assert_model_matches
from tests.test_any_robot import arm, inertial, model_of, runner


def test_importing_dynval_loads_no_numerics() -> None:
    """`import dynval` stays instant: numpy, pandas and the engines load on first use."""
    code = ("import sys, dynval; print(sorted({'numpy', 'pandas', 'mujoco', 'dynval.api'}"
            " & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]", out
    assert callable(dynval.audit) and dynval.AuditResult.__name__ == "AuditResult"


def test_a_description_alone_passes_with_its_figures(tmp_path: Path) -> None:
    """The engines against each other: passed, no finding, metrics.parquet's columns."""
    res = dynval.audit(description=arm(tmp_path), samples=20)
    assert res.passed and res.findings == [], res.findings
    table = res.to_dataframe()
    assert len(table) > 0 and list(table.columns) == METRIC_COLUMNS
    assert set(table["rung"]) == {"L0", "L1", "L2", "L3"}
    assert repr(res) == f"<AuditResult arm.urdf: passed, {len(table)} figures, 0 findings>"


def test_a_model_with_a_heavier_link_fails_and_the_link_is_named(tmp_path: Path) -> None:
    """Pinocchio's model of a copy whose forearm is 1 % heavier: not passed, and a finding
    names the link and its mass on both sides."""
    path = arm(tmp_path)
    heavy = arm(tmp_path, lower=inertial(0.707, "0 0 -0.25"), name="heavy.urdf")
    res = dynval.audit(model_of(heavy), path, samples=20)
    assert res.passed is False
    named = [f for f in res.findings if "link `fore`" in f]
    assert named and "mass 1 kg in the description, 1.007 kg implied" in named[0], named
    assert any(f.startswith("EngineModel: M (mass_matrix(q)) differs") for f in res.findings)
    assert (~res.to_dataframe()["passed"]).any()
    assert repr(res).startswith("<AuditResult EngineModel vs arm.urdf: FAILED, ")


def test_assert_model_matches_returns_the_audit(tmp_path: Path) -> None:
    path = arm(tmp_path)
    res = assert_model_matches(model_of(path), path, samples=20)
    assert isinstance(res, dynval.AuditResult) and res.passed
    assert res.audit.label == "EngineModel" and len(res.to_dataframe()) > 0


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


def test_a_validation_returns_its_figures_and_folder(tmp_path: Path) -> None:
    """One robot, one scenario, the ci tier: passed, and the table is metrics.parquet's;
    an override no run uses is a warning, as on the command line, and one that names no
    parameter is refused whichever robot it names (parsed once, before anything runs)."""
    import pandas as pd

    from dynval.comparisons.ladder.overrides import BadOverrideError

    with pytest.raises(BadOverrideError, match="robot hopper has no parameter 'm_body'"):
        dynval.validate(robots=["landing_gear"], tier="ci", scenarios=["flat"],
                        overrides=["hopper.m_body=1"], out=tmp_path / "bad", workers=1)
    with pytest.warns(UserWarning, match="hopper is not in this run"):
        res = dynval.validate(robots=["landing_gear"], tier="ci", scenarios=["flat"],
                              overrides=["hopper.k_L=1200"], out=tmp_path / "v", workers=1)
    assert res.passed and res.findings == [], res.findings
    assert res.out == tmp_path / "v" and (res.out / "manifest.json").is_file()
    table = res.to_dataframe()
    pd.testing.assert_frame_equal(table, pd.read_parquet(res.out / "metrics.parquet"))
    assert set(table["robot"]) == {"landing_gear"} and "flat" in set(table["scenario"])
    assert repr(res) == (f"<ValidationResult {res.out} (landing_gear; ci tier): passed, "
                         f"{len(table)} figures, 0 findings>")


def test_a_validation_finds_each_unexplained_figure_and_differing_rung() -> None:
    """A figure outside tolerance fails it and is said; a known difference and a paper's
    statement that does not hold are not failures (dynval validate's exit code)."""
    from dynval.results import MetricRow, metrics_frame

    def row(passed: bool, kind: str = "agreement", known: str = "") -> MetricRow:
        return MetricRow("hopper", "hop", "L4", "shared", "body.z", "mujoco", "handrolled",
                         "rmse", 0.02, 0.01, passed, "contact law", kind, known,
                         "ablation" if known else "", 0.005 if known else float("nan"))

    summary = {"tier": "ci", "robots": {"hopper": {"rungs": {
        "L4": {"verdict": "differs", "note": "1 of 4 figures outside"},
        "L2": {"verdict": "agrees", "note": ""}}}}}
    rows = [row(True), row(False, known="stiction"), row(False, "statement"), row(False)]
    res = dynval.ValidationResult(Path("v"), metrics_frame(rows), summary)
    assert res.passed is False and res.verdict.unexplained == 1
    assert res.findings == [
        "hopper L4, hop [shared]: body.z, handrolled against mujoco: rmse 0.02 is outside "
        "its tolerance 0.01; contact law",
        "hopper L4: differs (1 of 4 figures outside)"]
    fine = dynval.ValidationResult(Path("v"), metrics_frame(rows[:3]), summary)
    assert fine.passed


def test_the_citation_names_this_version_and_the_license() -> None:
    root = Path(__file__).resolve().parents[1]
    cff = (root / "CITATION.cff").read_text().splitlines()
    assert f"version: {dynval.__version__}" in cff and "license: MIT" in cff
    assert (root / "LICENSE").read_text().startswith("MIT License")
