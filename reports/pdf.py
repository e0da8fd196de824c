"""Build ``report.pdf`` from ``summary.json``, ``metrics.parquet`` and the stored traces."""

from __future__ import annotations

import hashlib
import io
import json
import os
import pickle
from concurrent.futures import ProcessPoolExecutor
from functools import lru_cache
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
matplotlib.rcParams["axes.formatter.useoffset"] = False  # no "1e-12+8.3e-1" axis labels
import reportlab.rl_config  # noqa: E402

reportlab.rl_config.useA85 = 0  # images stored binary: smaller, and no slow ASCII85 pass
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
from reportlab.lib import colors  # noqa: E402
from reportlab.lib.pagesizes import A4  # noqa: E402
from reportlab.lib.styles import getSampleStyleSheet  # noqa: E402
from reportlab.lib.units import cm  # noqa: E402
from reportlab.platypus import (  # noqa: E402
    Image,
    KeepTogether,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from reports.chapter import (  # noqa: E402
    RUNGS,
    VERDICTS,
    Chapter,
    DataTable,
    Figure,
    Panel,
    XYFigure,
    traces_path,
)

STYLES = getSampleStyleSheet()
VERDICT_COLOURS = {"reproduced": colors.HexColor("#8fd18a"), "agrees": colors.HexColor("#b7e1b0"),
                   "differs": colors.HexColor("#f2a7a7"), "recomputed": colors.HexColor("#cfe0f5"),
                   "erratum": colors.HexColor("#f7d79a"),
                   "not applicable": colors.HexColor("#dddddd")}
COLOURS = {"handrolled": "tab:blue", "mujoco": "tab:red", "pybullet": "tab:green",
           "assumed": "black"}


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


def _p(text: str, style: str = "BodyText") -> Paragraph:
    return Paragraph(str(text).replace("&", "&amp;").replace("<", "&lt;"), STYLES[style])


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


def _small(x, font: int) -> Paragraph:
    if isinstance(x, float):
        x = f"{x:.3g}"
    style = STYLES["BodyText"].clone("small", fontSize=font, leading=font + 1.5)
    return Paragraph(str(x).replace("&", "&amp;").replace("<", "&lt;"), style)


def _png(f) -> io.BytesIO:
    """The figure at 200 dpi as a palette PNG: line plots use a few dozen colours, so an
    adaptive 64-colour palette looks the same at a third of the size (deterministic)."""
    from PIL import Image as PILImage

    raw = io.BytesIO()
    f.savefig(raw, format="png", dpi=200, metadata={"Software": None})
    plt.close(f)
    raw.seek(0)
    img = PILImage.open(raw).convert("RGB").quantize(colors=64, method=PILImage.MEDIANCUT,
                                                     dither=PILImage.Dither.NONE)
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=True)
    buf.seek(0)
    return buf


@lru_cache(maxsize=8)  # consecutive figures read the same run; they only filter it
def _traces(out_dir: Path, robot: str, scenario: str, variant: str) -> pd.DataFrame | None:
    path = traces_path(out_dir, robot, scenario, variant)
    return pd.read_parquet(path) if path.is_file() else None


Rendered = tuple[bytes, float] | None  # PNG and its height per unit width, or no traces


def render(job: tuple[Path, str, Figure | XYFigure]) -> Rendered:
    """One figure of a chapter as PNG bytes (a pure function: the same traces give the
    same bytes, in whichever process it runs)."""
    out_dir, robot, fig = job
    return (_figure if isinstance(fig, Figure) else _xy_figure)(out_dir, robot, fig)


def _image(rendered: Rendered, width: float) -> list:
    if rendered is None:
        return [_p("(no traces stored for this run)")]
    png, aspect = rendered
    return [Image(io.BytesIO(png), width=width, height=width * aspect)]


