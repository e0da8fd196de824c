"""Any robot: descriptions as they come, audited with no false alarm and every difference
named.  Small inline descriptions reproduce each false alarm real description packages
raised (fixed children, engine extras in the terms, packages, chaos, engines refusing,
near-zero terms, free joints in an MJCF) and each must-catch (a mass, a centre of mass, a
sign)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from dynval.comparisons.cli import app
from dynval.comparisons.ladder.terms import FLOOR, Term, scales
from dynval.comparisons.own_model import swing
from dynval.comparisons.own_model.audit import audit_model
from dynval.comparisons.own_model.parity import EngineModel, parity_audit
from dynval.engines.pinocchio_engine import PinocchioTerms
from dynval.model import ModelError

runner = CliRunner()


def inertial(mass: float, xyz: str = "0 0 -0.2", rpy: str = "0.3 0.2 0.1",
             ixx: float = 0.02, iyy: float = 0.03, izz: float = 0.04, ixy: float = 0.001
             ) -> str:
    return (f'<inertial><origin xyz="{xyz}" rpy="{rpy}"/><mass value="{mass}"/>'
            f'<inertia ixx="{ixx}" ixy="{ixy}" ixz="0" iyy="{iyy}" iyz="0" izz="{izz}"/>'
            "</inertial>")


def arm(tmp: Path, *, extra_joint: str = "", sensor: str = inertial(0.3, "0.05 0 0"),
        upper: str = inertial(1.0), lower: str = inertial(0.7, "0 0 -0.25"),
        mesh: str = "", axis: str = "0 1 0", name: str = "arm.urdf", root: str = "world",
        root_inertial: str = "") -> Path:
    """A two-joint arm with a sensor welded to its forearm and a rotated inertial frame
    on every link: what real descriptions look like."""
    text = f"""<?xml version="1.0"?>
<robot name="arm">
  <link name="world"/>
  <link name="upper">{upper}{mesh}</link>
  <link name="fore">{lower}</link>
  <link name="sensor">{sensor}</link>
  <joint name="base_joint" type="fixed"><parent link="world"/><child link="upper"/></joint>
  <joint name="shoulder" type="revolute"><parent link="world"/><child link="upper"/>
    <origin xyz="0 0 1" rpy="0.1 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-0.5" upper="0.5" effort="10" velocity="1"/>
    <dynamics damping="0.7" friction="0.3"/></joint>
  <joint name="elbow" type="revolute"><parent link="upper"/><child link="fore"/>
    <origin xyz="0 0.1 -0.4" rpy="0 0.2 0"/><axis xyz="{axis}"/>
    <limit lower="-0.5" upper="0.5" effort="10" velocity="1"/>{extra_joint}</joint>
  <joint name="mount" type="fixed"><parent link="fore"/><child link="sensor"/>
    <origin xyz="0 0 -0.5" rpy="0.4 0 0"/></joint>
</robot>"""
    text = text.replace('  <joint name="base_joint" type="fixed"><parent link="world"/>'
                        '<child link="upper"/></joint>\n', "")
    path = tmp / name
    text = text.replace('<link name="world"/>', f'<link name="world">{root_inertial}</link>')
    path.write_text(text.replace('"world"', f'"{root}"'))
    return path


def model_of(path: Path, **kw) -> EngineModel:
    """A correct model of the description: Pinocchio's algorithms on it."""
    terms = PinocchioTerms(path, joint_names=["shoulder", "elbow"])
    return EngineModel(terms, ["shoulder", "elbow"], ["sensor"], "fixed", **kw)


# --- 2: a term audit audits terms; 4: like with like ---------------------------------------

def test_a_correct_model_of_a_real_looking_arm_passes_every_rung(tmp_path):
    """Limits, damping, friction, a welded sensor and rotated inertial frames: each a false
    alarm before. States span +-pi, outside the limits; MuJoCo's inverse dynamics would add
    the limit and damping forces, and L0 would compare the welded sensor alone."""
    path = arm(tmp_path)
    audit = audit_model(model_of(path), path, 40, 0)
    assert set(audit.engines) == {"mujoco", "pybullet", "pinocchio", "drake"}
    assert audit.passed, ([audit.explain(r) for r in audit.failures]
                          + [r for r in audit.l0_failures]
                          + [audit.explain_l3(r) for r in audit.l3_failures])
    bodies = {r["quantity"].split(":")[0] for r in audit.l0}
    assert "body fore" in bodies and "body sensor" not in bodies  # merged alike
    said = " ".join(audit.notes)
    assert "joint limits (2)" in said and "joint damping (1)" in said
    assert "friction loss (1)" in said


