"""What every PTY host shares, whatever the PTY technology (SPEC §5, C2).

`PtyHostBase` holds the session bookkeeping, the output path (scrollback ring, UTF-16 offset,
flow-control gate, sink), the ordered writer thread and the kill / shutdown sequencing.
A technology module (`posix.py`: ptyprocess, `windows.py`: pywinpty) subclasses it and supplies
only what touches the PTY and the process: open a session, pump its output, send input, resize,
hang up, force-kill, tell whether the child exited, reap it and release the PTY.

`TerminalHost` is the protocol the bridge and the composition root type against (the core's
`PtyHost` port plus flow control, snapshots and lifecycle).
"""

from __future__ import annotations

import abc
import logging
import os
import threading
import uuid
from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

from app.core.domain.sessions import SpawnSpec
from app.core.errors import ALREADY_EXISTS, INVALID, NOT_FOUND, AppError

from .common import (
    HIGH_WATER_CHARS,
    LOW_WATER_CHARS,
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

#: While paused or idle, a reader checks this often (s) whether the child exited.
POLL_S = 0.25


class TerminalHost(Protocol):
    """A PTY host as the bridge and the composition root use it (see `PtyHostBase`)."""

    def set_sinks(
        self, on_output: OutputSink | None = None, on_exit: ExitSink | None = None
    ) -> None: ...
    def spawn(self, spec: SpawnSpec) -> str: ...
    def write(self, session_id: str, seq: int, data: str) -> None: ...
    def resize(self, session_id: str, cols: int, rows: int) -> None: ...
    def kill(self, session_id: str) -> None: ...
    def is_alive(self, session_id: str) -> bool: ...
    def scrollback(self, session_id: str) -> str: ...
    def snapshot(self, session_id: str) -> tuple[str, int]: ...
    def ack(self, session_id: str, chars: int) -> None: ...
    def set_flow_control(self, session_id: str, enabled: bool) -> None: ...
    def exit_code(self, session_id: str) -> int | None: ...
    def session_ids(self) -> list[str]: ...
    def forget(self, session_id: str) -> None: ...
    def close_all(self, timeout_ms: int = 3_000) -> None: ...


class SessionBase:
    """State of one session that does not depend on the PTY technology.

    `lock` guards the ring, the exit state and the order of sink calls; `io_lock` guards use of
    the PTY (write, resize, …) against its release (`io_closed`).
    """

    def __init__(
        self, session_id: str, scrollback_chars: int, high_water: int, low_water: int,
        gap_timeout_ms: int,
    ) -> None:
        self.id = session_id
        self.lock = threading.Lock()
        self.emitted_units = 0  # UTF-16 code units of output emitted since spawn
        self.io_lock = threading.Lock()
        self.io_closed = False
        self.ring = ScrollbackRing(scrollback_chars)
        self.gate = FlowGate(high_water, low_water)
        self.input = OrderedInput(gap_timeout_ms)
        self.exit_code: int | None = None
        self.exited = threading.Event()
        self.reader: threading.Thread | None = None
        self.writer: threading.Thread | None = None


S = TypeVar("S", bound=SessionBase)


class PtyHostBase(abc.ABC, Generic[S]):
    """Runs processes in real PTYs (implements the core's `PtyHost` port).

    Per session: one reader thread (PTY output → scrollback ring + output sink, paused by flow
    control) and one writer thread (keystrokes applied in `seq` order). Writes never wait behind
    the reader, so Ctrl-C reaches the terminal even while the reader is paused by a flood.

    Callbacks (both run on the session's reader thread; they must be quick and must not block,
    e.g. append to a `PushPump`):
      - `on_output(session_id, text)`: decoded output, in order, never a split character. It is
        called while the session's lock is held, so a `scrollback()` snapshot is atomic with
        respect to it: don't call `scrollback()` from inside the callback.
      - `on_exit(session_id, exit_code)`: once, after the last `on_output`.
    Both can be given later with `set_sinks` (composition root wiring).

    Sizes: `scrollback_chars` per session (characters); flow control thresholds `high_water` /
    `low_water` in unacknowledged characters; `gap_timeout_ms` for input seq gaps;
    `kill_grace_ms` between the hang-up and the forced kill.
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
        """The exit code once `on_exit` was called, else None.

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
        """Hand decoded output to the ring, the offset count, the gate and the sink, in order."""
        if not text:
            return
        with s.lock:
            s.ring.append(text)
            s.emitted_units += utf16_units(text)
            s.gate.produced(len(text))
            _call_sink("on_output", self._on_output, s.id, text)

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
        with s.lock:
            s.exit_code = code
        s.exited.set()
        _call_sink("on_exit", self._on_exit, s.id, code)

    def _write_loop(self, s: S) -> None:
        while True:
            data = s.input.take()
            if data is None:
                return
            if not self._send_input(s, data):
                return


def _call_sink(name: str, sink: Callable[[str, Any], None] | None, session_id: str,
               value: Any) -> None:
    """Call an output/exit callback; a failing callback is logged, never stops the reader."""
    if sink is None:
        return
    try:
        sink(session_id, value)
    except Exception:
        log.exception("%s failed for session %s", name, session_id)
