"""Agreement metrics between two traces of one signal, and the tidy metric table.

Every tolerance carries its reason; the report prints it next to the number."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from dynval.results import BudgetRow, MetricRow


@dataclass(frozen=True)
class Tolerance:
    """An upper bound on a metric and why it is that number; ``value`` None declares the
    metric not judged, for the reason given (a signal zero by symmetry, whose range is
    round-off: no tolerance can tell agreement there)."""

    metric: str
    value: float | None
    reason: str

    @classmethod
    def symmetric(cls, metric: str, why: str) -> Tolerance:
        """A metric of a signal that is zero by symmetry: reported with its measured
        range, never judged."""
        return cls(metric, None, f"zero by symmetry ({why}): reported, not judged")


def _peak_lag(a: np.ndarray, b: np.ndarray) -> int:
    """The shift k (in samples) that maximises sum_n b[n + k] a[n], over every overlap
    (np.correlate(b, a, "full")'s peak), by FFT: O(n log n) where the direct sum is O(n^2),
    which takes seconds for a 12 s trace at 1 kHz."""
    n = len(a) + len(b) - 1
    nfft = 1 << (n - 1).bit_length()
    xc = np.fft.irfft(np.fft.rfft(b, nfft) * np.conj(np.fft.rfft(a, nfft)), nfft)
    full = np.concatenate([xc[nfft - (len(a) - 1):], xc[:len(b)]])  # lags -(len a - 1)..
    return int(np.argmax(full)) - (len(a) - 1)


def pair_metrics(t: np.ndarray, ref: np.ndarray, cand: np.ndarray) -> dict[str, float]:
    """RMSE, normalised RMSE (by the reference's range), max abs error, final-value
    difference, correlation and time lag (cross-correlation peak) of two sampled traces."""
    e = cand - ref
    rng = float(np.ptp(ref))
    rmse = float(np.sqrt(np.mean(e**2)))
    if np.std(ref) > 0 and np.std(cand) > 0:
        corr = float(np.corrcoef(ref, cand)[0, 1])
        a, b = ref - ref.mean(), cand - cand.mean()
        lag = _peak_lag(a, b) * float(t[1] - t[0])
    else:
        corr, lag = float("nan"), 0.0
    return {
        "rmse": rmse,
        "nrmse": rmse / rng if rng > 0 else float("nan"),
        "max_abs": float(np.max(np.abs(e))),
        "final_diff": float(e[-1]),
        "correlation": corr,
        "lag": lag,
    }


def compare(wide: dict[str, pd.DataFrame], robot: str, scenario: str, variant: str,
            signals: list[str], reference: str, candidates: list[str],
            tolerances: dict[tuple[str, str], Tolerance], rung: str = "L4") -> list[MetricRow]:
    """Agreement rows for each signal and candidate against the reference implementation,
    from each implementation's wide trace (time x signal); the candidate is interpolated
    onto the reference's times.

    ``tolerances`` maps (signal-prefix, metric) to a Tolerance; the longest matching
    prefix wins; a metric without one is reported, not judged (tolerance None, passed
    None), and so is one whose Tolerance has no value (:meth:`Tolerance.symmetric`), its
    reason with the reference's measured range.
    """
    rows = []
    ref = wide[reference]
    t = ref["time"].to_numpy()
    for cand in candidates:
        c = wide[cand]
        for sig in signals:
            if sig not in ref or sig not in c:
                raise KeyError(f"signal {sig!r} is missing from the {reference} or {cand} trace")
            values = pair_metrics(t, ref[sig].to_numpy(),
                                  np.interp(t, c["time"].to_numpy(), c[sig].to_numpy()))
            for metric, value in values.items():
                tol = _lookup(tolerances, sig, metric)
                limit = None if tol is None else tol.value
                reason = "" if tol is None else tol.reason
                if tol is not None and limit is None:
                    reason += (f"; measured range of the {reference} signal "
                               f"{float(np.ptp(ref[sig].to_numpy())):.1e}")
                rows.append(MetricRow(
                    robot, scenario, rung, variant, sig, reference, cand, metric, value,
                    limit, None if limit is None else bool(abs(value) <= limit), reason,
                    "agreement"))
    return rows


def _lookup(tolerances, signal: str, metric: str) -> Tolerance | None:
    best = None
    for (prefix, m), tol in tolerances.items():
        if m == metric and signal.startswith(prefix) and (best is None or len(prefix) > best[0]):
            best = (len(prefix), tol)
    return None if best is None else best[1]


def check_row(robot: str, scenario: str, variant: str, signal: str, implementation: str,
              metric: str, value: float, tolerance: float, reason: str,
              rung: str = "L4") -> MetricRow:
    """A requirement on one implementation (reference column '-')."""
    return MetricRow(robot, scenario, rung, variant, signal, "-", implementation, metric,
                     float(value), float(tolerance), bool(abs(value) <= tolerance), reason,
                     "requirement")


def recomputed_row(robot: str, scenario: str, signal: str, metric: str, value: float,
                   reason: str, rung: str = "L5", variant: str = "-",
                   candidate: str = "handrolled", reference: str = "-") -> MetricRow:
    """A number recomputed by the paper's method with nothing published to judge it by
    (reported, not judged: ``passed`` None)."""
    return MetricRow(robot, scenario, rung, variant, signal, reference, candidate, metric,
                     float(value), None, None, reason, "recomputed")


def statement_row(robot: str, scenario: str, signal: str, metric: str, value: float,
                  holds: bool | None, criterion: str, rung: str = "L5") -> MetricRow:
    """A paper's statement measured on a run: ``value`` the measurement, ``holds`` whether
    the statement holds by ``criterion`` (said in the reason), None where the run cannot
    test it (the reason says which premise it lacks); no tolerance, and ``passed`` False
    where it does not hold."""
    return MetricRow(robot, scenario, rung, "-", signal, "-", "handrolled", metric,
                     float(value), None, None if holds is None else bool(holds), criterion,
                     "statement")


def rms_diff(a: pd.DataFrame, b: pd.DataFrame, signal: str, scale: float = 1.0,
             signal_b: str | None = None) -> float:
    """RMS difference of a signal between two wide traces, b interpolated onto a's times
    (``signal_b``: b's name for it, when it differs)."""
    t = a["time"].to_numpy()
    bb = np.interp(t, b["time"], b[signal_b or signal])
    return float(np.sqrt(np.mean((a[signal].to_numpy() - bb) ** 2)) * scale)


Step = tuple[str, "pd.DataFrame | None", "pd.DataFrame | None"]


def budget_rows(scenario: str, steps: Iterable[Step],
                signals: Iterable[tuple[str, float, str]]) -> list[BudgetRow]:
    """An error budget's rows for one scenario: for each step (what one change toggles,
    the run without it, the run with it) and each signal (name, scale to the unit, unit),
    the RMS difference of the two runs. A step one of whose runs is missing (None: not
    run in this configuration) gives no rows."""
    signals = list(signals)
    return [BudgetRow(scenario, sig, what, rms_diff(a, b, sig, scale), f"{unit} RMS")
            for what, a, b in steps if a is not None and b is not None
            for sig, scale, unit in signals]


def max_abs_diff(a: pd.DataFrame, b: pd.DataFrame, signal: str) -> float:
    """max |b - a| of a signal over a's times (b interpolated onto them) up to the end of
    the shorter trace."""
    t = a["time"].to_numpy()
    t = t[t <= b["time"].iloc[-1] + 1e-12]
    x = a[signal].to_numpy()[:len(t)]
    return float(np.max(np.abs(np.interp(t, b["time"].to_numpy(), b[signal].to_numpy()) - x)))


# a signal whose range over a run is below this (SI units) is constant there (at rest,
# level ground's roll and pitch, round-off): a row on it cannot fail
CONSTANT_RANGE = 1e-12


@dataclass(frozen=True)
class ReferenceRun:
    """What judges a hand-rolled scenario run against an independent reference run of the
    same model, scheme and step: the reference's name and metric, what the tolerance is,
    and the factor on the largest round-off spread measured on the reference."""

    reference: str
    metric: str
    what: str
    factor: float


def reference_rows(robot: str, scenario: str, variant: str, judge: ReferenceRun,
                   hand: pd.DataFrame, base: pd.DataFrame,
                   spreads: dict[str, pd.DataFrame]) -> list[MetricRow]:
    """One judged row per signal the reference ``base`` moves: max |hand - base| against
    ``judge.factor`` x the largest max |run - base| of the ``spreads`` (the same reference
    run again with round-off-sized changes, by label), so two implementations of one model
    differ by round-off only while a wrong term, gain or step of the hand-rolled model
    shows."""
    out = []
    for sig in base.columns.drop("time"):
        if sig not in hand or float(np.ptp(base[sig].to_numpy())) <= CONSTANT_RANGE:
            continue
        spread = {label: max_abs_diff(base, run, sig) for label, run in spreads.items()}
        tol = judge.factor * max(spread.values())
        value = max_abs_diff(base, hand, sig)
        measured = ", ".join(f"{label} {s:.3g}" for label, s in spread.items())
        reason = f"{judge.what}: {judge.factor:g} x max({measured}), measured on the reference"
        out.append(MetricRow(robot, scenario, "L4", variant, sig, judge.reference,
                             "handrolled", judge.metric, value, tol, bool(value <= tol),
                             reason, "agreement"))
    return out
