"""One-off: the shipped baselines rewritten for ``passed`` None (empty) where nothing was
judged, and for the statements' premises; no figure's value is changed.

Run once from the repository root:

    .venv/bin/python .ci/baselines_passed_null.py CI_RUN_DIR [HEXAPOD_FULL.pkl HOPPER_FULL.pkl]

``CI_RUN_DIR`` is a finished ci-tier run of every robot with this code (the folder of
``dynval check --out DIR``). For ``ci.json`` each figure takes the run's ``passed``: None
where the run's row has no tolerance, else unchanged (asserted), and a statement's new
verdict (its premises). Every kept figure's value must equal the run's (asserted); the
renamed spike statement and the new statement rows are added, the dropped keys removed.

``full.json`` cannot be recomputed here (a full-tier run is out of reach), so the same
transformation is derived: a figure is untoleranced in the full tier where its ci row has
no tolerance and was not merely shortened (the ci tier's reason "ci tier, first ... s
only" marks a full-tier tolerance), or it is a rung-L5 recomputed figure; the hexapod's
and hopper's statements come from the hand-rolled full runs pickled by the two optional
files (the scenario runs, and for the hopper its settling runs), whose figures are
asserted equal to full.json's where both have them; the hexapod's body band rows are
re-judged against the new BODY_BAND from their stored values."""

from __future__ import annotations

import json
import math
import pickle
import sys
from pathlib import Path
from types import SimpleNamespace

import pandas as pd

from dynval.comparisons.run.check import KEY
from dynval.results import verdict_of

ROBOTS = ("hexapod", "hopper", "landing_gear", "quadruped", "rover")
SHORTENED = "ci tier, first"
TABLES = ("Table II", "Table III", "eq. (16)")  # the hexapod's L5 rows that are no statements
REPORTED = ("settled", "steady_state_error", "max_liftoff_kick")  # the hopper's likewise


def _key(r) -> tuple:
    return tuple(r[k] for k in KEY)


def _same(a, b) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= 1e-8 * abs(b) + 1e-9


def _value(v) -> float | None:
    v = float(v)
    return v if math.isfinite(v) else None


def ci(run: pd.DataFrame) -> None:
    cur = {_key(r): r for r in run.to_dict("records")}
    for robot in ROBOTS:
        path = Path(f"comparisons/{robot}/baselines/ci.json")
        data = json.loads(path.read_text())
        kept, dropped, changed = [], [], 0
        for b in data["figures"]:
            c = cur.get(_key(b))
            if c is None:
                dropped.append(_key(b))
                continue
            assert _same(_value(c["value"]), b["value"]), (_key(b), c["value"], b["value"])
            new = verdict_of(c["passed"])
            if c["kind"] != "statement":
                tol = c["tolerance"]
                if tol is None or math.isnan(tol):
                    assert new is None and b["passed"] is True, _key(b)
                else:
                    assert new == b["passed"], _key(b)
            changed += new != b["passed"]
            kept.append({**b, "passed": new})
        have = {_key(b) for b in kept}
        added = [{**{k: c[k] for k in KEY}, "value": _value(c["value"]),
                  "passed": verdict_of(c["passed"])}
                 for k, c in cur.items() if k[0] == robot and k not in have]
        assert all(cur[_key(a)]["kind"] == "statement" for a in added), added
        data["figures"] = kept + added
        path.write_text(json.dumps(data, indent=1) + "\n")
        print(f"{path}: {changed} verdicts rewritten, {len(dropped)} dropped {dropped}, "
              f"{len(added)} added {[_key(a)[1:] for a in added]}")


def _full_untoleranced(run: pd.DataFrame) -> dict[tuple, bool]:
    """Whether each ci figure has no tolerance in the full tier (module docstring)."""
    out = {}
    for r in run.to_dict("records"):
        tol = r["tolerance"]
        none = tol is None or math.isnan(tol)
        out[_key(r)] = none and not str(r["reason"]).startswith(SHORTENED)
    return out


def _hexapod_statements(pkl: Path) -> list:
    from dynval.comparisons.hexapod import statements
    from dynval.comparisons.ladder.registry import comparison

    runs = pickle.load(open(pkl, "rb"))
    return [s.row for s in statements.measured(comparison("hexapod").default_params, runs)]


def _hopper_statements(pkl: Path) -> list:
    from dynval.comparisons.hopper.validate import LADDER
    from dynval.comparisons.ladder.registry import comparison

    r = pickle.load(open(pkl, "rb"))
    ctx = SimpleNamespace(params=comparison("hopper").default_params,
                          wide={(n, "shared"): {"handrolled": r[n]} for n in ("height", "speed")},
                          rows=[], chapter=SimpleNamespace(tables=[]), result=lambda n: r[n])
    LADDER._statements(ctx, {"height": r["settle height"], "speed": r["settle speed"]})
    return ctx.rows


def full(run: pd.DataFrame, hexapod_pkl: Path, hopper_pkl: Path) -> None:
    from dynval.comparisons.hexapod.validate import BODY_BAND

    untol = _full_untoleranced(run)
    redone = {"hexapod": _hexapod_statements(hexapod_pkl),
              "hopper": _hopper_statements(hopper_pkl)}
    for robot in ROBOTS:
        path = Path(f"comparisons/{robot}/baselines/full.json")
        data = json.loads(path.read_text())
        rows = {(tuple(getattr(r, k) for k in KEY)): r for r in redone.get(robot, [])}
        kept, dropped, nulled, rejudged = [], [], 0, []
        for b in data["figures"]:
            k = _key(b)
            if robot in redone and k[2] == "L5" and k[1] not in TABLES and k[-1] not in REPORTED:
                r = rows.pop(k, None)
                if r is None:
                    dropped.append(k)
                    continue
                assert _same(_value(r.value), b["value"]), (k, r.value, b["value"])
                if r.passed != b["passed"]:
                    rejudged.append((k[1], k[-1], b["passed"], r.passed))
                kept.append({**b, "passed": r.passed})
                continue
            if robot == "hexapod" and k[-1] == "max_abs_from_H_B":
                new = bool(abs(b["value"]) <= BODY_BAND)
                if new != b["passed"]:
                    rejudged.append((k[1], k[-2] + " " + k[-1], b["passed"], new))
                kept.append({**b, "passed": new})
                continue
            none = untol.get(k)
            if none is None:  # full-only: hopper L5 recomputed rows, quadruped L4 extras
                assert (robot == "hopper" and k[-1] in ("settled", "steady_state_error")) \
                    or robot == "quadruped", k
                none = robot == "hopper" or b["passed"] is True and k[-1] in (
                    "rms_error_N",)
            if none:
                assert b["passed"] is True, k
                nulled += 1
                kept.append({**b, "passed": None})
            else:
                kept.append(b)
        added = [{**{k: getattr(r, k) for k in KEY}, "value": _value(r.value),
                  "passed": r.passed} for r in rows.values()]
        data["figures"] = kept + added
        path.write_text(json.dumps(data, indent=1) + "\n")
        print(f"{path}: {nulled} set to null, rejudged {rejudged}, dropped {dropped}, "
              f"added {[_key(a)[1:] for a in added]}")


if __name__ == "__main__":
    metrics = pd.read_parquet(Path(sys.argv[1]) / "metrics.parquet")
    ci(metrics)
    if len(sys.argv) > 3:
        full(metrics, Path(sys.argv[2]), Path(sys.argv[3]))
