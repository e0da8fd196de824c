"""Build ``report.pdf`` from ``summary.json``, ``metrics.parquet`` and the stored traces."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import reportlab.rl_config

reportlab.rl_config.useA85 = 0  # images stored binary: smaller, and no slow ASCII85 pass
import pandas as pd  # noqa: E402
from reportlab.lib import colors  # noqa: E402
from reportlab.lib.pagesizes import A4  # noqa: E402
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet  # noqa: E402
from reportlab.lib.units import cm  # noqa: E402
from reportlab.pdfbase.pdfmetrics import stringWidth  # noqa: E402
from reportlab.platypus import (  # noqa: E402
    Flowable,
    KeepTogether,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from dynval import _stored  # noqa: E402
from dynval.reports.figures import Rendered, chapter_jobs, render_all  # noqa: E402
from dynval.reports.mutants import section as mutation_section  # noqa: E402
from dynval.reports.pngimage import png_flowable  # noqa: E402
from dynval.results import (  # noqa: E402
    RUNGS,
    VERDICTS,
    AuditRow,
    Chapter,
    DataTable,
    run_verdict,
    verdict_of,
)

STYLES = getSampleStyleSheet()
VERDICT_COLOURS = {"reproduced": colors.HexColor("#8fd18a"), "agrees": colors.HexColor("#b7e1b0"),
                   "differs": colors.HexColor("#f2a7a7"), "recomputed": colors.HexColor("#cfe0f5"),
                   "erratum": colors.HexColor("#f7d79a"), "known": colors.HexColor("#f5e6b8"),
                   "not applicable": colors.HexColor("#dddddd"),
                   "drawn, not judged": colors.HexColor("#eeeeee"),
                   "not reproduced": colors.HexColor("#e2cdf0")}


class ReportInputError(ValueError):
    """A missing or unreadable input file."""


def _read(out_dir: Path) -> tuple[dict, pd.DataFrame]:
    s, m = out_dir / "summary.json", out_dir / "metrics.parquet"
    for f in (s, m):
        if not f.is_file():
            raise ReportInputError(f"{f} is missing; run 'dynval validate --out {out_dir}' first")
    try:
        return json.loads(s.read_text()), pd.read_parquet(m)
    except (json.JSONDecodeError, OSError, ValueError) as exc:
        raise ReportInputError(f"cannot read the inputs in {out_dir} ({exc})") from None


class _Paragraph(Paragraph):
    """A paragraph that breaks its lines once per width.  A table cell is wrapped to size
    its row, again to be drawn, and again on every page a long table is split over; the
    lines depend on the width only (reportlab's ``wrap`` ignores the height), so a repeated
    width returns the first answer (most of the report's build time otherwise)."""

    _wrapped: tuple[float, tuple[float, float]] | None = None

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        if (self._wrapped is not None and self._wrapped[0] == availWidth
                and hasattr(self, "blPara")):  # split() drops the lines: break them again
            return self._wrapped[1]
        size = super().wrap(availWidth, availHeight)
        self._wrapped = (availWidth, size)
        return size

    def split(self, availWidth: float, availHeight: float) -> list:  # noqa: N803
        self._wrapped = None
        return super().split(availWidth, availHeight)


def _p(text: str, style: str = "BodyText") -> Paragraph:
    para = _Paragraph(str(text).replace("&", "&amp;").replace("<", "&lt;"), STYLES[style])
    if style.startswith("Heading"):  # a heading goes to the next page with what it heads,
        para.keepWithNext = 1  # never left at a page's foot (or alone on a page)
    return para


def _table(rows: list[list], widths=None, font: int = 7) -> Table:
    t = Table([[_small(c, font) for c in r] for r in rows], colWidths=widths, repeatRows=1)
    t.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
                           ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8e8f0")),
                           ("VALIGN", (0, 0), (-1, -1), "TOP"),
                           # 2 pt, not reportlab's 6 pt, either side: a narrow column keeps
                           # its words whole ("yes", "-1.6e-06") instead of splitting them
                           ("LEFTPADDING", (0, 0), (-1, -1), 2),
                           ("RIGHTPADDING", (0, 0), (-1, -1), 2)]))
    return t


