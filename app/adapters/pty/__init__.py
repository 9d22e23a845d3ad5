"""PTY adapters (implement the core's `PtyHost` port).

One technology per module: `posix.PtyProcessHost` (ptyprocess) on Linux/macOS; a
`windows.py` (pywinpty) sibling would reuse `common` and be chosen by `default_host_class`.
"""

from __future__ import annotations

import sys
from typing import Any

from .common import (
    HIGH_WATER_CHARS,
    LOW_WATER_CHARS,
    SCROLLBACK_CHARS,
    ExitSink,
    OutputSink,
    build_child_env,
)

__all__ = [
    "HIGH_WATER_CHARS",
    "LOW_WATER_CHARS",
    "SCROLLBACK_CHARS",
    "ExitSink",
    "OutputSink",
    "build_child_env",
    "default_host_class",
]


def default_host_class() -> Any:
    """The `PtyHost` implementation for this platform (imported lazily).

    Raises `NotImplementedError` on Windows until `pty/windows.py` exists.
    """
    if sys.platform == "win32":
        raise NotImplementedError("the Windows PTY adapter (pywinpty) is not written yet")
    from .posix import PtyProcessHost

    return PtyProcessHost