def test_engines_add_their_extras_unless_switched_off(tmp_path):
    """The reason for switching them off, measured: with limits and damping on, MuJoCo's
    inverse dynamics at a state outside the limits is not M a + bias."""
    from dynval.engines.mujoco_engine import MujocoTerms

    path = arm(tmp_path)
    q, v, a = np.array([1.2, -1.0]), np.array([0.5, -2.0]), np.array([1.0, 2.0])
    bare = MujocoTerms(path, joint_names=["shoulder", "elbow"], rigid_body=True)
    raw = MujocoTerms(path, joint_names=["shoulder", "elbow"])
    pin = PinocchioTerms(path, joint_names=["shoulder", "elbow"])
    ref = pin.inverse_dynamics(q, v, a)
    np.testing.assert_allclose(bare.inverse_dynamics(q, v, a), ref, rtol=1e-12, atol=1e-12)
    assert np.max(np.abs(raw.inverse_dynamics(q, v, a) - ref)) > 0.1


def test_a_wrong_mass_is_caught_and_named_by_link_and_parameter(tmp_path):
    """The model's forearm 1 % heavier than the description's: the terms fail, and the
    regressor says which link and which parameter, with both values."""
    path = arm(tmp_path)
    heavy = arm(tmp_path, lower=inertial(0.707, "0 0 -0.25"), name="heavy.urdf")
    audit = audit_model(model_of(heavy), path, 40, 0)
    assert {"M", "tau"} <= {r.term for r in audit.failures}
    said = " ".join(audit.findings)
    assert "link `fore`" in said and "mass 1 kg in the description" in said, said
    assert "1.007 kg implied" in said, said


@pytest.mark.parametrize("variant", ["com", "axis", "fixed child"])
def test_broken_variants_are_caught(tmp_path, variant):
    """A centre of mass 1 mm off, an axis sign flipped, a welded child's mass dropped."""
    path = arm(tmp_path)
    broken = {"com": dict(lower=inertial(0.7, "0 0 -0.251")),
              "axis": dict(axis="0 -1 0"),
              "fixed child": dict(sensor="")}[variant]
    audit = audit_model(model_of(arm(tmp_path, name="broken.urdf", **broken)), path, 40, 0)
    assert not audit.passed
    assert audit.failures or audit.l3_failures


def test_a_bias_sign_flip_is_caught(tmp_path):
    path = arm(tmp_path)

    class Flipped(EngineModel):
        def bias(self, q, v):
            return 2 * self.gravity(q) - super().bias(q, v)  # C v with the wrong sign

    model = Flipped(PinocchioTerms(path, joint_names=["shoulder", "elbow"]),
                    ["shoulder", "elbow"], [], "fixed")
    audit = audit_model(model, path, 40, 0)
    assert {"bias", "C v"} <= {r.term for r in audit.failures}


# --- 1: descriptions as they come --------------------------------------------------------

def test_package_paths_resolve_and_a_missing_mesh_is_a_note(tmp_path):
    pkg = tmp_path / "pkgs" / "armpkg" / "meshes"
    pkg.mkdir(parents=True)
    (pkg / "upper.stl").write_text("solid upper\nendsolid upper\n")
    shape = '<geometry><mesh filename="package://armpkg/meshes/{}.stl"/></geometry>'
    mesh = (f"<visual>{shape.format('upper')}</visual>"
            f"<collision>{shape.format('missing')}</collision>")
    path = arm(tmp_path, mesh=mesh)
    res = runner.invoke(app, ["audit", "--description", str(path), "--samples", "20",
                              "--package-path", str(tmp_path / "pkgs")])
    assert res.exit_code == 0, res.output
    assert "1 of 2 meshes found, not found: package://armpkg/meshes/missing.stl" in res.output
    res = runner.invoke(app, ["audit", "--description", str(path), "--samples", "20"])
    assert res.exit_code == 0 and "0 of 2 meshes found" in res.output


# --- 5: a refusing engine does not stop the others ----------------------------------------

def test_an_impossible_inertia_is_a_finding_and_the_others_are_audited(tmp_path):
    """A + B < C on the forearm: MuJoCo refuses the file, which is named with the link and
    the condition; PyBullet, Pinocchio and Drake are audited (Drake reads the inertia its
    own way, which the file's finding explains); the verdict fails on the file."""
    path = arm(tmp_path, lower=inertial(0.7, ixx=0.01, iyy=0.01, izz=0.05, ixy=0.0))
    audit = parity_audit(path, 20, 0)
    assert "mujoco" in audit.refused and "link 'fore' violates the triangle inequality" in \
        audit.refused["mujoco"]
    assert audit.engines == ("pybullet", "drake") and audit.results
    assert any(f.startswith("Drake warns of link 'fore': ") for f in audit.findings)
    assert not audit.passed and audit.l0_failures[0]["quantity"] == "loads the file"
    assert audit.outcome == "file at fault"  # PyBullet, Pinocchio and Drake agree
    res = runner.invoke(app, ["audit", "--description", str(path), "--samples", "20"])
    assert res.exit_code == 6 and "not checked: MuJoCo refuses arm.urdf" in res.output
    assert "the file itself is at fault" in res.output


