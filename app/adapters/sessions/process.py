"""The child process of a structured turn (subprocess): started in its own process group with
stdin closed, its stdout read line by line by a reader thread, the tail of its stderr kept for
error messages, and the whole group killed when a turn runs out of time.

Shared by the Claude and Codex adapters (one process per turn) and by the ACP adapter for the
environment, the command checks and the group kill.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Mapping, Sequence

from app.adapters.pty.common import build_child_env
from app.core.errors import COMMAND_NOT_FOUND, NOT_FOUND, AppError

log = logging.getLogger(__name__)

#: stderr lines kept (each cut to `STDERR_LINE_CHARS`) to explain a failure.
STDERR_TAIL_LINES = 40
STDERR_LINE_CHARS = 2_000
#: After its result, a CLI gets this long to exit by itself before its group is killed (s).
EXIT_GRACE_S = 3.0
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
_ERROR_WORD = re.compile(r"\b(error|fatal|failed|exception)\b", re.IGNORECASE)
_BACKTRACE_FRAME = re.compile(r"\s*(\d+:|at\s)")  # Rust `  0: anyhow::…`, JS `  at f (…)`
_EOF = object()


def child_env(extra: Mapping[str, str]) -> dict[str, str]:
    """The environment of a headless CLI: the user's (`LD_LIBRARY_PATH` restored in a bundle,
    see `build_child_env`), then `extra`; `NO_COLOR=1` unless `extra` says otherwise (its
    output is parsed, not shown)."""
    env = build_child_env(os.environ, {"NO_COLOR": "1", **extra})
    env.pop("COLORTERM", None)
    return env


def check_command(argv: Sequence[str], cwd: str, env: Mapping[str, str]) -> str:
    """The absolute path `argv[0]` runs, looked up on `env`'s PATH.

    Raises `AppError(COMMAND_NOT_FOUND, "command not found: <cmd>")` and `AppError(NOT_FOUND)`
    for a missing `cwd` (`subprocess` would report both as the same `FileNotFoundError`).
    """
    if not argv or not argv[0]:
        raise AppError(COMMAND_NOT_FOUND, "command not found: (empty command)", {"command": ""})
    if not os.path.isdir(cwd):
        raise AppError(NOT_FOUND, f"working directory not found: {cwd}", {"cwd": cwd})
    found = shutil.which(argv[0], path=env.get("PATH"))
    if found is None:
        raise AppError(COMMAND_NOT_FOUND, f"command not found: {argv[0]}",
                       {"command": argv[0]})
    return found


def kill_group(pid: int) -> None:
    """Kill process `pid` and its process group (POSIX: SIGKILL to the group it leads; Windows:
    `taskkill /T /F`, its tree). No error when it is gone already."""
    if sys.platform == "win32":
        subprocess.run(["taskkill", "/T", "/F", "/PID", str(pid)], capture_output=True,
                       check=False)
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def new_group_kwargs() -> dict[str, object]:
    """`Popen` keyword arguments that put the child in a process group of its own."""
    if sys.platform == "win32":
        return {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP}
    return {"start_new_session": True}


def clean_line(raw: bytes | str) -> str:
    """A stderr line as text: decoded, colour codes removed, stripped, cut to its limit."""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    return _ANSI.sub("", text).strip()[:STDERR_LINE_CHARS]


class StderrTail:
    """The last `STDERR_TAIL_LINES` non-empty lines a child wrote on stderr (thread-safe)."""

    def __init__(self) -> None:
        self._lines: deque[str] = deque(maxlen=STDERR_TAIL_LINES)
        self._lock = threading.Lock()

    def add(self, raw: bytes | str) -> None:
        line = clean_line(raw)
        if line:
            with self._lock:
                self._lines.append(line)

    def lines(self) -> list[str]:
        with self._lock:
            return list(self._lines)

    def reason(self) -> str | None:
        """The line that best says why the child failed: the last one naming an error that is
        not a backtrace frame, else the last line; None when silent."""
        lines = self.lines()
        for line in reversed(lines):
            if _ERROR_WORD.search(line) and not _BACKTRACE_FRAME.match(line):
                return line
        return lines[-1] if lines else None


class LineProcess:
    """A running CLI whose stdout is read as lines (bytes, without the newline).

    Raises `AppError(COMMAND_NOT_FOUND | NOT_FOUND)` at construction (see `check_command`).
    """

    def __init__(self, argv: Sequence[str], cwd: str, env: Mapping[str, str]) -> None:
        path = check_command(argv, cwd, env)
        self.command = argv[0]
        try:
            self._proc: subprocess.Popen[bytes] = subprocess.Popen(
                [path, *argv[1:]], cwd=cwd, env=dict(env), stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, **new_group_kwargs())  # type: ignore[call-overload]
        except OSError as exc:  # not executable, bad interpreter line …
            raise AppError(COMMAND_NOT_FOUND, f"cannot run {argv[0]}: {exc.strerror or exc}",
                           {"command": argv[0]}) from exc
        self.stderr = StderrTail()
        self._lines: queue.Queue[object] = queue.Queue()
        self._readers = [
            threading.Thread(target=self._read_stdout, name=f"turn-stdout-{self.pid}",
                             daemon=True),
            threading.Thread(target=self._read_stderr, name=f"turn-stderr-{self.pid}",
                             daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    @property
    def pid(self) -> int:
        return int(self._proc.pid)

    @property
    def returncode(self) -> int | None:
        return self._proc.poll()

    def next_line(self, deadline: float) -> bytes | None:
        """The next stdout line, None at the end of stdout. Raises `TimeoutError` when none
        comes before `deadline` (a `time.monotonic()` instant)."""
        try:
            item = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise TimeoutError from None
        return None if item is _EOF else item  # type: ignore[return-value]

    def kill(self) -> None:
        """Kill the CLI and its process group now."""
        kill_group(self.pid)
        with contextlib.suppress(OSError):
            self._proc.kill()

    def close(self, grace_s: float = EXIT_GRACE_S) -> int | None:
        """Let the CLI exit within `grace_s`, else kill its group; reap it and its readers.
        Returns its exit code (negative: the signal that ended it)."""
        try:
            self._proc.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            self.kill()
            self._proc.wait()
        for reader in self._readers:
            reader.join(timeout=2.0)
        for pipe in (self._proc.stdout, self._proc.stderr):
            if pipe is not None:
                pipe.close()
        return self._proc.returncode

    def _read_stdout(self) -> None:
        assert self._proc.stdout is not None
        try:
            for raw in iter(self._proc.stdout.readline, b""):
                self._lines.put(raw.rstrip(b"\r\n"))
        except (OSError, ValueError):
            log.debug("stdout of %s closed", self.command, exc_info=True)
        finally:
            self._lines.put(_EOF)

    def _read_stderr(self) -> None:
        assert self._proc.stderr is not None
        try:
            for raw in iter(self._proc.stderr.readline, b""):
                self.stderr.add(raw)
        except (OSError, ValueError):
            log.debug("stderr of %s closed", self.command, exc_info=True)