def _l0_table(rows: list) -> Table:
    """L0's rows, one line per file, pair of readings and quantity (every body's mass and
    centre, every body's inertia, every joint's axis, every limit): how many were compared,
    the worst with its body or joint, and how many failed."""
    groups: dict[tuple[str, str, str], list] = {}
    for r in rows:
        head, _, kind = r.quantity.partition(": ")
        named = head.startswith(("body ", "joint ")) and kind
        groups.setdefault((r.file, r.engine, kind if named else r.quantity), []).append(
            (head.split(" ", 1)[1] if named else "", r))
    lines = [["file", "reading vs reference", "quantity", "compared", "worst (where)", "tol",
              "ok"]]
    for (file, pair, kind), members in groups.items():
        where, worst = max(members, key=lambda m: m[1].max_error)
        failed = sum(not r.passed for _, r in members)
        lines.append([file, pair, kind, len(members),
                      f"{worst.max_error:.3g}" + (f" ({where})" if where and worst.max_error
                                                  else ""),
                      worst.tolerance, "yes" if not failed else f"NO ({failed})"])
    return _table(lines)


@cache
def _small_style(font: float) -> ParagraphStyle:
    return STYLES["BodyText"].clone("small", fontSize=font, leading=font + 1.5)


def _small(x, font: float) -> _Cell:
    if isinstance(x, float):
        x = f"{x:.3g}"
    return _Cell(str(x), _small_style(font))


class _Cell(Flowable):
    """A table cell's text.  Where it fits its column on one line (a number, a word, a short
    phrase: nearly every cell of the report) it is drawn as one string, where the
    paragraph would put it; otherwise it is the paragraph, wrapped.  Parsing and breaking
    some ten thousand cells as paragraphs was most of the report's build time."""

    def __init__(self, text: str, style: ParagraphStyle) -> None:
        super().__init__()
        self.text, self.style = text, style
        self.para: Paragraph | None = None
        # its width on one line, where it can be one line (single spaces only); measured
        # once, as a table sizes and draws each cell several times
        self._line = (stringWidth(text, style.fontName, style.fontSize)
                      if text and text == " ".join(text.split()) else None)

    def _paragraph(self) -> Paragraph:
        if self.para is None:
            self.para = _Paragraph(self.text.replace("&", "&amp;").replace("<", "&lt;"),
                                   self.style)
        return self.para

    def fits(self, width: float) -> bool:
        """Whether the text is one line at ``width``: single spaces, and narrow enough."""
        return self._line is not None and self._line <= width

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        self.width = availWidth
        if self.fits(availWidth):
            self.height = self.style.leading
            return availWidth, self.height
        w, self.height = self._paragraph().wrap(availWidth, availHeight)
        return w, self.height

    def split(self, availWidth: float, availHeight: float) -> list:  # noqa: N803
        return [] if self.fits(availWidth) else self._paragraph().split(availWidth,
                                                                         availHeight)

    def draw(self) -> None:
        if not self.fits(self.width):
            self._paragraph().drawOn(self.canv, 0, 0)
            return
        # a paragraph's first baseline lies one font size below its top
        # (reportlab's rl_config.paraFontSizeHeightOffset)
        self.canv.setFillColor(self.style.textColor)
        self.canv.setFont(self.style.fontName, self.style.fontSize)
        self.canv.drawString(0, self.height - self.style.fontSize, self.text)


def _image(rendered: Rendered, width: float) -> list:
    if rendered is None:
        return [_p("(no traces stored for this run)")]
    png, aspect = rendered
    return [png_flowable(png, width, width * aspect)]


def _data_table(tab: DataTable, images: dict[int, Rendered]) -> list:
    """A recomputed table of the paper: title, the table, its caption, and its figure
    where the table has one."""
    return [KeepTogether([_p(tab.title, "Heading4"),
                          _table([tab.columns] + tab.rows, font=6.5),
                          _p(tab.caption)])] + (_image(images[id(tab)], 16 * cm)
                                                if tab.plot else [])


