"""A warm validate (every task and each robot's assembly read from the caches) writes what
a cold one writes; a changed input is never served a stale assembly; an unreadable
assembly entry is assembled again (issue 10, a warm validate in seconds)."""

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dynval import _layout
from dynval.comparisons.cli import app
from dynval.comparisons.ladder.rungs import Inputs, RobotLadder
from dynval.comparisons.landing_gear.validate import LADDER
from dynval.comparisons.run import assembly
from dynval.comparisons.run.tasks import Outcome
from dynval.robots import ROOT

runner = CliRunner()
QUICK = ["validate", "--robot", "landing_gear", "--scenario", "flat", "--tier", "ci",
         "--samples", "20", "--workers", "1"]


def _validate(out: Path, cache: Path, *extra: str) -> str:
    res = runner.invoke(app, [*QUICK, *extra, "--out", str(out)], env={"DYNVAL_CACHE": str(cache)})
    assert res.exit_code in (0, 1), res.output
    return res.output


def _parts(out: Path) -> dict[str, bytes]:
    """Every part of a folder but the manifest, the report and the summary."""
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and p.name not in ("manifest.json", "report.pdf", "summary.json")}


def _summary(out: Path) -> dict:
    """summary.json less what says when and how it was made (date, tasks from the cache,
    cache entries that failed their check)."""
    s = json.loads((out / "summary.json").read_text())
    s.pop("date")
    s["tasks"].pop("from_cache")
    s.pop("cache")
    return s


def _entries(cache: Path) -> list[Path]:
    return sorted((cache / "assembled").glob("*.pkl"))


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """A validate on an empty cache (every task runs, the assembly is stored), then the
    same again on that cache with assembling refused: it must be read back."""
    root = tmp_path_factory.mktemp("warm")
    _validate(root / "cold", root / "cache")
    assert len(_entries(root / "cache")) == 1

    def refuse(*args, **kwargs):
        raise AssertionError("a warm run assembled again")

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(RobotLadder, "assembled", refuse)
        _validate(root / "warm", root / "cache")
    return root


@pytest.fixture
def cache(runs, tmp_path) -> Path:
    """A copy of the warm cache, for a test that changes it."""
    shutil.copytree(runs / "cache", tmp_path / "cache")
    return tmp_path / "cache"


def test_a_warm_run_writes_what_the_cold_run_wrote(runs):
    summary = json.loads((runs / "warm" / "summary.json").read_text())
    assert summary["tasks"]["from_cache"] == summary["tasks"]["total"]
    assert _parts(runs / "warm") == _parts(runs / "cold")  # traces, metrics parquet/json
    assert _summary(runs / "warm") == _summary(runs / "cold")


def test_the_cached_report_is_the_report_drawn_afresh(runs, tmp_path):
    from dynval.reports.pdf import build_report

    warm = runs / "warm"  # its figures came from the figure cache
    again = build_report(warm, tmp_path / "fresh.pdf", cache_dir=None)  # every one drawn
    assert again.read_bytes() == (warm / "report.pdf").read_bytes()


def test_figures_drawn_on_the_pool_are_the_figures_drawn_here(runs):
    """The report's figures drawn on two worker processes are the same PNG bytes as drawn
    one after another in this process."""
    from dynval.reports.figures import render_all
    from dynval.results import Chapter

    out = runs / "cold"
    summary = json.loads((out / "summary.json").read_text())
    jobs = [(out, ch.robot, fig) for ch in map(Chapter.from_dict, summary["robots"].values())
            for fig in ch.figures + ch.xy_figures + [t for t in ch.tables if t.plot]]
    assert len(jobs) > 2
    assert render_all(jobs, 2, None) == render_all(jobs, 1, None)


def test_figures_drawn_ahead_are_the_figures_of_the_report(runs, tmp_path, monkeypatch):
    """With two workers each chapter's figures are drawn into the figure cache as soon as
    it is assembled: the report finds every one there (the keys it computes itself), and
    is the report of the figures drawn afresh."""
    from dynval.reports import figures, pdf

    report_render = pdf.render_all

    def all_drawn_ahead(jobs, workers, cache_dir):
        digests: dict = {}
        assert jobs and all(figures._cache_path(cache_dir, j, digests).is_file() for j in jobs)
        return report_render(jobs, workers, cache_dir)

    monkeypatch.setattr(pdf, "render_all", all_drawn_ahead)
    out = tmp_path / "ahead"
    _validate(out, tmp_path / "cache", "--workers", "2")
    assert (out / "report.pdf").read_bytes() == (runs / "cold" / "report.pdf").read_bytes()
    monkeypatch.setattr(pdf, "render_all", report_render)
    again = pdf.build_report(out, tmp_path / "fresh.pdf", cache_dir=None)  # every one drawn
    assert again.read_bytes() == (out / "report.pdf").read_bytes()


