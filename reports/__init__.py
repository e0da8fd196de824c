"""The validation PDF: cover, summary, a chapter per robot, appendix.

``build_report`` is loaded on first use: the report's input types (``dynval.results``)
are imported by every validation task, the plotting stack only by the report."""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["build_report"]


def __getattr__(name: str) -> Any:
    if name == "build_report":
        return importlib.import_module("dynval.reports.pdf").build_report
    raise AttributeError(f"module 'reports' has no attribute {name!r}")
