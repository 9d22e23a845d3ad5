"""PTY adapters (implement the core's `TerminalHost` port).

Shared parts: `common` (child environment, flow gate, ordered input) and `base`
(`PtyHostBase`: sessions, offset-stamped output, writer thread, kill sequencing). One
technology per module: `posix.PtyProcessHost` (ptyprocess) on Linux/macOS,
`windows.WinPtyHost` (pywinpty, ConPTY) on Windows; `default_host_class` picks one.
"""

from __future__ import annotations

import sys
from typing import Any

from .base import PtyHostBase
from .common import HIGH_WATER_CHARS, LOW_WATER_CHARS, build_child_env

__all__ = [
    "HIGH_WATER_CHARS",
    "LOW_WATER_CHARS",
    "PtyHostBase",
    "build_child_env",
    "default_host_class",
]


def default_host_class(platform: str | None = None) -> type[PtyHostBase[Any]]:
    """The `PtyHost` implementation for `platform` (default `sys.platform`), imported lazily."""
    if (platform or sys.platform) == "win32":
        from .windows import WinPtyHost

        return WinPtyHost
    from .posix import PtyProcessHost

    return PtyProcessHost