def test_an_engine_limitation_is_not_checked_and_not_a_finding(tmp_path, monkeypatch):
    """A free base whose root link has no <inertial>: PyBullet would give it 1 kg and
    MuJoCo refuses a massless moving body, so neither is checked and the file is not at
    fault; Drake reads it as Pinocchio does (a massless root carried by its links) and
    agrees.  Without Drake nothing is compared and the audit does not pass."""
    from dynval.engines import drake_engine

    path = arm(tmp_path, root="base")  # its root link has none
    audit = parity_audit(path, 20, 0, base="free")
    assert "1 kg" in audit.refused["pybullet"]
    assert "without mass" in audit.refused["mujoco"]
    assert not any(r["quantity"] == "loads the file" for r in audit.l0)
    assert audit.engines == ("drake",) and audit.results and audit.passed
    monkeypatch.setattr(drake_engine, "available", lambda: False)
    audit = parity_audit(path, 20, 0, base="free", l3=False)
    assert audit.engines == () and not audit.results and not audit.passed
    assert "dynval does not run Drake on arm.urdf: pydrake is not installed" in " ".join(
        audit.unchecked)
    res = runner.invoke(app, ["audit", "--description", str(path), "--samples", "20",
                              "--base", "free"])
    assert res.exit_code == 5 and "nothing could be compared" in res.output, res.output
    assert "0 differ" not in res.output or "no term" in res.output


# --- 6: an error measure that cannot cry wolf -----------------------------------------------

def test_scales_floor_near_zero_terms_at_the_family_scale():
    """A bias that is exactly zero against 7.5e-37 is agreement; a term of its own scale
    is measured against that scale; C v takes its operands' scale."""
    zero = np.zeros((3, 2))
    model = {"bias": zero, "G": np.full((3, 2), 10.0), "C v": np.full((3, 2), 1e-9)}
    engine = {"bias": zero + 7.5e-37, "G": np.full((3, 2), 10.0), "C v": zero}

    def t(name, operands=()):
        return Term(name, "", None, None, "", "vector", "force", operands)
    got = scales([t("bias"), t("G"), t("C v", ("bias", "G"))], model, engine)
    assert got["bias"] == FLOOR * 10.0 and got["G"] == 10.0 and got["C v"] == 10.0
    assert 7.5e-37 / got["bias"] < 1e-9  # round-off, not "relative 1"


def test_tiny_velocities_pass_and_a_wrong_model_at_1e6_fails(tmp_path):
    path = arm(tmp_path)
    correct = model_of(path)

    class Slow(EngineModel):  # states with velocities of 1e-6 rad/s: C v ~ 1e-12
        pass

    from dynval.comparisons.ladder import audit as ladder_audit

    real = ladder_audit.random_states
    try:
        ladder_audit.random_states = lambda n, seed, dim: [
            (q, v * 1e-6, a) for q, v, a in real(n, seed, dim)]
        import dynval.comparisons.own_model.audit as own
        own.random_states = ladder_audit.random_states
        audit = audit_model(correct, path, 30, 0)
        assert not audit.failures, [audit.explain(r) for r in audit.failures]

        class Off(EngineModel):
            def gravity(self, q):
                return super().gravity(q) * (1 + 1e-6)

            def bias(self, q, v):
                return super().bias(q, v) + 1e-6 * super().gravity(q)
        bad = Off(correct.engine, ["shoulder", "elbow"], [], "fixed")
        assert {"bias", "G"} <= {r.term for r in audit_model(bad, path, 30, 0).failures}
    finally:
        ladder_audit.random_states = real
        own.random_states = real


# --- 3: trajectories judged by what chaos allows ------------------------------------------

def test_the_envelope_grows_with_the_systems_own_sensitivity():
    """Two runs whose difference grows a thousandfold: g is that growth, and the horizon
    ends where the envelope reaches ENVELOPE_LIMIT."""
    t = np.arange(2001)[:, None]
    base = swing.Swing(np.zeros((2001, 1)))
    perturbed = swing.Swing(swing.DELTA * np.exp(t / 100.0))
    g = swing.growth(base, perturbed)
    assert g[0] == 1.0 and abs(g[1000] / np.exp(10.0) - 1) < 1e-12
    k = swing.horizon(g)
    assert swing.SWING_TOL * g[k - 1] <= swing.ENVELOPE_LIMIT < swing.SWING_TOL * g[k]


def test_a_diverging_model_is_an_l3_finding_and_keeps_l0_to_l2(tmp_path):
    path = arm(tmp_path)
    correct = model_of(path)

    class Blows(EngineModel):  # its accelerations overflow once the arm swings far
        def forward_dynamics(self, q, v, tau):
            a = super().forward_dynamics(q, v, tau)
            return np.full_like(a, np.inf) if abs(q[1]) > 1.0 else a

    audit = audit_model(Blows(correct.engine, ["shoulder", "elbow"], [], "fixed"), path, 20,
                        0)
    assert audit.results and audit.l0  # L0-L2 kept
    diverged = [r for r in audit.l3 if "diverged" in r]
    assert diverged and all("the model diverged" in r["diverged"] for r in diverged)
    assert all(not r["passed"] if "passed" in r else True for r in diverged)


# --- 7: engine parity without a model --------------------------------------------------------

