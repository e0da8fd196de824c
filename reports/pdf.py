"""Build ``report.pdf`` from ``summary.json``, ``metrics.parquet`` and the stored traces."""

from __future__ import annotations

import io
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
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

STYLES = getSampleStyleSheet()
VERDICT_COLOURS = {"pass": colors.HexColor("#b7e1b0"), "fail": colors.HexColor("#f2a7a7"),
                   "partial": colors.HexColor("#f7d79a"), "n/a": colors.HexColor("#dddddd")}
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
                           ("VALIGN", (0, 0), (-1, -1), "TOP")]))
    return t


def _small(x, font: int) -> Paragraph:
    if isinstance(x, float):
        x = f"{x:.3g}"
    style = STYLES["BodyText"].clone("small", fontSize=font, leading=font + 1.5)
    return Paragraph(str(x).replace("&", "&amp;").replace("<", "&lt;"), style)


def _png(f) -> io.BytesIO:
    buf = io.BytesIO()
    f.savefig(buf, format="png", dpi=200, metadata={"Software": None})
    plt.close(f)
    buf.seek(0)
    return buf


def _traces(out_dir: Path, robot: str, scenario: str, variant: str) -> pd.DataFrame | None:
    path = out_dir / "runs" / robot / scenario / variant / "traces.parquet"
    return pd.read_parquet(path) if path.is_file() else None


def _figure(out_dir: Path, robot: str, fig: dict) -> list:
    """One panel per signal, every implementation overlaid, and under it the difference
    of each implementation from the MuJoCo reference."""
    tr = _traces(out_dir, robot, fig["scenario"], fig["variant"])
    if tr is None:
        return [_p(f"(no traces stored for {fig['scenario']} / {fig['variant']})")]
    sigs = fig["signals"]
    ncol = 2 if len(sigs) > 2 else len(sigs)
    nrow = -(-len(sigs) // ncol)
    f, axes = plt.subplots(2 * nrow, ncol, figsize=(7.0, 2.1 * nrow), squeeze=False,
                           sharex=True, gridspec_kw={"height_ratios": [2.2, 1.0] * nrow})
    units = fig.get("units") or [fig["unit"]] * len(sigs)
    scales = fig.get("scales") or [fig["scale"]] * len(sigs)
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
    return [Image(_png(f), width=16 * cm, height=16 * cm * 2.1 * nrow / 7.0)]


def _xy_figure(out_dir: Path, robot: str, fig: dict) -> list:
    tr = _traces(out_dir, robot, fig["scenario"], fig["variant"])
    if tr is None:
        return []
    f, ax = plt.subplots(figsize=(4.5, 3.2))
    for impl, s in tr.groupby("implementation", sort=True):
        x = s[s["signal"] == fig["x"]].sort_values("time")["value"].to_numpy() * fig["scale"]
        y = s[s["signal"] == fig["y"]].sort_values("time")["value"].to_numpy() * fig["scale"]
        if fig.get("relative"):
            x, y = x - x[0], y - y[0]
        ax.plot(x, y, lw=0.9, label=impl, color=COLOURS.get(impl))
    ax.set_xlabel(f"{fig['x']} [{fig['unit']}]", fontsize=7)
    ax.set_ylabel(f"{fig['y']} [{fig['unit']}]", fontsize=7)
    ax.tick_params(labelsize=6)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=6)
    f.tight_layout()
    return [Image(_png(f), width=10 * cm, height=10 * cm * 3.2 / 4.5)]


def _series_plot(plot: dict) -> list:
    """Panels of x-y series side by side (a paper's figure recomputed from a table)."""
    panels = plot["panels"]
    f, axes = plt.subplots(1, len(panels), figsize=(3.5 * len(panels), 2.8), squeeze=False)
    for ax, panel in zip(axes[0], panels, strict=True):
        for s in panel["series"]:
            ax.plot(s["x"], s["y"], s.get("style", "-"), marker=".", lw=0.9, ms=3,
                    label=s["label"])
        ax.set_title(panel["title"], fontsize=7)
        ax.set_xlabel(panel["xlabel"], fontsize=7)
        ax.set_ylabel(panel["ylabel"], fontsize=7)
        ax.tick_params(labelsize=6)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=5)
    f.tight_layout()
    width = 16 * cm
    return [Image(_png(f), width=width, height=width * 2.8 / (3.5 * len(panels)))]