def build_report(out_dir: Path, pdf_path: Path | None = None, *, compress: bool = True,
                 workers: int = 1, cache_dir: Path | None = None) -> Path:
    """Write the validation PDF for the runs under ``out_dir`` and return its path; the
    figures are drawn on ``workers`` processes, or read from ``cache_dir`` where the same
    figure of the same traces was drawn before (the same bytes either way)."""
    out_dir = Path(out_dir)
    summary, metrics = _read(out_dir)
    pdf_path = pdf_path or out_dir / "report.pdf"
    chapters = [Chapter.from_dict(ch) for ch in summary["robots"].values()]
    jobs = [job for ch in chapters for job in chapter_jobs(out_dir, ch)]
    checks_failed = _stored.failures()
    images = {id(j[2]): r for j, r in zip(jobs, render_all(jobs, workers, cache_dir),
                                          strict=True)}
    checks_failed = _stored.failures() - checks_failed  # drawn figures the cover counts
    story = [_p("dynval validation report", "Title"),
             _p(f"dynval {summary['dynval_version']}, commit {summary['git_commit']}, "
                f"source digest {summary.get('source_digest', 'not recorded')}, "
                f"{summary['date']}; {summary['machine']}"),
             _p("Engines: " + ", ".join(f"{k} {v}" for k, v in summary["versions"].items())),
             _p(_run_line(summary, checks_failed))]
    story += [_p(_verdict_line(chapters, metrics), "Heading3"), *_assumptions(chapters),
              Spacer(1, 8), _p("Summary", "Heading1")]
    rows = [["robot", *RUNGS]]
    notes = [["robot", "rung", "note"]]
    for ch in chapters:
        rows.append([ch.robot] + [ch.rungs[r].verdict if r in ch.rungs else "not applicable"
                                  for r in RUNGS])
        notes += [[ch.robot, r, ch.rungs[r].note] for r in RUNGS if r in ch.rungs]
    t = _table(rows, font=8)
    for i, row in enumerate(rows[1:], start=1):
        for j, v in enumerate(row[1:], start=1):
            t.setStyle([("BACKGROUND", (j, i), (j, i), VERDICT_COLOURS.get(v, colors.white))])
    story += [t, Spacer(1, 6), _table([["verdict", "meaning"]]
                                      + [[k, v] for k, v in VERDICTS.items()],
                                      [3 * cm, 14 * cm]),
              Spacer(1, 6), _table(notes, [2.5 * cm, 1.5 * cm, 13 * cm])]
    story += mutation_section(out_dir, summary, _p, _table, cm)
    for ch in chapters:
        story += _chapter(out_dir, ch, metrics, images)
    story += [PageBreak(), _p("Appendix: parameters and conventions", "Heading1")]
    for ch in chapters:
        story += [_p(ch.robot, "Heading2"), _table(
            [["symbol", "value", "unit", "source"]]
            + [[q.symbol, q.value, q.unit, q.source] for q in ch.parameters],
            [3 * cm, 2.5 * cm, 2.5 * cm, 9 * cm])]
        story += [_p(c) for c in ch.conventions]
    doc = _Outlined(str(pdf_path), pagesize=A4, invariant=1, pageCompression=compress,
                            title="dynval validation report", leftMargin=2 * cm,
                            rightMargin=2 * cm)
    doc.build(story, onFirstPage=_footer, onLaterPages=_footer)
    return pdf_path


class _Outlined(SimpleDocTemplate):
    """A document whose headings become PDF bookmarks: a robot (Heading1) and, under it,
    its sections and rungs (Heading2)."""

    def afterFlowable(self, flowable) -> None:  # noqa: N802 - reportlab's hook name
        if not isinstance(flowable, Paragraph):
            return
        level = {"Heading1": 0, "Heading2": 1}.get(flowable.style.name)
        if level is None:
            return
        text = flowable.getPlainText()
        self._marks = getattr(self, "_marks", 0) + 1
        key = f"heading{self._marks}"  # deterministic: the file is the same when rebuilt
        self.canv.bookmarkPage(key)
        self.canv.addOutlineEntry(text, key, level=level, closed=level > 0)


