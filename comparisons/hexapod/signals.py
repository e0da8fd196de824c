"""The hexapod's own signals, in the shared vocabulary's form (one SI unit, frame and
meaning a name: dynval.comparisons.ladder.signals); paper frame P, x forward and y up
(robots/hexapod/FRAMES.md)."""

from __future__ import annotations

from dynval.comparisons.ladder.signals import Signal

SIGNALS: tuple[Signal, ...] = (
    # the hexapod (paper frame P: x forward, y up; robots/hexapod/FRAMES.md)
    Signal("joint.{leg}.{name}.reference", "rad", "joint",
           "planned joint angle Theta_d of eq. (4) (the controller's reference)"),
    Signal("joint.{leg}.{name}.torque_inertial", "N m", "joint",
           "inertial term H(Theta) Theta_dd of eq. (6) (tau_ijI of Figs. 7-8)"),
    Signal("joint.{leg}.{name}.torque_coriolis", "N m", "joint",
           "centrifugal/Coriolis term c(Theta, Theta_dot) of eq. (6) (tau_ijCC)"),
    Signal("joint.{leg}.{name}.torque_gravity", "N m", "joint",
           "gravitational term g(Theta) of eq. (6) (tau_ijG)"),
    Signal("joint.{leg}.{name}.torque_motor", "N m", "joint",
           "motor torque tau_ijm after the saturation of eq. (7)"),
    Signal("joint.{leg}.{name}.motor_angle", "rad", "joint",
           "motor-side angle theta_ijm of the drive, eqs. (8)-(9) (the joint angle if ideal)"),
    Signal("joint.{leg}.{name}.gear_angle", "rad", "joint",
           "gear output-side angle theta_ijT of the backlash drive, eq. (9)"),
    Signal("hexapod.gear_impacts", "-", "-",
           "gear impacts (9b)-(9c) so far, all joints together"),
    Signal("foot.{leg}.{axis}", "m", "P", "foot centre, paper frame (x forward, y up)"),
    Signal("foot.{leg}.v{axis}", "m/s", "P", "foot centre velocity, paper frame"),
    Signal("foot.{leg}.{axis}_ref", "m", "P", "planned foot position p_Fd of eqs. (1)-(2)"),
    Signal("foot.{leg}.v{axis}_ref", "m/s", "P", "planned foot velocity (Figs. 4-5)"),
    Signal("foot.{leg}.a{axis}_ref", "m/s^2", "P", "planned foot acceleration (Figs. 4-5)"),
    Signal("segment.{name}.{axis}", "m", "P",
           "body segment (hip point x_iH, y_iH of eq. 6), paper frame"),
    Signal("segment.{name}.v{axis}", "m/s", "P", "body segment velocity, paper frame"),
    Signal("segment.{name}.force.{axis}", "N", "P",
           "inter-segment spring-dashpot force F_RH of eq. (10) on the segment"),
)
