"""The layers' import contracts (pyproject.toml, [tool.importlinter]): the hand-rolled models
import no engine, the engines no model, results and reports nothing above them, and the
run layer and the ladder framework no robot's package (any robot, by wildcards), a readable
model no compiled copy of itself.
Checked with import-linter on dynval's source laid out as the wheel installs it (the
layers inside ``dynval/``), since the development tree maps them there from the repository
root."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib

from dynval import _layout

PYPROJECT = _layout.layer_dir("robots").parent / "pyproject.toml"


def contracts() -> int:
    """How many import contracts pyproject.toml declares."""
    return len(tomllib.loads(PYPROJECT.read_text())["tool"]["importlinter"]["contracts"])


def _lint(src: Path, config: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(src)}
    code = "from importlinter.cli import lint_imports_command; lint_imports_command()"
    return subprocess.run([sys.executable, "-c", code, str(config), "--no-cache"], env=env,
                          cwd=src, capture_output=True, text=True)


def test_the_layers_keep_their_import_contracts(tmp_path):
    _layout.copy_as_installed(tmp_path)
    done = _lint(tmp_path, PYPROJECT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{contracts()} kept, 0 broken" in done.stdout


def test_a_model_that_imports_an_engine_breaks_its_contract(tmp_path):
    _layout.copy_as_installed(tmp_path)
    law = tmp_path / "dynval" / "handrolled" / "so3.py"
    law.write_text(law.read_text() + "\nimport dynval.engines.mujoco_engine  # noqa\n")
    done = _lint(tmp_path, PYPROJECT)
    assert done.returncode != 0
    assert "dynval.handrolled.so3 -> dynval.engines.mujoco_engine" in done.stdout


def test_a_readable_model_that_imports_its_compiled_copy_breaks_its_contract(tmp_path):
    _layout.copy_as_installed(tmp_path)
    robot = tmp_path / "dynval" / "handrolled" / "hexapod" / "robot.py"
    robot.write_text(robot.read_text()
                     + "\nimport dynval.handrolled.hexapod.fast.model  # noqa\n")
    done = _lint(tmp_path, PYPROJECT)
    assert done.returncode != 0
    assert "dynval.handrolled.hexapod.robot -> dynval.handrolled.hexapod.fast" in done.stdout


def _robot_package(pkg: Path, layer: str, name: str) -> str:
    """A robot package ``dynval.<layer>.<name>`` written into the copy (a name that no
    contract spells out); its module name."""
    folder = pkg / layer / name
    folder.mkdir()
    (folder / "__init__.py").write_text('"""A robot added after the contracts."""\n')
    (folder / "model.py").write_text("G = 9.81\n")
    return f"dynval.{layer}.{name}.model"


@pytest.mark.parametrize("layer, importer", [("handrolled", ("run", "pipeline")),
                                             ("comparisons", ("ladder", "registry"))])
def test_a_new_robot_imported_by_the_run_layer_or_the_ladder_breaks_its_contract(
        tmp_path, layer, importer):
    """The contract names no robot: a robot package written now, under a name no line of
    pyproject.toml spells, is still forbidden to the run layer and the ladder framework."""
    pkg = _layout.copy_as_installed(tmp_path)
    robot = _robot_package(pkg, layer, "unicycle")
    module = pkg / "comparisons" / importer[0] / f"{importer[1]}.py"
    module.write_text(module.read_text() + f"\nimport {robot}  # noqa\n")
    done = _lint(tmp_path, PYPROJECT)
    assert done.returncode != 0
    assert "The run layer and the ladder framework import no robot's package BROKEN" in (
        done.stdout)
    assert f"dynval.comparisons.{importer[0]}.{importer[1]} -> {robot}" in done.stdout


# The source sets (dynval._layout.source_sets) hold only where a robot's modules are
# imported by that robot's own modules, and the command line and the report by nothing a
# task runs: otherwise an edit to one robot would leave another's (or the framework's)
# compiled code and results in place.
_CROSSING = """
import grimp
from dynval import _layout

