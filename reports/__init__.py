"""The validation PDF: cover, summary, a chapter per robot, appendix."""

from reports.pdf import build_report

__all__ = ["build_report"]