FREE_MJCF = """<mujoco model="hopper">
  <worldbody>
    <body name="torso" pos="0 0 1">
      <freejoint name="root"/>
      <inertial pos="0.01 0 0.02" mass="3" diaginertia="0.1 0.2 0.25"/>
      <body name="leg" pos="0 0.1 -0.2">
        <joint name="hip" type="hinge" axis="0 1 0"/>
        <inertial pos="0 0 -0.2" quat="0.9 0.1 0 0" mass="1" diaginertia="0.02 0.03 0.04"/>
        <body name="foot" pos="0 0 -0.4">
          <joint name="knee" type="slide" axis="0 0 1"/>
          <inertial pos="0 0 -0.05" mass="0.3" diaginertia="0.001 0.002 0.002"/>
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>
"""


def test_an_mjcf_free_joint_is_audited_not_frozen(tmp_path):
    path = tmp_path / "hopper.xml"
    path.write_text(FREE_MJCF)
    audit = parity_audit(path, 30, 0)
    assert audit.label == "pinocchio" and audit.engines == ("mujoco", "pybullet", "drake")
    assert audit.dof == 8  # six of the free joint, two joints
    assert audit.passed and audit.results is not None
    fixed = model_of  # a model that leaves the free joint out is told so
    with pytest.raises(ModelError, match="root moves on a free joint"):
        class Fixed:
            joint_names = ("hip", "knee")

            def mass_matrix(self, q):
                return np.eye(2)
        audit_model(Fixed(), path, 3, 0)
    del fixed


def unnamed(tmp_path: Path, *names: str, extra: str = "") -> Path:
    """The hopper of FREE_MJCF on a fixed base with the named bodies' names left out and
    ``extra`` added beside the foot."""
    text = FREE_MJCF.replace('<freejoint name="root"/>', "")
    for name in names:
        text = text.replace(f'name="{name}" ', "")
    path = tmp_path / "unnamed.xml"
    path.write_text(text.replace("</body>\n      </body>", f"</body>{extra}\n      </body>"))
    return path


@pytest.mark.parametrize(("names", "foot"), [(("foot",), "#3 (child of 'leg')"),
                                             (("leg", "foot"), "#3 (child of #2)")],
                         ids=["foot unnamed", "leg and foot unnamed"])
def test_an_mjcf_with_unnamed_bodies_is_compared_body_by_body(tmp_path, names, foot):
    """MuJoCo keeps no name for an unnamed body and Pinocchio calls it after its parent:
    both engines name it by its number and parent, and it is compared at L0 (its mass and
    inertia), L1 (it is a leaf frame) and L2."""
    import mujoco

    from dynval.engines.mujoco_engine import MujocoTerms

    path = unnamed(tmp_path, *names)
    model = mujoco.MjModel.from_xml_path(str(path))
    assert mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_BODY, 3) is None
    assert set(MujocoTerms(path).body_inertials()) == set(PinocchioTerms(path).body_inertials())
    audit = parity_audit(path, 20, 0, l3=False)
    assert audit.label == "pinocchio" and audit.engines == ("mujoco", "pybullet", "drake")
    quantities = {r["quantity"] for r in audit.l0}
    assert {f"body {foot}: mass, centre of mass", f"body {foot}: inertia"} <= quantities
    assert {"M", "bias", "tau", f"p[{foot}]", f"J[{foot}]"} <= {r.term for r in audit.results}
    assert audit.passed and all(r["passed"] for r in audit.l0)


def test_unnamed_sibling_bodies_are_a_limitation_of_pinocchios_reader(tmp_path):
    """Pinocchio's reader gives two unnamed children of one body one name and builds
    another tree: a reader finding, no finding about the file; Pinocchio built from
    MuJoCo's compiled model is compared and agrees."""
    toe = ('<body pos="0.1 0 -0.4"><joint name="toe" axis="0 1 0"/>'
           '<inertial pos="0 0 -0.05" mass="0.1" diaginertia="0.001 0.001 0.001"/></body>')
    audit = parity_audit(unnamed(tmp_path, "foot", extra=toe), 10, 0, l3=False)
    assert any("calls both body #3 (child of 'leg') and body #4 (child of 'leg') 'legBis'"
               in s for s in audit.readers), audit.readers
    assert audit.engines == ("mujoco", "pybullet", "drake") and audit.outcome == "agrees"
    assert not any(r["quantity"] == "loads the file" for r in audit.l0)


def test_parity_cli_on_a_urdf_fixed_and_free(tmp_path):
    path = arm(tmp_path)
    res = runner.invoke(app, ["audit", "--description", str(path), "--samples", "20",
                              "--base", "free"])
    assert res.exit_code == 2 and "root link is 'world'" in res.output, res.output
    path = arm(tmp_path, root="base", root_inertial=inertial(2.0, "0.1 0 0"))
    for extra in ([], ["--base", "free"]):
        res = runner.invoke(app, ["audit", "--description", str(path), "--samples", "20",
                                  *extra])
        assert res.exit_code == 0, res.output
        assert "engines compared with pinocchio: mujoco, pybullet, drake" in res.output