def _data_table(tab: dict) -> list:
    """A recomputed table of the paper: title, the table, its caption, and its figure
    where the table has one."""
    return [KeepTogether([_p(tab["title"], "Heading4"),
                          _table([tab["columns"]] + tab["rows"], font=6.5),
                          _p(tab["caption"])])] + (_series_plot(tab["plot"]) if "plot" in tab
                                                   else [])


def build_report(out_dir: Path, pdf_path: Path | None = None, *, compress: bool = True) -> Path:
    """Write the validation PDF for the runs under ``out_dir`` and return its path."""
    out_dir = Path(out_dir)
    summary, metrics = _read(out_dir)
    pdf_path = pdf_path or out_dir / "report.pdf"
    story = [_p("dynval validation report", "Title"),
             _p(f"dynval {summary['dynval_version']}, commit {summary['git_commit']}, "
                f"{summary['date']}; {summary['machine']}"),
             _p("Engines: " + ", ".join(f"{k} {v}" for k, v in summary["versions"].items())),
             Spacer(1, 12), _p("Summary", "Heading1")]
    rungs = ["L0", "L1", "L2", "L3", "L4", "L5", "budget"]
    rows = [["robot", *rungs]]
    notes = [["robot", "rung", "note"]]
    for robot, ch in summary["robots"].items():
        rows.append([robot] + [ch["rungs"].get(r, {}).get("verdict", "n/a") for r in rungs])
        notes += [[robot, r, ch["rungs"][r]["note"]] for r in rungs if r in ch["rungs"]]
    t = _table(rows, font=8)
    for i, row in enumerate(rows[1:], start=1):
        for j, v in enumerate(row[1:], start=1):
            t.setStyle([("BACKGROUND", (j, i), (j, i), VERDICT_COLOURS.get(v, colors.white))])
    story += [t, Spacer(1, 6), _table(notes, [2.5 * cm, 1.5 * cm, 13 * cm])]
    for robot, ch in summary["robots"].items():
        story += [PageBreak(), _p(f"{robot}: {ch['title']}", "Heading1"), _p(ch["paper"])]
        for n in ch.get("notes", []):
            story.append(_p(n))
        for sc in ch["scenarios"]:
            story += [_p(sc["title"], "Heading2"), _p(sc["description"])]
            for fig in [f for f in ch["figures"] if f["scenario"] == sc["name"]]:
                story.append(KeepTogether([_p(fig["title"], "Heading4"),
                                           *_figure(out_dir, robot, fig), _p(fig["caption"])]))
            for fig in [f for f in ch.get("xy_figures", []) if f["scenario"] == sc["name"]]:
                story.append(KeepTogether([_p(fig["title"], "Heading4"),
                                           *_xy_figure(out_dir, robot, fig), _p(fig["caption"])]))
            for tab in [t for t in ch.get("tables", []) if t["scenario"] == sc["name"]]:
                story += _data_table(tab)
            sub = metrics[(metrics["robot"] == robot) & (metrics["scenario"] == sc["name"])
                          & metrics["tolerance"].notna()]
            if len(sub):
                story += [_p("Toleranced figures", "Heading4"), _table(
                    [["variant", "signal", "ref", "candidate", "metric", "value", "tol", "ok",
                      "reason"]]
                    + [[r.variant, r.signal, r.reference, r.candidate, r.metric, r.value,
                        r.tolerance, "yes" if r.passed else "NO", r.reason]
                       for r in sub.itertuples()],
                    [1.3 * cm, 2.6 * cm, 1.3 * cm, 1.6 * cm, 2.2 * cm, 1.4 * cm, 1.2 * cm,
                     0.8 * cm, 5.6 * cm])]
        loose = [t for t in ch.get("tables", []) if t["scenario"] is None]
        if loose:
            story.append(_p("Recomputed tables", "Heading2"))
            for tab in loose:
                story += _data_table(tab)
        if ch.get("description_check"):
            story += [_p("L0: descriptions against the parameter set", "Heading2"), _table(
                [["file", "engine", "quantity", "max error", "tol", "ok"]]
                + [[r["file"], r["engine"], r["quantity"], r["max_error"], r["tolerance"],
                    "yes" if r["passed"] else "NO"] for r in ch["description_check"]])]
        if ch.get("trajectories"):
            story += [_p("L3: trajectories without contact", "Heading2"), _table(
                [["step [s]", "comparison", "max |diff| [rad]", "tol", "reason"]]
                + [[r["step"], r["comparison"], r["max_abs_rad"],
                    "-" if r["tolerance"] is None else r["tolerance"], r["reason"]]
                   for r in ch["trajectories"]], [1.5 * cm, 5 * cm, 2.5 * cm, 1.5 * cm, 6.5 * cm])]
        story += [_p("L1/L2: kinematics and dynamics audit", "Heading2"), _table(
            [["term", "equation", "form", "reference", "max rel", "max abs", "worst at",
              "samples", "ok"]]
            + [[a["term"], a["equation"], a["form"], a["reference"], a["max_rel_error"],
                a["max_abs_error"], a.get("worst_name", "") or "-", a["samples"],
                "yes" if a["passed"] else "NO"] for a in ch["audit"]])]
        story += [_p("Errata", "Heading2")]
        for e in ch.get("errata", []):
            story.append(_table([["eq.", "term", "printed", "corrected"],
                                 [e["equation"], e["term"], e["printed"], e["corrected"]],
                                 ["evidence", "", e["evidence"], ""],
                                 ["effect", "", e["effect"], ""]],
                                [1.5 * cm, 2.5 * cm, 6.5 * cm, 6.5 * cm]))
            story.append(Spacer(1, 4))
        if ch.get("budget"):
            scen = ", ".join(sorted({b["scenario"] for b in ch["budget"]}))
            story += [_p(f"Error budget ({scen})", "Heading2"), _table(
                [["component", "signal", "value", "unit"]]
                + [[b["component"], b["signal"], b["value"], b["unit"]] for b in ch["budget"]],
                [8 * cm, 3 * cm, 2.5 * cm, 2.5 * cm])]
        if ch.get("settled"):
            story += [_p("Settled attitude", "Heading2"), _table(
                [["scenario", "implementation", "contact", "signal", "value [deg]", "paper"]]
                + [[s["scenario"], s["implementation"], s["variant"], s["signal"], s["value"],
                    s["paper"]] for s in ch["settled"]])]
    story += [PageBreak(), _p("Appendix: parameters and conventions", "Heading1")]
    for robot, ch in summary["robots"].items():
        story += [_p(robot, "Heading2"), _table(
            [["symbol", "value", "unit", "source"]]
            + [[q["symbol"], q["value"], q["unit"], q["source"]] for q in ch["parameters"]],
            [3 * cm, 2.5 * cm, 2.5 * cm, 9 * cm])]
        story += [_p(c) for c in ch["conventions"]]
    doc = SimpleDocTemplate(str(pdf_path), pagesize=A4, invariant=1, pageCompression=compress,
                            title="dynval validation report", leftMargin=2 * cm,
                            rightMargin=2 * cm)
    doc.build(story, onFirstPage=_footer, onLaterPages=_footer)
    return pdf_path


def _footer(canvas, doc) -> None:
    canvas.saveState()
    canvas.setFont("Helvetica", 7)
    canvas.drawRightString(A4[0] - 2 * cm, 1.2 * cm, f"dynval report, page {doc.page}")
    canvas.restoreState()
