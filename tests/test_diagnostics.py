"""A model that fails the audit is told what its failure points at: joints in another
order, one entry with its sign flipped or mistyped, the line of its own code that raised;
in a screenful, with units, and labelled by who computed what."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dynval.comparisons.cli import app
from dynval.comparisons.own_model.audit import audit_model
from dynval.comparisons.own_model.parity import EngineModel, parity_audit
from dynval.comparisons.own_model.run import rows_and_chapter
from dynval.engines.pinocchio_engine import PinocchioTerms
from dynval.model import ModelError, load_object
from tests.test_any_robot import arm, model_of

EX = Path(__file__).resolve().parents[1] / "docs" / "examples"
JOINTS = ["shoulder", "elbow"]
runner = CliRunner()


def _sentences(audit) -> list[str]:
    return [d.sentence for d in audit.diagnoses]


def test_joint_names_in_another_order_than_the_equations_are_named(tmp_path):
    """The equations take q as (shoulder, elbow); joint_names says (elbow, shoulder):
    every term differs, and the finding names both joints in the model's order."""
    path = arm(tmp_path)
    model = EngineModel(PinocchioTerms(path, joint_names=JOINTS), ["elbow", "shoulder"],
                        ["sensor"], "fixed")
    audit = audit_model(model, path, 20, 0, l3=False)
    assert {"M", "bias", "G"} <= {r.term for r in audit.failures}
    said = _sentences(audit)
    assert said == ["the model's joints are in another order than its joint_names say: its "
                    "q[0] is the description's 'shoulder', q[1] is 'elbow' (M, bias, G, C v "
                    "and tau agree under that order, and so do the frames)"], said
    assert not any("an axis or a frame" in f for f in audit.findings), audit.findings


def test_a_flipped_sign_is_named_by_its_entry():
    """acrobot_wrong_sign.py flips the sign of the shoulder's Coriolis term: the finding
    names C v's shoulder entry and both values; bias and tau follow from it; nothing
    blames an axis or a frame."""
    model = load_object(f"{EX / 'acrobot_wrong_sign.py'}:AcrobotWrongSign")
    audit = audit_model(model, EX / "acrobot.urdf", 30, 0, l3=False)
    said = _sentences(audit)
    assert len(said) == 1 and said[0].startswith(
        "entry 0 of C v (joint 'shoulder') has the opposite sign: model -"), said
    assert said[0].endswith("; bias and tau differ in that joint alone, as follows from it")
    assert not any("an axis or a frame" in f for f in audit.findings), audit.findings
    assert audit.failure_sentences()[0] == said[0]  # what dynval.testing raises with


class Mistyped(EngineModel):
    """M[0, 1] typed 10 % too large, its mirror right."""

    def mass_matrix(self, q):
        out = super().mass_matrix(q).copy()
        out[0, 1] *= 1.1
        return out


def test_one_mistyped_entry_of_m_is_named(tmp_path):
    path = arm(tmp_path)
    model = Mistyped(PinocchioTerms(path, joint_names=JOINTS), JOINTS, [], "fixed")
    audit = audit_model(model, path, 20, 0, l3=False)
    assert {r.term for r in audit.failures} == {"M"}
    said = _sentences(audit)
    assert len(said) == 1 and said[0].startswith(
        "only entry (0, 1) of M (joints 'shoulder', 'elbow') differs: model "), said
    assert said[0].endswith("(a typo in that entry?)")


class Raises(EngineModel):
    """A model whose bias divides by zero."""

    def bias(self, q, v):
        return 1 / 0


def test_a_model_that_raises_is_named_by_its_own_file_and_line(tmp_path):
    """The message points at the model's own line, not at dynval's call of it."""
    path = arm(tmp_path)
    model = Raises(PinocchioTerms(path, joint_names=JOINTS), JOINTS, [], "fixed")
    line = Raises.bias.__code__.co_firstlineno + 1
    with pytest.raises(ModelError) as err:
        audit_model(model, path, 5, 0)
    assert str(err.value) == ("Raises.bias raised ZeroDivisionError: division by zero "
                              f"(test_diagnostics.py, line {line}, in bias)"), err.value


def _failure_lines(output: str) -> list[str]:
    """The lines that say a figure differs, outside the tables."""
    return [line for line in output.splitlines()
            if "differ" in line and not line.startswith(("│", "┃", "┏", "┡", "└"))]


def test_a_badly_wrong_model_fails_in_a_screenful(tmp_path):
    """The forearm turning about x where the file says y: every term against every
    engine, and every swing, differs (over 30 figures); at most 25 lines say so, the
    rest are counted."""
    path = arm(tmp_path)
    wrong = arm(tmp_path, axis="1 0 0", name="wrong.urdf")
    spec = tmp_path / "wrong_arm.py"
    spec.write_text(textwrap.dedent(f"""
        from dynval.comparisons.own_model.parity import EngineModel
        from dynval.engines.pinocchio_engine import PinocchioTerms

        def WrongArm():
            return EngineModel(PinocchioTerms({str(wrong)!r}, joint_names={JOINTS!r}),
                               {JOINTS!r}, ["sensor"], "fixed")
        """))
    res = runner.invoke(app, ["audit", "--model", f"{spec}:WrongArm", "--description",
                              str(path), "--samples", "10"])
    assert res.exit_code == 1, res.output
    lines = _failure_lines(res.output)
    assert len(lines) <= 25, "\n".join(lines)
    more = [line for line in res.output.splitlines() if line.startswith("... and ")]
    assert len(more) == 1 and more[0].endswith(
        "more failing figures, all in metrics.parquet and the report (--out DIR writes "
        "them)"), more
    assert int(more[0].split()[2]) > 10
    assert "│ N m or N " in res.output and "│ SI, per joint " in res.output  # units


def test_a_parity_audit_labels_its_rows_by_engine(tmp_path):
    """Without a model, Pinocchio stands for it: L3's rows say so, not 'handrolled'."""
    audit = parity_audit(arm(tmp_path), 10, 0)
    labels = [r["comparison"] for r in audit.l3 if " vs " in r["comparison"]
              and not r["comparison"].startswith("semi-implicit")]
    assert labels and all(c.startswith("pinocchio vs ") for c in labels), labels
    assert "pinocchio vs mujoco (own integrator)" in labels
    _, chapter = rows_and_chapter(audit)
    assert not any("handrolled" in r.comparison for r in chapter.trajectories)


def test_the_first_failing_term_is_on_the_reports_first_page(tmp_path):
    """The report's first page is its summary: the failing rung's note there names the
    finding and the first failing term with both values and its unit."""
    path = arm(tmp_path)
    model = Mistyped(PinocchioTerms(path, joint_names=JOINTS), JOINTS, [], "fixed")
    _, chapter = rows_and_chapter(audit_model(model, path, 10, 0, l3=False))
    note = chapter.rungs["L2"].note
    assert "finding: only entry (0, 1) of M" in note, note
    assert "first failing: M differs from mujoco by " in note and "(SI, per joint)" in note
    assert [a.unit for a in chapter.audit if a.term in ("M", "tau")] == \
        ["SI, per joint", "N m or N"] * 4  # MuJoCo, PyBullet, Pinocchio, Drake


def test_a_correct_model_has_nothing_to_diagnose(tmp_path):
    path = arm(tmp_path)
    audit = audit_model(model_of(path), path, 20, 0, l3=False)
    assert not audit.failures and audit.diagnoses == []
