"""Client side of the project endpoint (docs/contracts.md §7.5), standard library only (and
pywin32 on Windows) so the `idea` command and the MCP relay start fast.

`connect` opens a connection and does the handshake (reading the server's answer byte by byte,
so nothing that follows it is consumed); `call` runs one command over a `command` connection.
Errors are `EndpointError`s carrying the server's code, or `UNREACHABLE` when no IdeA answers.

The endpoint is a Unix socket path on POSIX, a named pipe `\\\\.\\pipe\\…` on Windows
(`pipe_channel`); `open_channel` picks by the address and both give a `Channel`.
"""

from __future__ import annotations

import json
import socket
import sys
from types import TracebackType
from typing import Any, Protocol

#: Code of a client-side failure: nothing listens at the endpoint, or it went away.
UNREACHABLE = "UNREACHABLE"
#: Longest answer line read back (bytes).
MAX_ANSWER_BYTES = 16 * 1024 * 1024


class EndpointError(Exception):
    """A refused handshake or command (`code` from the server) or an unreachable endpoint."""

    def __init__(self, code: str, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.details = dict(details or {})


#: How a Windows named pipe's name starts (`\\.\pipe\`).
PIPE_PREFIX = "\\\\.\\pipe\\"


class Channel(Protocol):
    """A connected byte stream to the endpoint, with the calls of a blocking socket."""

    def settimeout(self, timeout_s: float | None) -> None: ...
    def sendall(self, data: bytes) -> None: ...
    def recv(self, size: int) -> bytes: ...
    def shutdown_write(self) -> None: ...
    def close(self) -> None: ...
    def __enter__(self) -> Channel: ...
    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None: ...


class SocketChannel:
    """A `Channel` on a connected Unix socket."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    def settimeout(self, timeout_s: float | None) -> None:
        self.sock.settimeout(timeout_s)

    def sendall(self, data: bytes) -> None:
        self.sock.sendall(data)

    def recv(self, size: int) -> bytes:
        return self.sock.recv(size)

    def shutdown_write(self) -> None:
        """Half-close: the server sees the end of what we send and may still answer."""
        self.sock.shutdown(socket.SHUT_WR)

    def close(self) -> None:
        self.sock.close()

    def __enter__(self) -> SocketChannel:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()


def is_pipe_address(endpoint: str) -> bool:
    """Whether `endpoint` names a Windows named pipe (else it is a Unix socket path)."""
    return endpoint[: len(PIPE_PREFIX)].lower() == PIPE_PREFIX


def open_channel(endpoint: str, timeout_s: float | None) -> Channel:
    """A connection to `endpoint` (before any handshake), `timeout_s` bounding the connect.
    Raises `OSError` when it cannot be opened, `EndpointError(UNREACHABLE)` when this platform
    cannot reach that kind of address."""
    if is_pipe_address(endpoint):
        if sys.platform == "win32":
            from app.commands.pipe_channel import PipeChannel

            return PipeChannel.open(endpoint, timeout_s)
        raise EndpointError(UNREACHABLE, f"{endpoint} is a Windows named pipe: an IdeA on "
                                         "Windows serves it, not one on this machine")
    family = getattr(socket, "AF_UNIX", None)
    if family is None:
        raise EndpointError(UNREACHABLE, f"{endpoint} is a Unix socket path and this platform "
                                         "has no Unix sockets")
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout_s)
        sock.connect(endpoint)
    except BaseException:
        sock.close()
        raise
    return SocketChannel(sock)


def connect(endpoint: str, kind: str, requester: str, token: str,
            timeout_s: float | None = 10.0) -> Channel:
    """A connection to `endpoint` (a socket path or a pipe name) past its handshake, in blocking
    mode without timeout. `timeout_s` bounds the connect and the handshake. Raises
    `EndpointError` (`UNREACHABLE`, or the server's refusal such as `FORBIDDEN`)."""
    try:
        sock = open_channel(endpoint, timeout_s)
    except OSError as exc:
        raise _unreachable(endpoint, exc) from exc
    try:
        sock.settimeout(timeout_s)
        try:
            hello = {"v": 1, "kind": kind, "requester": requester, "token": token}
            sock.sendall(json.dumps(hello).encode("utf-8") + b"\n")
            answer = _read_line_bytewise(sock, 64 * 1024)
        except OSError as exc:
            raise _unreachable(endpoint, exc) from exc
        reply = _decode(answer)
        if reply.get("ok") is not True:
            raise _error_of(reply.get("error"))
        sock.settimeout(None)
        return sock
    except BaseException:
        sock.close()
        raise


def call(endpoint: str, requester: str, token: str, command: dict[str, Any],
         timeout_s: float | None = None, connect_timeout_s: float = 10.0) -> dict[str, Any]:
    """Run `command` (`{"type": ..., ...}`) and return its result object; waits up to
    `timeout_s` for it (None: as long as it takes, e.g. an ask). Raises `EndpointError`."""
    sock = connect(endpoint, "command", requester, token, connect_timeout_s)
    with sock:
        sock.settimeout(timeout_s)
        try:
            sock.sendall(json.dumps({"command": command}, ensure_ascii=False).encode("utf-8")
                         + b"\n")
            line = _read_line(sock, MAX_ANSWER_BYTES)
        except OSError as exc:
            raise EndpointError(UNREACHABLE, f"the IdeA endpoint {endpoint} failed "
                                             f"({_why(exc)})") from exc
    answer = _decode(line)
    if "ok" in answer:
        result = answer["ok"]
        return result if isinstance(result, dict) else {"result": result}
    raise _error_of(answer.get("error"))


def _read_line_bytewise(sock: Channel, limit: int) -> bytes:
    line = bytearray()
    while not line.endswith(b"\n"):
        byte = sock.recv(1)
        if not byte:
            raise ConnectionResetError("closed during the handshake")
        line += byte
        if len(line) > limit:
            raise ConnectionResetError("handshake answer too long")
    return bytes(line)


def _read_line(sock: Channel, limit: int) -> bytes:
    data = bytearray()
    while b"\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            if data:
                break
            raise ConnectionResetError("closed before answering")
        data += chunk
        if len(data) > limit:
            raise ConnectionResetError("answer too long")
    return bytes(data.split(b"\n", 1)[0])


def _decode(line: bytes) -> dict[str, Any]:
    try:
        value = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise EndpointError(UNREACHABLE, "the endpoint answered something that is not JSON") from exc
    if not isinstance(value, dict):
        raise EndpointError(UNREACHABLE, "the endpoint answered something that is not an object")
    return value


def _error_of(error: Any) -> EndpointError:
    if isinstance(error, dict):
        return EndpointError(str(error.get("code", "INTERNAL")), str(error.get("message", "")),
                             error.get("details") if isinstance(error.get("details"), dict) else None)
    return EndpointError("INTERNAL", f"refused: {error!r}")


def _unreachable(endpoint: str, exc: OSError) -> EndpointError:
    return EndpointError(UNREACHABLE, f"no IdeA answers at {endpoint} ({_why(exc)}): is IdeA "
                                      "running with this project open?")


def _why(exc: OSError) -> str:
    if isinstance(exc, TimeoutError):
        return "timed out"
    return exc.strerror or str(exc) or exc.__class__.__name__
