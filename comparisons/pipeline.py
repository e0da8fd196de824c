"""Validate robots end to end and store the figures the report and ``check`` read."""

from __future__ import annotations

import json
import platform
import subprocess
from collections.abc import Callable
from datetime import date
from pathlib import Path

import numpy as np
import pandas as pd

from comparisons.registry import apply_overrides, comparison, description_dir
from robots import ROBOT_NAMES

VERSION = "0.1.0"


def git_commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, cwd=Path(__file__).parent, check=True)
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def validate_all(out: Path, progress: Callable[[str, float], None], robots: list[str] | None = None,
                 scenarios: list[str] | None = None, overrides: list[str] | None = None,
                 samples: int = 1000, seed: int = 0) -> pd.DataFrame:
    """Run every rung of every robot; write metrics.parquet/json and summary.json."""
    from engines import versions

    out.mkdir(parents=True, exist_ok=True)
    summary = {"dynval_version": VERSION, "git_commit": git_commit(),
               "date": date.today().isoformat(),
               "machine": f"{platform.system()} {platform.machine()}, "
                          f"Python {platform.python_version()}",
               "versions": {**versions(), "numpy": np.__version__},
               "seed": seed, "samples": samples, "overrides": overrides or [], "robots": {}}
    frames = []
    for robot in robots or list(ROBOT_NAMES):
        comp = comparison(robot)
        params = apply_overrides(robot, comp.default_params, overrides or [])
        desc = description_dir(robot, params, comp.default_params, out)
        metrics, chapter = comp.validate(out, params, desc, progress, scenarios=scenarios,
                                         samples=samples, seed=seed)
        frames.append(metrics)
        summary["robots"][robot] = chapter
    metrics = pd.concat(frames, ignore_index=True)
    metrics.to_parquet(out / "metrics.parquet", index=False)
    (out / "metrics.json").write_text(json.dumps(_records(metrics), indent=1))
    (out / "summary.json").write_text(json.dumps(summary, indent=1, default=_json_default))
    return metrics


def _json_default(o):
    if isinstance(o, np.generic):
        return o.item()
    raise TypeError(f"cannot store {type(o).__name__} in summary.json")


def _records(metrics: pd.DataFrame) -> list[dict]:
    recs = metrics.to_dict(orient="records")
    for r in recs:
        for k, v in r.items():
            if isinstance(v, float) and not np.isfinite(v):
                r[k] = None
            elif isinstance(v, np.generic):
                r[k] = v.item()
    return recs