def _run_line(summary: dict, figures_failed: int = 0) -> str:
    """The cover's line on the run: tier, inputs, and how many tasks came from the results
    cache. It claims a recomputation's bits only where every cache entry read (the run's
    task results and chapters, counted in summary.json, and the figures this report read,
    ``figures_failed``) passed its content check; a summary that records no checks (an
    older dynval's) gets no claim."""
    tasks = summary.get("tasks", {})
    line = (f"Tier {summary.get('tier', 'full')}, {summary['samples']} audit states, seed "
            f"{summary['seed']}; overrides: {', '.join(summary['overrides']) or 'none'}; "
            f"{tasks.get('from_cache', 0)} of {tasks.get('total', 0)} tasks from the results "
            "cache")
    run_failed = summary.get("cache", {}).get("checks_failed")
    if run_failed is None:
        return line + "."
    failed = run_failed + figures_failed
    if failed:
        return f"{line}; {_stored.failed_sentence(failed)}."
    return line + " (every entry passed its content check: the same bits as a recomputation)."


def _verdict_line(chapters: list[Chapter], metrics: pd.DataFrame) -> str:
    """The first page's verdict: rung verdicts counted, figures outside tolerance, errata."""
    v = run_verdict([r.verdict for ch in chapters for r in ch.rungs.values()], metrics,
                    [(ch.robot, nr.scenario) for ch in chapters for nr in ch.not_reproduced])
    return (f"Verdict: {v.rung_counts()} (rungs of {len(chapters)} "
            f"robot{'s' if len(chapters) != 1 else ''}); {v.outside_clause()}"
            f"{v.statements_clause()}; "
            f"{sum(len(ch.errata) for ch in chapters)} errata in the papers.")


def _assumptions(chapters: list[Chapter]) -> list:
    """The first page's list of what the suite chose where the papers are silent, with
    what was measured of the verdicts across it (the appendix gives each one's reason)."""
    rows = [[ch.robot, a.symbol, f"{a.value} {a.unit}".strip() if a.unit not in ("", "-")
             else a.value, a.holds_over]
            for ch in chapters for a in ch.assumptions]
    if not rows:
        return []
    return [Spacer(1, 4), _p(f"Assumptions: {len(rows)} values the papers do not give (or "
                             "forms of printed equations) that this suite chose; the verdicts "
                             "were measured at these values, and where a run swept one, the "
                             "sweep is given", "BodyText"),
            _table([["robot", "symbol", "value", "verdicts across other values"], *rows],
                   [2 * cm, 2.2 * cm, 2.6 * cm, 10.2 * cm], font=6.5)]


def _audit_table(audit: list[AuditRow]) -> Table:
    """The L1/L2 rows of a chapter, with a unit column where its rows give their units
    (a model audit's: the unit of each term's entries and of its max abs error)."""
    erratum_terms = {(e.term, e.reference) for e in audit if e.form == "corrected"}
    units = any(a.unit for a in audit)
    head = ["term", "equation", "form", "reference", "max rel", "max abs",
            *(["unit"] if units else []), "worst at", "samples", "verdict"]
    return _table([head] + [
        [a.term, a.equation, a.form, a.reference, a.max_rel_error, a.max_abs_error,
         *([a.unit or "-"] if units else []), a.worst_name or "-", a.samples,
         "erratum" if a.form == "printed" and (a.term, a.reference) in erratum_terms
         else "agrees" if a.passed else "DIFFERS"] for a in audit])


def _row_word(r: Any, not_reproduced: bool) -> str:
    """A figure's verdict in the chapter's table ("-" where nothing was judged)."""
    if verdict_of(r.passed) is None:
        return "-"
    if r.passed:
        return "yes"
    if r.known:
        return f"known ({r.evidence})"
    return "not reproduced" if not_reproduced and r.kind == "requirement" else "NO"


def _footer(canvas, doc) -> None:
    canvas.saveState()
    canvas.setFont("Helvetica", 7)
    canvas.drawRightString(A4[0] - 2 * cm, 1.2 * cm, f"dynval report, page {doc.page}")
    canvas.restoreState()


