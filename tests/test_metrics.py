"""Agreement metrics: the FFT time lag is np.correlate's peak."""

import numpy as np

from dynval.comparisons.ladder.metrics import _peak_lag, pair_metrics


def test_fft_lag_is_the_direct_correlation_peak():
    rng = np.random.default_rng(0)
    for n in (5, 100, 1001):
        for _ in range(20):
            a = rng.normal(size=n).cumsum()
            b = np.roll(a, int(rng.integers(-5, 5))) + rng.normal(size=n) * 0.1
            a, b = a - a.mean(), b - b.mean()
            assert _peak_lag(a, b) == int(np.argmax(np.correlate(b, a, "full"))) - (n - 1)


def test_a_delayed_trace_shows_its_delay():
    t = np.arange(0, 2, 1e-3)
    ref = np.sin(2 * np.pi * 1.3 * t) * np.exp(-t)
    cand = np.interp(t - 0.05, t, ref, left=0.0)
    assert pair_metrics(t, ref, cand)["lag"] == 0.05


def test_the_run_verdict_counts_rungs_and_unexplained_figures_once():
    """One count for the command line's closing line and the report's first page."""
    import pandas as pd

    from dynval.results import run_verdict

    metrics = pd.DataFrame({"passed": [True, False, False, False],
                            "known": ["", "", "MuJoCo's soft contact", ""],
                            "evidence": ["", "", "ablation", ""]})
    v = run_verdict(["agrees", "erratum", "agrees", "differs"], metrics)
    assert v.rungs == {"agrees": 2, "erratum": 1, "differs": 1}
    assert (v.outside, v.known, v.unexplained) == (3, 1, 2)
    assert v.rung_counts() == "2 agrees, 1 differs, 1 erratum"
    both = run_verdict(["agrees", "drawn, not judged"], metrics[metrics["passed"]])
    assert both.rung_counts() == "1 agrees, 1 'drawn, not judged'"
    assert run_verdict([], metrics[metrics["passed"]]).unexplained == 0