@pytest.mark.parametrize("args, sentence", [
    (["--description", "nowhere.urdf"], "no such description file"),
    (["--description", "{bad}"], "not well-formed"),
    (["--description", "{arm}", "--base", "floating"], "'fixed' or 'free'"),
])
def test_bad_descriptions_are_one_sentence(tmp_path, args, sentence):
    bad = tmp_path / "bad.urdf"
    bad.write_text("<robot><link name='a'>")
    args = [a.format(bad=bad, arm=arm(tmp_path)) for a in args]
    res = runner.invoke(app, ["audit", *args, "--samples", "5"])
    assert res.exit_code == 2 and sentence in res.output and "Traceback" not in res.output


# --- 9: the corpus ----------------------------------------------------------------------------

def test_corpus_entries_are_the_robots_with_their_bases():
    """pybullet_data ships with PyBullet: its robots (a moving joint) are entries, its objects
    are not; a root link with mass makes the base free, the URDF 'world' convention fixed."""
    from dynval.comparisons.own_model.corpus import CI_SUBSET, entries, select

    found = {e.name: e.base for e in entries(("pybullet_data",))}
    assert "pybullet_data/cube.urdf" not in found and "pybullet_data/plane.urdf" not in found
    assert found["pybullet_data/quadruped/minitaur.urdf"] == "free"  # its base has mass
    assert found["pybullet_data/kuka_iiwa/model.urdf"] == "fixed"  # link_0: mass 0
    assert not any("random_urdfs" in n for n in found)
    assert [e.name for e in select(("pybullet_data",), "ci")] == sorted(CI_SUBSET)


def test_the_corpus_counts_the_mjcf_readers_apart():
    """A reader's finding is counted by reader and kind, apart from the causes of a
    description that does not pass (it never fails one)."""
    from dynval.comparisons.own_model.corpus import CorpusRow
    from dynval.reports.corpus import markdown

    said = ["Drake's MJCF reader: body 'torso' mass 9.45733 kg, MuJoCo 6.25021 kg",
            "Pinocchio's MJCF reader: body 'torso' mass 9.45733 kg, MuJoCo 6.25021 kg",
            "PyBullet's loadMJCF leaves out joint 'rootx' and 2 more"]
    rows = [CorpusRow("g/half_cheetah.xml", 9, "fixed", "pinocchio", ("pinocchio", "mujoco"),
                      passed=True, readers=said),
            CorpusRow("g/hopper.xml", 6, "fixed", "pinocchio", ("pinocchio", "mujoco"),
                      passed=True, readers=said[:1])]
    page = markdown(rows, "T", "dynval corpus", {"mujoco": "4"})
    assert "| Drake's MJCF reader | a body's mass otherwise | 2 |" in page
    assert "| Pinocchio's MJCF reader | a body's mass otherwise | 1 |" in page
    assert "| PyBullet's loadMJCF | leaves out a body or joint | 1 |" in page
    assert "passing (every compared figure within its tolerance, no engine kept out by a " \
           "fault of the file): 2 of 2" in page


def test_the_corpus_table_counts_engines_passes_and_causes():
    from dynval.comparisons.own_model.corpus import CorpusRow
    from dynval.reports.corpus import markdown

    rows = [CorpusRow("a.urdf", 2, "fixed", "pinocchio", ("pinocchio", "mujoco", "pybullet"),
                      worst={"mujoco": {"M": 1e-15}, "pybullet": {"M": 2e-16}}, l0="agrees",
                      l3="agrees", passed=True),
            CorpusRow("b.urdf", 3, "fixed", "pinocchio", ("pinocchio", "pybullet"),
                      refused={"mujoco": "link 'x' violates the triangle inequality"},
                      causes=["MuJoCo refuses it: an impossible inertia in the file"]),
            CorpusRow("c.urdf", base="fixed", error="c.urdf: not well-formed XML")]
    page = markdown(rows, "T", "dynval corpus", {"mujoco": "4"})
    assert "loaded per engine: mujoco 1, pybullet 2, pinocchio 2" in page
    assert "passing (every compared figure within its tolerance, no engine kept out by a " \
           "fault of the file): 1 of 2" in page
    assert "| MuJoCo refuses an impossible inertia in the file | 1 |" in page
    assert "| a.urdf | 2 | fixed | pinocchio | mujoco | 1e-15 |" in page
    assert "not audited: c.urdf: not well-formed XML" in page


def test_a_free_root_with_its_centre_at_its_origin_agrees_with_pybullet_at_round_off(tmp_path):
    """PyBullet steps its free base's centre of mass, MuJoCo its origin: with the two at one
    point its steps agree at round-off, which the step-halving test must not call a
    modelling difference (the rows are judged at round-off instead)."""
    path = arm(tmp_path, root="base", root_inertial=inertial(2.0, "0 0 0", "0 0 0"))
    audit = parity_audit(path, 20, 0, base="free")
    pb = [r for r in audit.l3 if r["comparison"].startswith("pinocchio vs pybullet (own")]
    assert len(pb) == 3 and all(r["tolerance"] is not None for r in pb), pb
    assert audit.passed, [audit.explain_l3(r) for r in audit.l3_failures]