def _chapter(out_dir: Path, ch: Chapter, metrics: pd.DataFrame,
             images: dict[int, Rendered]) -> list:
    """One robot's chapter: scenarios with their figures and tables, the recomputed
    tables, then L0, L3, the audit, errata and the error budget."""
    robot = ch.robot
    story = [PageBreak(), _p(f"{robot}: {ch.title}", "Heading1"), _p(ch.paper)]
    story += [_p(n) for n in ch.notes]
    missed = {nr.scenario: nr for nr in ch.not_reproduced}
    for sc in ch.scenarios:
        story += [_p(sc.title, "Heading2"), _p(sc.description)]
        if sc.name in missed:
            nr = missed[sc.name]
            story.append(_p(f"Not reproduced: {nr.premise} fails ({nr.evidence}). Its figures "
                            "are drawn; its requirements are not judged."))
        for fig in [f for f in ch.figures if f.scenario == sc.name]:
            story.append(KeepTogether([_p(fig.title, "Heading4"),
                                       *_image(images[id(fig)], 16 * cm), _p(fig.caption)]))
        for fig in [f for f in ch.xy_figures if f.scenario == sc.name]:
            story.append(KeepTogether([_p(fig.title, "Heading4"),
                                       *_image(images[id(fig)], 10 * cm), _p(fig.caption)]))
        for tab in [t for t in ch.tables if t.scenario == sc.name]:
            story += _data_table(tab, images)
        sub = metrics[(metrics["robot"] == robot) & (metrics["scenario"] == sc.name)
                      & metrics["tolerance"].notna()]
        if len(sub):
            t = _table(
                [["variant", "signal", "ref", "candidate", "metric", "value", "tol", "ok",
                  "reason"]]
                + [[r.variant, r.signal, r.reference, r.candidate, r.metric, r.value,
                    r.tolerance, _row_word(r, sc.name in missed),
                    r.reason + (f" Known difference ({r.evidence}, evidence "
                                f"{r.evidence_value:.3g}): {r.known}" if r.known else "")]
                   for r in sub.itertuples()],
                [1.3 * cm, 2.6 * cm, 1.3 * cm, 1.6 * cm, 2.2 * cm, 1.4 * cm, 1.2 * cm,
                 1.0 * cm, 5.4 * cm])
            for i, r in enumerate(sub.itertuples(), start=1):  # failing rows stand out
                if verdict_of(r.passed) is False:
                    word = _row_word(r, sc.name in missed)
                    t.setStyle([("BACKGROUND", (0, i), (-1, i), VERDICT_COLOURS[
                        "known" if r.known else word if word == "not reproduced"
                        else "differs"])])
            story += [_p("Toleranced figures", "Heading4"), t]
    loose = [t for t in ch.tables if t.scenario is None]
    if loose:
        story.append(_p("Recomputed tables", "Heading2"))
        for tab in loose:
            story += _data_table(tab, images)
    if ch.description_check:
        story += [_p("L0: each engine's reading of the descriptions", "Heading2"),
                  _l0_table(ch.description_check)]
    if ch.trajectories:
        story += [_p("L3: trajectories without contact", "Heading2"), _table(
            [["step [s]", "comparison", "max |diff|", "tol", "reason"]]
            + [[r.step, r.comparison, f"{r.max_abs:.3g} {r.unit}",
                "-" if r.tolerance is None else r.tolerance, r.reason]
               for r in ch.trajectories], [1.5 * cm, 5 * cm, 2.5 * cm, 1.5 * cm, 6.5 * cm])]
    story += [_p("L1/L2: kinematics and dynamics audit", "Heading2"), _audit_table(ch.audit)]
    story += [_p("Errata", "Heading2")]
    for e in ch.errata:
        story.append(_table([["eq.", "term", "printed", "corrected"],
                             [e.equation, e.term, e.printed, e.corrected],
                             ["evidence", "", e.evidence, ""],
                             ["effect", "", e.effect, ""]],
                            [1.5 * cm, 2.5 * cm, 6.5 * cm, 6.5 * cm]))
        story.append(Spacer(1, 4))
    if ch.budget:
        scen = ", ".join(sorted({b.scenario for b in ch.budget}))
        story += [_p(f"Error budget ({scen})", "Heading2"), _table(
            [["component", "signal", "value", "unit"]]
            + [[b.component, b.signal, b.value, b.unit] for b in ch.budget],
            [8 * cm, 3 * cm, 2.5 * cm, 2.5 * cm])]
    return story
