"""The hexapod's scenarios (the paper's Sec. V.2: Figs. 4-8 for WG beta = 50 % and EPFC
beta = 35 %; Figs. 9-17, the wave gait again with one model changed at a time: the sine
profile (1b), the linear ground (11), the flexible transmission with friction (8) and the
backlash with impacts (9)) and how one is run for each implementation.

Length: SETTLE_CYCLES cycles of T = L_S / V_F = 1 s to settle, then the judged cycle, the
span of the paper's time plots (the impact spikes it points out near t = 0.9 s and the
rebound at about 0.95 s are within it). The robot starts from its loaded static stance at
t = 0 (loop.loaded_start: feet sunk to carry the weight, body springs and drives at their
static loads, the controller's filters at rest); the simulation steps at f_sr = 20 kHz,
the controller samples at f_sc = 2 kHz; traces are recorded at 1 kHz. A run's trace is its
judged (last) cycle, its time shifted by the settling cycles so that it spans [0, T] as the
paper's plots do (the plan is periodic in T, so the phases are the paper's); the gear
impact count is counted from the judged cycle's start. A shortened run (the ci tier's
``until``) keeps its whole trace from t = 0."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

from dynval.comparisons.hexapod.loop import HexapodLoop, loaded_start, make_plant
from dynval.comparisons.ladder import harness
from dynval.comparisons.ladder.scenario_run import Runner, ScenarioRun, Warmup
from dynval.robots.hexapod.params import HexapodParams

# How far the body may move from its start before a run is called diverged: it walks V_F T
# = 1 m in a cycle (WORKSPACE_X beyond the plan's travel) and its hips stay within
# centimetres of H_B [m].
WORKSPACE_X, WORKSPACE_Y = 2.0, 0.3
# Cycles run before the judged one: the loaded start is static, the walk is not; three
# cycles let the start's transient die out (the judged cycle's start and end states are
# compared in the chapter, validate.REQ_PERIODIC)
SETTLE_CYCLES = 3


@dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    gait: str
    beta: float
    profile: str  # eq. (1a) "cycloid" or (1b) "sine"
    ground: str  # eq. (11) "linear" or (12) "nonlinear"
    duration: float  # [s], the judged cycle (settling cycles come before it)
    description: str
    transmission: str = "ideal"  # eq. (7) "ideal", (8) "flexible" or (9) "backlash"


SCENARIOS: dict[str, Scenario] = {
    "WG_50": Scenario(
        "WG_50", "Wave gait, beta = 50 % (Figs. 4, 6, 7, 9-11)", "WG", 0.5, "cycloid",
        "nonlinear", 1.0,
        "One cycle (T = 1 s) of the wave gait at duty factor 0.5 (the tripod gait), V_F = 1 "
        "m/s, cycloidal foot transfers (1a), ideal drives saturating at 400 N m (7), the "
        "non-linear ground of eq. (12) on compact clay, the FO PD^0.5 of Table IV at 2 kHz."),
    "EPFC_35": Scenario(
        "EPFC_35", "Equal phase full cycle gait, beta = 35 % (Figs. 5, 8)", "EPFC", 0.35,
        "cycloid", "nonlinear", 1.0,
        "One cycle of the equal phase full cycle gait at duty factor 0.35: longer transfers "
        "(t_T = 0.65 s) than the wave gait's; otherwise as WG_50."),
    "WG_50_sine": Scenario(
        "WG_50_sine", "Wave gait, beta = 50 %, sinusoidal foot transfers (Fig. 9)", "WG", 0.5,
        "sine", "nonlinear", 1.0,
        "WG_50 with the sinusoidal foot transfer profile of eq. (1b) instead of the cycloid "
        "(1a): the right-hand chart of Fig. 9."),
    "WG_50_linear": Scenario(
        "WG_50_linear", "Wave gait, beta = 50 %, linear ground (Fig. 10)", "WG", 0.5,
        "cycloid", "linear", 1.0,
        "WG_50 on the linear spring-dashpot ground of eq. (11) (Table I's K and B of compact "
        "clay) instead of the non-linear one of eq. (12): Fig. 10 against Fig. 11."),
    "WG_50_flexible": Scenario(
        "WG_50_flexible", "Wave gait, beta = 50 %, flexible drives with friction "
        "(Figs. 12-14)", "WG", 0.5, "cycloid", "nonlinear", 1.0,
        "WG_50 with every joint driven through the flexible transmission of eq. (8): motor "
        "inertia J_ijm, viscous friction B_ijm and stiffness K_ijT of Table I, the motor "
        "torque still saturating at 400 N m (7).", "flexible"),
    "WG_50_backlash": Scenario(
        "WG_50_backlash", "Wave gait, beta = 50 %, drives with backlash (Figs. 15-17)", "WG",
        0.5, "cycloid", "nonlinear", 1.0,
        "WG_50 with the drives of eq. (9): motor (9a) and gear output side (inertia J_ijT, "
        "friction B_ijT) within the play h_ij = 1 mrad, colliding with restitution eps_ij = "
        "0.8 by (9b)-(9c), the output driving the link through K_ijT (9d).", "backlash"),
}


def scenario_params(p: HexapodParams, sc: Scenario) -> HexapodParams:
    """The parameters a scenario runs with: its gait, duty factor, profile, ground and
    transmission."""
    return p.with_(gait=sc.gait, beta=sc.beta, profile=sc.profile, ground=sc.ground,
                   transmission=sc.transmission)


def make_loop(implementation: str, contact: str, sc: Scenario, p: HexapodParams,
              desc_dir: Path, body_form: str = "corrected", start_shift: float = 0.0,
              fast: bool = True, **changes) -> ScenarioRun:
    """One implementation's closed loop in one scenario, from the loaded stance: the
    SETTLE_CYCLES cycles as its warm-up, then the judged cycle, sampled at 1 kHz (module
    docstring). ``changes`` replace parameters after the scenario's own, e.g.
    profile="sine"; ``body_form`` "printed" runs eq. (10) as printed; ``start_shift`` [m]
    raises the first segment's start, the perturbation that measures the run's own
    sensitivity; ``fast`` False steps the readable laws and model in Python instead of
    their compiled copies."""
    p = scenario_params(p, sc).with_(**changes) if changes else scenario_params(p, sc)
    stance = loaded_start(p, body_form)
    plant = make_plant(implementation, p, contact, desc_dir, fast)
    q0, qd0 = stance.start()
    q0[1] += start_shift  # segment 1's height
    plant.reset(q0, qd0)
    loop = HexapodLoop(plant, p, body_form, fast=fast, stance=stance)
    run = ScenarioRun(loop, 1.0 / p.f_sr, sc.duration,
                      record_every=max(1, int(round(p.f_sr / 1000.0))),
                      workspace=lambda length: _workspace(p, length))

    def settle() -> None:
        """The settling cycles, checked for divergence as the judged one, then not kept;
        the impact count restarts every cycle (the harness bounds every signal by 1e6,
        and a closed play gives an impact a joint a step: 240,000 a cycle at 20 kHz),
        and at the judged cycle's start."""
        for _ in range(SETTLE_CYCLES):
            loop.drive.impacts = 0
            run.record(p.T)
        loop.drive.impacts = 0

    return replace(run, warmup=Warmup(SETTLE_CYCLES * p.T, settle))


