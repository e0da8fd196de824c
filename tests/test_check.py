"""`dynval check` against the committed baselines, through the command line: the flat
landing reproduces them, and a 5 % heavier lower leg moves them (exit 1, JUnit failure)."""

from typer.testing import CliRunner

from dynval.comparisons.cli import app

runner = CliRunner()
ARGS = ["check", "--robot", "landing_gear", "--scenario", "flat"]


def test_check_passes_on_unchanged_parameters(tmp_path):
    junit = tmp_path / "junit.xml"
    res = runner.invoke(app, [*ARGS, "--out", str(tmp_path), "--junit", str(junit)])
    assert res.exit_code == 0, res.output
    assert 'failures="0"' in junit.read_text()


def test_check_fails_when_a_leg_mass_changes_by_five_percent(tmp_path):
    junit = tmp_path / "junit.xml"
    res = runner.invoke(app, [*ARGS, "--out", str(tmp_path), "--junit", str(junit),
                              "--set", "landing_gear.m_L=0.1575"])
    assert res.exit_code == 1, res.output
    assert "moved" in res.output
    assert 'failures="0"' not in junit.read_text()


ROVER = ["check", "--robot", "rover", "--scenario", "steady_A"]


def test_rover_check_passes_and_a_heavier_segment_moves_it(tmp_path):
    res = runner.invoke(app, [*ROVER, "--out", str(tmp_path / "same")])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, [*ROVER, "--out", str(tmp_path / "heavy"),
                              "--set", "rover.m_seg=210"])
    assert res.exit_code == 1, res.output
    assert "moved" in res.output


QUADRUPED = ["check", "--robot", "quadruped", "--scenario", "trot"]


def test_quadruped_check_passes_and_stiffer_joint_gains_move_it(tmp_path):
    res = runner.invoke(app, [*QUADRUPED, "--out", str(tmp_path / "same")])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, [*QUADRUPED, "--out", str(tmp_path / "stiff"),
                              "--set", "quadruped.K_P=84"])
    assert res.exit_code == 1, res.output
    assert "moved" in res.output


HOPPER = ["check", "--robot", "hopper", "--scenario", "height", "--no-cache"]


