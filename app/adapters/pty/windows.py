"""`PtyHost` on Windows with `pywinpty` (ConPTY).

UNVERIFIED: written and type-checked on Linux only; it has not run on Windows yet (see README,
"what was verified where"). `tests/integration/test_pty_windows.py` is its test on Windows.

The session bookkeeping, flow control, ordered writer and kill sequencing live in
`base.PtyHostBase`; this module holds what is Windows-specific:

- Spawn: the low-level `winpty.PTY` (ConPTY backend) is given the whole, properly quoted
  command line (`subprocess.list2cmdline`) and then wrapped in `winpty.PtyProcess`, which reads
  the console in its own thread and serves decoded text over a local socket. We do not call
  `PtyProcess.spawn` because it puts the executable's path unquoted at the start of the command
  line (winpty-rs calls `CreateProcessW(NULL, cmdline)`), which breaks paths with spaces, e.g.
  an npm `.cmd` shim under `C:\\Users\\First Last\\`.
- Reader: `select` on that socket (so the reader can pause for flow control and notice that
  the child exited: ConPTY may keep the output open after the child ends, pywinpty #565), then
  `PtyProcess.read`, which returns whole characters. While the reader is paused, pywinpty's
  thread blocks on the full socket, ConPTY's pipe fills and the child blocks: backpressure.
- Kill: there is no SIGHUP; `kill` ends the whole process tree (`taskkill /T /F`), so a program
  started from the shell goes too. The exit code is then whatever Windows reports (1 for
  `taskkill /F`). Ctrl-C is written to the console as `\\x03` like any keystroke.
"""

from __future__ import annotations

import logging
import os
import select
import socket
import subprocess
import threading
import time
from collections.abc import Mapping
from typing import Any

from app.core.domain.sessions import SpawnSpec
from app.core.errors import COMMAND_NOT_FOUND, INTERNAL, AppError

from .base import POLL_S, PtyHostBase, SessionBase

log = logging.getLogger(__name__)

#: Characters per `PtyProcess.read` (it reads at most this many bytes from its socket).
READ_CHUNK_CHARS = 65_536
#: Largest single write to the console (characters).
_WRITE_CHUNK_CHARS = 4096
#: After the child exited, output still arriving within this delay (s) is read before the
#: session is reported ended (the console may not signal EOF at all).
_EXIT_DRAIN_S = 0.5
#: How long `_reap` waits for the exit status once the output ended (s).
_REAP_TIMEOUT_S = 10.0
_DEFAULT_PATHEXT = ".COM;.EXE;.BAT;.CMD"


def _winpty() -> Any:
    """The `winpty` module (imported lazily so this file imports, and is checked, anywhere)."""
    import winpty  # type: ignore[import-not-found, import-untyped, unused-ignore]

    return winpty


class _Session(SessionBase):
    def __init__(
        self,
        session_id: str,
        proc: Any,
        high_water: int,
        low_water: int,
        gap_timeout_ms: int,
    ) -> None:
        super().__init__(session_id, high_water, low_water, gap_timeout_ms)
        self.proc: Any = proc  # winpty.PtyProcess
        pid = getattr(proc, "pid", None)
        self.pid: int | None = int(pid) if pid else None
        self.tree_killed = False


class WinPtyHost(PtyHostBase[_Session]):
    """`PtyHostBase` over pywinpty's ConPTY (see the base class for the API and callbacks).

    The listener's `exit_code` is the process's exit code as Windows reports it (an unsigned
    32-bit value, e.g. 3221225786 = 0xC000013A for a console closed by Ctrl-C; 1 after `kill`).
    """

    # ------------------------------------------------------------------ technology hooks

    def _open(self, spec: SpawnSpec, session_id: str, env: dict[str, str]) -> _Session:
        exe = resolve_command(
            spec.command, _env_get(env, "PATH") or os.defpath, spec.cwd,
            _env_get(env, "PATHEXT") or _DEFAULT_PATHEXT,
        )
        if exe is None:
            raise AppError(COMMAND_NOT_FOUND, f"command not found: {spec.command}")
        winpty = _winpty()
        try:
            conpty = getattr(getattr(winpty, "Backend", None), "ConPTY", 0)
            pty = winpty.PTY(spec.cols, spec.rows, backend=conpty)
            # `appname` is the start of the command line: winpty-rs passes NULL as
            # lpApplicationName, so a quoted path and .cmd/.bat files work.
            pty.spawn(command_line(exe, spec.args), cwd=spec.cwd, env=env_block(env))
            proc = winpty.PtyProcess(pty)
        except Exception as exc:  # WinptyError, OSError
            raise AppError(INTERNAL, f"cannot start {spec.command}: {exc}") from exc
        proc.argv = [exe, *spec.args]  # informational, like PtyProcess.spawn sets it
        return _Session(session_id, proc, self._high, self._low, self._gap_timeout_ms)

    def _pump_output(self, s: _Session) -> None:
        sock = getattr(s.proc, "fileobj", None)
        while True:
            while not s.gate.wait_open(POLL_S):
                if self._child_exited(s):
                    s.gate.bypass()  # drain what the child left
            if not _readable(sock, POLL_S):
                # ConPTY may keep its output open after the child exited: once the child is
                # gone, stop after a short quiet period instead of waiting for an EOF.
                if self._child_exited(s) and not _readable(sock, _EXIT_DRAIN_S):
                    return
                continue
            try:
                text = s.proc.read(READ_CHUNK_CHARS)
            except EOFError:
                return
            except OSError as exc:
                log.debug("read of session %s ended: %s", s.id, exc)
                return
            self._emit(s, str(text))

    def _send_input(self, s: _Session, data: str) -> bool:
        for start in range(0, len(data), _WRITE_CHUNK_CHARS):
            with s.io_lock:
                if s.io_closed:
                    return False
                try:
                    s.proc.write(data[start:start + _WRITE_CHUNK_CHARS])
                except EOFError:
                    return False  # the console is closed
                except Exception as exc:  # WinptyError, OSError
                    log.debug("write to session %s failed: %s", s.id, exc)
                    return True  # drop this input, keep the writer for the next
        return True

    def _set_size(self, s: _Session, cols: int, rows: int) -> None:
        s.proc.setwinsize(rows, cols)

    def _hangup(self, s: _Session) -> None:
        if s.pid is None or s.tree_killed:
            return
        s.tree_killed = True
        threading.Thread(
            target=_kill_tree, args=(s.pid,), name=f"pty-taskkill-{s.id[:8]}", daemon=True
        ).start()

    def _force_kill(self, s: _Session) -> None:
        if s.pid is None or s.exited.is_set() or self._child_exited(s):
            return
        try:
            os.kill(s.pid, 1)  # TerminateProcess(exit code 1) on Windows
        except OSError as exc:
            log.debug("terminate of session %s failed: %s", s.id, exc)

    def _child_exited(self, s: _Session) -> bool:
        try:
            return not bool(s.proc.isalive())
        except Exception:  # WinptyError: the process handle is gone
            return True

    def _reap(self, s: _Session) -> int:
        deadline = time.monotonic() + _REAP_TIMEOUT_S
        while not self._child_exited(s):
            if time.monotonic() > deadline:
                # Output ended but the child lives on (it freed its console): end it.
                self._force_kill(s)
                break
            time.sleep(0.05)
        status = None
        for _ in range(20):  # the status may lag the process's end by a moment
            try:
                status = s.proc.exitstatus
            except Exception as exc:
                log.debug("exit status of session %s: %s", s.id, exc)
            if status is not None:
                break
            time.sleep(0.05)
        return int(status) if status is not None else -1

    def _release(self, s: _Session) -> None:
        s.proc.close(force=True)


