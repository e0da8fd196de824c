"""The hexapod's figures of each scenario: the paper's Figs. 4-17 where the scenario is
the paper's, drawn from every implementation's traces (ladder.TimePlot, ladder.PathPlot).
"""

from __future__ import annotations

from dynval.comparisons import ladder
from dynval.comparisons.hexapod.scenarios import Scenario

LEG = "LF"  # the paper's leg 1


def scenario_figures(sc: Scenario, variant: ladder.Variant) -> list:
    """The figures of one scenario run (its variant: shared laws or native contact)."""
    j, f = f"joint.{LEG}.hip", f"foot.{LEG}"
    path = ladder.PathPlot("Foot 1 path", f"{f}.x", f"{f}.y", "m", 1.0, False,
                           "Leg 1's foot in the paper's plane (x forward, y up).")
    if variant.name == "native":
        return [ladder.TimePlot("Foot 1 height and ground force, native contact",
                                [f"{f}.y", f"{f}.force.x", f"{f}.force.y"],
                                "Each engine's own contact (plane at -r_F, K_yF and B_yF of "
                                "eq. (11), Coulomb friction mu_native) instead of eq. (12)."),
                ladder.TimePlot("Body height, native contact", ["com.y"],
                                "Mean hip height of the three segments."), path]
    if sc.name in ("WG_50", "EPFC_35"):
        wg = sc.gait == "WG"
        f_plan, f_tau = ("Fig. 4", "Fig. 7") if wg else ("Fig. 5", "Fig. 8")
        out = [
            ladder.TimePlot(f"{f_plan}: planned foot height of leg 1", [f"{f}.y_ref"],
                            "y_1Fd of eq. (1a) (the same in every implementation)."),
            ladder.TimePlot(f"{f_plan}: planned foot velocity and acceleration",
                            [f"{f}.vy_ref", f"{f}.ay_ref"], "Derivatives of eq. (1a)'s y_1Fd."),
            ladder.TimePlot("Fig. 6: hip joint of leg 1", [f"{j}.reference", f"{j}.angle"],
                            "theta_11: the plan of eq. (4) and the walk."),
            _terms(f"{f_tau}: hip torque terms of leg 1")]
        if wg:
            out += [ladder.TimePlot("Fig. 9 (left): horizontal ground force on foot 1",
                                    [f"{f}.force.x"],
                                    "f_1xF of eq. (12), cycloidal profile (1a)."),
                    ladder.TimePlot("Fig. 11: foot 1 height and vertical ground force",
                                    [f"{f}.y", f"{f}.force.y"],
                                    "y_1F and f_1yF on the non-linear ground of eq. (12).")]
        return out + [path]
    if sc.name == "WG_50_sine":
        return [ladder.TimePlot("Fig. 9 (right): horizontal ground force on foot 1",
                                [f"{f}.force.x"],
                                "f_1xF of eq. (12), sinusoidal profile (1b)."),
                ladder.TimePlot("Planned foot height of leg 1, sinusoidal profile",
                                [f"{f}.y_ref", f"{f}.vy_ref", f"{f}.ay_ref"],
                                "y_1Fd of eq. (1b) and its derivatives (compare Fig. 4)."),
                ladder.TimePlot("Foot 1 vertical ground force, sinusoidal profile",
                                [f"{f}.force.y"], "f_1yF of eq. (12)."), path]
    if sc.name == "WG_50_linear":
        return [ladder.TimePlot("Fig. 10: foot 1 height and vertical ground force",
                                [f"{f}.y", f"{f}.force.y"],
                                "y_1F and f_1yF on the linear ground of eq. (11): f_1yF goes "
                                "negative (the ground pulls the foot) and jumps at touchdown."),
                ladder.TimePlot("Horizontal ground force on foot 1, linear ground",
                                [f"{f}.force.x"], "f_1xF of eq. (11)."), path]
    fig = {"flexible": ("Fig. 12", "Fig. 13", "Fig. 14"),
           "backlash": ("Fig. 15", "Fig. 16", "Fig. 17")}[sc.transmission]
    what = ("friction and flexibility (8)" if sc.transmission == "flexible"
            else "friction, flexibility and backlash (9)")
    out = [_terms(f"{fig[0]}: hip torque terms of leg 1, drives with {what}"),
           ladder.TimePlot(f"{fig[1]}: hip joint of leg 1, drives with {what}",
                           [f"{j}.angle", f"{j}.rate", f"{j}.acceleration"],
                           "theta_11, its rate and its acceleration (the rate difference "
                           "over a step)."),
           ladder.TimePlot(f"{fig[2]}: foot 1 position, drives with {what}",
                           [f"{f}.x", f"{f}.y"], "x_1F and y_1F (compare Figs. 14 and 17)."),
           ladder.TimePlot(f"Hip drive of leg 1, {what}",
                           [f"{j}.torque_motor", f"{j}.torque", f"{j}.motor_angle"],
                           "The motor torque tau_11m after saturation (7), the torque the link "
                           "receives and the motor-side angle theta_11m.")]
    if sc.transmission == "backlash":
        out.append(ladder.TimePlot("Gear impacts (9b)-(9c), all joints",
                                   ["hexapod.gear_impacts", f"{j}.gear_angle"],
                                   "Cumulative count of gear impacts and the hip gear's output "
                                   "side theta_11T."))
    return out + [path]


def _terms(title: str) -> ladder.TimePlot:
    j = f"joint.{LEG}.hip"
    return ladder.TimePlot(title, [f"{j}.torque_inertial", f"{j}.torque_coriolis",
                                   f"{j}.torque_gravity"],
                           "tau_11I = (H Theta_dd)_3, tau_11CC = c_3, tau_11G = g_3 of eq. (6) "
                           "from each implementation's state (Theta_dd: the rate difference "
                           "over a step).")
