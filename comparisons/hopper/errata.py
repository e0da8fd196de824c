"""The hopper paper's errata, each with its audit evidence and its effect on the runs:
the scalar velocities (1)-(2), the prismatic leg's bias acceleration (10)-(12) and the
normal force (24) that pulls at lift-off as printed.
"""

from __future__ import annotations

from dynval.comparisons import ladder
from dynval.comparisons.ladder import harness
from dynval.results import Erratum

ROBOT = "hopper"
BUDGET_SCENARIO = "speed"  # the error budget's run, and the one the errata's effects use


def other_law(p) -> str:
    """The form of eq. (24) that the runs do not use (the budget's toggle)."""
    return "clipped" if p.contact_law == "printed" else "printed"


def _worst(ctx: ladder.Context, term: str) -> str:
    printed = [r for r in ctx.audit.kinematics + ctx.audit.dynamics
               if r.term == term and r.form == "printed"]
    if not printed:
        return f"the printed {term} was not audited"
    w = max(printed, key=lambda r: r.max_rel_error)
    return (f"audit vs {w.reference}: printed {term} off by up to {w.max_abs_error:.3g} "
            f"(relative {w.max_rel_error:.2g}); the corrected form agrees with every engine "
            "to round-off")


def errata(ctx: ladder.Context) -> list[Erratum]:
    """The errata of the printed forms, measured on this run."""
    out = [Erratum(
        "(1)-(2)", "velocities through the prismatic leg joint",
        "w_2 = w_1 + h_2 theta_2_dot; v_2 = v_1 - l_{1,2} x w_1",
        "w_2 = w_1; v_2 = v_1 - l_{1,2} x w_1 + h_2 theta_2_dot (as (3) with H_2 = [0; h_2] "
        "of (6) has it)",
        _worst(ctx, "v_t"),
        "none on the simulation: the operator form (3), (6) that the paper's SOA computes "
        "with is right; the scalar equations contradict it")]
    if (BUDGET_SCENARIO, "shared") in ctx.wide:
        hand = ctx.wide[(BUDGET_SCENARIO, "shared")]["handrolled"]
        try:
            printed = ctx.result("erratum (12)")
            effect = (f"the speed run with the printed bias: body path differs by "
                      f"{ladder.rms_diff(hand, printed, 'com.x', 1000.0):.1f} mm RMS in x, forward "
                      f"speed by {ladder.rms_diff(hand, printed, 'com.vx'):.3f} m/s RMS")
        except harness.DivergenceError as exc:
            effect = f"with the printed bias the speed run diverges ({exc})"
        out.append(Erratum(
            "(10)-(12)", "bias acceleration a_k of the prismatic leg",
            "a_2 = [w_1 x w_2; w_1 x (w_1 x l_{1,2})]",
            "a_2 = [0; w_1 x (w_1 x l_{1,2}) + 2 w_1 x h_2 theta_2_dot]: the Coriolis term of "
            "a joint sliding along a turning axis (l_{1,2} grows at theta_2_dot)",
            _worst(ctx, "C"), effect))
    out += _erratum_24(ctx)
    return out


def _erratum_24(ctx: ladder.Context) -> list[Erratum]:
    """Eq. (24) pulls at lift-off as printed; the ADAMS IMPACT law it cites clips at zero.
    Evidence: the least normal force of every shared-contact run; effect: the budget runs
    with the other form."""
    p = ctx.params
    F = [(float(df["foot.force.normal"].min()), impl, sc)
         for (sc, v), wide in ctx.wide.items() if v == "shared" for impl, df in wide.items()]
    if not F:
        return []
    weight = p.m_total * p.g
    least, impl, sc = min(F)
    evidence = (f"with the law as printed ({p.contact_law}) the ground pulls the foot down "
                f"with up to {-least:.0f} N at lift-off ({-least / weight:.1f} x the "
                f"robot's {weight:.0f} N weight; {impl}, {sc} run, shared contact)"
                if least < 0 else f"the runs' least normal force is {least:.3g} N")
    effects = []
    for name, sc_name in (("budget height clipped (24)", "height"),
                          ("budget clipped (24)", BUDGET_SCENARIO)):
        if (sc_name, "shared") in ctx.wide and f"{ROBOT} {name}" in ctx.outcomes:
            other = ctx.result(name)
            hand = ctx.wide[(sc_name, "shared")]["handrolled"]
            effects.append(
                f"{sc_name} run: least force {float(other['foot.force.normal'].min()):.0f} N "
                f"with the {other_law(p)} form; com.z differs by "
                f"{ladder.rms_diff(hand, other, 'com.z', 1000.0):.1f} mm RMS"
                + ("" if sc_name == "height" else
                   f", com.vx by {ladder.rms_diff(hand, other, 'com.vx'):.3f} m/s RMS"))
    return [Erratum(
        "(24)", "normal force near lift-off (the damping term)",
        "F = k (x_1 - x)^e - c_max x_dot STEP(x, x_1 - d, 1, x_1, 0), not clipped: negative "
        "(pulling) when the foot leaves faster than the spring pushes",
        "F = max(0, k (x_1 - x)^e - c_max x_dot STEP(...)), as the ADAMS IMPACT function the "
        "paper cites ([8]) defines it: the ground only pushes (params.contact_law "
        "'clipped'; 'printed' stays the default, the paper's equation as printed)",
        evidence, "; ".join(effects) or "the budget runs were not part of this run")]
