"""The description folder a run reads: the shipped one, or the descriptions its
parameters generate, written under the output folder (the ladder's registry says which,
and with what text: ``dynval.comparisons.ladder.registry.description_files``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dynval.comparisons.ladder.registry import description_files
from dynval.comparisons.run.manifest import write_atomic


def description_dir(robot: str, params: Any, default: Any, out: Path) -> Path:
    """The shipped description folder (its files checked against the parameters), or
    freshly generated files under ``out`` when the parameters differ from the shipped
    ones, each written atomically as a part of the run."""
    folder, files = description_files(robot, params, default, out)
    if files:
        folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        write_atomic(folder / name, lambda tmp, text=text: tmp.write_text(text))
    return folder