def test_check_noise_floor_passes_a_1e12_change_and_fails_a_1e6_change(tmp_path):
    """Figures that measure round-off are held to their noise floor, not their last bits:
    a body mass moved by 1e-12 of itself leaves the gate green, 1e-6 turns it red."""
    res = runner.invoke(app, [*HOPPER, "--out", str(tmp_path / "tiny"),
                              "--set", "hopper.M=10.00000000001"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, [*HOPPER, "--out", str(tmp_path / "small"),
                              "--set", "hopper.M=10.00001"])
    assert res.exit_code == 1, res.output
    assert "moved" in res.output


def _status(rows: list, baseline: dict) -> list[str]:
    """The check's verdict on each baseline figure: the current run's ``rows`` against
    ``baseline``, each a list of (metric, value, reference) of one pair of the
    quadruped's walk."""
    from dynval.comparisons.run.check import KEY, compare_to_baseline
    from dynval.results import MetricRow, metrics_frame

    def row(metric: str, value: float, ref: str) -> MetricRow:
        return MetricRow("quadruped", "section 6", "L5", "walk dt=0.002",
                         "joint.RB.HFE.velocity", ref, "handrolled", metric, value, None,
                         True, "", "recomputed")

    current = [row(m, v, ref) for m, v, ref in rows]
    base = {tuple(getattr(r, k) for k in KEY): {"value": v, "passed": True}
            for r, v in ((row(m, 0.0, ref), v) for m, v, ref in baseline)}
    return [f.status for f in compare_to_baseline(metrics_frame(current), base)]


def test_a_figure_moves_past_round_off_and_not_below_it():
    """Any figure may move by FLOOR_REL of itself (another CPU's BLAS kernels move the
    closed-loop figures by up to 6.4e-9 of themselves), not by more; a step-halving ratio
    alone by FLOOR_REL too, by PYBULLET_RATIO_REL where PyBullet is a side."""
    def status(metric: str, baseline: float, current: float, ref: str = "mujoco") -> str:
        return _status([(metric, current, ref)], [(metric, baseline, ref)])[0]

    assert status("max_pct_error", 2.0, 2.0 * (1 + 6.4e-9)) == "ok"
    assert status("max_pct_error", 2.0, 2.0 * (1 + 4e-8)) == "moved"
    assert status("halving_ratio", 2.0, 2.0 * (1 + 6.4e-9)) == "ok"
    assert status("halving_ratio", 2.0, 2.0 * (1 + 4e-8)) == "moved"
    # PyBullet's side: 1e-12 of a mass moves its ratios by up to 8.8e-4, a real change more
    assert status("halving_ratio", 2.0, 2.0 * (1 + 9e-4), "pybullet") == "ok"
    assert status("halving_ratio", 2.0, 2.0 * (1 + 2e-2), "pybullet") == "moved"


def test_a_halving_ratio_may_move_as_far_as_the_errors_it_divides():
    """The quadruped walk's RK4 ratio 16.0 of the errors 6.6e-8 % at dt and 4.1e-9 % at
    dt/2, each held to MOVE_ABS = 1e-9 %: the quotient may move by 16 (1e-9 / 6.6e-8 +
    1e-9 / 4.1e-9) = 4.1 (plus the relative parts), so 15.8 and 16.2 (measured across
    OpenBLAS's kernels: 15.79 to 16.05) are round-off, and 8.0 (third order) is a move."""
    base = [("max_pct_error", 6.6e-8, "ik"), ("halving_ratio", 16.0, "ik")]
    for ratio in (15.8, 16.2):
        assert _status([("max_pct_error", 6.6e-8, "ik"), ("halving_ratio", ratio, "ik")],
                       base) == ["ok", "ok"]
    assert _status([("max_pct_error", 6.6e-8, "ik"), ("halving_ratio", 8.0, "ik")],
                   base) == ["ok", "moved"]
    # where the errors are large beside the margin the ratio is held as tightly as alone
    big = [("max_pct_error", 3.0, "ik"), ("halving_ratio", 16.0, "ik")]
    assert _status([("max_pct_error", 3.0, "ik"), ("halving_ratio", 16.0 * (1 + 4e-8), "ik")],
                   big) == ["ok", "moved"]


def test_a_study_run_in_part_by_a_subset_is_not_run_and_one_run_whole_is_missing():
    """`check --scenario disturbed_3_50` runs the rover's knock sweep with its engines on
    that scenario's knocks only: the other knocks' engine figures are 'not run'; without
    the subset (``partial`` empty) the same absence is 'missing'."""
    from dynval.comparisons.run.check import KEY, compare_to_baseline
    from dynval.results import MetricRow, metrics_frame

    def row(candidate: str) -> MetricRow:
        return MetricRow("rover", "5.1.2 sweep 3 m/s", "L5", "-", "joint.q7.knock25.final",
                         "-", candidate, "recomputed", 0.089, None, True, "", "recomputed")

    base = {tuple(getattr(r, k) for k in KEY): {"value": r.value, "passed": True}
            for r in (row("handrolled"), row("mujoco"))}
    ran = metrics_frame([row("handrolled")])
    part = compare_to_baseline(ran, base, partial=("5.1.2 sweep 3 m/s",))
    whole = compare_to_baseline(ran, base)
    assert sorted(f.status for f in part) == ["not run", "ok"]
    assert sorted(f.status for f in whole) == ["missing", "ok"]


# one parameter of each robot, at its default: landing gear's contact spring, the
# quadruped's joint gain, the hopper's body mass, the hexapod's body mass, a rover segment
ONE_EACH = {"landing_gear.k": 1500.0, "quadruped.K_P": 80.0, "hopper.M": 10.0,
            "hexapod.M_b": 88.0, "rover.m_seg": 200.0}


def _moved_by(tmp_path, factor: float):
    sets = [a for name, v in ONE_EACH.items() for a in ("--set", f"{name}={v * factor!r}")]
    return runner.invoke(app, ["check", "--out", str(tmp_path), *sets])


def test_a_1e12_change_of_a_parameter_moves_no_gated_figure_of_any_robot(tmp_path):
    """Every robot's ci tier with one parameter moved by 1e-12 of itself: the figures
    a change of 1e-12 moves by their own size (ill-posed, measured when the baselines
    were written) are reported, not gated, and no gated figure moves."""
    res = _moved_by(tmp_path, 1.0 + 1e-12)
    assert res.exit_code == 0, res.output[-3000:]
    assert "0 of " in res.output and "reported, not gated" in res.output


def test_a_1_percent_change_moves_figures_of_every_robot(tmp_path):
    res = _moved_by(tmp_path, 1.01)
    assert res.exit_code == 1
    moved = {line.split("│")[2].strip() for line in res.output.splitlines()
             if line.startswith("│ moved")}
    assert moved == {name.split(".")[0] for name in ONE_EACH}, moved


def test_an_ill_posed_figure_is_reported_and_a_spread_widens_the_margin():
    """A baseline figure whose spread reaches a tenth of itself is ill-posed whatever it
    does; one with a small spread may move by ten times it and no further; a lag beside
    an ill-posed nrmse of the same pair is ill-posed too."""
    from dynval.comparisons.run.check import KEY, compare_to_baseline
    from dynval.results import MetricRow, metrics_frame

    def row(metric: str, value: float) -> MetricRow:
        return MetricRow("landing_gear", "flat", "L4", "native", "body.roll", "mujoco",
                         "pybullet", metric, value, None, True, "", "agreement")

    def key(metric: str) -> tuple:
        return tuple(getattr(row(metric, 0.0), k) for k in KEY)

    base = {key("nrmse"): {"value": 1.6e8, "passed": True, "spread": 2.8e8},
            key("lag"): {"value": -0.295, "passed": True, "spread": 0.0},
            key("rmse"): {"value": 2.0, "passed": True, "spread": 1e-6}}
    status = {f.key[-1]: f.status for f in compare_to_baseline(metrics_frame(
        [row("nrmse", 4.4e8), row("lag", 0.2), row("rmse", 2.0 + 9e-6)]), base)}
    assert status == {"nrmse": "ill-posed", "lag": "ill-posed", "rmse": "ok"}
    status = {f.key[-1]: f.status for f in compare_to_baseline(metrics_frame(
        [row("nrmse", 4.4e8), row("lag", 0.2), row("rmse", 2.0 + 1.1e-5)]), base)}
    assert status["rmse"] == "moved"
    failing = metrics_frame([row("nrmse", 4.4e8), row("lag", 0.2), row("rmse", 2.0)])
    failing.loc[failing["metric"] == "nrmse", "passed"] = False  # its verdict turned
    status = {f.key[-1]: f.status for f in compare_to_baseline(failing, base)}
    assert status["nrmse"] == "failed"


def test_an_edit_to_the_readable_model_alone_moves_the_gate(tmp_path, monkeypatch):
    """The landing gear's readable contact law (eqs. 25-31, SlopeContact.forces) 1 %
    stiffer while its compiled copy (fastloop) is left alone: the ci tier's readable run
    no longer matches the compiled one, and the gate fails on it (one process, so that
    the edit is the one every task runs). The touchdown's reference (landing_gear.
    decoupled) steps the loop's readable laws too, so its rows against the compiled
    hand-rolled run move with them; nothing else does."""
    from dynval.handrolled.landing_gear.contact import SlopeContact

    forces = SlopeContact.forces

    def stiffer(self, p_feet, v_feet):
        k = self.k
        self.k = 1.01 * k
        try:
            return forces(self, p_feet, v_feet)
        finally:
            self.k = k

    monkeypatch.setattr(SlopeContact, "forces", stiffer)
    res = runner.invoke(app, [*ARGS, "--out", str(tmp_path), "--workers", "1",
                              "--no-cache"])
    assert res.exit_code == 1, res.output[-2000:]
    rows = [line for line in res.output.splitlines() if line.startswith("│")]
    assert rows and all("readable" in line or "max_abs_touchdown" in line
                        for line in rows), rows  # only the parity and the touchdown
    assert any("readable" in line for line in rows), rows
    assert all("│ failed" in line or "│ moved" in line for line in rows), rows