def owner(module):  # a robot's name, None (the framework's) or "not run"
    f = _layout.module_file(module)  # None: the package dynval itself
    name = "" if f is None else f.relative_to(_layout.package_dir()).as_posix()
    return "not run" if name.startswith(_layout.NOT_RUN) else _layout.owner(name)

graph = grimp.build_graph("dynval", cache_dir=None)
for importer in sorted(graph.modules):
    for imported in sorted(graph.find_modules_directly_imported_by(importer)):
        if imported.startswith("dynval.") and owner(imported) not in (None, owner(importer)):
            print(importer, "->", imported)
"""


def _crossing(src: Path) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run([sys.executable, "-c", _CROSSING], env=env, cwd=src,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_each_robots_modules_are_imported_by_its_own_only(tmp_path):
    _layout.copy_as_installed(tmp_path)
    assert _crossing(tmp_path) == []


@pytest.mark.parametrize("importer, imported", [
    ("comparisons/rover/validate.py", "dynval.handrolled.hopper.contact"),  # another robot
    ("engines/base.py", "dynval.robots.hexapod.params"),  # the framework
    ("comparisons/ladder/harness.py", "dynval.reports.figures"),  # what no task runs
])
def test_an_import_across_source_sets_is_found(tmp_path, importer, imported):
    pkg = _layout.copy_as_installed(tmp_path)
    f = pkg / importer
    f.write_text(f.read_text() + f"\nimport {imported}  # noqa\n")
    module = "dynval." + importer.removesuffix(".py").replace("/", ".")
    assert _crossing(tmp_path) == [f"{module} -> {imported}"]


# A robot from a package of its own (a plugin: dynval.plugins) lives outside dynval, where
# no wildcard of pyproject.toml reaches: the run layer's and the ladder's contract is
# checked here with every plugin's top-level package forbidden too (the worked example's,
# installed or not, and any installed now), as import-linter sees an outside package.
RUN_AND_LADDER = ('forbidden_modules = ["dynval.robots.*", "dynval.handrolled.*", '
                  '"dynval.comparisons.*"]')


def _plugin_packages() -> list[str]:
    from importlib import metadata

    from dynval import plugins

    names = {"dynval_cartpole"}  # docs/examples/dynval-cartpole
    for ep in metadata.entry_points(group=plugins.GROUP):
        try:
            spec = plugins.spec(ep.name)
        except plugins.PluginError:
            continue  # a plugin that does not load is reported by its own sentence
        names |= {spec.package(layer).split(".")[0] for layer in plugins.ROBOT_LAYERS}
    return sorted(names - {"dynval"})


def _with_plugins(tmp_path: Path) -> Path:
    text = PYPROJECT.read_text()
    assert text.count(RUN_AND_LADDER) == 1  # the contract this extends, as it is spelled
    extra = "".join(f', "{name}"' for name in _plugin_packages())
    config = tmp_path / "contracts.toml"
    config.write_text(text.replace(RUN_AND_LADDER, RUN_AND_LADDER[:-1] + extra + "]"))
    return config


def test_the_run_layer_and_the_ladder_import_no_plugin(tmp_path):
    _layout.copy_as_installed(tmp_path / "src")
    done = _lint(tmp_path / "src", _with_plugins(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{contracts()} kept, 0 broken" in done.stdout


@pytest.mark.parametrize("importer", [("run", "pipeline"), ("ladder", "registry")])
def test_a_plugin_imported_by_the_run_layer_or_the_ladder_breaks_its_contract(
        tmp_path, importer):
    pkg = _layout.copy_as_installed(tmp_path / "src")
    module = pkg / "comparisons" / importer[0] / f"{importer[1]}.py"
    module.write_text(module.read_text() + "\nimport dynval_cartpole.model.dynamics  # noqa\n")
    done = _lint(tmp_path / "src", _with_plugins(tmp_path))
    assert done.returncode != 0
    assert "The run layer and the ladder framework import no robot's package BROKEN" in (
        done.stdout)
    assert f"dynval.comparisons.{importer[0]}.{importer[1]} -> dynval_cartpole" in done.stdout
