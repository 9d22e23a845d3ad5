"""What every PTY host shares, whatever the PTY technology (SPEC §5, C2).

`PtyHostBase` holds the session bookkeeping, the output path (UTF-16 offset stamping,
flow-control gate, listener), the ordered writer thread and the kill / shutdown sequencing.
A technology module (`posix.py`: ptyprocess, `windows.py`: pywinpty) subclasses it and supplies
only what touches the PTY and the process: open a session, pump its output, send input, resize,
hang up, force-kill, tell whether the child exited, reap it and release the PTY.

It implements the core's `TerminalHost` port: output and exits go to one `TerminalListener`
(the services' terminal-output bus), each chunk stamped with its offset in the session's stream.
"""

from __future__ import annotations

import abc
import logging
import os
import threading
import time
import uuid
from typing import Generic, TypeVar

from app.core.domain.sessions import SpawnSpec, TerminalChunk
from app.core.errors import ALREADY_EXISTS, INVALID, NOT_FOUND, AppError
from app.core.ports import TerminalListener

from .common import (
    HIGH_WATER_CHARS,
    LOW_WATER_CHARS,
    SEQ_GAP_TIMEOUT_MS,
    FlowGate,
    OrderedInput,
    build_child_env,
    user_environ,
    utf16_units,
)

log = logging.getLogger(__name__)

#: While paused or idle, a reader checks this often (s) whether the child exited.
POLL_S = 0.25


class SessionBase:
    """State of one session that does not depend on the PTY technology.

    `emitted_units` (UTF-16 code units of output emitted since spawn) is only touched by the
    reader thread; `io_lock` guards use of the PTY (write, resize, …) against its release
    (`io_closed`).
    """

    def __init__(
        self, session_id: str, high_water: int, low_water: int, gap_timeout_ms: int,
    ) -> None:
        self.id = session_id
        self.lock = threading.Lock()  # the technology's own state (e.g. reaped)
        self.emitted_units = 0
        self.io_lock = threading.Lock()
        self.io_closed = False
        self.gate = FlowGate(high_water, low_water)
        self.input = OrderedInput(gap_timeout_ms)
        self.exit_code: int | None = None
        #: When input was last written to the PTY (`time.monotonic()`, s; 0: never).
        self.input_at = 0.0
        self.exited = threading.Event()
        self.reader: threading.Thread | None = None
        self.writer: threading.Thread | None = None


S = TypeVar("S", bound=SessionBase)


