"""The comparison loop's shared laws compiled (comparisons/hexapod/loop.py, HexapodLoop):
the plan's joint references (eqs. 1-4, planning.joint_angles), the FO PD^alpha with the
Pade filters of eq. (16) and Fig. 3's force loop (control.FractionalPD,
fractional.DiscreteFilter), the saturation
(7), the drives (7)-(9) beside the plant (SharedDrive: semi-implicit Euler, the gear
impacts (9b)-(9c) by transmission.resolve_play), the body springs (10) and the ground
(11)-(12) with the touchdown points (ground.Foot), evaluated from any implementation's
state in one call, and the hand-rolled plant's whole loop over n steps (model.held_step).

The same equations in the same order as the Python loop, which stays the printed path:
tests/test_hexapod_loop_fast.py holds whole traces to it, bit for bit (the scalar
functions are the C library's in both: kinematics.Psi_inv takes math's acos and atan2).

The parameters travel as float arrays in a :class:`Laws` record (:func:`loop_laws`:
model.constants, :func:`plan_constants`, :func:`controller_constants`), so the compiled
functions are cached once for every parameter set; the loop's state travels as one
:class:`LoopState` record of arrays changed in place (:func:`loop_arrays`). The
Grunwald-Letnikov form of the controller (p.fo_form = "gl", fractional.GrunwaldLetnikov:
the sum (15b) over the whole memory) keeps its memory in the :class:`Controller` record,
given room ahead of each run of steps (:func:`memory_room`).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from dynval._numba_cache import njit
from dynval.handrolled.hexapod import planning, transmission
from dynval.handrolled.hexapod.fast import model
from dynval.handrolled.hexapod.fractional import K_derivative, gl_weights, pade_coefficients
from dynval.robots.hexapod.params import HexapodParams, station_x

PROFILE = {"cycloid": 0, "sine": 1}


# ---- the plan, eqs. (1)-(4) ----
class PlanScalars(NamedTuple):
    """The scalars planning.leg_plan and foot_transfer read: the cycle T, the transfer
    time t_T, the forward speed V_F, the stride L_S, the clearance F_C, the duty factor
    beta, the stroke offset O_i, the hip height H_B, the leg lengths; then the "T" and
    "V_F" inside eqs. (1a)-(1b) as ``form`` reads them (Tt, V), (1b)'s prefactor k and
    the profile (0 cycloid, 1 sine)."""

    T: float
    t_T: float
    V_F: float
    L_S: float
    F_C: float
    beta: float
    O_i: float
    H_B: float
    L_i1: float
    L_i2: float
    Tt: float
    V: float
    k: float
    profile: float


def plan_constants(p: HexapodParams, form: str = "corrected"
                   ) -> tuple[PlanScalars, np.ndarray, np.ndarray]:
    """(the plan's scalars, the legs' lift-off phases phi_i, the stations' x_0)."""
    if form not in planning.FORMS:
        raise ValueError(f"unknown form {form!r}; use one of {', '.join(planning.FORMS)}")
    if p.profile not in PROFILE:
        raise ValueError(f"unknown profile {p.profile!r}; use cycloid or sine")
    corrected = form == "corrected"
    Tt = p.t_T if corrected else p.T  # the "T" inside eqs. (1a), (1b)
    V = p.L_S / p.t_T if corrected else p.V_F  # the "V_F" of (1a)
    k = p.t_T / p.T if form == "printed" else 1.0  # (1b)'s printed prefactor t_T / T
    pc = PlanScalars(float(p.T), float(p.t_T), float(p.V_F), float(p.L_S), float(p.F_C),
                     float(p.beta), float(p.O_i), float(p.H_B), float(p.L_i1), float(p.L_i2),
                     float(Tt), float(V), float(k), float(PROFILE[p.profile]))
    return pc, planning.phases(p.gait, p.beta, p.n), np.asarray(station_x(p), float)


@njit(cache=True)
def foot_transfer(t: float, pc: PlanScalars) -> tuple:
    """planning.foot_transfer: (x, y, xd, yd, xdd, ydd) of eq. (1a) or (1b) at t into the
    transfer."""
    L_S, t_T, F_C, Tt, V, k = pc.L_S, pc.t_T, pc.F_C, pc.Tt, pc.V, pc.k
    w = 2.0 * np.pi / Tt
    if pc.profile == 0.0:  # eq. (1a)
        x = V * (t - math.sin(w * t) / w)
        xd, xdd = V * (1.0 - math.cos(w * t)), V * w * math.sin(w * t)
        y = 0.5 * F_C * (1.0 - math.cos(w * t))
        yd, ydd = 0.5 * F_C * w * math.sin(w * t), 0.5 * F_C * w * w * math.cos(w * t)
        return x, y, xd, yd, xdd, ydd
    x = k * (L_S * t / t_T - L_S / (2 * np.pi) * math.sin(w * t))  # eq. (1b)
    xd = k * (L_S / t_T - L_S / (2 * np.pi) * w * math.cos(w * t))
    xdd = k * L_S / (2 * np.pi) * w * w * math.sin(w * t)
    if t < 0.5 * Tt:
        tp, s = t, 1.0
    else:
        tp, s = Tt - t, -1.0
    y = 2 * F_C * tp / Tt - F_C / (2 * np.pi) * math.sin(2 * w * tp)
    yd = s * (2 * F_C / Tt - F_C / np.pi * w * math.cos(2 * w * tp))
    ydd = 2 * F_C / np.pi * w * w * math.sin(2 * w * tp)
    return x, y, xd, yd, xdd, ydd


@njit(cache=True)
def leg_plan(t: float, i: int, pc: PlanScalars, phi: np.ndarray, x0: np.ndarray
             ) -> np.ndarray:
    """planning.leg_plan of leg i (0-based): [p_Hd, p_Fd, v_Fd, a_Fd] (8 numbers; the hip
    velocity is [V_F, 0])."""
    T, t_T, V_F, L_S, beta, O_i, H_B = pc.T, pc.t_T, pc.V_F, pc.L_S, pc.beta, pc.O_i, pc.H_B
    x_0 = x0[i // 2]
    out = np.zeros(8)
    out[0], out[1] = V_F * t + x_0, H_B  # eq. (3)
    cycle = math.floor(t / T - phi[i])
    t_lift = (cycle + phi[i]) * T
    tau = t - t_lift
    x_land = V_F * (t_lift + t_T) + x_0 + 0.5 * beta * L_S + O_i
    if tau < t_T:  # eq. (1)
        x, y, xd, yd, xdd, ydd = foot_transfer(tau, pc)
        out[2], out[3] = x_land - L_S + x, 0.0 + y
        out[4], out[5], out[6], out[7] = xd, yd, xdd, ydd
    else:  # eq. (2)
        out[2] = x_land
    return out


@njit(cache=True)
def psi_inv(P0: float, P1: float, L_1: float, L_2: float) -> tuple[float, float]:
    """kinematics.Psi_inv: eq. (4b)'s forward-knee angles of the hip-minus-foot P."""
    d = np.array([-P0, -P1])
    r2 = np.dot(d, d)
    c2 = (r2 - L_1 * L_1 - L_2 * L_2) / (2.0 * L_1 * L_2)
    if not -1.0 <= c2 <= 1.0:
        raise ValueError("a planned foot is out of the leg's reach")
    theta_2 = -math.acos(c2)
    phi = math.atan2(d[0], -d[1])
    return phi - math.atan2(L_2 * math.sin(theta_2), L_1 + L_2 * math.cos(theta_2)), theta_2


@njit(cache=True)
def joint_references(t: float, pc: PlanScalars, phi: np.ndarray, x0: np.ndarray,
                     out: np.ndarray) -> None:
    """planning.joint_angles of every leg at t into ``out`` (2n): Theta_d of eq. (4)."""
    for i in range(out.shape[0] // 2):
        pl = leg_plan(t, i, pc, phi, x0)
        out[2 * i], out[2 * i + 1] = psi_inv(pl[0] - pl[2], pl[1] - pl[3], pc.L_i1, pc.L_i2)


# ---- the controller, eqs. (14), (16) and Fig. 3's force loop ----
def controller_constants(p: HexapodParams) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                    np.ndarray, float, float]:
    """FractionalPD's numbers per joint: K_p, the Pade coefficients a (2n x m+1), b
    (2n x m+1) of eq. (16), the derivative gains K_j, G_c2's K_c2, and f (1.0 with Fig. 3's
    force feedback, p.control = "force"; 0.0 without)."""
    K_p = np.tile([p.K_p1, p.K_p2], p.n)
    a, b, K = [], [], []
    for j in range(2 * p.n):
        K_alpha, alpha = (p.K_alpha1, p.alpha_1) if j % 2 == 0 else (p.K_alpha2, p.alpha_2)
        aj, bj = pade_coefficients(alpha, p.fo_order)
        a.append(aj)
        b.append(bj)
        K.append(K_derivative(K_alpha, alpha, p.f_sc))
    return (K_p, np.array(a), np.array(b), np.array(K), float(p.K_c2),
            1.0 if p.control == "force" else 0.0)


class Controller(NamedTuple):
    """FractionalPD compiled: :func:`controller_constants` and the Pade filters'
    histories (newest first), the force loop's flag f and its ground torques J_F^T F_RF;
    with ``gl`` the Grunwald-Letnikov sum (15b) instead of the filters (16): its weights
    w_k per joint and the whole memory of errors, the newest sample in column
    room - count, the oldest in the last column (:func:`memory_room` gives it room).
    The histories, the memory, its count and JtF change in place."""

    K_p: np.ndarray
    a: np.ndarray
    b: np.ndarray
    K: np.ndarray
    K_c2: float
    e_hist: np.ndarray  # the last m+1 errors
    y_hist: np.ndarray  # the last m outputs
    f: float
    JtF: np.ndarray
    gl: bool
    w: np.ndarray  # 2n x room: w_0, w_1, ... of eq. (15b) per joint
    memory: np.ndarray  # 2n x room: e_k, e_{k-1}, ..., e_0 in the last count columns
    count: np.ndarray  # int64 (1,): the samples in the memory


def memory_room(laws: Laws, p: HexapodParams, samples: int, chunk: int = 4096) -> Laws:
    """``laws`` with room for ``samples`` controller samples in the Grunwald-Letnikov
    memory (grown by whole chunks, the samples held moved to the new memory's end, the
    weights gl_weights of each joint's alpha as fractional.GrunwaldLetnikov takes them);
    ``laws`` itself where it has the room or the controller is the Pade form."""
    ctrl = laws.ctrl
    room = ctrl.memory.shape[1]
    if not ctrl.gl or samples <= room:
        return laws
    room += chunk * -(-(samples - room) // chunk)
    w_hip, w_knee = gl_weights(p.alpha_1, room), gl_weights(p.alpha_2, room)
    w = np.array([w_hip if j % 2 == 0 else w_knee for j in range(2 * p.n)])
    memory = np.zeros((2 * p.n, room))
    held = int(ctrl.count[0])
    if held:
        memory[:, room - held:] = ctrl.memory[:, ctrl.memory.shape[1] - held:]
    return laws._replace(ctrl=ctrl._replace(w=w, memory=memory))


def preload_controller(laws: Laws, e_0: np.ndarray) -> None:
    """control.FractionalPD.preload on the compiled controller's histories (in ``laws``):
    every Pade filter at rest under the constant errors e_0."""
    a, b, e_hist, y_hist = laws.ctrl.a, laws.ctrl.b, laws.ctrl.e_hist, laws.ctrl.y_hist
    for j in range(e_hist.shape[0]):
        e = float(e_0[j])
        e_hist[j, :] = e
        y_hist[j, :] = e * a[j].sum() / b[j].sum()


@njit(cache=True)
def ground_torques(q: np.ndarray, F: np.ndarray, c: model.Scalars, k: int, out: np.ndarray
                   ) -> None:
    """J_F^T F_RF's joint rows for every leg into ``out`` (2n): the ground's torques on the
    hip and knee, eq. (6) (fast._foot's J_F, the foot forces F n x 2)."""
    L1, L2 = c.L_1, c.L_2
    for i in range(F.shape[0]):
        a = q[2 * k + 2 * i]
        b = a + q[2 * k + 2 * i + 1]
        out[2 * i] = (L1 * math.cos(a) + L2 * math.cos(b)) * F[i, 0] + \
            (L1 * math.sin(a) + L2 * math.sin(b)) * F[i, 1]
        out[2 * i + 1] = L2 * math.cos(b) * F[i, 0] + L2 * math.sin(b) * F[i, 1]


@njit(cache=True)
def controller(Th_d: np.ndarray, th: np.ndarray, ctrl: Controller, tau_C: np.ndarray
               ) -> None:
    """One sample of FractionalPD into tau_C: per joint the error e, the derivative term
    y_k, and tau_C = K_c2 (K_p e + K y_k - JtF), JtF the ground's joint torques
    J_F^T F_RF with the force loop of Fig. 3 (zeros without). y_k: DiscreteFilter's
    (a . e - b[1:] . y) / b_0 over the histories (e_hist: the last m+1 errors, y_hist: the
    last m outputs, newest first, shifted in place), or with ``gl`` GrunwaldLetnikov's
    sum_{i=0}^{k} w_i e_{k-i} of eq. (15b) (the weights and the memory, newest first, in
    one dot product as the Python form takes it: the same BLAS ddot)."""
    K_p, a, b, K, e_hist, y_hist, JtF = ctrl.K_p, ctrl.a, ctrl.b, ctrl.K, ctrl.e_hist, \
        ctrl.y_hist, ctrl.JtF
    m = y_hist.shape[1]
    n = ctrl.count[0] + 1 if ctrl.gl else 0  # the samples in the sum (15b), this one too
    start = ctrl.memory.shape[1] - n
    if ctrl.gl:
        if start < 0:
            raise ValueError("the Grunwald-Letnikov memory is full (memory_room)")
        ctrl.count[0] = n
    for j in range(th.shape[0]):
        e = Th_d[j] - th[j]
        if ctrl.gl:  # (15b)
            ctrl.memory[j, start] = e
            y = np.dot(ctrl.w[j, :n], ctrl.memory[j, start:])
        else:  # (16)
            for r in range(m, 0, -1):
                e_hist[j, r] = e_hist[j, r - 1]
            e_hist[j, 0] = e
            y = (np.dot(a[j], e_hist[j]) - np.dot(b[j, 1:].copy(), y_hist[j])) / b[j, 0]
            for r in range(m - 1, 0, -1):
                y_hist[j, r] = y_hist[j, r - 1]
            y_hist[j, 0] = y
        tau_C[j] = ctrl.K_c2 * (K_p[j] * e + K[j] * y - JtF[j])


# ---- body springs (10), ground (11)-(12), drives (7)-(9) ----
@njit(cache=True)
def feet_forces(feet: np.ndarray, feet_v: np.ndarray, eta0: np.ndarray, c: model.Scalars,
                ground: int, F: np.ndarray) -> None:
    """Foot.force for every foot into F (n x 2): no force above y = 0 (the touchdown point
    forgotten, NaN), else eq. (11) or (12) from the touchdown point, stored where the foot
    first is below."""
    for i in range(feet.shape[0]):
        if feet[i, 1] >= 0.0:
            eta0[i, 0], eta0[i, 1] = np.nan, np.nan
            F[i, 0], F[i, 1] = 0.0, 0.0
            continue
        if math.isnan(eta0[i, 0]):
            eta0[i, 0], eta0[i, 1] = feet[i, 0], 0.0
        F[i, 0], F[i, 1] = model._ground((feet[i, 0], feet[i, 1]), (feet_v[i, 0], feet_v[i, 1]),
                                         (eta0[i, 0], eta0[i, 1]), c, ground)


class LoopState(NamedTuple):
    """HexapodLoop's state as the compiled functions take it, changed in place: the
    plant's coordinates and rates (qd_prev: the rates of the last step's start), the feet,
    the touchdown points eta0 (NaN in flight), the forces and torques of the loop and the
    drive's four."""

    q: np.ndarray
    qd: np.ndarray
    qd_prev: np.ndarray
    feet: np.ndarray
    feet_v: np.ndarray
    eta0: np.ndarray
    F_feet: np.ndarray
    F_seg: np.ndarray
    Th_d: np.ndarray
    tau_C: np.ndarray
    tau_m: np.ndarray
    tau_link: np.ndarray
    th_m: np.ndarray
    th_m_dot: np.ndarray
    th_T: np.ndarray
    th_T_dot: np.ndarray


def loop_arrays(q: np.ndarray, qd: np.ndarray, feet: np.ndarray, feet_v: np.ndarray,
                drive: tuple) -> LoopState:
    """The loop's state, new arrays but for the drive's four (th_m, th_m_dot, th_T,
    th_T_dot), which the loop shares with its drive."""
    n2, k = len(drive[0]), (len(q) - len(drive[0])) // 2
    return LoopState(q.copy(), qd.copy(), qd.copy(), feet.copy(), feet_v.copy(),
                     np.full((n2 // 2, 2), np.nan), np.zeros((n2 // 2, 2)),
                     np.zeros((k, 2)), np.zeros(n2), np.zeros(n2), np.zeros(n2),
                     np.zeros(n2), *drive)


class Laws(NamedTuple):
    """The constants of the shared laws: model.constants' c, J_m, J_T, rest; the segments
    k; the drive's and the ground's codes (fast.LEVEL, fast.GROUND); the plant's step dt
    and the steps per controller sample (f_sr / f_sc); the plan's constants
    (:func:`plan_constants`), the controller (:class:`Controller`); and whether the
    ground law gives the feet forces (shared contact) or the engine does (native)."""

    c: model.Scalars
    J_m: np.ndarray
    J_T: np.ndarray
    rest: np.ndarray
    k: int
    level: int
    ground: int
    dt: float
    ratio: int
    plan: tuple
    ctrl: Controller
    shared: bool


def loop_laws(p: HexapodParams, body_form: str, shared: bool) -> Laws:
    """The loop's :class:`Laws` for parameters p (the controller's histories zero, the
    Grunwald-Letnikov memory empty and without room: :func:`memory_room`)."""
    c, J_m, J_T, rest = model.constants(p, body_form)
    K_p, a, b, K, K_c2, f = controller_constants(p)
    ctrl = Controller(K_p, a, b, K, K_c2, np.zeros(a.shape),
                      np.zeros((a.shape[0], b.shape[1] - 1)), f, np.zeros(a.shape[0]),
                      p.fo_form == "gl", np.zeros((a.shape[0], 0)),
                      np.zeros((a.shape[0], 0)), np.zeros(1, dtype=np.int64))
    return Laws(c, J_m, J_T, rest, p.n_seg, model.LEVEL[p.transmission],
                model.GROUND[p.ground], 1.0 / p.f_sr, int(round(p.f_sr / p.f_sc)),
                plan_constants(p), ctrl, bool(shared))


@njit(cache=True)
def inputs(state: LoopState, laws: Laws, steps: int, t: float) -> None:
    """HexapodLoop._update_inputs from the state at t after ``steps`` steps: the ground
    forces (with shared contact; else F_feet is the engine's, read by the caller), the body
    springs (10), at a controller sample the references (4) and tau_C (14), (16) with
    Fig. 3's force loop where f = 1 (the ground forces F_feet of this state), the
    saturation (7) and the drive's link torque (7), (8b), (9d)."""
    q, qd, _, feet, feet_v, eta0, F_feet, F_seg, Th_d, tau_C, tau_m, tau_link, th_m, _, \
        th_T, _ = state
    c, _, _, rest, k, level, ground, _, ratio, plan, ctrl, shared = laws
    if shared:
        feet_forces(feet, feet_v, eta0, c, ground, F_feet)
    F_seg[:, :] = model.body_forces(q, qd, c, rest, k)
    th = q[2 * k:]
    if steps % ratio == 0:  # controller sample, held until the next one
        joint_references(t, plan[0], plan[1], plan[2], Th_d)
        if ctrl.f != 0.0:
            ground_torques(q, F_feet, c, k, ctrl.JtF)
        controller(Th_d, th, ctrl, tau_C)
    tau_m[:] = np.minimum(np.maximum(tau_C, -c.tau_max), c.tau_max)  # (7)
    if level == 0:
        tau_link[:] = tau_m
    elif level == 1:
        tau_link[:] = c.K_ijT * (th_m - th)  # (8b)
    else:
        tau_link[:] = c.K_ijT * (th_T - th)  # (9d)


@njit(cache=True)
def after_step(state: LoopState, laws: Laws, q_new: np.ndarray, qd_new: np.ndarray,
               feet_new: np.ndarray, feet_v_new: np.ndarray, steps: int, t: float) -> int:
    """HexapodLoop.advance after the plant's step to (q_new, qd_new) at t, its ``steps``-th:
    the drive's step (the link angles of the step's start), the new state into the loop's
    arrays (qd_prev: the rates of the step's start) and the inputs for the next step.
    Returns the gear impacts of the step."""
    s, k = state, laws.k
    hits = drive_step(s.tau_m, s.q[2 * k:], s.th_m, s.th_m_dot, s.th_T, s.th_T_dot, laws.J_m,
                      laws.J_T, laws.c, laws.level, laws.dt)
    s.qd_prev[:] = s.qd
    s.q[:], s.qd[:] = q_new, qd_new
    s.feet[:, :], s.feet_v[:, :] = feet_new, feet_v_new
    inputs(state, laws, steps, t)
    return hits


@njit(cache=True)
def drive_step(tau_m: np.ndarray, th: np.ndarray, th_m: np.ndarray, th_m_dot: np.ndarray,
               th_T: np.ndarray, th_T_dot: np.ndarray, J_m: np.ndarray, J_T: np.ndarray,
               c: model.Scalars, level: int, dt: float) -> int:
    """SharedDrive.step in place, the link angles th held at the step's start: the motor
    (8a) or (9a), the gear's output side and the impacts (9b)-(9c) with backlash; returns
    the number of impacts."""
    if level == 0:
        return 0
    if level == 1:
        a_m = (tau_m - c.B_ijm * th_m_dot - c.K_ijT * (th_m - th)) / J_m  # (8a)
    else:
        a_m = (tau_m - c.B_ijm * th_m_dot) / J_m  # (9a)
    th_m_dot[:] = th_m_dot + dt * a_m
    th_m[:] = th_m + dt * th_m_dot
    if level != 2:
        return 0
    a_T = (-c.B_ijT * th_T_dot - c.K_ijT * (th_T - th)) / J_T
    th_T_dot[:] = th_T_dot + dt * a_T
    th_T[:] = th_T + dt * th_T_dot
    return transmission.resolve_play(th_m, th_m_dot, th_T, th_T_dot, J_m, J_T, 0.5 * c.h_ij,
                                     c.eps_ij)


@njit(cache=True)
def handrolled_steps(state: LoopState, laws: Laws, n: int, steps: int, t: float,
                     count: int) -> tuple[float, int]:
    """``count`` steps of HexapodLoop.advance with the hand-rolled plant (n legs): the
    plant's step under the held inputs (model.held_step, time t += dt), its feet, then
    :func:`after_step`. Returns (t, impacts)."""
    q, qd, F_feet, F_seg, tau_link = state.q, state.qd, state.F_feet, state.F_seg, \
        state.tau_link
    c, k, dt = laws.c, laws.k, laws.dt
    hits = 0
    for _ in range(count):
        q_new, qd_new = model.held_step(q, qd, F_seg, tau_link, F_feet, c, n, k, dt)
        t += dt
        steps += 1
        feet_new, feet_v_new = model.feet(q_new, qd_new, c, n, k)
        hits += after_step(state, laws, q_new, qd_new, feet_new, feet_v_new, steps, t)
    return t, hits


@njit(cache=True)
def signal_values(state: LoopState, laws: Laws, n: int, impacts: float, t: float
                  ) -> np.ndarray:
    """HexapodLoop.signals' values in its order (HexapodLoop.signal_names): the mean hip
    (com), the segments, the joints and feet, the gear impacts, leg 1's torque split of
    eq. (6) (model.torque_terms, the acceleration as the rate difference over the last
    step) with its drive, and leg 1's planned foot (leg_plan)."""
    q, qd, qd_prev, feet, feet_v, _, F_feet, F_seg, Th_d, _, tau_m, tau_link, th_m, _, \
        th_T, _ = state
    c, k, dt, plan = laws.c, laws.k, laws.dt, laws.plan
    out = np.empty(4 + 4 * k + 12 * n + 1 + 14 + 6)
    for r in range(4):  # com.x, com.y, com.vx, com.vy: np.mean's sum from zero, over k
        src = q if r < 2 else qd
        acc = 0.0
        for m in range(k):
            acc += src[2 * m + r % 2]
        out[r] = acc / k
    o = 4
    for m in range(k):
        out[o], out[o + 1], out[o + 2], out[o + 3] = q[2 * m], q[2 * m + 1], F_seg[m, 0], \
            F_seg[m, 1]
        o += 4
    for i in range(n):
        for j in range(2):
            cj = 2 * k + 2 * i + j
            out[o], out[o + 1] = q[cj], qd[cj]
            out[o + 2], out[o + 3] = tau_link[2 * i + j], Th_d[2 * i + j]
            o += 4
        out[o], out[o + 1], out[o + 2], out[o + 3] = feet[i, 0], feet[i, 1], F_feet[i, 0], \
            F_feet[i, 1]
        o += 4
    out[o] = impacts
    o += 1
    idx = np.array([0, 1, 2 * k, 2 * k + 1])
    qdd = (qd[idx] - qd_prev[idx]) / dt
    I, CC, G = model.torque_terms(q[idx], qd[idx], qdd, c)
    for j in range(2):
        out[o], out[o + 1], out[o + 2], out[o + 3] = qdd[2 + j], tau_m[j], th_m[j], th_T[j]
        out[o + 4], out[o + 5], out[o + 6] = I[2 + j], CC[2 + j], G[2 + j]
        o += 7
    pl = leg_plan(t, np.int64(0), plan[0], plan[1], plan[2])  # leg 1 (not a literal: one compile)
    out[o], out[o + 1] = feet_v[0, 0], feet_v[0, 1]
    out[o + 2], out[o + 3], out[o + 4], out[o + 5] = pl[2], pl[3], pl[5], pl[7]
    return out