def test_a_non_unit_axis_is_a_finding_that_names_the_l0_row(tmp_path):
    """An axis printed to six digits, |axis| = 1 - 2e-7: a finding about the file, and any
    engine that reads it differently is told apart from an engine error."""
    path = arm(tmp_path, axis="0.121869 -0.992546 -4.37114e-08")
    audit = parity_audit(path, 20, 0)
    said = [f for f in audit.findings if f.startswith("joint 'elbow' has an axis that is not")]
    assert said, audit.findings
    for row in audit.l0_failures:
        assert row["reason"].startswith("the file's own finding: joint 'elbow'"), row


def test_the_variants_break_what_they_say(tmp_path):
    """Each break changes what its name says and nothing else, on the heaviest revolute
    link (a child of a moving link preferred)."""
    import xml.etree.ElementTree as ET

    from dynval.comparisons.own_model.variants import VARIANTS, break_description

    path = arm(tmp_path)
    for variant in VARIANTS:
        robot = ET.parse(path).getroot()
        target = break_description(robot, variant)
        after = ET.tostring(robot, encoding="unicode")
        before = ET.tostring(ET.parse(path).getroot(), encoding="unicode")
        if variant == "C v sign flipped":
            assert after == before and target == "fore"
        elif variant == "welded child's mass dropped":
            assert target == "sensor" and after.count("<inertial>") == 2
        elif variant == "axis reversed":
            assert target == "elbow" and 'xyz="-0.0 -1.0 -0.0"' in after
        elif variant in ("armature added", "joint damping added"):
            assert after == before and target == "every joint"
        elif variant == "inertia's rotation lost":  # the heaviest moved link, turned
            assert target == "upper" and after.count('rpy="0.3 0.2 0.1"') == 2
        elif variant == "welded child's inertia unrotated":
            assert target == "sensor" and after.count('rpy="0.3 0.2 0.1"') == 2
            assert after.count('ixx="0.02"') == 2  # the sensor's moments rewritten
        elif variant == "root link's mass lost":
            assert target is None and after == before  # the world link has no mass
        else:
            assert target == "fore" and after != before  # its parent moves; upper's not


@pytest.mark.parametrize("mutant", ["inertia's rotation lost", "welded child's inertia unrotated",
                                    "armature added", "joint damping added"])
def test_the_trackers_mutants_are_caught_by_the_term_they_break(tmp_path, mutant):
    """An importer that drops an inertia's rpy, a lumping that leaves a welded child's
    inertia in its own axes, an armature or a damping the file does not have: each moves
    its terms past the tolerance and fails them (M for the inertias and the armature,
    the bias for the damping); an inertial one is named by the regressor."""
    from dynval.comparisons.own_model.variants import INERTIAL, variant_entry

    row = variant_entry("arm", str(arm(tmp_path)), "fixed", mutant, 40, 0)
    assert not row.error and row.visible and row.caught, row
    assert ("bias" if mutant == "joint damping added" else "M") in row.failed
    if mutant in INERTIAL:
        assert row.named == "named", row


def test_a_lost_root_mass_is_invisible_on_a_fixed_base_and_caught_on_a_free_one(tmp_path):
    """A URDF-to-MJCF conversion that drops the base's inertial: nothing a fixed base's
    joints feel (not a miss), 2 kg of a free base's M."""
    from dynval.comparisons.own_model.variants import variant_entry

    path = arm(tmp_path, root_inertial=inertial(2.0, "0 0 0.1"))
    fixed = variant_entry("arm", str(path), "fixed", "root link's mass lost", 40, 0)
    assert fixed.target == "world" and not fixed.visible and not fixed.caught
    free = variant_entry("arm", str(path), "free", "root link's mass lost", 40, 0)
    assert free.visible and free.caught and "M" in free.failed


def test_a_model_that_includes_damping_is_compared_with_mujocos_damping(tmp_path):
    """The file's shoulder damping (0.7 N m s/rad) in the model's inverse and forward
    dynamics: compared with MuJoCo, whose damping is then kept on (and stepped explicitly,
    as the model's Euler does); PyBullet and Pinocchio, which model none, are not compared
    on tau or L3. Without the damping in its tau, the same model fails."""
    path = arm(tmp_path)
    D = np.diag([0.7, 0.0])

    class Damped(EngineModel):
        includes = ("damping",)

        def inverse_dynamics(self, q, v, vdot):
            return super().inverse_dynamics(q, v, vdot) + D @ v

        def forward_dynamics(self, q, v, tau):
            return super().forward_dynamics(q, v, tau - D @ v)

    model = Damped(PinocchioTerms(path, joint_names=["shoulder", "elbow"]),
                   ["shoulder", "elbow"], [], "fixed")
    audit = audit_model(model, path, 30, 0)
    assert audit.passed, ([audit.explain(r) for r in audit.failures]
                          + [audit.explain_l3(r) for r in audit.l3_failures])
    assert {r.reference for r in audit.results if r.term == "tau"} == {"mujoco"}
    assert {r["comparison"].split(" vs ")[1].split(" ")[0] for r in audit.l3
            if r["tolerance"] is not None} == {"mujoco"}
    D[0, 0] = 0.0  # says it includes damping, leaves it out
    assert "tau" in {r.term for r in audit_model(model, path, 30, 0).failures}
    model.includes = ("contacts",)
    with pytest.raises(ModelError, match="includes names 'contacts'"):
        audit_model(model, path, 3, 0)


