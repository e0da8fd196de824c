"""The report's figures: each drawn once as PNG bytes, by a pure function of what it shows
and the traces it reads, on a pool of processes, and kept in a figure cache under a key
of that content and of this module's source (the page layout in ``dynval.reports.pdf`` can
change without drawing a figure again)."""

from __future__ import annotations

import hashlib
import io
from concurrent.futures import Future, ProcessPoolExecutor
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from dynval import _orphans, _stored
from dynval.results import Chapter, DataTable, Figure, Panel, XYFigure, traces_path

COLOURS = {"handrolled": "tab:blue", "mujoco": "tab:red", "pybullet": "tab:green",
           "drake": "tab:purple", "assumed": "black"}


# A 7 in figure is printed 16 cm (6.3 in) wide: 144 dpi puts 160 pixels in each printed
# inch (a 4.5 in plot printed 10 cm wide: 165), above print's usual 150 and sharp for line
# art and 6 pt labels, and keeps the five-robot report under 3 MB with the hexapod's
# Figs. 9-17 in it (156 pages: 160 dpi 3.20 MB, 150 dpi 3.05 MB).
DPI = 144


@lru_cache(maxsize=1)
def pyplot():
    """matplotlib's pyplot on the Agg canvas, imported when a figure is first drawn: a
    report whose figures all come from the figure cache never loads matplotlib."""
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["axes.formatter.useoffset"] = False  # no "1e-12+8.3e-1" labels
    import matplotlib.pyplot as plt

    return plt


