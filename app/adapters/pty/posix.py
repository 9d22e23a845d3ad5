"""`PtyHost` on POSIX with `ptyprocess` (Linux, macOS).

The session bookkeeping, flow control, ordered writer and kill sequencing live in
`base.PtyHostBase`; this module holds what is POSIX: fork into a PTY, the non-blocking master
fd (reader: poll + incremental UTF-8 decoder; writer: chunked writes), signals (SIGHUP then
SIGKILL, to the child and the terminal's foreground process group) and `waitid`/`wait`.
"""

from __future__ import annotations

import codecs
import errno
import logging
import os
import select
import shutil
import signal
import sys
import time
from functools import partial

from ptyprocess import PtyProcess, PtyProcessError  # type: ignore[import-untyped]

from app.core.domain.sessions import SpawnSpec
from app.core.errors import COMMAND_NOT_FOUND, INTERNAL, AppError
from app.core.ports import TerminalListener

from .base import POLL_S, PtyHostBase, SessionBase
from .common import READ_CHUNK_BYTES, ReadCoalescing

log = logging.getLogger(__name__)

#: Largest single write to the master (bytes); the fd is non-blocking, the rest waits.
_WRITE_CHUNK_BYTES = 4096


class _Session(SessionBase):
    def __init__(
        self,
        session_id: str,
        proc: PtyProcess,
        high_water: int,
        low_water: int,
        gap_timeout_ms: int,
    ) -> None:
        super().__init__(session_id, high_water, low_water, gap_timeout_ms)
        self.proc = proc
        self.pid: int = proc.pid
        self.fd: int = proc.fd
        self.reaped = False


