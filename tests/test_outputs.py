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
from dynval.comparisons.run.manifest import (
    IncompleteRunError,
    begin,
    finish,
    verify,
    write_atomic,
)

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
    (out.parent / "done.log").write_text(f"{res.exit_code}\n{res.output}")
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
    # a validate manifest names a part of its own that was written since
    part = out / "runs" / "landing_gear" / "flat" / "native" / "traces.parquet"
    begin(out)
    write_atomic(part, lambda tmp: tmp.write_bytes(b"the run's"))
    finish(out, "validate", "then", {})
    part.write_bytes(b"x")
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
    # SIGINT's default restored in the child: a runner started in the background of a
    # non-interactive shell ignores SIGINT, and Python would keep ignoring it
    proc = subprocess.Popen([sys.executable, "-m", "dynval.comparisons.cli", *QUICK, "--no-cache",
                             "--out", str(out)], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, env={**os.environ},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
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
        cell = cell[0] if isinstance(cell, tuple) else cell
        assert cell.fits(cell.width) or len(cell.para.blPara.lines) == 1, cell.text


def test_a_table_cell_is_drawn_where_its_paragraph_would_be(tmp_path):
    """A cell that fits its column is drawn as one string (the report's build time is
    otherwise spent parsing and breaking paragraphs): at the same place, in the same font,
    as the paragraph it stands for; one that does not fit is that paragraph, wrapped."""
    import re

    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import cm
    from reportlab.platypus import SimpleDocTemplate, Table

    from dynval.reports.pdf import _Paragraph, _small, _small_style

    rows = [["ok", "value", "metric", "reason"],
            ["yes", "-1.6e-06", "settled_abs_deg", "a & b < c"],
            ["no", "3.2e+02", "x", "a longer reason that has to wrap over several lines"]]

    def strings(cell) -> list[tuple[float, float, str, str]]:
        """Every string drawn: where on the page, in which font, what."""
        path = tmp_path / "t.pdf"
        t = Table([[cell(c) for c in r] for r in rows],
                  colWidths=[1 * cm, 1.6 * cm, 2.4 * cm, 3 * cm])
        SimpleDocTemplate(str(path), pagesize=A4, invariant=1, pageCompression=0).build([t])
        stream = re.search(rb"stream\r?\n(.*?)endstream", path.read_bytes(), re.S).group(1)
        out, stack, origin, line, leading, font, args = [], [], (0.0, 0.0), 0.0, 0.0, "", []
        for tok in re.findall(rb"\((?:[^()\\]|\\.)*\)|/?[^\s()]+", stream):
            op = tok.decode("latin-1")
            if op == "q":
                stack.append(origin)
            elif op == "Q":
                origin = stack.pop()
            elif op == "cm":
                origin = (origin[0] + float(args[4]), origin[1] + float(args[5]))
            elif op == "Tm":
                x0, line = float(args[4]), float(args[5])
            elif op == "Tf":
                font = f"{args[0]} {args[1]}"
            elif op == "TL":
                leading = float(args[0])
            elif op == "T*":
                line -= leading
            elif op == "Tj":
                out.append((origin[0] + x0, origin[1] + line, font, args[0]))
            if op.isalpha() or op == "T*":
                args = []
            else:
                args.append(op)
        return out

    as_paragraphs = strings(lambda c: _Paragraph(c.replace("&", "&amp;").replace("<", "&lt;"),
                                                 _small_style(7)))
    assert len(as_paragraphs) >= 13  # eleven one-line cells, a wrapped one
    assert strings(lambda c: _small(c, 7)) == as_paragraphs


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


# Issue 12, items 7, 8, 10, 11: what a reader and a query find in a finished folder.


def test_the_first_page_says_the_verdict_and_the_report_has_bookmarks(done):
    """Item 10: a first-page verdict line with the errata count, the verdict words
    defined, PDF bookmarks per robot and rung."""
    import shutil

    from dynval.results import VERDICTS

    pdf = (done / "report.pdf").read_bytes()
    assert b"/Outlines" in pdf and b"landing_gear" in pdf
    assert pdf.count(b"/Dest") >= 5  # the robot and its rungs, each a bookmark
    if shutil.which("pdftotext") is None:
        return
    first = subprocess.run(["pdftotext", "-f", "1", "-l", "1", str(done / "report.pdf"), "-"],
                           capture_output=True, text=True, check=True).stdout
    assert "Verdict:" in first and "errata" in first
    text = subprocess.run(["pdftotext", str(done / "report.pdf"), "-"], capture_output=True,
                          text=True, check=True).stdout
    for word, meaning in VERDICTS.items():
        assert word in text and meaning.split()[0] in text


def test_a_failing_row_is_highlighted(done, tmp_path, monkeypatch):
    """Item 10: a toleranced figure that fails gets its row's background, red where it is
    not a known difference."""
    import shutil

    import pandas as pd
    from reportlab.platypus import Table

    from dynval.reports import build_report
    from dynval.reports.pdf import VERDICT_COLOURS

    out = tmp_path / "fails"
    shutil.copytree(done, out)
    m = pd.read_parquet(out / "metrics.parquet")
    i = m.index[(m["scenario"] == "flat") & (m["kind"] == "agreement")][0]
    m.loc[i, "tolerance"], m.loc[i, "passed"] = 0.5 * abs(m.loc[i, "value"]), False
    m.loc[i, "known"] = ""
    m.to_parquet(out / "metrics.parquet", index=False)
    styles = []
    original = Table.setStyle
    monkeypatch.setattr(Table, "setStyle", lambda self, s: (
        styles.append(s.getCommands() if hasattr(s, "getCommands") else list(s)),
        original(self, s))[1])
    build_report(out)
    red = [c for s in styles for c in s
           if c[0] == "BACKGROUND" and c[3] == VERDICT_COLOURS["differs"] and c[2][0] == -1]
    assert len(red) == 1  # the whole row of the one failing figure


def test_axis_labels_carry_no_offset():
    """Item 10: a signal near 0.83 with a 1e-12 ripple was labelled "1e-12+8.3e-1"."""
    import numpy as np

    from dynval.reports.figures import pyplot

    plt = pyplot()  # the report's pyplot, with its settings
    fig, ax = plt.subplots()
    t = np.linspace(0.0, 1.0, 50)
    ax.plot(t, 0.8305153076 + 1e-12 * np.sin(6 * t))
    fig.canvas.draw()
    assert ax.yaxis.get_offset_text().get_text() == ""
    plt.close(fig)


def test_report_figures_are_palette_pngs_at_the_report_dpi():
    """Item 10: the report's weight is its figures; each is a 64-colour palette PNG at
    DPI (144: 160 px per printed inch at 16 cm), not a 24-bit one at 200 dpi."""
    import io

    import matplotlib.pyplot as plt
    from PIL import Image

    from dynval.reports.figures import DPI, _png

    assert DPI <= 144
    fig, ax = plt.subplots(figsize=(7, 3))
    ax.plot([0, 1], [0, 1])
    img = Image.open(io.BytesIO(_png(fig).getvalue()))
    assert img.mode == "P" and img.size == (7 * DPI, 3 * DPI)



def test_report_figures_show_the_pixels_savefig_would():
    """_png takes the canvas' pixels instead of a PNG round trip through savefig: the
    pixels must be savefig's at DPI, text, lines and grid included."""
    import io

    import matplotlib.pyplot as plt
    import numpy as np
    from PIL import Image

    from dynval.reports.figures import DPI, _png

    def figure():
        fig, axes = plt.subplots(2, 1, figsize=(7, 3), sharex=True)
        t = np.linspace(0.0, 1.0, 500)
        axes[0].plot(t, np.sin(9 * t), lw=0.9, label="a")
        axes[1].plot(t, 1e-9 * np.cos(9 * t), lw=0.8)
        axes[0].set_title("q [rad]", fontsize=7)
        axes[0].legend(fontsize=6)
        for ax in axes:
            ax.grid(alpha=0.3)
        fig.tight_layout()
        return fig

    raw = io.BytesIO()
    fig = figure()
    fig.savefig(raw, format="png", dpi=DPI)
    plt.close(fig)
    raw.seek(0)
    want = np.asarray(Image.open(raw).convert("RGB").quantize(
        colors=64, method=Image.MEDIANCUT, dither=Image.Dither.NONE).convert("RGB"))
    got = np.asarray(Image.open(io.BytesIO(_png(figure()).getvalue())).convert("RGB"))
    assert got.shape == want.shape and np.array_equal(got, want)

def test_every_trace_says_what_it_is_and_one_query_reads_them_all(done):
    """Item 11: robot, scenario, variant and implementation in every traces.parquet."""
    import pandas as pd

    parts = sorted((done / "runs").rglob("traces.parquet"))
    assert parts
    every = pd.concat([pd.read_parquet(p) for p in parts], ignore_index=True)
    assert {"robot", "scenario", "variant", "implementation", "time", "signal",
            "value"} <= set(every.columns)
    assert every[["robot", "scenario", "variant", "implementation"]].notna().all().all()
    assert set(every["implementation"]) >= {"handrolled", "mujoco"}


def test_metric_rows_have_a_kind_a_query_can_tell_apart(done):
    """Item 7: errata rows were stored passed = True with a round-off reason; each row now
    has a kind, and the errata are found by it."""
    import pandas as pd

    from dynval.results import KINDS

    m = pd.read_parquet(done / "metrics.parquet")
    assert set(m["kind"]) <= set(KINDS)
    errata = m[m["kind"] == "erratum"]
    assert len(errata) and "agreement" in set(m["kind"])  # the printed (21)-(24) forms


def test_validate_ends_with_a_verdict_line_and_exit_1_on_an_unexplained_failure(done, tmp_path):
    """Item 8: validate said "wrote report.pdf" and exit 0 while a figure failed."""
    import shutil

    import pandas as pd

    from dynval.comparisons.commands.validation import verdict_line

    out = tmp_path / "v"
    shutil.copytree(done, out)
    m = pd.read_parquet(out / "metrics.parquet")
    m["passed"] = True
    line, failed = verdict_line(out, m)
    assert line.startswith("verdict: ") and failed == 0 and "exit 1" not in line
    i = m.index[m["tolerance"].notna()][0]
    m.loc[i, "passed"], m.loc[i, "known"] = False, ""
    line, failed = verdict_line(out, m)
    assert failed == 1 and "1 unexplained: exit 1" in line
    m.loc[i, "known"] = "declared in the chapter with its reason"
    line, failed = verdict_line(out, m)
    assert failed == 1  # a reason without measured evidence explains nothing
    m.loc[i, "evidence"], m.loc[i, "evidence_value"] = "ablation", 0.0
    line, failed = verdict_line(out, m)
    assert failed == 0 and "0 differ (unexplained), 1 known (ablation)" in line
    # and the command itself: its last line is that verdict, its exit code follows it
    code, *lines = (done.parent / "done.log").read_text().strip().splitlines()
    assert lines[-1].startswith("verdict: ")
    assert (code == "1") == ("unexplained: exit 1" in lines[-1])


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_an_interrupt_lost_in_a_finalizer_still_keeps_a_run_from_completing(tmp_path,
                                                                             monkeypatch):
    """CPython drops a KeyboardInterrupt raised while a finalizer runs (an engine client's
    __del__ at the end of a task): the run went on. interrupts.watch notes the signal
    itself, and manifest.finish then refuses to write the run down as complete."""
    from dynval.comparisons.run import interrupts, manifest

    class Finalized:
        def __del__(self):
            signal.raise_signal(signal.SIGINT)  # handled here, and lost here
            sum(range(1000))  # Python to run the handler in

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    previous_term = signal.signal(signal.SIGTERM, signal.SIG_DFL)
    monkeypatch.setattr(interrupts, "_received", 0)
    monkeypatch.setattr(sys, "unraisablehook", sys.unraisablehook)
    try:
        interrupts.watch()
        obj = Finalized()
        del obj  # the KeyboardInterrupt is raised inside __del__ and reported unraisable
        with pytest.raises(KeyboardInterrupt, match="not complete"):
            manifest.finish(tmp_path, "validate", manifest.now(), {})
        assert not (tmp_path / manifest.MANIFEST).exists()
    finally:
        signal.signal(signal.SIGINT, previous)
        signal.signal(signal.SIGTERM, previous_term)


def test_an_error_after_a_ctrl_c_is_the_interrupt_not_a_traceback(monkeypatch):
    """Ctrl-C while numba compiled a loop for `dynval run` (a cold cache): the compiler,
    stopped mid-build, failed next on its half-built library with a RuntimeError that
    names no interrupt, and the run ended in a 60-line traceback and exit 1 (seen once in
    25 interrupted runs). Once a signal came, whatever the run raised is its doing."""
    from dynval.comparisons.commands.exits import failure
    from dynval.comparisons.run import interrupts

    monkeypatch.setattr(interrupts, "_received", 0)
    lost = RuntimeError("no compiled object yet for <Library 'state_and_points'>")
    assert failure(lost) is None  # no signal came: not ours to phrase, it is raised
    monkeypatch.setattr(interrupts, "_received", signal.SIGINT)
    assert failure(lost) == (130, "interrupted: nothing of this run was written as complete")
    monkeypatch.setattr(interrupts, "_received", signal.SIGTERM)
    assert failure(lost)[0] == 143


def _started(cmd: list[str], **popen) -> subprocess.Popen:
    """A dynval command in a child, SIGINT and SIGTERM at their defaults, once its first
    task has finished (work is under way)."""
    def defaults() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)

    proc = subprocess.Popen([sys.executable, "-m", "dynval.comparisons.cli", *cmd],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            env={**os.environ}, preexec_fn=defaults, **popen)
    line = proc.stdout.readline()
    while line and b"[1/" not in line:
        line = proc.stdout.readline()
    return proc