def _png(f) -> io.BytesIO:
    """The figure at DPI as a palette PNG: line plots use a few dozen colours, so an
    adaptive 64-colour palette looks the same at a third of the size (deterministic). The
    pixels are taken from the canvas, the ones savefig's PNG would hold (tested), without
    encoding and decoding a full-colour PNG first (0.07 s a figure)."""
    from PIL import Image as PILImage

    f.set_dpi(DPI)
    f.canvas.draw()
    rgba = np.asarray(f.canvas.buffer_rgba())
    pyplot().close(f)
    img = PILImage.fromarray(rgba).convert("RGB").quantize(colors=64,
                                                           method=PILImage.MEDIANCUT,
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
Drawn = Figure | XYFigure | DataTable  # a figure of traces, or a table's plot
Job = tuple[Path, str, Drawn]


def render(job: Job) -> Rendered:
    """One figure of a chapter as PNG bytes (a pure function: the same traces give the
    same bytes, in whichever process it runs)."""
    out_dir, robot, fig = job
    if isinstance(fig, DataTable):
        return _series_plot(fig.plot)
    return (_figure if isinstance(fig, Figure) else _xy_figure)(out_dir, robot, fig)


def _figure(out_dir: Path, robot: str, fig: Figure) -> Rendered:
    """One panel per signal, every implementation overlaid, and under it the difference
    of each implementation from the MuJoCo reference."""
    tr = _traces(out_dir, robot, fig.scenario, fig.variant)
    if tr is None:
        return None
    sigs = fig.signals
    ncol = 2 if len(sigs) > 2 else len(sigs)
    nrow = -(-len(sigs) // ncol)
    f, axes = pyplot().subplots(2 * nrow, ncol, figsize=(7.0, 2.1 * nrow), squeeze=False,
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
    f, ax = pyplot().subplots(figsize=(4.5, 3.2))
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


def _series_plot(panels: list[Panel]) -> Rendered:
    """Panels of x-y series side by side (a paper's figure recomputed from a table)."""
    f, axes = pyplot().subplots(1, len(panels), figsize=(3.5 * len(panels), 2.8), squeeze=False)
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
    return _png(f).getvalue(), 2.8 / (3.5 * len(panels))


def _figure_key(job: Job, traces_digest: dict[Path, bytes]) -> str:
    """Content address of a drawn figure: what it shows, the traces it reads (their
    digest, read once per file into ``traces_digest``) and the code that draws it."""
    out_dir, robot, fig = job
    h = hashlib.sha256(repr(fig).encode() + Path(__file__).read_bytes() + _stored.MAGIC)
    if isinstance(fig, DataTable):
        h.update(b"a table's plot")
        return h.hexdigest()
    traces = traces_path(out_dir, robot, fig.scenario, fig.variant)
    if traces not in traces_digest:
        traces_digest[traces] = (hashlib.sha256(traces.read_bytes()).digest()
                                 if traces.is_file() else b"no traces")
    h.update(traces_digest[traces])
    return h.hexdigest()


def render_all(jobs: list[Job], workers: int, cache_dir: Path | None) -> list[Rendered]:
    """Every figure, from the figure cache where it was drawn before, the rest on
    ``workers`` processes."""
    digests: dict[Path, bytes] = {}
    paths = [_cache_path(cache_dir, j, digests) for j in jobs]
    out: list[Rendered | str] = [_cached(path) for path in paths]
    todo = [i for i, r in enumerate(out) if isinstance(r, str)]
    if workers > 1 and len(todo) > 1:
        with _orphans.pool(workers) as pool:
            drawn = list(pool.map(render, [jobs[i] for i in todo], chunksize=4))
    else:
        drawn = [render(jobs[i]) for i in todo]
    for i, r in zip(todo, drawn, strict=True):
        out[i] = r
        _store(paths[i], r)
    return out


def chapter_jobs(out_dir: Path, chapter: Chapter) -> list[Job]:
    """The figures of a chapter, in the report's order: its trace figures, its x-y
    figures, then the plots of its tables."""
    return [(out_dir, chapter.robot, fig) for fig in
            chapter.figures + chapter.xy_figures + [t for t in chapter.tables if t.plot]]


class Prerender:
    """Draws each chapter's figures into the figure cache as soon as the chapter is
    assembled (:meth:`chapter`), on ``workers`` processes, while the next chapters are
    assembled; the report then reads them from the cache (the same bytes as drawing them
    there). Figures already in the cache are not drawn; without a cache, or with one
    worker, nothing is drawn ahead."""

    def __init__(self, out_dir: Path, workers: int, cache_dir: Path | None) -> None:
        self.out_dir, self.workers, self.cache_dir = Path(out_dir), workers, cache_dir
        self._pool: ProcessPoolExecutor | None = None
        self._pending: list[tuple[Path, Future]] = []

    def chapter(self, chapter: Chapter) -> None:
        """Start drawing the chapter's figures that the cache lacks."""
        if self.cache_dir is None or self.workers < 2:
            return
        digests: dict[Path, bytes] = {}
        for job in chapter_jobs(self.out_dir, chapter):
            path = _cache_path(self.cache_dir, job, digests)
            if path is not None and not path.is_file():
                if self._pool is None:
                    self._pool = _orphans.pool(self.workers)
                self._pending.append((path, self._pool.submit(render, job)))

    def __enter__(self) -> Prerender:
        return self

    def __exit__(self, kind, exc, tb) -> None:
        """Store every figure drawn (after a failure: stop drawing, store nothing)."""
        try:
            if kind is None:
                for path, future in self._pending:
                    _store(path, future.result())
        finally:
            if self._pool is not None:
                self._pool.shutdown(wait=True, cancel_futures=kind is not None)


def _cache_path(cache_dir: Path | None, job: Job, digests: dict[Path, bytes]
                ) -> Path | None:
    """Where the figure cache keeps the figure of ``job`` (:func:`_figure_key`), or None
    without a cache."""
    if cache_dir is None:
        return None
    return Path(cache_dir) / "figures" / f"{_figure_key(job, digests)}.pkl"


def _cached(path: Path | None) -> Rendered | str:
    """The figure stored at ``path``, or "todo" where it is not there or fails its check
    (it is drawn again)."""
    return _stored.read(path, lambda hit: hit is None or _is_rendered(hit), default="todo")


def _store(path: Path | None, r: Rendered) -> None:
    """Keep a drawn figure in the cache (atomically: a reader sees all of it or none)."""
    if path is not None:
        _stored.write(path, r)


def _is_rendered(x: object) -> bool:
    """Whether a figure-cache entry has the form of a drawn figure (PNG bytes, aspect)."""
    return (isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], bytes)
            and x[0].startswith(b"\x89PNG") and isinstance(x[1], float))
