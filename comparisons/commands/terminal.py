"""Where the commands write: tables to standard output, everything else (progress,
warnings, the one-sentence errors) to standard error, each line as written."""

from __future__ import annotations

import sys

from rich.console import Console
from rich.markup import escape

# one error, one line: no hard wraps; no emoji codes (":a:" in a name stays ":a:")
console = Console(stderr=True, soft_wrap=True, emoji=False)


def stdout() -> Console:
    """Standard output for tables: at a terminal its width; otherwise (a pipe, a CI log)
    wide enough that no table is ever cut or wrapped."""
    return Console() if sys.stdout.isatty() else Console(width=10_000, no_color=True)


def say(text: str) -> None:
    """A line on stderr as written: no markup, no highlighting (paths and names are the
    user's)."""
    console.print(text, markup=False, highlight=False)


def warn(line: str) -> None:
    """A warning on stderr, the line as written."""
    console.print(f"[yellow]warning:[/yellow] {escape(line)}")


def error(message: str) -> None:
    """One error sentence on stderr, the message's own text as written (a name such as
    "[draft]" is not read as markup)."""
    console.print(f"[red]error:[/red] {escape(message)}")