def _figure(out_dir: Path, robot: str, fig: Figure) -> Rendered:
    """One panel per signal, every implementation overlaid, and under it the difference
    of each implementation from the MuJoCo reference."""
    tr = _traces(out_dir, robot, fig.scenario, fig.variant)
    if tr is None:
        return None
    sigs = fig.signals
    ncol = 2 if len(sigs) > 2 else len(sigs)
    nrow = -(-len(sigs) // ncol)
    f, axes = plt.subplots(2 * nrow, ncol, figsize=(7.0, 2.1 * nrow), squeeze=False,
                           sharex=True, gridspec_kw={"height_ratios": [2.2, 1.0] * nrow})
    units, scales = fig.units, fig.scales
    for k, sig in enumerate(sigs):
        ax, err = axes[2 * (k // ncol), k % ncol], axes[2 * (k // ncol) + 1, k % ncol]
        sub = tr[tr["signal"] == sig]
        scale = scales[k]
        ref = sub[sub["implementation"] == "mujoco"].sort_values("time")
        for impl, s in sub.groupby("implementation", sort=True):
            s = s.sort_values("time")
            ax.plot(s["time"], s["value"] * scale, lw=0.9, label=impl,
                    color=COLOURS.get(impl))
            if impl != "mujoco" and len(ref):
                diff = (s["value"].to_numpy() - ref["value"].to_numpy()) * scale
                err.plot(s["time"], diff, lw=0.8, color=COLOURS.get(impl))
        ax.set_title(f"{sig} [{units[k]}]", fontsize=7)
        err.set_ylabel("- MuJoCo", fontsize=6)
        for a in (ax, err):
            a.tick_params(labelsize=6)
            a.grid(alpha=0.3)
    for k in range(len(sigs), nrow * ncol):
        axes[2 * (k // ncol), k % ncol].axis("off")
        axes[2 * (k // ncol) + 1, k % ncol].axis("off")
    axes[0, 0].legend(fontsize=6)
    for ax in axes[-1]:
        ax.set_xlabel("time [s]", fontsize=7)
    f.tight_layout(h_pad=0.3)
    return _png(f).getvalue(), 2.1 * nrow / 7.0


def _xy_figure(out_dir: Path, robot: str, fig: XYFigure) -> Rendered:
    tr = _traces(out_dir, robot, fig.scenario, fig.variant)
    if tr is None:
        return None
    f, ax = plt.subplots(figsize=(4.5, 3.2))
    for impl, s in tr.groupby("implementation", sort=True):
        x = s[s["signal"] == fig.x].sort_values("time")["value"].to_numpy() * fig.scale
        y = s[s["signal"] == fig.y].sort_values("time")["value"].to_numpy() * fig.scale
        if len(x) == 0:
            continue  # a pseudo-implementation that has forces only
        if fig.relative:
            x, y = x - x[0], y - y[0]
        ax.plot(x, y, lw=0.9, label=impl, color=COLOURS.get(impl))
    ax.set_xlabel(f"{fig.x} [{fig.unit}]", fontsize=7)
    ax.set_ylabel(f"{fig.y} [{fig.unit}]", fontsize=7)
    ax.tick_params(labelsize=6)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=6)
    f.tight_layout()
    return _png(f).getvalue(), 3.2 / 4.5


def _series_plot(panels: list[Panel]) -> list:
    """Panels of x-y series side by side (a paper's figure recomputed from a table)."""
    f, axes = plt.subplots(1, len(panels), figsize=(3.5 * len(panels), 2.8), squeeze=False)
    for ax, panel in zip(axes[0], panels, strict=True):
        for s in panel.series:
            ax.plot(s.x, s.y, s.style, marker=".", lw=0.9, ms=3, label=s.label)
        ax.set_title(panel.title, fontsize=7)
        ax.set_xlabel(panel.xlabel, fontsize=7)
        ax.set_ylabel(panel.ylabel, fontsize=7)
        ax.tick_params(labelsize=6)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=5)
    f.tight_layout()
    width = 16 * cm
    return [Image(_png(f), width=width, height=width * 2.8 / (3.5 * len(panels)))]


def _data_table(tab: DataTable) -> list:
    """A recomputed table of the paper: title, the table, its caption, and its figure
    where the table has one."""
    return [KeepTogether([_p(tab.title, "Heading4"),
                          _table([tab.columns] + tab.rows, font=6.5),
                          _p(tab.caption)])] + (_series_plot(tab.plot) if tab.plot else [])


def _figure_key(job: tuple[Path, str, Figure | XYFigure]) -> str:
    """Content address of a drawn figure: what it shows, the traces it reads and the code
    that draws it."""
    out_dir, robot, fig = job
    traces = traces_path(out_dir, robot, fig.scenario, fig.variant)
    h = hashlib.sha256(repr(fig).encode() + Path(__file__).read_bytes())
    h.update(traces.read_bytes() if traces.is_file() else b"no traces")
    return h.hexdigest()


def _render_all(jobs: list, workers: int, cache_dir: Path | None) -> list[Rendered]:
    """Every figure, from the figure cache where it was drawn before, the rest on
    ``workers`` processes."""
    keys = [_figure_key(j) for j in jobs] if cache_dir else [None] * len(jobs)
    paths = [cache_dir / "figures" / f"{k}.pkl" if k else None for k in keys]
    out: list[Rendered | str] = []
    for path in paths:
        try:
            out.append(pickle.loads(path.read_bytes()) if path and path.is_file() else "todo")
        except Exception:  # noqa: BLE001 - an unreadable entry is drawn again
            out.append("todo")
    todo = [i for i, r in enumerate(out) if isinstance(r, str)]
    if workers > 1 and len(todo) > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            drawn = list(pool.map(render, [jobs[i] for i in todo], chunksize=4))
    else:
        drawn = [render(jobs[i]) for i in todo]
    for i, r in zip(todo, drawn, strict=True):
        out[i] = r
        if paths[i] is not None:
            paths[i].parent.mkdir(parents=True, exist_ok=True)
            tmp = paths[i].with_suffix(f".{os.getpid()}.tmp")
            tmp.write_bytes(pickle.dumps(r, protocol=4))
            tmp.replace(paths[i])
    return out


def build_report(out_dir: Path, pdf_path: Path | None = None, *, compress: bool = True,
                 workers: int = 1, cache_dir: Path | None = None) -> Path:
    """Write the validation PDF for the runs under ``out_dir`` and return its path; the
    figures are drawn on ``workers`` processes, or read from ``cache_dir`` where the same
    figure of the same traces was drawn before (the same bytes either way)."""
    out_dir = Path(out_dir)
    summary, metrics = _read(out_dir)
    pdf_path = pdf_path or out_dir / "report.pdf"
    story = [_p("dynval validation report", "Title"),
             _p(f"dynval {summary['dynval_version']}, commit {summary['git_commit']}, "
                f"{summary['date']}; {summary['machine']}"),
             _p("Engines: " + ", ".join(f"{k} {v}" for k, v in summary["versions"].items())),
             _p(_run_line(summary))]
    chapters = [Chapter.from_dict(ch) for ch in summary["robots"].values()]
    story += [_p(_verdict_line(chapters, metrics), "Heading3"), Spacer(1, 8),
              _p("Summary", "Heading1")]
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
    jobs = [(out_dir, ch.robot, fig) for ch in chapters for fig in ch.figures + ch.xy_figures]
    images = {id(j[2]): r for j, r in zip(jobs, _render_all(jobs, workers, cache_dir),
                                          strict=True)}
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


def _run_line(summary: dict) -> str:
    tasks = summary.get("tasks", {})
    return (f"Tier {summary.get('tier', 'full')}, {summary['samples']} audit states, seed "
            f"{summary['seed']}; overrides: {', '.join(summary['overrides']) or 'none'}; "
            f"{tasks.get('from_cache', 0)} of {tasks.get('total', 0)} tasks from the results "
            "cache (the same bits as a recomputation).")


def _verdict_line(chapters: list[Chapter], metrics: pd.DataFrame) -> str:
    """The first page's verdict: rung verdicts counted, figures outside tolerance, errata."""
    counts: dict[str, int] = {}
    for ch in chapters:
        for r in ch.rungs.values():
            counts[r.verdict] = counts.get(r.verdict, 0) + 1
    bad = metrics[~metrics["passed"]]
    known = int((bad["known"] != "").sum()) if "known" in bad else 0
    return ("Verdict: " + ", ".join(f"{n} {v}" for v, n in sorted(counts.items()))
            + f" (rungs of {len(chapters)} robot{'s' if len(chapters) != 1 else ''}); "
            f"{len(bad)} figures outside tolerance "
            f"({known} known differences); {sum(len(ch.errata) for ch in chapters)} errata "
            "in the papers.")


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
    for sc in ch.scenarios:
        story += [_p(sc.title, "Heading2"), _p(sc.description)]
        for fig in [f for f in ch.figures if f.scenario == sc.name]:
            story.append(KeepTogether([_p(fig.title, "Heading4"),
                                       *_image(images[id(fig)], 16 * cm), _p(fig.caption)]))
        for fig in [f for f in ch.xy_figures if f.scenario == sc.name]:
            story.append(KeepTogether([_p(fig.title, "Heading4"),
                                       *_image(images[id(fig)], 10 * cm), _p(fig.caption)]))
        for tab in [t for t in ch.tables if t.scenario == sc.name]:
            story += _data_table(tab)
        sub = metrics[(metrics["robot"] == robot) & (metrics["scenario"] == sc.name)
                      & metrics["tolerance"].notna()]
        if len(sub):
            t = _table(
                [["variant", "signal", "ref", "candidate", "metric", "value", "tol", "ok",
                  "reason"]]
                + [[r.variant, r.signal, r.reference, r.candidate, r.metric, r.value,
                    r.tolerance, "yes" if r.passed else ("known" if r.known else "NO"),
                    r.reason + (f" Known difference: {r.known}" if r.known else "")]
                   for r in sub.itertuples()],
                [1.3 * cm, 2.6 * cm, 1.3 * cm, 1.6 * cm, 2.2 * cm, 1.4 * cm, 1.2 * cm,
                 1.0 * cm, 5.4 * cm])
            for i, r in enumerate(sub.itertuples(), start=1):  # failing rows stand out
                if not r.passed:
                    t.setStyle([("BACKGROUND", (0, i), (-1, i),
                                 VERDICT_COLOURS["erratum" if r.known else "differs"])])
            story += [_p("Toleranced figures", "Heading4"), t]
    loose = [t for t in ch.tables if t.scenario is None]
    if loose:
        story.append(_p("Recomputed tables", "Heading2"))
        for tab in loose:
            story += _data_table(tab)
    if ch.description_check:
        story += [_p("L0: descriptions against the parameter set", "Heading2"), _table(
            [["file", "engine", "quantity", "max error", "tol", "ok"]]
            + [[r.file, r.engine, r.quantity, r.max_error, r.tolerance,
                "yes" if r.passed else "NO"] for r in ch.description_check])]
    if ch.trajectories:
        story += [_p("L3: trajectories without contact", "Heading2"), _table(
            [["step [s]", "comparison", "max |diff|", "tol", "reason"]]
            + [[r.step, r.comparison, f"{r.max_abs:.3g} {r.unit}",
                "-" if r.tolerance is None else r.tolerance, r.reason]
               for r in ch.trajectories], [1.5 * cm, 5 * cm, 2.5 * cm, 1.5 * cm, 6.5 * cm])]
    erratum_terms = {(e.term, e.reference) for e in ch.audit if e.form == "corrected"}
    story += [_p("L1/L2: kinematics and dynamics audit", "Heading2"), _table(
        [["term", "equation", "form", "reference", "max rel", "max abs", "worst at",
          "samples", "verdict"]]
        + [[a.term, a.equation, a.form, a.reference, a.max_rel_error, a.max_abs_error,
            a.worst_name or "-", a.samples,
            "erratum" if a.form == "printed" and (a.term, a.reference) in erratum_terms
            else "agrees" if a.passed else "DIFFERS"] for a in ch.audit])]
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