class PtyProcessHost(PtyHostBase[_Session]):
    """`PtyHostBase` over `ptyprocess` (see the base class for the API and callbacks).

    The listener's `exit_code` is the process's exit status, or 128 + signal number when killed by
    a signal (shell style). `kill` sends SIGHUP, then SIGKILL after `kill_grace_ms`.
    """

    def __init__(self, listener: TerminalListener | None = None, *,
                 coalescing: ReadCoalescing | None = None, **sizes: int) -> None:
        """`coalescing`: how a burst's reads are gathered (`ReadCoalescing`, ADR 023);
        `sizes`: the base class's keyword arguments."""
        super().__init__(listener, **sizes)
        self.coalescing = coalescing or ReadCoalescing()

    # ------------------------------------------------------------------ technology hooks

    def _open(self, spec: SpawnSpec, session_id: str, env: dict[str, str]) -> _Session:
        exe = _resolve_command(spec.command, env.get("PATH", os.defpath), spec.cwd)
        if exe is None:
            raise AppError(COMMAND_NOT_FOUND, f"command not found: {spec.command}")
        try:
            proc = PtyProcess.spawn(
                [exe, *spec.args],
                env=env,
                dimensions=(spec.rows, spec.cols),
                # chdir in preexec_fn: ptyprocess reports its errors through the exec pipe,
                # whereas a failing `cwd=` would raise inside the forked child.
                preexec_fn=partial(_child_setup, spec.cwd),
            )
        except (FileNotFoundError, PermissionError) as exc:
            raise AppError(COMMAND_NOT_FOUND, f"command not found: {spec.command}") from exc
        except OSError as exc:
            raise AppError(INTERNAL, f"cannot start {spec.command}: {exc}") from exc

        # Non-blocking master: the writer never sleeps holding the fd lock (kill and resize
        # stay instant even when the child does not read its input) and the reader polls.
        os.set_blocking(proc.fd, False)
        return _Session(session_id, proc, self._high, self._low, self._gap_timeout_ms)

    def _pump_output(self, s: _Session) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        while True:
            while not s.gate.wait_open(POLL_S):
                if self._child_exited(s):
                    s.gate.bypass()  # drain what the child left in the buffer
            if not _wait_fd(s.fd, write=False, timeout_s=POLL_S):
                # Nothing to read. A child that exited while a background process keeps
                # the terminal open would otherwise never be reported.
                if self._child_exited(s) and not _wait_fd(s.fd, write=False, timeout_s=0.05):
                    break
                continue
            try:
                data = os.read(s.fd, READ_CHUNK_BYTES)
            except BlockingIOError:
                continue
            except OSError as exc:  # EIO on Linux once the slave side is closed
                if exc.errno not in (errno.EIO, errno.EBADF):
                    log.warning("read of session %s failed: %s", s.id, exc)
                break
            if not data:
                break
            rule = self.coalescing
            if len(data) >= rule.from_bytes and time.monotonic() - s.input_at > rule.after_input_s:
                # never past the flow window: what a Ctrl+C waits behind stays its size
                data = self._gather(s.fd, data, s.gate.room)
            self._emit(s, decoder.decode(data))
        self._emit(s, decoder.decode(b"", final=True))

    def _gather(self, fd: int, first: bytes, room: int) -> bytes:
        """`first` (a burst's first read) and what follows it without a pause longer than
        `coalescing.gap_s`, up to `coalescing.max_bytes` bytes, `room` bytes (what the flow
        window still lets through) or `max_s` seconds (ADR 023). A read error ends the
        gathering; the next read reports it."""
        rule = self.coalescing
        parts, size = [first], len(first)
        limit = min(rule.max_bytes, room)
        deadline = time.monotonic() + rule.max_s
        while size < limit:
            left = deadline - time.monotonic()
            if left <= 0 or not _wait_fd(fd, write=False, timeout_s=min(left, rule.gap_s)):
                break
            try:
                more = os.read(fd, limit - size)
            except OSError:
                break
            if not more:
                break
            parts.append(more)
            size += len(more)
        return b"".join(parts)

    def _send_input(self, s: _Session, data: str) -> bool:
        payload = memoryview(data.encode("utf-8", errors="replace"))
        while payload:
            with s.io_lock:
                if s.io_closed:
                    return False
                try:
                    n = os.write(s.fd, payload[:_WRITE_CHUNK_BYTES])
                    payload = payload[n:]
                    continue
                except BlockingIOError:
                    pass
                except OSError as exc:
                    log.debug("write to session %s failed: %s", s.id, exc)
                    break
            # The child's input buffer is full: wait (without the lock) until it reads.
            if s.exited.is_set():
                return False
            _wait_fd(s.fd, write=True, timeout_s=POLL_S)
        return True

    def _set_size(self, s: _Session, cols: int, rows: int) -> None:
        s.proc.setwinsize(rows, cols)  # the child gets SIGWINCH

    def _hangup(self, s: _Session) -> None:
        self._signal(s, signal.SIGHUP)

    def _force_kill(self, s: _Session) -> None:
        self._signal(s, signal.SIGKILL)

    def _child_exited(self, s: _Session) -> bool:
        """True when the child has exited (without reaping it, so the reader still gets its
        status). False when unknown (no `os.waitid`, e.g. on some macOS builds)."""
        if s.reaped:
            return True
        waitid = getattr(os, "waitid", None)
        if waitid is None:
            return False
        try:
            res = waitid(os.P_PID, s.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return True
        except OSError:
            return False
        return res is not None

    def _reap(self, s: _Session) -> int:
        try:
            status = s.proc.wait()  # blocking; only this thread reaps the child
        except (PtyProcessError, OSError) as exc:
            log.warning("cannot get exit status of session %s: %s", s.id, exc)
            status = None
        with s.lock:
            s.reaped = True
        if status is not None:
            return int(status)
        sig = s.proc.signalstatus
        return 128 + int(sig) if sig is not None else -1

    def _release(self, s: _Session) -> None:
        try:
            s.proc.fileobj.close()
            s.proc.closed = True
        except OSError:
            pass

    # ------------------------------------------------------------------ ProcessInspector

    def foreground(self, session_id: str) -> str | None:
        """Name (`/proc/<pgrp>/comm`, else `ps`) of the terminal's foreground process group
        leader when it is not the session's own process; `None` otherwise or when unknown."""
        with self._lock:
            s = self._sessions.get(session_id)
        if s is None or s.exited.is_set():
            return None
        with s.io_lock:
            if s.io_closed:
                return None
            try:
                pgrp = os.tcgetpgrp(s.fd)
            except OSError:
                return None
        if pgrp <= 0 or pgrp == s.pid:
            return None
        return _process_name(pgrp) or str(pgrp)

    def cwd(self, session_id: str) -> str | None:
        """The session process's working directory (`/proc/<pid>/cwd`; `None` elsewhere)."""
        with self._lock:
            s = self._sessions.get(session_id)
        if s is None or s.exited.is_set():
            return None
        try:
            return os.readlink(f"/proc/{s.pid}/cwd")
        except OSError:
            return None

    # ------------------------------------------------------------------ internals

    def _signal(self, s: _Session, sig: int) -> None:
        """Send `sig` to the child and to the terminal's foreground process group."""
        groups: set[int] = set()
        with s.io_lock:
            if not s.io_closed:
                try:
                    groups.add(os.tcgetpgrp(s.fd))
                except OSError:
                    pass
        with s.lock:
            if s.reaped:
                return
            try:
                os.kill(s.pid, sig)
            except ProcessLookupError:
                pass
            groups.add(s.pid)  # the child is a session leader: its group id is its pid
            for pgrp in groups:
                if pgrp > 0 and pgrp != os.getpgrp():
                    try:
                        os.killpg(pgrp, sig)
                    except (ProcessLookupError, PermissionError):
                        pass


#: Signals a program in a terminal expects at their default action. Python ignores SIGPIPE and
#: SIGXFSZ at start-up, and `nohup` (or a desktop launcher) may ignore SIGHUP; an ignored signal
#: stays ignored across `exec`, so without this `yes | head -1` said "Broken pipe" and a shell
#: started under `nohup` survived its hang-up (`signal(7)`, "Signal mask and pending signals").
_DEFAULT_SIGNALS = tuple(getattr(signal, name) for name in (
    "SIGHUP", "SIGINT", "SIGQUIT", "SIGTERM", "SIGPIPE", "SIGXFSZ", "SIGXCPU", "SIGCHLD",
    "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGALRM", "SIGUSR1", "SIGUSR2", "SIGWINCH")
    if hasattr(signal, name))


def _child_setup(cwd: str) -> None:
    """In the forked child, before `exec`: every signal at its default action and none
    blocked, as a terminal emulator leaves them; then `chdir(cwd)` (an error is reported
    through ptyprocess's exec pipe)."""
    for sig in _DEFAULT_SIGNALS:
        signal.signal(sig, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, set())
    os.chdir(cwd)


def _resolve_command(command: str, path: str, cwd: str) -> str | None:
    """Absolute path of an executable `command` looked up on `path` (the child's PATH); a
    command with a directory part is taken relative to `cwd`. None when not found."""
    if os.sep in command or (os.altsep and os.altsep in command):
        candidate = command if os.path.isabs(command) else os.path.join(cwd, command)
        ok = os.path.isfile(candidate) and os.access(candidate, os.X_OK)
        return candidate if ok else None
    return shutil.which(command, path=path)


def _wait_fd(fd: int, *, write: bool, timeout_s: float) -> bool:
    """Wait up to `timeout_s` seconds until `fd` is readable (or writable); True when ready
    or in error (the following read/write reports it)."""
    if hasattr(select, "poll") and sys.platform != "darwin":  # poll() ignores ptys on macOS
        poller = select.poll()
        poller.register(fd, select.POLLOUT if write else select.POLLIN)
        try:
            return bool(poller.poll(int(timeout_s * 1000)))
        except OSError:
            return True
    try:
        r, w, x = select.select([] if write else [fd], [fd] if write else [], [fd], timeout_s)
    except (OSError, ValueError):
        return True
    return bool(r or w or x)


def _process_name(pid: int) -> str | None:
    """The command name of `pid` (Linux `/proc`), or `None`."""
    try:
        with open(f"/proc/{pid}/comm", encoding="utf-8", errors="replace") as f:
            return f.read().strip() or None
    except OSError:
        return None
