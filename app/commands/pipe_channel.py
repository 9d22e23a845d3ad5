"""The client end of a project endpoint on Windows: a named pipe opened for overlapped I/O with
pywin32, with the socket-like calls `endpoint_client.Channel` names (docs/contracts.md §7.5).

Overlapped, because a relay reads on one thread while it writes on another, and synchronous
I/O on one pipe handle is serialised by Windows (a pending read would block every write). Each
direction has its own event; a wait that times out cancels its own I/O (`CancelIo`, from the
thread that issued it). The pipe is opened with `SECURITY_IDENTIFICATION` (the server may tell
who we are, not act as us) and the token is only sent once the process serving the pipe is
known to run as this user (a pipe name squatted by another user gets nothing).

UNVERIFIED: type-checked with `mypy --platform win32` on Linux only; it runs on Windows in
`tests/integration/test_endpoint_windows.py`. Importing it elsewhere raises `AssertionError`.
"""

from __future__ import annotations

import errno
import sys
import time
from types import TracebackType
from typing import TYPE_CHECKING

assert sys.platform == "win32", "app.commands.pipe_channel is Windows only"

import pywintypes  # noqa: E402
import win32api  # noqa: E402
import win32con  # noqa: E402
import win32event  # noqa: E402
import win32file  # noqa: E402
import win32pipe  # noqa: E402
import winerror  # noqa: E402

from app.win_identity import current_user_sid, pipe_peer_sid  # noqa: E402

if TYPE_CHECKING:
    import _win32typing

#: Longest wait between two attempts at a busy pipe (ms).
_BUSY_WAIT_MS = 500
#: What ends a read as end of stream: the server closed, or we are shutting down.
_EOF_ERRORS = (winerror.ERROR_BROKEN_PIPE, winerror.ERROR_PIPE_NOT_CONNECTED,
               winerror.ERROR_NO_DATA, winerror.ERROR_OPERATION_ABORTED)


def _os_error(exc: pywintypes.error) -> OSError:
    """`OSError` (its Windows subclass, e.g. `FileNotFoundError` for error 2) for `exc`."""
    return OSError(None, f"{exc.strerror} ({exc.funcname})", None, exc.winerror)


