"""Mutation testing of the validation: each robot's declared mutants of its hand-rolled
model reach the hand-rolled runs only, are caught by a judged row (or by divergence), and
bad ``--mutants`` input is one sentence and exit 2."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from dynval.comparisons.cli import app
from dynval.comparisons.ladder import chapter
from dynval.comparisons.ladder.mutation import Mutant, UnknownMutantError, chosen, declared
from dynval.comparisons.ladder.registry import comparison
from dynval.comparisons.run import mutants as mutation
from dynval.comparisons.run.pipeline import plan, validate_all
from dynval.comparisons.run.tasks import default_cache_dir, task_digest
from dynval.results import MetricRow, metrics_frame
from dynval.robots import ROBOT_NAMES

runner = CliRunner()

# per robot: a scenario to run and the mutant (its link mass + 1 %) the ci tier must catch
CHEAP = {"landing_gear": ("flat", "m_L+1%"), "quadruped": ("trot", "m_calf+1%"),
         "hopper": ("height", "m_l+1%"), "hexapod": ("EPFC_35", "M_i2+1%"),
         "rover": ("steady_A", "m_seg+1%")}


@pytest.mark.parametrize("robot", ROBOT_NAMES)
def test_every_robot_declares_a_mass_a_gain_or_stiffness_and_a_step(robot):
    ms = declared(robot)
    assert len(ms) >= 3
    scaled = {name for m in ms.values() for name, _ in m.scale}
    params = comparison(robot).default_params
    assert all(hasattr(params, name) for name in scaled)
    assert any(m.model_terms for m in ms.values())  # a mass: the audit sees it
    assert any(k != 1.0 for m in ms.values() for _, k in m.scale if not m.model_terms)


@pytest.mark.parametrize("robot", ROBOT_NAMES)
def test_a_mutant_reaches_the_hand_rolled_tasks_only(robot, tmp_path):
    """The engines' tasks of a mutant run are the original run's (same content address:
    read from the cache); every hand-rolled scenario run is another task."""
    (ladder, inp), = plan([robot], None, None, 100, 0, tmp_path, "ci")
    base = {t.key: task_digest(t) for t in ladder.tasks(inp)}
    for m in declared(robot).values():
        mutated = {t.key: task_digest(t) for t in ladder.tasks(replace(inp, mutant=m))}
        assert mutated.keys() == base.keys()
        changed = {k for k in base if base[k] != mutated[k]}
        # the scenario runs (a robot's own studies, such as the rover's sweeps, keep the
        # original model and their cached results)
        runs = {k for k in base if k.endswith((" handrolled", " handrolled readable"))
                and k.split(" ")[1] in inp.scenarios}
        engines = {k for k in base if k.endswith((" mujoco", " pybullet", " pinocchio"))}
        assert runs <= changed, m.name
        assert not changed & engines, m.name
        assert ("L1/L2 audit" in " ".join(changed)) == m.model_terms


@pytest.mark.parametrize("robot", ROBOT_NAMES)
def test_one_mutant_per_robot_is_caught_in_the_ci_tier(robot, tmp_path):
    scenario, name = CHEAP[robot]
    m = declared(robot)[name]
    validate_all(tmp_path, [robot], [scenario], samples=100, tier="ci", workers=1,
                 cache_dir=default_cache_dir(), mutants={robot: [m]})
    df = pd.read_parquet(tmp_path / "mutants.parquet")
    assert list(df.columns) == mutation.COLUMNS
    row = df.iloc[0]
    assert row["robot"] == robot and row["mutant"] == name
    assert row["caught"] and row["rows_failing"] > 0, row.to_dict()
    assert "L2" in row["rungs"].split(",")  # the audited mass matrix sees 1 % at once
    assert row["first_row"].startswith("L2 ")


def test_a_mutant_of_the_scenario_runs_only_is_caught_by_l4(tmp_path):
    """The hopper's ground 10 % stiffer never reaches the audit: the scenario runs catch it,
    in the ci tier by the tolerance of the full run."""
    m = declared("hopper")["k_c*1.1"]
    validate_all(tmp_path, ["hopper"], ["height"], samples=100, tier="ci", workers=1,
                 cache_dir=default_cache_dir(), mutants={"hopper": [m]})
    row = pd.read_parquet(tmp_path / "mutants.parquet").iloc[0]
    assert row["caught"] and row["rungs"] == "L4", row.to_dict()
    assert 0.0 < row["first_effect"] < 1.0  # at the first touchdown (0.2 s)


def test_a_diverging_mutant_is_a_result_with_its_time(tmp_path):
    m = Mutant("dt*100", "the hand-rolled step 100 times larger", scale=(("dt", 100.0),))
    validate_all(tmp_path, ["hopper"], ["height"], samples=100, tier="ci", workers=1,
                 cache_dir=default_cache_dir(), mutants={"hopper": [m]})
    row = pd.read_parquet(tmp_path / "mutants.parquet").iloc[0]
    assert row["caught"]
    assert 0.0 < row["diverged_at"] < 1.0  # the workspace left at t = 0.32 s
    assert "divergence" in row["first_row"] or row["rows_failing"] > 0


def _row(value: float, tolerance: float | None, passed: bool, reason: str = "") -> MetricRow:
    return MetricRow("hopper", "height", "L4", "shared", "com.z", "mujoco", "handrolled",
                     "nrmse", value, tolerance, passed, reason, "agreement")


def test_a_row_catches_a_mutant_only_when_it_passed_on_the_original():
    base = metrics_frame([_row(0.01, 0.05, True), replace(_row(0.09, 0.05, False),
                                                          signal="com.x")])
    mutated = metrics_frame([_row(0.07, 0.05, False), replace(_row(0.2, 0.05, False),
                                                              signal="com.x")])
    caught = mutation.caught_rows(base, mutated)
    assert caught["signal"].tolist() == ["com.z"]  # com.x failed on the original already


def test_a_ci_figure_is_held_to_the_full_runs_tolerance_as_its_reason_states():
    shortened = chapter._reported_only(_row(0.07, 0.05, False, "why"), 1.0)
    assert shortened.tolerance is None  # reported, not judged, in the ci tier itself
    j = mutation.judged(metrics_frame([shortened]))
    assert j["limit"].tolist() == [0.05] and not j["ok"].iloc[0]


def test_unknown_mutant_names_the_known_ones():
    with pytest.raises(UnknownMutantError, match="known: all, .*m_l\\+1%"):
        chosen(["hopper"], "m_l+1%,nosuch")
    assert [m.name for m in chosen(["hopper", "rover"], "dt*2")["rover"]] == ["dt*2"]


@pytest.mark.parametrize("args, said", [
    (["--robot", "hopper", "--mutants", "nosuch"], "unknown mutant 'nosuch'"),
    (["--robot", "nosuch", "--mutants", "all"], "unknown robot 'nosuch'")])
def test_bad_mutants_input_is_one_sentence_and_exit_2(args, said, tmp_path: Path):
    res = runner.invoke(app, ["validate", "--tier", "ci", "--out", str(tmp_path / "o"), *args])
    assert res.exit_code == 2, res.output
    assert said in res.output and "known" in res.output and "Traceback" not in res.output
    assert not (tmp_path / "o" / "mutants.parquet").exists()


def test_the_report_shows_the_mutation_table_and_what_was_missed(tmp_path):
    from reportlab.lib.units import cm

    from dynval.reports import mutants as section
    from dynval.reports.pdf import _p, _table

    caught = mutation.Caught("hopper", declared("hopper")["k_c*1.1"], pd.DataFrame(
        {"rung": ["L4"], "scenario": ["height"], "variant": ["shared"],
         "candidate": ["handrolled"], "signal": ["com.z"], "metric": ["nrmse"],
         "value": [0.2], "limit": [0.05]}), "", 1.0, 0.2)
    missed = mutation.Caught("hopper", declared("hopper")["eq23-sign"], caught.failing.iloc[:0],
                             "", 1.0)
    mutation.table([caught, missed]).to_parquet(tmp_path / "mutants.parquet")
    story = section.section(tmp_path, {"mutants": {"rule": "r", "cannot_fail": ["x y"]}},
                            _p, _table, cm)
    text = " ".join(getattr(f, "text", "") for f in story)
    assert "1 of 2 mutants caught" in text
    assert "Not caught by any rung (a finding about the checks): hopper eq23-sign" in text
    assert "cannot fail" in text and "x y" in text
    assert section.section(tmp_path, {}, _p, _table, cm) == []  # a run without mutants
