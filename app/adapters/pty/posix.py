"""`PtyHost` on POSIX with `ptyprocess` (Linux, macOS).

Per session: one reader thread (master fd → incremental UTF-8 decoder → scrollback ring + output
sink, paused by flow control) and one writer thread (keystrokes applied in `seq` order). Writes
never wait behind the reader, so Ctrl-C reaches the line discipline even while the reader is
paused by a flood.
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
import threading
import uuid
from functools import partial

from ptyprocess import PtyProcess, PtyProcessError  # type: ignore[import-untyped]

from app.core.domain.sessions import SpawnSpec
from app.core.errors import (
    ALREADY_EXISTS,
    COMMAND_NOT_FOUND,
    INTERNAL,
    INVALID,
    NOT_FOUND,
    AppError,
)

from .common import (
    HIGH_WATER_CHARS,
    LOW_WATER_CHARS,
    READ_CHUNK_BYTES,
    SCROLLBACK_CHARS,
    SEQ_GAP_TIMEOUT_MS,
    ExitSink,
    FlowGate,
    OrderedInput,
    OutputSink,
    ScrollbackRing,
    build_child_env,
    user_environ,
    utf16_units,
)

log = logging.getLogger(__name__)

#: While paused or idle, the reader checks this often (s) whether the child exited.
_POLL_S = 0.25
#: Largest single write to the master (bytes); the fd is non-blocking, the rest waits.
_WRITE_CHUNK_BYTES = 4096


class _Session:
    def __init__(
        self,
        session_id: str,
        proc: PtyProcess,
        scrollback_chars: int,
        high_water: int,
        low_water: int,
        gap_timeout_ms: int,
    ) -> None:
        self.id = session_id
        self.proc = proc
        self.pid: int = proc.pid
        self.fd: int = proc.fd
        self.lock = threading.Lock()  # ring, exit state, sink emission order
        self.emitted_units = 0  # UTF-16 code units of output emitted since spawn
        self.fd_lock = threading.Lock()  # fd use (write, resize, signal lookup) vs close
        self.fd_closed = False
        self.reaped = False
        self.ring = ScrollbackRing(scrollback_chars)
        self.gate = FlowGate(high_water, low_water)
        self.input = OrderedInput(gap_timeout_ms)
        self.exit_code: int | None = None
        self.exited = threading.Event()
        self.reader: threading.Thread | None = None
        self.writer: threading.Thread | None = None


class PtyProcessHost:
    """Runs processes in real PTYs (implements the core's `PtyHost` port).

    Callbacks (both run on the session's reader thread; they must be quick and must not block,
    e.g. append to a `PushPump`):
      - `on_output(session_id, text)`: decoded output, in order, never a split character. It is
        called while the session's lock is held, so a `scrollback()` snapshot is atomic with
        respect to it: don't call `scrollback()` from inside the callback.
      - `on_exit(session_id, exit_code)`: once, after the last `on_output`. `exit_code` is the
        process's exit status, or 128 + signal number when killed by a signal (shell style).
    Both can be given later with `set_sinks` (composition root wiring).

    Sizes: `scrollback_chars` per session (characters); flow control thresholds `high_water` /
    `low_water` in unacknowledged characters; `gap_timeout_ms` for input seq gaps;
    `kill_grace_ms` between SIGHUP and SIGKILL.
    """

    def __init__(
        self,
        on_output: OutputSink | None = None,
        on_exit: ExitSink | None = None,
        *,
        scrollback_chars: int = SCROLLBACK_CHARS,
        high_water: int = HIGH_WATER_CHARS,
        low_water: int = LOW_WATER_CHARS,
        gap_timeout_ms: int = SEQ_GAP_TIMEOUT_MS,
        kill_grace_ms: int = 3_000,
    ) -> None:
        self._on_output = on_output
        self._on_exit = on_exit
        self._scrollback_chars = scrollback_chars
        self._high = high_water
        self._low = low_water
        self._gap_timeout_ms = gap_timeout_ms
        self._kill_grace_s = kill_grace_ms / 1000.0
        self._lock = threading.Lock()
        self._sessions: dict[str, _Session] = {}

    # ------------------------------------------------------------------ wiring

    def set_sinks(
        self, on_output: OutputSink | None = None, on_exit: ExitSink | None = None
    ) -> None:
        """Set (replace) the output and exit callbacks; `None` leaves a callback unchanged."""
        if on_output is not None:
            self._on_output = on_output
        if on_exit is not None:
            self._on_exit = on_exit

    # ------------------------------------------------------------------ PtyHost port

    def spawn(self, spec: SpawnSpec) -> str:
        """Start `spec.command spec.args` in a new PTY of `spec.cols` × `spec.rows` cells.

        The child's environment is the user's plus `spec.env` (see `build_child_env`); its
        working directory is `spec.cwd`. Returns the session id (`spec.session_id`, or a new
        uuid4 when empty).

        Raises `AppError`: COMMAND_NOT_FOUND ("command not found: <cmd>") when the command is not
        an executable on the child's PATH; NOT_FOUND when `cwd` is not a directory; INVALID for
        a size < 1; ALREADY_EXISTS when a live session already has this id; INTERNAL when the
        OS refuses the PTY or the fork.
        """
        if spec.cols < 1 or spec.rows < 1:
            raise AppError(INVALID, f"invalid terminal size {spec.cols}x{spec.rows}")
        session_id = spec.session_id or str(uuid.uuid4())
        with self._lock:
            old = self._sessions.get(session_id)
            if old is not None and not old.exited.is_set():
                raise AppError(
                    ALREADY_EXISTS,
                    f"session already running: {session_id}",
                    {"sessionId": session_id},
                )
        if not os.path.isdir(spec.cwd):
            raise AppError(NOT_FOUND, f"working directory not found: {spec.cwd}")
        env = build_child_env(user_environ(), spec.env)
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
                preexec_fn=partial(os.chdir, spec.cwd),
            )
        except (FileNotFoundError, PermissionError) as exc:
            raise AppError(COMMAND_NOT_FOUND, f"command not found: {spec.command}") from exc
        except OSError as exc:
            raise AppError(INTERNAL, f"cannot start {spec.command}: {exc}") from exc

        # Non-blocking master: the writer never sleeps holding the fd lock (kill and resize
        # stay instant even when the child does not read its input) and the reader polls.
        os.set_blocking(proc.fd, False)
        session = _Session(
            session_id, proc, self._scrollback_chars, self._high, self._low, self._gap_timeout_ms
        )
        with self._lock:
            self._sessions[session_id] = session
        short = session_id[:8]
        session.reader = threading.Thread(
            target=self._read_loop, args=(session,), name=f"pty-read-{short}", daemon=True
        )
        session.writer = threading.Thread(
            target=self._write_loop, args=(session,), name=f"pty-write-{short}", daemon=True
        )
        session.writer.start()
        session.reader.start()
        return session_id

    def write(self, session_id: str, seq: int, data: str) -> None:
        """Queue `data` (text, sent UTF-8 encoded) as input number `seq` of the session.

        Calls may come from any thread in any order; input is applied in `seq` order (0, 1, …)
        by the session's writer thread, and a gap unfilled for `gap_timeout_ms` is skipped.
        Never blocks on the PTY. Input to an ended session is dropped.
        Raises `AppError(NOT_FOUND)` for an unknown session.
        """
        self._get(session_id).input.put(seq, data)

    def resize(self, session_id: str, cols: int, rows: int) -> None:
        """Set the terminal size in character cells (the child gets SIGWINCH).

        No-op on an ended session. Raises `AppError`: NOT_FOUND (unknown session), INVALID
        (size < 1).
        """
        if cols < 1 or rows < 1:
            raise AppError(INVALID, f"invalid terminal size {cols}x{rows}")
        s = self._get(session_id)
        with s.fd_lock:
            if s.fd_closed:
                return
            try:
                s.proc.setwinsize(rows, cols)
            except OSError as exc:
                log.debug("resize %s failed: %s", session_id, exc)

    def kill(self, session_id: str) -> None:
        """Hang up the session: SIGHUP now, SIGKILL if still running after `kill_grace_ms`.

        Returns at once; `on_exit` reports the end. No-op on an ended session.
        Raises `AppError(NOT_FOUND)` for an unknown session.
        """
        s = self._get(session_id)
        if s.exited.is_set():
            return
        s.gate.bypass()  # the reader must drain to EOF even if nobody acknowledges
        self._signal(s, signal.SIGHUP)

        def escalate() -> None:
            if not s.exited.wait(self._kill_grace_s):
                self._signal(s, signal.SIGKILL)

        threading.Thread(target=escalate, name=f"pty-kill-{session_id[:8]}", daemon=True).start()

    def is_alive(self, session_id: str) -> bool:
        """True while the session's process runs; False once it exited or for an unknown id."""
        with self._lock:
            s = self._sessions.get(session_id)
        if s is None or s.exited.is_set():
            return False
        return not _child_exited(s)

    def scrollback(self, session_id: str) -> str:
        """The session's recent output (decoded text, at most `scrollback_chars` characters).

        Raises `AppError(NOT_FOUND)` for an unknown session.
        """
        s = self._get(session_id)
        with s.lock:
            return s.ring.text()

    def snapshot(self, session_id: str) -> tuple[str, int]:
        """``(scrollback, end)``: the recent output and the UTF-16 offset just after it.

        Output offsets count UTF-16 code units (JS string length) from the session's start; a
        view repaints ``scrollback`` then skips pushed output below ``end`` (no loss, no
        duplicate). Raises `AppError(NOT_FOUND)` for an unknown session.
        """
        s = self._get(session_id)
        with s.lock:
            return s.ring.text(), s.emitted_units

    # ------------------------------------------------------------------ extras

    def ack(self, session_id: str, chars: int) -> None:
        """Flow control: the view consumed `chars` characters of this session's output.

        Unknown or ended sessions are ignored (a late ack is harmless).
        """
        with self._lock:
            s = self._sessions.get(session_id)
        if s is not None:
            s.gate.ack(chars)

    def set_flow_control(self, session_id: str, enabled: bool) -> None:
        """Turn flow control on/off for a session (off while no view displays it, so a
        background agent never stalls waiting for acks). Resets the unacknowledged count.
        Raises `AppError(NOT_FOUND)` for an unknown session.
        """
        self._get(session_id).gate.set_enabled(enabled)

    def exit_code(self, session_id: str) -> int | None:
        """The exit code once `on_exit` was called (128 + signal when killed), else None.

        Raises `AppError(NOT_FOUND)` for an unknown session.
        """
        return self._get(session_id).exit_code

    def session_ids(self) -> list[str]:
        """Ids of all known sessions, running or ended (until `forget`)."""
        with self._lock:
            return list(self._sessions)

    def forget(self, session_id: str) -> None:
        """Drop an ended session's record (scrollback, exit code). Unknown ids are ignored.

        Raises `AppError(INVALID)` if the session is still running (kill it first).
        """
        with self._lock:
            s = self._sessions.get(session_id)
            if s is None:
                return
            if not s.exited.is_set():
                raise AppError(INVALID, f"session still running: {session_id}")
            del self._sessions[session_id]

    def close_all(self, timeout_ms: int = 3_000) -> None:
        """App shutdown: SIGHUP every running session, SIGKILL what is left after
        `timeout_ms`, and wait (bounded) for the reader threads to report the exits."""
        with self._lock:
            sessions = [s for s in self._sessions.values() if not s.exited.is_set()]
        for s in sessions:
            s.gate.bypass()
            self._signal(s, signal.SIGHUP)
        deadline_s = timeout_ms / 1000.0
        for s in sessions:
            if not s.exited.wait(deadline_s):
                self._signal(s, signal.SIGKILL)
            deadline_s = 0.05
        for s in sessions:
            s.exited.wait(1.0)

    # ------------------------------------------------------------------ internals

    def _get(self, session_id: str) -> _Session:
        with self._lock:
            s = self._sessions.get(session_id)
        if s is None:
            raise AppError(NOT_FOUND, f"no terminal session {session_id}", {"sessionId": session_id})
        return s

    def _signal(self, s: _Session, sig: int) -> None:
        """Send `sig` to the child and to the terminal's foreground process group."""
        groups: set[int] = set()
        with s.fd_lock:
            if not s.fd_closed:
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

    def _emit(self, s: _Session, text: str) -> None:
        if not text:
            return
        with s.lock:
            s.ring.append(text)
            s.emitted_units += utf16_units(text)
            s.gate.produced(len(text))
            sink = self._on_output
            if sink is not None:
                try:
                    sink(s.id, text)
                except Exception:
                    log.exception("on_output failed for session %s", s.id)

    def _read_loop(self, s: _Session) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        try:
            while True:
                while not s.gate.wait_open(_POLL_S):
                    if _child_exited(s):
                        s.gate.bypass()  # drain what the child left in the buffer
                if not _wait_fd(s.fd, write=False, timeout_s=_POLL_S):
                    # Nothing to read. A child that exited while a background process keeps
                    # the terminal open would otherwise never be reported.
                    if _child_exited(s) and not _wait_fd(s.fd, write=False, timeout_s=0.05):
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
                self._emit(s, decoder.decode(data))
            self._emit(s, decoder.decode(b"", final=True))
        except Exception:
            log.exception("reader of session %s failed", s.id)
        finally:
            self._finish(s)

    def _finish(self, s: _Session) -> None:
        s.input.close()
        code = self._reap(s)
        with s.fd_lock:
            s.fd_closed = True
            try:
                s.proc.fileobj.close()
                s.proc.closed = True
            except OSError:
                pass
        with s.lock:
            s.exit_code = code
        s.exited.set()
        sink = self._on_exit
        if sink is not None:
            try:
                sink(s.id, code)
            except Exception:
                log.exception("on_exit failed for session %s", s.id)

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

    def _write_loop(self, s: _Session) -> None:
        while True:
            data = s.input.take()
            if data is None:
                return
            payload = memoryview(data.encode("utf-8", errors="replace"))
            while payload:
                with s.fd_lock:
                    if s.fd_closed:
                        return
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
                    return
                _wait_fd(s.fd, write=True, timeout_s=_POLL_S)


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


def _child_exited(s: _Session) -> bool:
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
