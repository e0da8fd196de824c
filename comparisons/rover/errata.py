"""The rover thesis's errata, each with its evidence and effect: the sign of the wheels'
soil force in eq. (3.30)-(3.31), and Table 4.7's expected final speed, which is the
change of speed.
"""

from __future__ import annotations

import pandas as pd

from dynval.comparisons import ladder
from dynval.comparisons.ladder import harness
from dynval.comparisons.rover import drawbar_readings

# [s] the runs of the printed eq. (3.30): its first sinkage, and one long enough to show
# where the printed sign leads
ERRATUM_DURATIONS = (0.05, 1.0)


def wheel_force_erratum(ctx: ladder.Context, wheel_audit: list) -> dict:
    """Eq. (3.30)-(3.31) printed (+F_Cw) against the corrected sign, with its effect on
    the steady-state run of rover A."""
    worst = max((r for r in wheel_audit if r.form == "printed"), key=lambda r: r.max_rel_error)
    early, late = ERRATUM_DURATIONS
    z = ctx.result(f"erratum (3.30) {early:g} s")["wheel.rear_left.sinkage"]
    effect = (f"steady_A with the printed sign: the soil's support pushes the rover down; in "
              f"{early:g} s the rear sinkage grows from {100 * z.iloc[0]:.1f} to "
              f"{100 * z.iloc[-1]:.1f} cm")
    try:
        ctx.result(f"erratum (3.30) {late:g} s")
    except harness.DivergenceError as exc:
        effect += f", and the run ends: {exc}"
    return {
        "equation": "(3.30)-(3.31), (3.33)", "term": "wheel force and moment at the CG",
        "printed": "F = m vdot_C + F_Cw, N = I wdot + w x I w + N_Cw; "
                   "qdd = M^-1 [... - F(q)[F_w] - N(q)[N_w]]",
        "corrected": "F = m vdot_C - F_Cw, N = ... - N_Cw (F_Cw the soil force on the wheels, "
                     "eq. 3.27); simcore.m's qddot = Minv*(... + Fwcoeff*Fs + Nwcoeff*Ns) "
                     "is this corrected form",
        "evidence": f"audit vs {worst.reference}: the printed generalised wheel force is "
                    f"-sum(J^T F), relative error {worst.max_rel_error:.2f} against the "
                    "engines' hub Jacobians; the corrected one agrees to round-off",
        "effect": effect}


def table_47_erratum(test2: dict, runs: dict[str, pd.DataFrame] | None) -> dict:
    """Table 4.7, test 2: the printed expected final speed is the change of speed. Evidence:
    what each reading of 8.75 m/s gives (dynval.comparisons.rover.drawbar_readings), and the
    engines' full-length runs where they were made."""
    printed, reach = drawbar_readings.result(test2["printed"]), \
        drawbar_readings.result(test2["reaching"])
    dv = printed.DP * printed.duration / printed.m_wheel
    full = {impl: df["rover.speed"].iloc[-1] for impl, df in (runs or {}).items()
            if df["time"].iloc[-1] >= printed.duration - 1e-9}
    engines = ("; the full 5 s scenario runs reach (m/s) "
               + ", ".join(f"{impl} {v:.3f}" for impl, v in full.items())) if full else ""
    return {
        "equation": "Table 4.7, test 2", "term": "expected final velocity",
        "printed": "DP = 175 N per wheel, 5 s from 1.0 m/s: expected final velocity 8.75 m/s",
        "corrected": f"v0 + DP t / (m_seg / 2) = 1.0 + 175 x 5 / {printed.m_wheel:g} = "
                     f"{printed.v0 + dv:.2f} m/s; 8.75 m/s = 1.75 m/s^2 x 5 s is the change "
                     "of speed",
        "evidence": f"a t reproduces both printed rows (0.1 x 10 = 1.0 m/s for test 1, where "
                    f"v0 = 0; 1.75 x 5 = 8.75 m/s for test 2). The torque for 175 N per wheel "
                    f"(constvel, {printed.T:.2f} N m) held 5 s ends at {printed.v_end:.3f} "
                    f"m/s in the hand-rolled model{engines}; the torque that ends at 8.75 m/s "
                    f"is {reach.T:.2f} N m ({100 * (reach.T / printed.T - 1):+.1f} %), "
                    f"constvel's torque for {reach.DP:.1f} N per wheel, not the 175 N the text "
                    "derives from the unpowered segment's rolling resistance",
        "effect": f"a deviation computed against 8.75 m/s overstates the simulation's error by "
                  f"{100 * (printed.v0 + dv) / 8.75 - 100:.1f} %; reading 8.75 m/s as the "
                  f"final speed would make Table 4.7's torque the {reach.DP:.1f} N one"}
