"""Bad input refused in one sentence before any work: an output folder that is empty,
the root or the home folder, or full of someone else's files; numbers that are not
ASCII decimal."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from dynval.comparisons.cli import app
from dynval.comparisons.ladder.overrides import BadOverrideError, decimal
from dynval.comparisons.run.manifest import ForeignFileError, begin

runner = CliRunner()


@pytest.mark.parametrize("out, said", [("", "it is empty"), ("/", "the root folder"),
                                       (str(Path.home()), "your home folder")])
def test_an_output_folder_that_is_not_one_of_its_own_is_refused(out, said):
    res = runner.invoke(app, ["run", "landing_gear", "--out", out])
    assert res.exit_code == 2
    assert said in res.output and "Traceback" not in res.output


def test_a_folder_of_the_users_own_files_is_refused_unless_forced(tmp_path):
    (tmp_path / "thesis.tex").write_text("mine")
    with pytest.raises(ForeignFileError, match="thesis.tex"):
        begin(tmp_path)
    begin(tmp_path, force=True)  # the user said so
    assert (tmp_path / "thesis.tex").read_text() == "mine"
    begin(tmp_path / "new")  # a new folder, and an empty one, are fine
    begin(tmp_path / "new")  # and one a dynval run began


@pytest.mark.parametrize("text", ["１５", "1_5", "0x10", "15 kg", "", "infinity", "1e"])
def test_numbers_are_ascii_decimal_only(text):
    with pytest.raises(ValueError):
        decimal(text)


def test_a_fullwidth_override_is_named(tmp_path):
    from dynval.comparisons.ladder.registry import apply_overrides
    from dynval.robots.landing_gear.params import PARAMS

    with pytest.raises(BadOverrideError, match="ASCII decimal"):
        apply_overrides("landing_gear", PARAMS, ["landing_gear.k=１５００"])
    assert apply_overrides("landing_gear", PARAMS, ["landing_gear.k=1.5e3"]).k == 1500.0


def test_a_single_run_and_the_corpus_write_beside_a_validation_not_over_it(tmp_path,
                                                                           monkeypatch):
    """`dynval run` in the default folder writes its own subfolder, so a validation's
    folder (dynval-out) keeps its manifest for `report` and `check --run`."""
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(app, ["run", "landing_gear", "--scenario", "flat", "--engine",
                              "mujoco"])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "dynval-out" / "run" / "manifest.json").is_file()
    assert not (tmp_path / "dynval-out" / "manifest.json").exists()
    corpus = next(p for p in app.registered_commands if p.name == "corpus" or
                  getattr(p.callback, "__name__", "") == "corpus")
    import inspect

    assert inspect.signature(corpus.callback).parameters["out"].default == Path(
        "dynval-out/corpus")


def test_a_run_an_override_made_meaningless_names_the_override(tmp_path):
    """A stiffness of 1e308 makes the landing gear's equations unsolvable: the sentence
    that says so names the override."""
    res = runner.invoke(app, ["run", "landing_gear", "--scenario", "flat", "--engine",
                              "mujoco", "--set", "landing_gear.k=1e308", "--out",
                              str(tmp_path / "k")])
    assert res.exit_code in (2, 3), res.output
    assert "landing_gear.k=1e308" in res.output.splitlines()[-1]