def test_a_model_that_includes_limits_is_compared_with_the_engines_limits_on(tmp_path):
    """A model that holds within the file's joint ranges (shoulder 0 to 0.3 rad): states
    drawn inside them, MuJoCo's and PyBullet's limits kept on, and L3 judged until the
    model's swing first reaches a limit (0.3 s here), agreeing at round-off up to there;
    past it the engines' limits act (the reason the horizon ends).  A wrong mass is still
    caught."""
    from dynval.comparisons.own_model import loading

    path = arm(tmp_path)
    path.write_text(path.read_text().replace('lower="-0.5" upper="0.5"',
                                             'lower="0.0" upper="0.3"', 1))
    model = model_of(path)
    model.includes = ("limits",)
    audit = audit_model(model, path, 30, 0)
    assert audit.passed, ([audit.explain(r) for r in audit.failures]
                          + [audit.explain_l3(r) for r in audit.l3_failures])
    said = " ".join(audit.notes)
    assert "joint limits" not in said.split("includes")[0]  # not switched off
    assert "includes the file's joint limits" in said
    judged = [r for r in audit.l3 if r["tolerance"] is not None]
    assert {r["comparison"].split(" vs ")[1].split(" ")[0] for r in judged} == {
        "mujoco", "pybullet", "pinocchio", "drake"}
    assert all(0.25 < r["horizon"] < 0.35 and "until joint 'shoulder' reaches its limit"
               in r["reason"] for r in judged)
    loaded = loading.load(loading.prepare(path), ["shoulder", "elbow"], (0, 0, -9.81),
                          False, limits=True)
    lo, hi = loading.joint_ranges(loaded, ["shoulder", "elbow"])
    np.testing.assert_array_equal(np.c_[lo, hi], [[0.0, 0.3], [-0.5, 0.5]])
    q0 = np.array([0.15, 0.0])  # the shoulder falls towards 0 and is stopped there
    free = model.forward_dynamics
    hand = swing.euler(lambda q, v: free(q, v, np.zeros(2)), q0, np.zeros(2), 1e-3, 1000,
                       False)
    for name in ("mujoco", "pybullet"):
        stopped = loaded.engines[name].simulate(q0, np.zeros(2), 1e-3, 1000)
        assert np.min(hand.q[:, 0]) < -0.1 < -0.02 < np.min(stopped[:, 0])
    wrong = EngineModel(PinocchioTerms(arm(tmp_path, name="heavy.urdf", upper=inertial(1.01)),
                                       joint_names=["shoulder", "elbow"]),
                        ["shoulder", "elbow"], [], "fixed")
    wrong.includes = ("limits",)
    assert {"M", "G"} <= {r.term for r in audit_model(wrong, path, 30, 0).failures}


GRIPPER = """<?xml version="1.0"?>
<robot name="gripper">
  <link name="palm"/>
  <link name="wrist_link">{wrist}</link>
  <link name="left">{left}</link>
  <link name="right">{right}</link>
  <joint name="wrist" type="revolute"><parent link="palm"/><child link="wrist_link"/>
    <origin xyz="0 0 0.5"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
  <joint name="finger" type="prismatic"><parent link="wrist_link"/><child link="left"/>
    <origin xyz="0 0.05 -0.2"/><axis xyz="0 1 0"/>
    <limit lower="-0.1" upper="0.1" effort="1" velocity="1"/></joint>
  <joint name="finger_mimic" type="prismatic"><parent link="wrist_link"/><child link="right"/>
    <origin xyz="0 -0.05 -0.2"/><axis xyz="0 -1 0"/>
    <limit lower="-0.1" upper="0.1" effort="1" velocity="1"/>
    <mimic joint="finger" multiplier="1.5" offset="0.01"/></joint>
</robot>
"""


