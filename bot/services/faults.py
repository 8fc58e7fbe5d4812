"""Fault injection for the crash tests: a named point where a test can freeze the process.

With ``ADC_FAULT_PAUSE=<name>`` set, reaching ``checkpoint(<name>)`` touches the file named by
``ADC_FAULT_MARKER`` and blocks, so a test can SIGKILL the process in the middle of a
transaction. Without the variable it costs one dictionary lookup.
"""

from __future__ import annotations

import os
import time
from pathlib import Path


def armed(name: str) -> bool:
    return os.environ.get("ADC_FAULT_PAUSE") == name


def checkpoint(name: str) -> None:
    if not armed(name):
        return
    marker = os.environ.get("ADC_FAULT_MARKER")
    if marker:
        Path(marker).write_text(name)
    while True:  # wait to be killed
        time.sleep(0.05)
