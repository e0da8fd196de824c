"""dynval sweep: every combination by every implementation, a tidy table with the varied
values as columns, a figure per metric, and a second run served from the cache."""

import pandas as pd
from typer.testing import CliRunner

from dynval.comparisons.cli import app

runner = CliRunner()
ARGS = ["sweep", "landing_gear", "--scenario", "flat", "--tier", "ci", "--workers", "1",
        "--vary", "landing_gear.m_L=0.12:0.18:2", "--vary", "landing_gear.alpha_SL_deg=0:10:2"]


def test_a_sweep_writes_its_table_and_figure_and_resumes_from_the_cache(tmp_path):
    env = {"DYNVAL_CACHE": str(tmp_path / "cache")}
    out = tmp_path / "sweep"
    res = runner.invoke(app, [*ARGS, "--out", str(out)], env=env)
    assert res.exit_code == 0, res.output
    table = pd.read_parquet(out / "sweep.parquet")
    grid = table[["m_L", "alpha_SL_deg"]].drop_duplicates()
    assert len(grid) == 4  # 2 x 2 combinations
    impls = set(table.loc[table["metric"] == "settled_abs_deg", "candidate"])
    assert impls == {"handrolled", "mujoco", "pybullet"}
    # the heavier lower leg changes the hand-rolled model's figures, the slope the engines'
    final = table[(table["metric"] == "final_value") & (table["signal"] == "body.roll")
                  & (table["candidate"] == "mujoco")]
    assert final["value"].nunique() == 4
    assert (out / "sweep.pdf").read_bytes()[:4] == b"%PDF"
    again = runner.invoke(app, [*ARGS, "--out", str(tmp_path / "again")], env=env)
    assert again.exit_code == 0, again.output
    assert "0 ran, 20 from the cache" in again.output
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "again" / "sweep.parquet"), table)


def test_a_name_neither_parameter_nor_scenario_field_is_refused(tmp_path):
    res = runner.invoke(app, ["sweep", "landing_gear", "--scenario", "flat", "--vary",
                              "landing_gear.colour=0:1:2", "--out", str(tmp_path)])
    assert res.exit_code == 2 and "no parameter and the scenario no field" in res.output
