"""The sweep section: each figure of a parameter sweep against the varied value, a line
per implementation (and per value of any other varied name)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pandas as pd
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import cm
from reportlab.platypus import KeepTogether, SimpleDocTemplate

from dynval.reports.figures import COLOURS, _png, pyplot
from dynval.reports.pdf import _footer, _p, _table
from dynval.reports.pngimage import png_flowable

PLOTTED = ("requirement", "recomputed")  # per-implementation figures; agreement is tabulated


def sweep_story(table: pd.DataFrame, manifest: dict) -> list:
    """Title, what varied, one figure per per-implementation metric and signal, and the
    agreement figures' range over the grid."""
    axes = list(manifest["axes"])
    x, others = axes[0], axes[1:]
    story = [_p(f"Sweep: {manifest['robot']} {manifest['scenario']}", "Title"),
             _p("Varied: " + "; ".join(f"{a} = {', '.join(f'{v:g}' for v in vals)}"
                                       for a, vals in manifest["axes"].items())
                + f". Tier {manifest['tier']}; overrides: "
                + (", ".join(manifest["overrides"]) or "none") + ".")]
    per_impl = table[table["kind"].isin(PLOTTED)]
    for (metric, signal), sub in per_impl.groupby(["metric", "signal"], sort=True):
        unit, scale = ("", 1.0) if metric != "final_value" else \
            manifest.get("display", {}).get(signal, ("", 1.0))
        f, ax = pyplot().subplots(figsize=(5.0, 3.0))
        combos = itertools.product(*(sorted(sub[o].unique()) for o in others))
        for combo in combos:
            part = sub
            for o, v in zip(others, combo, strict=True):
                part = part[part[o] == v]
            for (variant, impl), line in part.groupby(["variant", "candidate"], sort=True):
                line = line.sort_values(x)
                tag = ", ".join(f"{o}={v:g}" for o, v in zip(others, combo, strict=True))
                ax.plot(line[x], line["value"] * scale, marker=".", lw=0.9,
                        ls="-" if variant == "shared" else "--",
                        color=COLOURS.get(impl) if not others else None,
                        label=f"{impl} ({variant}" + (f", {tag})" if tag else ")"))
        ax.set_xlabel(x, fontsize=7)
        ax.set_ylabel(f"{metric} [{unit}]" if unit else metric, fontsize=7)
        ax.set_title(signal, fontsize=7)
        ax.tick_params(labelsize=6)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=5)
        f.tight_layout()
        story.append(KeepTogether([_p(f"{signal}: {metric}", "Heading4"),
                                   png_flowable(_png(f).getvalue(), 12 * cm, 12 * cm * 0.6)]))
    agree = table[table["kind"] == "agreement"]
    if len(agree):
        g = agree.groupby(["variant", "signal", "candidate", "metric"], sort=True)["value"]
        rows = [[*k, v.min(), v.max()] for k, v in g]
        story += [_p("Agreement with the reference over the grid", "Heading2"),
                  _table([["variant", "signal", "candidate", "metric", "min", "max"]] + rows,
                         [1.5 * cm, 4 * cm, 2 * cm, 2.2 * cm, 2.5 * cm, 2.5 * cm])]
    return story


def build_sweep_report(out_dir: Path, table: pd.DataFrame, manifest: dict) -> Path:
    """Write ``sweep.pdf`` for a finished sweep folder and return its path."""
    pdf = Path(out_dir) / "sweep.pdf"
    doc = SimpleDocTemplate(str(pdf), pagesize=A4, invariant=1, title="dynval sweep",
                            leftMargin=2 * cm, rightMargin=2 * cm)
    doc.build(sweep_story(table, manifest), onFirstPage=_footer, onLaterPages=_footer)
    return pdf