class PtyHostBase(abc.ABC, Generic[S]):
    """Runs processes in real PTYs (implements the core's `TerminalHost` port).

    Per session: one reader thread (PTY output → listener, paused by flow control) and one
    writer thread (keystrokes applied in `seq` order). Writes never wait behind the reader, so
    Ctrl-C reaches the terminal even while the reader is paused by a flood.

    The listener (`set_listener`, wired once by the bootstrap) is called on the session's
    reader thread and must be quick and never block:
      - `output(TerminalChunk(session_id, offset, text))`: decoded output, in order, never a
        split character; `offset` counts UTF-16 code units since the session started.
      - `exited(session_id, exit_code)`: once, after the last `output`.

    Sizes: flow control thresholds `high_water` / `low_water` in unacknowledged characters;
    `gap_timeout_ms` for input seq gaps; `kill_grace_ms` between the hang-up and the forced kill.
    """

    def __init__(
        self,
        listener: TerminalListener | None = None,
        *,
        high_water: int = HIGH_WATER_CHARS,
        low_water: int = LOW_WATER_CHARS,
        gap_timeout_ms: int = SEQ_GAP_TIMEOUT_MS,
        kill_grace_ms: int = 3_000,
    ) -> None:
        self._listener = listener
        self._high = high_water
        self._low = low_water
        self._gap_timeout_ms = gap_timeout_ms
        self._kill_grace_s = kill_grace_ms / 1000.0
        self._lock = threading.Lock()
        self._sessions: dict[str, S] = {}

    # ------------------------------------------------------------------ technology hooks

    @abc.abstractmethod
    def _open(self, spec: SpawnSpec, session_id: str, env: dict[str, str]) -> S:
        """Start the child in a new PTY and return its session (threads not started yet).

        `env` is the child's full environment; `spec.cwd` is known to be a directory.
        Raises `AppError` (COMMAND_NOT_FOUND, INTERNAL).
        """

    @abc.abstractmethod
    def _pump_output(self, s: S) -> None:
        """Reader thread body: read until the output ends, `_emit` each decoded piece, honour
        `s.gate` (`wait_open` before each read). Returns at the end of output."""

    @abc.abstractmethod
    def _send_input(self, s: S, data: str) -> bool:
        """Writer thread: deliver `data` to the PTY. False when the session can take no more
        input (the writer stops)."""

    @abc.abstractmethod
    def _set_size(self, s: S, cols: int, rows: int) -> None:
        """Resize the PTY; called with `s.io_lock` held and the PTY open."""

    @abc.abstractmethod
    def _hangup(self, s: S) -> None:
        """Ask the session's processes to end (first step of `kill` and `close_all`)."""

    @abc.abstractmethod
    def _force_kill(self, s: S) -> None:
        """End the session's processes for good (after the grace period)."""

    @abc.abstractmethod
    def _child_exited(self, s: S) -> bool:
        """True once the child has exited (without reaping it); False when unknown."""

    @abc.abstractmethod
    def _reap(self, s: S) -> int:
        """Wait for the child and return its exit code (reader thread, after the output ended)."""

    @abc.abstractmethod
    def _release(self, s: S) -> None:
        """Release the PTY; called once with `s.io_lock` held, after `_reap`."""

    # ------------------------------------------------------------------ wiring

    def set_listener(self, listener: TerminalListener) -> None:
        """Deliver every session's output and exit to `listener` (replaces the previous one)."""
        self._listener = listener

    # ------------------------------------------------------------------ TerminalHost port

    def spawn(self, spec: SpawnSpec) -> str:
        """Start `spec.command spec.args` in a new PTY of `spec.cols` × `spec.rows` cells.

        The child's environment is the user's plus `spec.env` (see `build_child_env`); its
        working directory is `spec.cwd`. Returns the session id (`spec.session_id`, or a new
        uuid4 when empty).

        Raises `AppError`: COMMAND_NOT_FOUND ("command not found: <cmd>") when the command is not
        an executable on the child's PATH; NOT_FOUND when `cwd` is not a directory; INVALID for
        a size < 1; ALREADY_EXISTS when a live session already has this id; INTERNAL when the
        OS refuses the PTY or the process.
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
        session = self._open(spec, session_id, env)
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
        """Queue `data` (text) as input number `seq` of the session.

        Calls may come from any thread in any order; input is applied in `seq` order (0, 1, …)
        by the session's writer thread, and a gap unfilled for `gap_timeout_ms` is skipped.
        Never blocks on the PTY. Input to an ended session is dropped.
        Raises `AppError(NOT_FOUND)` for an unknown session.
        """
        self._get(session_id).input.put(seq, data)

    def inject(self, session_id: str, data: str) -> None:
        """Queue `data` typed by IdeA itself (the headless write portal), outside any view's
        `seq` order. Raises `AppError(NOT_FOUND)` for an unknown session."""
        self._get(session_id).input.put_unordered(data)

    def resize(self, session_id: str, cols: int, rows: int) -> None:
        """Set the terminal size in character cells.

        No-op on an ended session. Raises `AppError`: NOT_FOUND (unknown session), INVALID
        (size < 1).
        """
        if cols < 1 or rows < 1:
            raise AppError(INVALID, f"invalid terminal size {cols}x{rows}")
        s = self._get(session_id)
        with s.io_lock:
            if s.io_closed:
                return
            try:
                self._set_size(s, cols, rows)
            except Exception as exc:  # OSError (POSIX), WinptyError (Windows)
                log.debug("resize %s failed: %s", session_id, exc)

    def kill(self, session_id: str) -> None:
        """Hang up the session now, force-kill it if still running after `kill_grace_ms`.

        Returns at once; `on_exit` reports the end. No-op on an ended session.
        Raises `AppError(NOT_FOUND)` for an unknown session.
        """
        s = self._get(session_id)
        if s.exited.is_set():
            return
        s.gate.bypass()  # the reader must drain to EOF even if nobody acknowledges
        self._hangup(s)

        def escalate() -> None:
            if not s.exited.wait(self._kill_grace_s):
                self._force_kill(s)

        threading.Thread(target=escalate, name=f"pty-kill-{session_id[:8]}", daemon=True).start()

    def is_alive(self, session_id: str) -> bool:
        """True while the session's process runs; False once it exited or for an unknown id."""
        with self._lock:
            s = self._sessions.get(session_id)
        if s is None or s.exited.is_set():
            return False
        return not self._child_exited(s)

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

    def set_flow_window(self, session_id: str, high: int, low: int) -> None:
        """Flow-control thresholds of one session, in unacknowledged characters (ADR 008).
        Unknown or ended sessions are ignored; raises ValueError unless 0 <= low < high."""
        with self._lock:
            s = self._sessions.get(session_id)
        if s is not None:
            s.gate.set_window(high, low)

    def exit_code(self, session_id: str) -> int | None:
        """The exit code once `on_exit` was called, else None.

        Raises `AppError(NOT_FOUND)` for an unknown session.
        """
        return self._get(session_id).exit_code

    def session_ids(self) -> list[str]:
        """Ids of all known sessions, running or ended (until `forget`)."""
        with self._lock:
            return list(self._sessions)

    def forget(self, session_id: str) -> None:
        """Drop an ended session's record (exit code, input queue). Unknown ids are ignored.

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
        """App shutdown: hang up every running session, force-kill what is left after
        `timeout_ms`, and wait (bounded) for the reader threads to report the exits."""
        with self._lock:
            sessions = [s for s in self._sessions.values() if not s.exited.is_set()]
        for s in sessions:
            s.gate.bypass()
            self._hangup(s)
        deadline_s = timeout_ms / 1000.0
        for s in sessions:
            if not s.exited.wait(deadline_s):
                self._force_kill(s)
            deadline_s = 0.05
        for s in sessions:
            s.exited.wait(1.0)

    # ------------------------------------------------------------------ internals

    def _get(self, session_id: str) -> S:
        with self._lock:
            s = self._sessions.get(session_id)
        if s is None:
            raise AppError(NOT_FOUND, f"no terminal session {session_id}", {"sessionId": session_id})
        return s

    def _emit(self, s: S, text: str) -> None:
        """Stamp decoded output with its offset, count it for flow control, hand it on."""
        if not text:
            return
        offset = s.emitted_units
        s.emitted_units = end = offset + utf16_units(text)
        s.gate.produced(len(text))
        listener = self._listener
        if listener is not None:
            try:
                listener.output(TerminalChunk(s.id, offset, end, text))
            except Exception:
                log.exception("output listener failed for session %s", s.id)

    def _read_loop(self, s: S) -> None:
        try:
            self._pump_output(s)
        except Exception:
            log.exception("reader of session %s failed", s.id)
        finally:
            self._finish(s)

    def _finish(self, s: S) -> None:
        s.input.close()
        code = self._reap(s)
        with s.io_lock:
            s.io_closed = True
            try:
                self._release(s)
            except Exception as exc:
                log.debug("release of session %s failed: %s", s.id, exc)
        s.exit_code = code
        s.exited.set()
        listener = self._listener
        if listener is not None:
            try:
                listener.exited(s.id, code)
            except Exception:
                log.exception("exit listener failed for session %s", s.id)

    def _write_loop(self, s: S) -> None:
        while True:
            data = s.input.take()
            if data is None:
                return
            s.input_at = time.monotonic()
            if not self._send_input(s, data):
                return