class PipeChannel:
    """A connected client pipe handle. `recv` from one thread and `sendall` from another may
    run at once; two threads must not both read (or both write)."""

    def __init__(self, handle: int, name: str) -> None:
        self._handle: int | None = handle
        self._name = name
        self._timeout_s: float | None = None
        self._read_event = win32event.CreateEvent(None, True, False, None)
        self._write_event = win32event.CreateEvent(None, True, False, None)
        self._stop_event = win32event.CreateEvent(None, True, False, None)

    @classmethod
    def open(cls, name: str, timeout_s: float | None) -> PipeChannel:
        """Connect to pipe `name` (`\\\\.\\pipe\\…`), waiting up to `timeout_s` while every
        instance is busy. Raises `FileNotFoundError` when nobody serves it, `TimeoutError`,
        `PermissionError` when it is served by a process of another user (or we may not open
        it), another `OSError` otherwise."""
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        flags = (win32file.FILE_FLAG_OVERLAPPED | win32con.SECURITY_SQOS_PRESENT
                 | win32file.SECURITY_IDENTIFICATION)
        while True:
            try:
                handle = win32file.CreateFile(
                    name, win32file.GENERIC_READ | win32file.GENERIC_WRITE, 0, None,
                    win32file.OPEN_EXISTING, flags, None)
                break
            except pywintypes.error as exc:
                if exc.winerror != winerror.ERROR_PIPE_BUSY:
                    raise _os_error(exc) from exc
            remaining_ms = _BUSY_WAIT_MS if deadline is None else int(
                (deadline - time.monotonic()) * 1000)
            if remaining_ms <= 0:
                raise TimeoutError(errno.ETIMEDOUT, "every instance of the pipe stayed busy")
            try:
                win32pipe.WaitNamedPipe(name, min(remaining_ms, _BUSY_WAIT_MS))
            except pywintypes.error:
                pass  # still busy, or gone: the next CreateFile says which
        raw = int(handle)
        handle.Detach()
        channel = cls(raw, name)
        try:
            server = pipe_peer_sid(raw, "server")
            if server is None:
                raise PermissionError(errno.EACCES, "cannot tell which user serves the pipe (the "
                                                    "token was not sent)")
            if server != current_user_sid():
                raise PermissionError(errno.EACCES, f"the pipe is served by another user ({server}; "
                                                    "the token was not sent)")
        except BaseException:
            channel.close()
            raise
        return channel

    def settimeout(self, timeout_s: float | None) -> None:
        """Bound every later `recv` and `sendall` (None: wait as long as it takes)."""
        self._timeout_s = timeout_s

    def recv(self, size: int) -> bytes:
        """Up to `size` bytes; `b""` at the end of the stream (the server closed, or
        `shutdown_write` was called). Raises `TimeoutError`, `OSError`."""
        handle = self._live()
        if win32event.WaitForSingleObject(self._stop_event, 0) == win32event.WAIT_OBJECT_0:
            return b""
        buffer = win32file.AllocateReadBuffer(size)
        overlapped = pywintypes.OVERLAPPED()
        overlapped.hEvent = self._read_event
        try:
            win32file.ReadFile(handle, buffer, overlapped)
        except pywintypes.error as exc:
            if exc.winerror in _EOF_ERRORS:
                return b""
            raise _os_error(exc) from exc
        count = self._complete(handle, overlapped, stoppable=True)
        return bytes(buffer[:count])

    def sendall(self, data: bytes) -> None:
        """Write all of `data`. Raises `BrokenPipeError` when the server left, `TimeoutError`,
        another `OSError`."""
        handle = self._live()
        view = memoryview(data)
        while view:
            overlapped = pywintypes.OVERLAPPED()
            overlapped.hEvent = self._write_event
            chunk = bytes(view[:65536])
            try:
                win32file.WriteFile(handle, chunk, overlapped)
            except pywintypes.error as exc:
                raise _os_error(exc) from exc
            written = self._complete(handle, overlapped, stoppable=False)
            if written <= 0:
                raise BrokenPipeError(errno.EPIPE, "the endpoint closed the pipe")
            view = view[written:]

    def shutdown_write(self) -> None:
        """Pipes have no half-close: end the conversation. A `recv` waiting (on another
        thread) returns `b""`; the server sees the client leave. Whatever the server still
        had to say is not read."""
        win32event.SetEvent(self._stop_event)

    def close(self) -> None:
        """Close the pipe and its events (idempotent)."""
        handle, self._handle = self._handle, None
        if handle is not None:
            win32file.CloseHandle(handle)
            for event in (self._read_event, self._write_event, self._stop_event):
                win32api.CloseHandle(event)

    def __enter__(self) -> PipeChannel:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()

    def _live(self) -> int:
        if self._handle is None:
            raise OSError(errno.EBADF, "the endpoint pipe is closed")
        return self._handle

    def _complete(self, handle: int, overlapped: _win32typing.PyOVERLAPPED,
                  stoppable: bool) -> int:
        """Wait for the I/O of `overlapped` (its event), within the timeout; returns the bytes
        moved (0 at the end of the stream). On timeout or stop the I/O is cancelled first."""
        events = [overlapped.hEvent, self._stop_event] if stoppable else [overlapped.hEvent]
        wait_ms = win32event.INFINITE if self._timeout_s is None else max(
            0, int(self._timeout_s * 1000))
        woke = win32event.WaitForMultipleObjects(events, False, wait_ms)
        if woke != win32event.WAIT_OBJECT_0:
            win32file.CancelIo(handle)  # our thread issued it
            try:
                win32file.GetOverlappedResult(handle, overlapped, True)
            except pywintypes.error:
                pass  # cancelled, as asked
            if woke == win32event.WAIT_TIMEOUT:
                raise TimeoutError(errno.ETIMEDOUT, "timed out")
            return 0  # stopped
        try:
            return int(win32file.GetOverlappedResult(handle, overlapped, False))
        except pywintypes.error as exc:
            if exc.winerror in _EOF_ERRORS:
                return 0
            raise _os_error(exc) from exc
