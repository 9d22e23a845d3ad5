"""Finding and probing executables on the user's ``PATH``."""

from __future__ import annotations

import os
import shutil
import subprocess

from app.adapters.pty.common import build_child_env
from app.core.domain.detection import MAX_OUTPUT_CHARS, Detection, version_line
from app.core.domain.profile_rules import is_path


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

    The command is found by the resolver (a name on ``PATH`` or an absolute path). It runs with
    the user's environment, no stdin, and is killed after ``timeout_ms`` milliseconds. Answers
    a ``Detection``: ``installed`` (exit 0; ``version`` = its first output line), ``missing``,
    ``failed`` (not executable, or a non-zero exit: ``output`` says why) or ``timeout``.
    """

    def __init__(self, resolver: PathCommandResolver) -> None:
        self._resolver = resolver

    def detect(self, command: str, args: list[str] | None, timeout_ms: int) -> Detection:
        path = self._resolver.which(command)
        if path is None:
            if not is_path(command):
                where = "not found on the PATH"
            elif os.path.isdir(command):
                where = "is a folder, not a program"
            elif os.path.exists(command):
                where = "is not executable (chmod +x it, or name the program that runs it)"
            else:
                where = "no such file"
            return Detection("missing", output=f"{command}: {where}")
        if args is None:
            return Detection("installed", path=path)
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
        except subprocess.TimeoutExpired as exc:
            partial = _text(exc.stdout) + _text(exc.stderr)
            return Detection("timeout", path=path, output=_cut(
                f"{partial}\n(no answer within {timeout_ms} ms: stopped)".lstrip()))
        except OSError as exc:
            return Detection("failed", path=path, output=f"{path}: {exc.strerror or exc}")
        output = _cut((done.stdout + "\n" + done.stderr).strip())
        if done.returncode != 0:
            return Detection("failed", path=path, output=output or f"exit code {done.returncode}",
                             exit_code=done.returncode)
        return Detection("installed", path=path, version=version_line(output) or "installed",
                         output=output, exit_code=0)


def _text(data: str | bytes | None) -> str:
    if data is None:
        return ""
    return data if isinstance(data, str) else data.decode("utf-8", "replace")


def _cut(text: str) -> str:
    return text if len(text) <= MAX_OUTPUT_CHARS else text[:MAX_OUTPUT_CHARS] + "…"
