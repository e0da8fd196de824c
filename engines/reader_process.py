"""An engine's own reader asked in a process of its own: Pinocchio's and Bullet's parsers
stop the process on some files, and a reader may hang; either is said in one sentence
naming the reader, and the audit goes on."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from typing import Any


def ask(module: str, args: Sequence[str], label: str, seconds: float
        ) -> tuple[Any, str | None]:
    """The JSON that ``python -m module args...`` prints last, and None; or None and the
    sentence saying that the reader ``label`` hung past ``seconds`` or stopped its
    process."""
    try:
        done = subprocess.run([sys.executable, "-m", module, *args], capture_output=True,
                              text=True, timeout=seconds)
    except subprocess.TimeoutExpired:
        return None, f"{label} did not finish reading it in {seconds:g} s"
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        code = done.returncode
        how = f"signal {-code}" if code < 0 else f"exit status {code}"
        return None, f"{label} stops the process reading it ({how})"
    return json.loads(lines[-1]), None