def test_sigterm_stops_the_pool_workers_and_ends_with_one_line(tmp_path):
    """kill -TERM used to end the parent at once and leave both pool workers computing
    (about 600 MB); now the workers stop, the run ends with one line and exit 143, and
    nothing is written as complete."""
    import psutil

    proc = _started(["validate", "--robot", "hopper", "--no-cache", "--workers", "2",
                     "--out", str(tmp_path / "out")])
    children = psutil.Process(proc.pid).children(recursive=True)
    assert children  # the pool's workers
    proc.send_signal(signal.SIGTERM)
    output = proc.communicate(timeout=60)[0].decode()
    assert proc.returncode == 143, output
    assert "error: terminated: nothing of this run was written as complete" in output
    assert "Traceback" not in output
    gone, alive = psutil.wait_procs(children, timeout=15)
    assert not alive, f"workers still running: {alive}"
    res = runner.invoke(app, ["report", "--out", str(tmp_path / "out")])
    assert res.exit_code == 2 and "no completed manifest" in res.output


def test_ctrl_c_during_a_run_is_one_line_not_a_traceback(tmp_path):
    """Ctrl-C in 'dynval run' printed a 200-line traceback (numba hands the interrupt back
    as a SystemError)."""
    proc = subprocess.Popen([sys.executable, "-m", "dynval.comparisons.cli", "run", "rover",
                             "--scenario", "straight_3", "--out", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            env={**os.environ},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    line = proc.stdout.readline()  # the hand-rolled run done: MuJoCo's is stepping now
    while line and b"handrolled: done" not in line:
        line = proc.stdout.readline()
    proc.send_signal(signal.SIGINT)
    output = proc.communicate(timeout=60)[0].decode()
    assert proc.returncode == 130, output
    assert "error: interrupted: nothing of this run was written as complete" in output
    assert "Traceback" not in output


def test_a_second_ctrl_c_while_the_run_ends_keeps_its_one_line_and_130(tmp_path):
    """Ctrl-C twice (the second while the first one's line is out and the process shuts
    down): Python puts SIGINT back to its default while it finalizes, about 0.4 s here,
    and a second Ctrl-C in that window killed the process by the signal, status -2
    rather than 130 (20 of 20 double interrupts; the status a CI run once gave the one
    Ctrl-C of the test above). Once the line is said, further signals are ignored until
    the exit."""
    proc = subprocess.Popen([sys.executable, "-m", "dynval.comparisons.cli", "run", "rover",
                             "--scenario", "straight_3", "--out", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            env={**os.environ},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    line = proc.stdout.readline()
    while line and b"handrolled: done" not in line:
        line = proc.stdout.readline()
    proc.send_signal(signal.SIGINT)
    said = []
    while line and b"error: interrupted" not in line:
        line = proc.stdout.readline()
        said.append(line.decode())
    time.sleep(0.1)  # measured: the process shuts down for about 0.4 s after the line
    proc.send_signal(signal.SIGINT)
    output = "".join(said) + proc.communicate(timeout=60)[0].decode()
    assert proc.returncode == 130, output
    assert "Traceback" not in output


# --- a run owns only what it wrote ------------------------------------------------------
def test_the_quick_start_in_one_folder_validate_check_report(done, tmp_path):
    """'dynval validate; dynval check; dynval report' in one folder: check's output inside
    validate's folder (its default) was adopted as a foreign part and report refused the
    run. A user's notes there were adopted too."""
    import shutil

    out = tmp_path / "dynval-out"
    shutil.copytree(done, out)
    (out / "notes.txt").write_text("my notes\n")
    res = runner.invoke(app, ["check", "--robot", "landing_gear", "--scenario", "flat",
                              "--out", str(out / "check")],
                        env={"DYNVAL_CACHE": str(done.parent / "cache")})
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["report", "--out", str(out)])
    assert res.exit_code == 0, res.output
    (out / "notes.txt").write_text("edited later\n")  # not the run's, not judged
    assert verify(out)["kind"] == "validate"
    assert "notes.txt" not in verify(out)["parts"]


def test_a_users_results_file_is_not_overwritten_without_force(tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "summary.json").write_text('{"my": "own summary"}\n')
    res = runner.invoke(app, [*QUICK, "--out", str(out)])
    assert res.exit_code == 2
    assert f"{out / 'summary.json'} was not written by a dynval run" in res.output
    assert "--force" in res.output
    assert (out / "summary.json").read_text() == '{"my": "own summary"}\n'


def verify_ledger(out) -> set[str]:
    from dynval.comparisons.run.manifest import LEDGER

    return set((out / LEDGER).read_text().split())


def test_an_interrupted_runs_files_are_its_own_and_a_rerun_may_replace_them(tmp_path):
    """The ledger remembers what a dynval run wrote, manifest or not; --force is for the
    user's files only."""
    from dynval.comparisons.run.manifest import ForeignFileError, begin, write_atomic

    out = tmp_path / "run"
    begin(out)
    write_atomic(out / "metrics.json", lambda tmp: tmp.write_text("[]"))
    # interrupted here: no manifest; the next run may overwrite what this one wrote
    begin(out)
    write_atomic(out / "metrics.json", lambda tmp: tmp.write_text("[1]"))
    finish(out, "validate", "now", {})
    assert list(verify(out)["parts"]) == ["metrics.json"]
    (out / "report.pdf").write_bytes(b"%PDF built from the run")  # dynval report
    begin(out)  # a run interrupted before its manifest, with the old report still there
    begin(out)  # the next one: the report is dynval's, not the user's
    assert verify_ledger(out) == {"metrics.json", "report.pdf"}
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "metrics.json").write_text("mine")
    with pytest.raises(ForeignFileError, match="metrics.json was not written by a dynval"):
        begin(tmp_path / "other")
    begin(tmp_path / "other", force=True)


def test_a_run_names_the_source_it_ran(done):
    """A wheel install recorded git_commit "unknown" and nothing else: the source digest
    names the code in summary.json, the manifest and on the report's cover."""
    import json

    from dynval import _layout

    summary = json.loads((done / "summary.json").read_text())
    assert summary["source_digest"] == _layout.source_digest()
    assert verify(done)["source_digest"] == summary["source_digest"]