def test_a_model_that_includes_mimic_couplings_is_audited_in_its_own_coordinates(tmp_path):
    """A gripper whose second finger follows the first (x1.5, +1 cm): a model in the two
    independent joints, its terms the whole tree's reduced by q_full = G q + o, agrees with
    all three engines reduced the same way; one with the wrong multiplier does not."""
    from dynval.comparisons.own_model.coupled import Coupled
    from dynval.engines.description_files import mimic_couplings

    path = tmp_path / "gripper.urdf"
    path.write_text(GRIPPER.format(wrist=inertial(0.8), left=inertial(0.1, "0 0 -0.05"),
                                   right=inertial(0.12, "0 0 -0.04")))
    couplings = mimic_couplings(path)
    assert couplings == {"finger_mimic": ("finger", 1.5, 0.01)}

    def model(multiplier):
        terms = PinocchioTerms(path, joint_names=["wrist", "finger", "finger_mimic"])
        coupled = Coupled(terms, ["wrist", "finger"], ["finger_mimic"],
                          {"finger_mimic": ("finger", multiplier, 0.01)}, False)
        m = EngineModel(coupled, ["wrist", "finger"], ["right"], "fixed")
        m.includes = ("mimic",)
        return m

    audit = audit_model(model(1.5), path, 30, 0)
    assert set(audit.engines) == {"mujoco", "pybullet", "pinocchio", "drake"}
    assert audit.passed, ([audit.explain(r) for r in audit.failures]
                          + [audit.explain_l3(r) for r in audit.l3_failures])
    assert any("mimic couplings (finger_mimic)" in n for n in audit.notes)
    assert {"M", "tau"} <= {r.term for r in audit_model(model(1.4), path, 30, 0).failures}
    plain = model(1.5)
    plain.includes = ()  # the coupling not declared: the model must name every joint
    with pytest.raises(ModelError, match="leaves out 'finger_mimic'"):
        audit_model(plain, path, 3, 0)


MJCF_TWO_JOINTS = """<mujoco model="two_joint_arm">
  <default><default class="heavy"><geom mass="2.0"/></default></default>
  <worldbody>
    <body name="upper" pos="0 0 1">
      <joint name="yaw" type="hinge" axis="0 0 1"/>
      <joint name="pitch" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.04" class="heavy"/>
      <body name="fore" pos="0.4 0 0">
        <joint name="elbow" type="hinge" axis="0 1 0"/>
        <geom type="capsule" fromto="0 0 0 0.3 0 0.1" size="0.03"/>
      </body>
    </body>
  </worldbody>
</mujoco>
"""


@pytest.mark.parametrize("mutant", ["mass +1 %", "centre of mass +1 mm", "axis reversed",
                                    "C v sign flipped"])
def test_an_mjcfs_mutants_are_broken_on_mujocos_compiled_model(tmp_path, mutant):
    """An MJCF (two joints in one body, a default class's mass) is broken through the URDF
    of MuJoCo's compiled model of it and audited against the MJCF itself: each mutant is
    caught, and an inertial one named on the heaviest moved body."""
    from dynval.comparisons.own_model.variants import INERTIAL, variant_entry

    path = tmp_path / "arm.xml"
    path.write_text(MJCF_TWO_JOINTS)
    row = variant_entry("arm", str(path), "fixed", mutant, 40, 0)
    assert not row.error and row.visible and row.caught, row
    if mutant in INERTIAL:
        assert row.target == "upper" and row.named == "named", row


def test_a_reading_pinocchio_cannot_hold_is_allowed_for_nothing():
    """icub's neck_2 (0.1 kg, no rotational inertia): Drake reads it its own way, and
    Pinocchio cannot hold that reading (not positive).  The reading is then allowed for
    nothing, so Drake's rows are judged against round-off alone, and the audit goes on
    (it used to end with Pinocchio's RuntimeError)."""
    from dynval.comparisons.own_model.readings import FILE_FINDING, with_readings
    from dynval.engines import EngineRefusalError

    class Pin:
        def with_body_inertials(self, bodies):
            if "neck_2" in bodies:
                raise EngineRefusalError("Pinocchio cannot hold link 'neck_2''s inertial")
            return "pinocchio with pybullet's reading"

    class Reader:
        def __init__(self, bodies):
            self.bodies = bodies

        def body_inertials(self):
            return self.bodies

    engines = {"pinocchio": Pin(), "pybullet": Reader({"upper": 1}),
               "drake": Reader({"neck_2": 2})}
    l0 = [{"engine": "drake vs pinocchio", "passed": False,
           "reason": f"{FILE_FINDING}: link 'neck_2' is a point mass"}]
    assert with_readings(engines, l0) == {"pybullet": "pinocchio with pybullet's reading"}


def test_a_refusal_is_counted_by_its_whole_reason_without_its_figures():
    """The count by cause keeps the whole of an engine's reason: only the figures in
    parentheses go, never the words after them."""
    from dynval.reports.corpus import _cause_kind

    said = ("PyBullet refuses it: PyBullet loads it (129 joints) but cannot read its state "
            "back")
    assert _cause_kind(said) == ("PyBullet refuses it: PyBullet loads it but cannot read its "
                                 "state back")
    assert _cause_kind("MuJoCo refuses it: MuJoCo cannot load this MJCF (line 3)") == \
        "MuJoCo refuses it: MuJoCo cannot load this MJCF"
    assert _cause_kind("Drake refuses it: limits it does not accept (Joint(): condition "
                       "'(a.array() <= b.array()).all()' failed)") == \
        "Drake refuses it: limits it does not accept"
