"""Finding and probing executables on the user's ``PATH``."""

from __future__ import annotations

import os
import shutil
import subprocess

from app.adapters.pty.common import build_child_env


class PathCommandResolver:
    """``CommandResolver`` backed by ``shutil.which`` (honours ``PATH`` and, on Windows, ``PATHEXT``)."""

    def __init__(self, extra_path: list[str] | None = None) -> None:
        self._extra = extra_path or []

    def which(self, command: str) -> str | None:
        """Absolute path of ``command``, or ``None`` when it is not installed."""
        found = shutil.which(command)
        if found is None:
            for folder in self._extra:
                found = shutil.which(command, path=folder)
                if found:
                    break
        return found


class SubprocessProfileDetector:
    """``ProfileDetector`` that runs ``<command> <args>`` (e.g. ``claude --version``).

    Returns the first non-empty output line (the version), or ``None`` when the command is
    missing, fails, or does not answer within ``timeout_ms`` milliseconds (it is then killed).
    """

    def __init__(self, resolver: PathCommandResolver) -> None:
        self._resolver = resolver

    def detect(self, command: str, args: list[str], timeout_ms: int) -> str | None:
        path = self._resolver.which(command)
        if path is None:
            return None
        try:
            done = subprocess.run(
                [path, *args],
                # the user's LD_LIBRARY_PATH, not the bundle's (PyInstaller/AppImage builds)
                env=build_child_env(os.environ, {}),
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=timeout_ms / 1000,
                text=True,
                errors="replace",
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        if done.returncode != 0:
            return None
        for line in (done.stdout + "\n" + done.stderr).splitlines():
            if line.strip():
                return line.strip()[:200]
        return "installed"
