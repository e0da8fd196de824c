"""The page of dynval's modules, docs/MODULES.md: every module of the installed package
by its path, with the first sentence of its docstring, its job.

    python -m dynval._modules           # write docs/MODULES.md
    python -m dynval._modules --check   # exit 1 if the page is out of date
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

from dynval._layout import source_files

PAGE = Path(__file__).resolve().parents[1] / "docs" / "MODULES.md"
# a full stop after a word, a figure or a closing bracket, then a space and a capital or
# the end: "eq. (3)", "Sec. IV" and "e.g. a" go on
_SENTENCE_END = re.compile(r"(?<![ (]eq|[ (]Eq|eqs|Eqs|Sec|Fig|e\.g|i\.e|[ (]cf|[ (]vs)"
                           r"(?<=[A-Za-z0-9)\]`'])\.(\s+[A-Z`]|$)")


def job(docstring: str) -> str:
    """The first sentence of a docstring, on one line."""
    text = " ".join(docstring.split())
    found = _SENTENCE_END.search(text)
    return text[:found.start() + 1] if found else text


def page() -> str:
    """The page's text: one table per folder, one row per module."""
    lines = ["# dynval's modules", "",
             "Every module of the installed package with its job: the first sentence of its "
             "docstring. Written by `python -m dynval._modules`; a test keeps it current.", ""]
    def folder_of(name: str) -> str:
        return name.rsplit("/", 1)[0] if "/" in name else "dynval"

    folder = None
    for name, f in sorted(source_files().items(), key=lambda kv: (folder_of(kv[0]), kv[0])):
        here = folder_of(name)
        if here != folder:
            folder = here
            lines += ["", f"## {folder}/", "", "| module | job |", "|---|---|"]
        doc = ast.get_docstring(ast.parse(f.read_text(encoding="utf-8"))) or "(no docstring)"
        lines.append(f"| `{name.rsplit('/', 1)[-1]}` | {job(doc).replace('|', '/')} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    text = page()
    if "--check" in argv:
        if not PAGE.exists() or PAGE.read_text(encoding="utf-8") != text:
            print(f"{PAGE} is out of date; run python -m dynval._modules")
            return 1
        return 0
    PAGE.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
