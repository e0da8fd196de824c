"""The cart-pole's declaration for the validation ladder: the audit of eqs. (1)-(4) and of
the pole's tip, the unforced swing (L3), the balancing and the drop onto the floor (L4) in
every implementation, and an error budget of the balancing run; no published trajectory
to hold them to (L5)."""

from __future__ import annotations

import math

from dynval.comparisons import ladder
from dynval.results import BudgetRow, NotReproduced, Rung
from dynval_cartpole.comparison import audit
from dynval_cartpole.comparison.scenarios import IMPLEMENTATIONS, SCENARIOS, Scenario
from dynval_cartpole.model.protocol import CartPole

ROBOT = "cartpole"

# Every implementation (MuJoCo's Euler, PyBullet's step, Drake's discrete step) steps
# semi-implicit Euler on the same eqs. (1)-(2) with the forces of the same state (the
# regulator's on the cart, eq. (5)'s on the tip): what is left is round-off, a few 1e-16
# per step, grown by how sensitive the run is. The regulated balance is stable (growth at
# most linear over its 4000 steps); the drop falls from near upright, which amplifies a
# shift of its start 1.3e4-fold (measured: 1e-12 rad -> 1.3e-8 rad over its 3 s), so
# round-off stays below about 3000 steps x 1e-16 x 1.3e4 = 4e-9 at worst; measured: 2e-12
# (PyBullet). A 1 % wrong pole mass moves either run by 1e-3 or more.
ROUND_OFF = 1e-9
TOLERANCES = {
    ("joint.hinge.angle", "max_abs"): ladder.Tolerance(
        "max_abs", ROUND_OFF, "round-off: the same eqs. (1)-(2), force law and Euler step"),
    ("joint.slider.extension", "max_abs"): ladder.Tolerance(
        "max_abs", ROUND_OFF, "round-off: the same eqs. (1)-(2), force law and Euler step"),
}


class CartPoleLadder(ladder.RobotLadder):
    robot = ROBOT
    title = "Cart-pole (a robot from a package of its own)"
    implementations = IMPLEMENTATIONS
    paper = ("Florian: Correct equations for the dynamics of the cart-pole system (2007); "
             "the balancing task of Barto, Sutton, Anderson (IEEE SMC 13, 1983)")
    l1_what = "pole centre, tip and the tip's Jacobian vs engines"
    l2_what = "M, C q' + G, G and inverse dynamics of eqs. (1)-(4) vs engines"
    audit_reason = "round-off: eqs. (1)-(4) and the engines describe the same two bodies"
    budget_what = ("the balancing run's differences: the hand model's step, and each "
                   "engine against the hand model")

    def audit_terms(self, inp: ladder.Inputs) -> ladder.AuditResults:
        p, d, n, seed = inp.params, inp.desc_dir, inp.samples, inp.seed
        return ladder.AuditResults(audit.kinematics_audit(p, d, n, seed),
                                   audit.dynamics_audit(p, d, n, seed))

    def swung(self, p) -> list[ladder.Swung]:
        """L3: eqs. (1)-(2) swung freely against the URDF in every engine."""
        return [ladder.Swung("cart and pole", CartPole(p), "cartpole.urdf", (0.0, 0.0, -p.g))]

    def variants(self, sc: Scenario) -> list[ladder.Variant]:
        return [ladder.Variant.shared(TOLERANCES, self.shared_runs(sc))]

    def figures(self, ctx: ladder.Context, sc: Scenario, variant: ladder.Variant) -> list:
        plots = [ladder.TimePlot("Pole", ["joint.hinge.angle"], "Pole angle theta of eq. (2)."),
                 ladder.TimePlot("Cart", ["joint.slider.extension"],
                                 "Cart position x of eq. (1).")]
        if sc.floor:
            return plots + [
                ladder.TimePlot("Tip", ["cartpole.tip.z"], "Height of the pole's tip; the "
                                f"floor is at -h_f = {-ctx.params.h_f:g} m."),
                ladder.TimePlot("Floor", ["cartpole.tip.force.z"],
                                "The floor's force on the tip, eq. (5).")]
        return plots + [ladder.TimePlot("Force", ["joint.slider.force"],
                                        "The regulator's force F.")]

    def premise(self, ctx: ladder.Context, sc: Scenario, variant: ladder.Variant,
                wide: dict) -> NotReproduced | None:
        """The drop's premise: the tip meets the floor (eq. (5)'s force acts in some
        sample of every implementation's run), else the run compares no contact."""
        if not sc.floor:
            return None
        dry = [impl for impl, df in wide.items() if not (df["cartpole.tip.force.z"] > 0).any()]
        if not dry:
            return None
        lowest = min(float(wide[i]["cartpole.tip.z"].min()) for i in dry)
        return NotReproduced(sc.name, "the pole's tip strikes the floor",
                             f"no floor force in {', '.join(dry)}: the tip's lowest point "
                             f"{lowest:.3g} m, the floor at {-ctx.params.h_f:g} m")

    def extra_tasks(self, inp: ladder.Inputs) -> dict:
        """The budget's run: the hand model at dt/2."""
        if "balance" not in inp.scenarios:
            return {}
        half = inp.params.with_(dt=inp.params.dt / 2)
        return {"budget handrolled dt/2": (self.run_one, (half, SCENARIOS["balance"],
                                                           "handrolled", "shared", inp.desc_dir),
                                           {"until": inp.until})}

    def budget(self, ctx: ladder.Context) -> list[BudgetRow]:
        """One difference at a time on the balancing run (RMS differences)."""
        if ("balance", "shared") not in ctx.wide:
            return []
        wide = ctx.wide[("balance", "shared")]
        hand = wide["handrolled"]
        steps = [(f"integrator step (hand model, dt = {ctx.params.dt:g} s vs dt/2)", hand,
                  ctx.result("budget handrolled dt/2")),
                 ("engine (hand model vs MuJoCo, same step)", hand, wide.get("mujoco")),
                 ("engine (hand model vs PyBullet, same step)", hand, wide.get("pybullet")),
                 ("engine (hand model vs Drake, same step)", hand, wide.get("drake"))]
        return ladder.budget_rows("balance", steps, (
            ("joint.hinge.angle", 180.0 / math.pi, "deg"),
            ("joint.slider.extension", 1000.0, "mm")))

    def l5(self, ctx: ladder.Context) -> Rung:
        return Rung("not applicable", "no published trajectory of the balancing or the "
                                      "drop: nothing printed to hold the runs to")


LADDER = CartPoleLadder()