def test_a_changed_input_is_assembled_again(runs, cache, tmp_path):
    _validate(tmp_path / "more", cache, "--samples", "21")
    assert len(_entries(cache)) == 2
    audit = json.loads((tmp_path / "more" / "summary.json").read_text()
                       )["robots"]["landing_gear"]["audit"]
    assert {a["samples"] for a in audit} == {21}


@pytest.mark.parametrize("corrupt", ["unreadable", "one flipped byte"])
def test_a_corrupt_assembly_is_assembled_again_and_counted(runs, cache, tmp_path, corrupt,
                                                           flip_middle_byte):
    """An assembly entry that cannot be read, or whose bytes changed by one bit (which an
    unpickler takes without a word), is assembled again, and the run says so: in the
    progress line and in summary.json, which the report's cover reads."""
    for entry in _entries(cache):
        if corrupt == "unreadable":
            entry.write_bytes(b"not a pickle")
        else:
            flip_middle_byte(entry)
    output = _validate(tmp_path / "again", cache)
    assert _parts(tmp_path / "again") == _parts(runs / "cold")
    assert _summary(tmp_path / "again") == _summary(runs / "cold")
    assert [assembly.load(cache, e.stem) is not None for e in _entries(cache)] == [True]
    summary = json.loads((tmp_path / "again" / "summary.json").read_text())
    assert summary["cache"] == {"checks_failed": 1}
    assert "from the cache; 1 cache entry failed its check and was recomputed;" in output
    assert json.loads((runs / "warm" / "summary.json").read_text())["cache"] == {
        "checks_failed": 0}


def test_a_figure_with_a_flipped_byte_is_drawn_again_and_counted(runs, cache, tmp_path,
                                                                 flip_middle_byte,
                                                                 monkeypatch):
    """A drawn figure whose bytes changed in the cache is drawn again (the report's pages
    are those drawn afresh) and counted on the cover, which then claims no recomputation's
    bits."""
    from dynval.reports import pdf

    figures = sorted((cache / "figures").glob("*.pkl"))
    assert len(figures) > 2
    for entry in figures[:2]:
        flip_middle_byte(entry)
    lines, drawn = [], []
    monkeypatch.setattr(pdf, "_run_line", lambda s, n=0, line=pdf._run_line: lines.append(
        line(s, n)) or lines[-1])
    monkeypatch.setattr(pdf, "render_all", lambda *a, render=pdf.render_all: drawn.append(
        render(*a)) or drawn[-1])
    pdf.build_report(runs / "warm", tmp_path / "checked.pdf", cache_dir=cache)
    assert lines[-1].endswith("2 cache entries failed their check and were recomputed.")
    pdf.build_report(runs / "warm", tmp_path / "fresh.pdf", cache_dir=None)
    assert "the same bits as a recomputation" in lines[-1]
    assert drawn[0] == drawn[1]  # the figures read back are the figures drawn afresh
    assert sorted(e.name for e in (cache / "figures").glob("*.pkl")) == [
        e.name for e in figures]  # drawn again and stored


def test_the_address_follows_every_outcome_the_inputs_and_the_code(monkeypatch):
    inp = Inputs(LADDER.default_params, ROOT / "landing_gear", ("flat",), 20, 0, "ci")
    tasks = LADDER.tasks(inp)
    outcomes = {t.key: Outcome(t.key, digest=f"d{i}") for i, t in enumerate(tasks)}
    base = assembly.assembly_digest(LADDER, inp, tasks, outcomes)
    assert base is not None
    moved = dict(outcomes)
    moved[tasks[-1].key] = Outcome(tasks[-1].key, digest="other")
    assert assembly.assembly_digest(LADDER, inp, tasks, moved) != base
    heavier = Inputs(LADDER.default_params.with_(m_L=0.16), *list(inp.__dict__.values())[1:])
    assert assembly.assembly_digest(LADDER, heavier, tasks, outcomes) != base
    # without the results cache (--no-cache) there is no address: nothing is stored
    unaddressed = {**outcomes, tasks[0].key: Outcome(tasks[0].key)}
    assert assembly.assembly_digest(LADDER, inp, tasks, unaddressed) is None
    # the code: the robot's source set (the framework and the robot's own folders), not
    # another robot's
    sets = _layout.source_sets()
    other = {**sets, "hopper": "0" * 16}
    own = {**sets, "landing_gear": "0" * 16}
    for changed, moves in ((other, False), (own, True)):
        monkeypatch.setattr(_layout, "source_sets", lambda changed=changed: changed)
        assert (assembly.assembly_digest(LADDER, inp, tasks, outcomes) != base) == moves
