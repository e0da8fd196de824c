"""Output folders that cannot be mistaken for complete ones: a manifest written last, parts
checked against it, an interrupted validate leaves none, and an unwritable --out is found
before any work (issue 12, items 4-5; issue 10, SIGINT)."""

import os
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from dynval.comparisons.cli import app
from dynval.comparisons.manifest import IncompleteRunError, finish, verify

runner = CliRunner()
QUICK = ["validate", "--robot", "landing_gear", "--scenario", "flat", "--tier", "ci",
         "--samples", "20", "--workers", "1"]


@pytest.fixture(scope="module")
def done(tmp_path_factory):
    """A finished ci-tier validate of the flat landing."""
    out = tmp_path_factory.mktemp("done")
    res = runner.invoke(app, [*QUICK, "--out", str(out)],
                        env={"DYNVAL_CACHE": str(out.parent / "cache")})
    assert res.exit_code in (0, 1), res.output
    return out


def test_a_finished_folder_verifies_and_lists_its_parts(done):
    m = verify(done)
    assert m["kind"] == "validate" and m["tier"] == "ci"
    assert "metrics.parquet" in m["parts"]
    assert "runs/landing_gear/flat/shared/traces.parquet" in m["parts"]


def test_a_part_from_another_run_is_refused(done, tmp_path):
    import shutil

    out = tmp_path / "mixed"
    shutil.copytree(done, out)
    res = runner.invoke(app, ["run", "landing_gear", "--scenario", "flat", "--engine",
                              "mujoco", "--out", str(out), "--set", "landing_gear.dt=0.0005"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["report", "--out", str(out)])
    assert res.exit_code == 2 and "dynval run" in res.output
    # and with the run's manifest gone, the validate manifest names the foreign part
    finish(out, "validate", "then", {})
    (out / "runs" / "landing_gear" / "flat" / "native" / "traces.parquet").write_bytes(b"x")
    with pytest.raises(IncompleteRunError, match="native/traces.parquet"):
        verify(out)


def test_an_unwritable_out_is_refused_before_any_work(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    t0 = time.perf_counter()
    res = runner.invoke(app, [*QUICK, "--out", str(blocker / "out")])
    assert res.exit_code == 2 and "cannot write to the output folder" in res.output
    assert time.perf_counter() - t0 < 5.0  # refused at the door, not after the runs


def test_sigint_during_validate_leaves_nothing_complete(done, tmp_path):
    import shutil

    out = tmp_path / "interrupted"
    shutil.copytree(done, out)  # a complete folder, about to be overwritten
    proc = subprocess.Popen([sys.executable, "-m", "dynval.comparisons.cli", *QUICK, "--no-cache",
                             "--out", str(out)], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, env={**os.environ})
    # wait until work has started (the first task line), then interrupt
    line = proc.stdout.readline()
    while line and b"[1/" not in line:
        line = proc.stdout.readline()
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=60)
    assert proc.returncode != 0
    res = runner.invoke(app, ["report", "--out", str(out)])
    assert res.exit_code == 2 and "no completed manifest" in res.output
    res = runner.invoke(app, ["check", "--run", str(out)])
    assert res.exit_code == 2 and "no completed manifest" in res.output


def test_narrow_table_cells_keep_their_words_whole():
    """The report's tables once split "yes" into "ye/s" and "-1.6e-06" across lines."""
    from reportlab.lib.units import cm

    from dynval.reports.pdf import _table

    words = ["yes", "known", "-1.6e-06", "settled_abs_deg"]
    t = _table([["ok", "value", "value", "metric"], words],
               [1.0 * cm, 1.4 * cm, 1.2 * cm, 2.2 * cm])
    t.wrap(20 * cm, 20 * cm)
    for cell in t._cellvalues[1]:
        para = cell[0] if isinstance(cell, tuple) else cell
        assert len(para.blPara.lines) == 1, para.text


def test_a_heading_is_never_left_at_the_foot_of_a_page(tmp_path):
    """A heading stays with the figure or table it heads: the report once had pages that
    held only headings."""
    import shutil
    import subprocess

    from reportlab.lib.pagesizes import A4
    from reportlab.platypus import SimpleDocTemplate, Spacer

    from dynval.reports.pdf import _p

    assert _p("L3: trajectories", "Heading2").getKeepWithNext()
    assert not _p("body text").getKeepWithNext()
    if shutil.which("pdftotext") is None:  # the page check needs poppler's pdftotext
        return
    pdf = tmp_path / "h.pdf"
    SimpleDocTemplate(str(pdf), pagesize=A4).build(
        [Spacer(1, 23.5 * 28.35), _p("A heading", "Heading2"), Spacer(1, 5 * 28.35),
         _p("its body")])
    # the heading would fit at the first page's foot; it must go over with what follows
    first = subprocess.run(["pdftotext", "-f", "1", "-l", "1", str(pdf), "-"],
                           capture_output=True, text=True, check=True).stdout
    assert "A heading" not in first