# one implementation's wide trace of one scenario (make_loop, run by the framework): the
# judged cycle with its time from 0, or a shortened run (``until``) whole from t = 0
run_one = Runner(make_loop)


def _workspace(p: HexapodParams, length: float) -> dict[str, float]:
    """How far the body may move in a run of ``length`` [s] before it is called diverged:
    the plan's travel V_F length and WORKSPACE_X beyond it, WORKSPACE_Y in height."""
    return {"com.x": p.V_F * length + WORKSPACE_X, "com.y": WORKSPACE_Y}


def judged(df: pd.DataFrame, settle: float, shortened: bool = False) -> pd.DataFrame:
    """The judged part of a whole run's trace: the samples from ``settle`` on, time
    shifted to start at 0, gear impacts counted from there (a ``shortened`` run: all of
    it, unshifted)."""
    if shortened:
        return df
    t = df["time"].to_numpy()
    first = int(np.argmin(np.abs(t - settle)))  # the sample at the settling's end
    out = df.iloc[first:].reset_index(drop=True)
    out["time"] = out["time"] - out["time"].iloc[0]
    if "hexapod.gear_impacts" in out:
        out["hexapod.gear_impacts"] -= out["hexapod.gear_impacts"].iloc[0]
    return out


def heun_run(p: HexapodParams, sc: Scenario, until: float | None = None, **changes
             ) -> pd.DataFrame:
    """The paper's own integration of a scenario: PlanarHexapod.step (compiled,
    fast.robot.CompiledPlanarHexapod), Heun's RK2 with the
    ground (11)-(12), the body springs (10) and the drives (7)-(9) inside both stages (the
    controller's torques held between its samples at f_sc, Fig. 3's force loop from the
    ground forces at the sample), from the same loaded stance, settling cycles and judged
    cycle as :func:`run_one`; a trace of the body, every foot and leg 1's joints at
    1 kHz (the signals the error budget and the requirements read)."""
    from dynval.handrolled.hexapod.control import FractionalPD
    from dynval.handrolled.hexapod.fast.robot import CompiledPlanarHexapod
    from dynval.handrolled.hexapod.transmission import link_torque, saturate
    from dynval.robots.hexapod.params import leg_names

    p = scenario_params(p, sc).with_(**changes) if changes else scenario_params(p, sc)
    stance = loaded_start(p)
    r = CompiledPlanarHexapod(p)
    r.q, r.qd = stance.start()
    r.th_m, r.th_T = stance.th_m.copy(), stance.th_T.copy()
    r.th_m_dot, r.th_T_dot = r.qd[2 * r.k:].copy(), r.qd[2 * r.k:].copy()
    feet, _ = r.feet(r.q, r.qd)
    r.eta_0 = np.where((feet[:, 1] < 0.0)[:, None],
                       np.column_stack([feet[:, 0], np.zeros(r.n)]), np.nan)
    ctrl = FractionalPD(p)
    ctrl.preload(stance.e)
    record_every = max(1, int(round(p.f_sr / 1000.0)))
    settle = SETTLE_CYCLES * p.T
    total = settle + sc.duration
    steps = int(round(harness.run_length(total, until) * p.f_sr))
    legs, k = leg_names(p), r.k
    rows, tau_C = [], np.zeros(2 * p.n)
    s = 0
    while True:
        if s % r.ratio == 0 or s % record_every == 0:
            F = r.ground_forces(r.q, r.qd)
        if s % r.ratio == 0:  # controller sample, zero-order hold
            tau_C = ctrl(r.reference_angles(r.t), r.q[2 * k:], r.ground_joint_torques(r.q, F))
        if s % record_every == 0:
            pos, _ = r.feet(r.q, r.qd)
            tau = link_torque(saturate(tau_C, p.tau_max), r.th_m, r.th_T, r.q[2 * k:], p,
                              p.transmission)
            row = {"time": r.t, "com.y": float(np.mean(r.q[1:2 * k:2])),
                   "com.vy": float(np.mean(r.qd[1:2 * k:2])),
                   "com.vx": float(np.mean(r.qd[0:2 * k:2])),
                   f"joint.{legs[0]}.hip.angle": r.q[2 * k],
                   f"joint.{legs[0]}.hip.torque": tau[0],
                   "hexapod.gear_impacts": float(r.impacts)}
            for i, leg in enumerate(legs):
                row[f"foot.{leg}.x"], row[f"foot.{leg}.y"] = pos[i]
                row[f"foot.{leg}.force.x"], row[f"foot.{leg}.force.y"] = F[i]
            rows.append(row)
            if not np.all(np.isfinite(r.q)):
                raise harness.DivergenceError(f"handrolled Heun diverged by t = {r.t:.4f} s")
        if s == steps:
            break
        # the steps up to the next controller sample or record, tau_C held (one call)
        nxt = min((s // r.ratio + 1) * r.ratio, (s // record_every + 1) * record_every, steps)
        r.advance(tau_C, nxt - s)
        s = nxt
    return judged(pd.DataFrame(rows), settle, steps < int(round(total * p.f_sr)))
