"""The hexapod's MuJoCo comparison loop as one compiled loop over many steps: the shared
laws of dynval.handrolled.hexapod.fastloop (ground with the touchdown points, body
springs, plan, FO controller, saturation, drives) evaluated from mjData's joints and feet,
the slide forces, link torques and foot forces applied and MuJoCo stepped
(dynval.engines.mujoco_compiled), without returning to Python. The same arithmetic as
HexapodLoop.advance with the EnginePlant (held to it by tests/test_hexapod_loop_fast.py);
one step is mj_step2 then mj_step1, MuJoCo's split of the mj_step + mj_forward of
MujocoSimulation.step, which computes the new time's positions and velocities once.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from dynval.engines.mujoco_compiled import points, step_with_point_forces
from dynval.handrolled.hexapod.fastloop import drive_step, inputs


@njit(cache=True)
def mujoco_steps(step1, step2, apply_ft, m: int, d: int, xpos: np.ndarray,
                 xmat: np.ndarray, cvel: np.ndarray, subtree_com: np.ndarray,
                 body_rootid: np.ndarray, qfrc_applied: np.ndarray, dofs: np.ndarray,
                 qpos: np.ndarray, qvel: np.ndarray, qadr: np.ndarray, off: np.ndarray,
                 bodies: np.ndarray, q: np.ndarray, qd: np.ndarray, qd_prev: np.ndarray,
                 feet: np.ndarray, feet_v: np.ndarray, eta0: np.ndarray, F_feet: np.ndarray,
                 F_seg: np.ndarray, Th_d: np.ndarray, tau_C: np.ndarray, tau_m: np.ndarray,
                 tau_link: np.ndarray, drive: tuple, c: np.ndarray, J_m: np.ndarray,
                 J_T: np.ndarray, rest: np.ndarray, k: int, level: int, ground: int,
                 dt: float, ratio: int, steps: int, t: float, count: int, plan: tuple,
                 ctrl: tuple) -> tuple[float, int]:
    """``count`` steps of HexapodLoop.advance on MuJoCo with the shared ground, the arrays
    in place (as fastloop.handrolled_steps): EnginePlant.step (efforts on the slides and
    hinges, the feet's nonzero forces at their centres), the drive's step, EnginePlant's
    observation (q + off, the feet by points) and the inputs. Returns (t, impacts)."""
    th_m, th_m_dot, th_T, th_T_dot = drive
    nb = bodies.shape[0]
    P, V, R = np.empty((nb, 3)), np.empty((nb, 3)), np.empty((nb, 3, 3))
    offsets = np.zeros((nb, 3))
    points(xpos, xmat, cvel, subtree_com, body_rootid, bodies, offsets, P, V, R)
    hits = 0
    for _ in range(count):
        pushed = np.zeros(nb, np.bool_)
        for i in range(nb):
            pushed[i] = F_feet[i, 0] != 0.0 or F_feet[i, 1] != 0.0
        sel = np.nonzero(pushed)[0]
        F_W = np.zeros((sel.shape[0], 3))
        for j in range(sel.shape[0]):
            F_W[j, 0], F_W[j, 2] = F_feet[sel[j], 0], F_feet[sel[j], 1]
        tau = np.concatenate((F_seg.ravel(), tau_link))
        step_with_point_forces(step1, step2, apply_ft, m, d, qfrc_applied, dofs, tau,
                               bodies[sel], P[sel], F_W)
        t += dt
        hits += drive_step(tau_m, q[2 * k:], th_m, th_m_dot, th_T, th_T_dot, J_m, J_T, c,
                           level, dt)
        steps += 1
        qd_prev[:] = qd
        for r in range(q.shape[0]):
            q[r] = qpos[qadr[r]] + off[r]
            qd[r] = qvel[dofs[r]]
        points(xpos, xmat, cvel, subtree_com, body_rootid, bodies, offsets, P, V, R)
        for i in range(nb):
            feet[i, 0], feet[i, 1] = P[i, 0], P[i, 2]
            feet_v[i, 0], feet_v[i, 1] = V[i, 0], V[i, 2]
        inputs(q, qd, feet, feet_v, eta0, F_feet, F_seg, steps % ratio == 0, t, Th_d, tau_C,
               tau_m, tau_link, th_m, th_T, c, rest, k, level, ground, True, plan, ctrl)
    return t, hits
