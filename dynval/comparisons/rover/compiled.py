"""The rover's MuJoCo plant as one compiled loop: the hub states read from mjData, the
shared wheel-soil law (dynval.handrolled.rover.wheel_contact), the hub forces applied and
MuJoCo stepped, then the wheel torques from the wheel powers, for many 1 ms steps
without returning to Python.  The same arithmetic as ``EnginePlant.advance`` and
``RoverLoop.steering_torques`` (held together at round-off by tests/test_rover_compiled.py);
the per-step Python around a 2 us MuJoCo step cost 30-50 times the step.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from dynval.comparisons.rover.frames import R_0W
from dynval.engines.mujoco_compiled import points, step_with_point_forces
from dynval.handrolled.rover.terramechanics import torques_from_power
from dynval.handrolled.rover.wheel_contact import N_DIAG, SINKAGE, SLIP, V_X, wheel_contacts
from dynval.robots.rover.params import R_W0


@njit(cache=True)
def mujoco_steps(step1, step2, apply_ft, m: int, d: int, xpos: np.ndarray,
                 xmat: np.ndarray, cvel: np.ndarray, subtree_com: np.ndarray,
                 body_rootid: np.ndarray, qfrc_applied: np.ndarray, dofs: np.ndarray,
                 bodies: np.ndarray, offsets: np.ndarray, T: np.ndarray, P: np.ndarray,
                 powered: bool, n: int, r: float, b: float, D: float, soil: tuple
                 ) -> tuple:
    """Up to ``n`` steps with wheel torques T (segments x 2, updated in place from the
    powers P after each step when ``powered``): (diagnostics of the last step's wheels,
    steps taken).  Stops after the step in which a wheel left the soil (sinkage <= 0),
    where the caller raises, as ``RoverLoop.advance`` does."""
    nh = bodies.shape[0]
    P_W, V_W, R_W = np.empty((nh, 3)), np.empty((nh, 3)), np.empty((nh, 3, 3))
    p_0, v_0, R_0 = np.empty((nh, 3)), np.empty((nh, 3)), np.empty((nh, 3, 3))
    F_W = np.empty((nh, 3))
    tau = np.zeros(dofs.shape[0])  # the turning joints are free (thesis: unactuated)
    diag = np.zeros((nh, N_DIAG))
    for k in range(n):
        points(xpos, xmat, cvel, subtree_com, body_rootid, bodies, offsets, P_W, V_W, R_W)
        for h in range(nh):  # world -> the thesis' frame 0
            p_0[h] = R_0W @ P_W[h]
            v_0[h] = R_0W @ V_W[h]
            R_0[h] = R_0W @ R_W[h]
        F_0, diag = wheel_contacts(p_0, R_0, v_0, T.ravel(), r, b, D, soil)
        for h in range(nh):
            F_W[h] = R_W0 @ F_0[h]
        step_with_point_forces(step1, step2, apply_ft, m, d, qfrc_applied, dofs, tau,
                               bodies, P_W, F_W)
        for h in range(nh):
            if diag[h, SINKAGE] <= 0.0:
                return diag, k + 1
        if powered:
            T[:, :] = torques_from_power(P, diag[:, SLIP].copy().reshape(T.shape),
                                         diag[:, V_X].copy().reshape(T.shape), r)
    return diag, n