# ---------------------------------------------------------------------- helpers (pure)


def command_line(exe: str, args: list[str]) -> str:
    """The Windows command line of `exe args` (MSVC quoting rules, `subprocess.list2cmdline`)."""
    return subprocess.list2cmdline([exe, *args])


def env_block(env: Mapping[str, str]) -> str:
    """`env` as the `NAME=value\\0...` block CreateProcessW takes, sorted case-insensitively
    (as Windows expects); pywinpty appends the final terminator."""
    items = sorted(env.items(), key=lambda kv: kv[0].upper())
    return "".join(f"{k}={v}\0" for k, v in items if k and "=" not in k)


def resolve_command(command: str, path: str, cwd: str, pathext: str) -> str | None:
    """Absolute path of `command` as Windows would run it: looked up on `path` (`;`-separated)
    with the extensions of `pathext` when it has none of them; a command with a directory part
    is taken relative to `cwd`. None when not found.

    Only files with a `pathext` extension count: npm puts an extension-less `sh` script next
    to each `.cmd` shim, which CreateProcess cannot run.
    """
    exts = [e.lower() for e in pathext.split(";") if e]
    has_ext = os.path.splitext(command)[1].lower() in exts

    def candidates(base: str) -> list[str]:
        return [base] if has_ext else [base + e for e in exts]

    if "/" in command or "\\" in command:
        base = command if _is_abs_windows(command) else os.path.join(cwd, command)
        dirs_and_names = [("", c) for c in candidates(base)]
    else:
        dirs_and_names = [
            (folder.strip('"'), c)
            for folder in path.split(";") if folder
            for c in candidates(command)
        ]
    for folder, name in dirs_and_names:
        full = os.path.join(folder, name) if folder else name
        if os.path.isfile(full):
            return full
    return None


def _is_abs_windows(p: str) -> bool:
    return os.path.isabs(p) or (len(p) > 2 and p[1] == ":" and p[2] in "\\/") or p.startswith("\\\\")


def _env_get(env: Mapping[str, str], name: str) -> str | None:
    """Case-insensitive lookup (Windows variable names ignore case)."""
    upper = name.upper()
    for k, v in env.items():
        if k.upper() == upper:
            return v
    return None


def _readable(sock: object, timeout_s: float) -> bool:
    """Wait up to `timeout_s` for `PtyProcess`'s socket to have data; True when it does, on
    error, or when there is no socket to wait on (the read then blocks)."""
    if not isinstance(sock, socket.socket):
        return True
    try:
        r, _, x = select.select([sock], [], [sock], timeout_s)
    except (OSError, ValueError):
        return True
    return bool(r or x)


def _kill_tree(pid: int) -> None:
    """End `pid` and its descendants (`taskkill /T /F`); falls back to ending `pid` alone."""
    system_root = os.environ.get("SystemRoot", r"C:\Windows")
    taskkill = os.path.join(system_root, "System32", "taskkill.exe")
    try:
        subprocess.run(
            [taskkill, "/PID", str(pid), "/T", "/F"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            timeout=10, creationflags=getattr(subprocess, "CREATE_NO_WINDOW", 0),
        )
        return
    except (OSError, subprocess.SubprocessError) as exc:
        log.debug("taskkill %d failed: %s", pid, exc)
    try:
        os.kill(pid, 1)
    except OSError:
        pass
