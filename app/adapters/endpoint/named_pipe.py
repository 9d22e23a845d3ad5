"""`EndpointHost` on Windows named pipes, served by one asyncio proactor loop in one daemon
thread for every project (docs/contracts.md §7.5; the shared half — handshake, connections,
the handler — is `host_base`, the same as on Unix sockets).

Per project the pipe `\\\\.\\pipe\\idea-<user>-<hash>` (`pipe_name`), in byte mode:
- Only the current user may open it: every instance is created with a protected DACL holding
  one ACE, GENERIC_ALL for the user's SID (SDDL `D:P(A;;GA;;;<sid>)`), and
  `PIPE_REJECT_REMOTE_CLIENTS`. A client that gets through anyway (an administrator) is still
  checked: the process at the other end must run as this user, else its first line (not looked
  at) is answered `FORBIDDEN` and the connection closed.
- One IdeA per project: the first instance is created with `FILE_FLAG_FIRST_PIPE_INSTANCE`, which
  fails when the name exists (`ALREADY_EXISTS`: another IdeA of this user has the project open,
  or another process squats the name). A pipe disappears with the last handle on it, so a
  killed IdeA leaves nothing stale behind.
- Accepting: one instance waits in `ConnectNamedPipe` (asyncio's IOCP proactor, as
  `ProactorEventLoop.start_serving_pipe` does — that API cannot set a security descriptor);
  as soon as a client connects the next instance is created and the connected one becomes an
  asyncio stream pair (`AsyncioEndpointStream`).

UNVERIFIED: type-checked with `mypy --platform win32` on Linux only; it runs on Windows in
`tests/integration/test_endpoint_windows.py`. Importing it elsewhere raises `AssertionError`.
Sources: "Named Pipe Security and Access Rights", "CreateNamedPipeW" (Microsoft Learn).
"""

from __future__ import annotations

import asyncio
import getpass
import logging
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from app.adapters.endpoint.host_base import (
    HANDSHAKE_TIMEOUT_S,
    EndpointHostBase,
    ServedEndpoint,
    in_use,
)
from app.adapters.endpoint.pipe_name import pipe_name, pipe_namespace
from app.adapters.endpoint.stream import AsyncioEndpointStream
from app.core.errors import FORBIDDEN, INTERNAL, NOT_WRITABLE, AppError

assert sys.platform == "win32", "app.adapters.endpoint.named_pipe is Windows only"

from asyncio.windows_utils import PipeHandle  # noqa: E402

import pywintypes  # noqa: E402
import win32file  # noqa: E402
import win32pipe  # noqa: E402
import win32security  # noqa: E402
import winerror  # noqa: E402

from app.win_identity import current_user_sid, pipe_peer_sid  # noqa: E402

if TYPE_CHECKING:
    import _win32typing

log = logging.getLogger(__name__)

#: Size of each pipe instance's in and out buffers (bytes; a hint to Windows).
BUFFER_BYTES = 64 * 1024
#: Pause before trying again when a new pipe instance cannot be created (s).
RETRY_S = 0.5
#: What `CreateNamedPipe` with FILE_FLAG_FIRST_PIPE_INSTANCE says when the name exists.
_TAKEN = (winerror.ERROR_ACCESS_DENIED, winerror.ERROR_PIPE_BUSY)


def user_only_security(sid: str) -> _win32typing.PySECURITY_ATTRIBUTES:
    """Security attributes whose DACL grants `sid` (a string SID) everything and nobody else
    anything (protected: nothing inherited), handles not inheritable."""
    descriptor = win32security.ConvertStringSecurityDescriptorToSecurityDescriptor(
        f"D:P(A;;GA;;;{sid})", win32security.SDDL_REVISION_1)
    attributes = win32security.SECURITY_ATTRIBUTES()
    attributes.SECURITY_DESCRIPTOR = descriptor
    attributes.bInheritHandle = False
    return attributes


def create_instance(name: str, security: _win32typing.PySECURITY_ATTRIBUTES,
                    first: bool) -> PipeHandle:
    """One overlapped, byte-mode, local-only instance of pipe `name`; with `first`, fail unless
    it is the first one. Raises `pywintypes.error`."""
    open_mode = win32pipe.PIPE_ACCESS_DUPLEX | win32file.FILE_FLAG_OVERLAPPED
    if first:
        open_mode |= win32pipe.FILE_FLAG_FIRST_PIPE_INSTANCE
    pipe_mode = (win32pipe.PIPE_TYPE_BYTE | win32pipe.PIPE_READMODE_BYTE | win32pipe.PIPE_WAIT
                 | win32pipe.PIPE_REJECT_REMOTE_CLIENTS)
    handle: Any = win32pipe.CreateNamedPipe(name, open_mode, pipe_mode,
                                            win32pipe.PIPE_UNLIMITED_INSTANCES, BUFFER_BYTES,
                                            BUFFER_BYTES, 0, security)
    raw = int(handle)
    detach = getattr(handle, "Detach", None)  # a PyHANDLE: PipeHandle owns it from now on
    if detach is not None:
        detach()
    return PipeHandle(raw)


class _PipeListener:
    """Accepts the connections of one pipe name on the running loop; `close` stops it."""

    def __init__(self, name: str, security: _win32typing.PySECURITY_ATTRIBUTES,
                 first: PipeHandle, on_pipe: Callable[[PipeHandle], None]) -> None:
        self._name = name
        self._security = security
        self._first: PipeHandle | None = first
        self._on_pipe = on_pipe
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start accepting (on the loop; it must be a proactor loop)."""
        loop = asyncio.get_running_loop()
        proactor = getattr(loop, "_proactor", None)
        if proactor is None or not hasattr(loop, "_make_duplex_pipe_transport"):
            raise AppError(INTERNAL, "the named-pipe endpoint needs asyncio's proactor event "
                                     f"loop, not {type(loop).__name__}")
        self._task = loop.create_task(self._accept_forever(proactor))

    def close(self) -> None:
        """Stop accepting; the instance waiting for a client is closed (on the loop)."""
        if self._task is not None:
            self._task.cancel()
        elif self._first is not None:
            self._first.close()
        self._first = None

    async def wait_closed(self) -> None:
        """Return once the accepting task ended (its instance closed: the name is free unless
        a connection still holds it)."""
        if self._task is not None:
            await asyncio.wait([self._task])

    async def _accept_forever(self, proactor: Any) -> None:
        pipe = self._first
        self._first = None
        assert pipe is not None
        while True:
            try:
                await proactor.accept_pipe(pipe)
            except asyncio.CancelledError:
                pipe.close()
                raise
            except OSError as exc:  # the client left before we accepted it, typically
                log.debug("endpoint pipe %s: accept failed: %s", self._name, exc)
                pipe.close()
                pipe = await self._next_instance()
                continue
            try:
                following = await self._next_instance()
            except asyncio.CancelledError:
                pipe.close()  # connected, but never served
                raise
            try:
                self._on_pipe(pipe)
            except Exception:  # one bad connection never stops the listener
                log.exception("endpoint pipe %s: cannot serve a connection", self._name)
                pipe.close()
            pipe = following

    async def _next_instance(self) -> PipeHandle:
        """A new instance for the next client, retried until Windows gives one."""
        while True:
            try:
                return create_instance(self._name, self._security, first=False)
            except pywintypes.error as exc:
                log.warning("endpoint pipe %s: cannot create an instance (%s); retrying",
                            self._name, exc.strerror)
                await asyncio.sleep(RETRY_S)


class NamedPipeEndpointHost(EndpointHostBase):
    """Serves project endpoints on named pipes. Thread-safe. `serve(root)` returns the pipe
    name. `namespace`: what pipe names start with after `\\\\.\\pipe\\` (default
    `idea-<user>`; tests pass their own)."""

    def __init__(self, namespace: str | None = None, *,
                 handshake_timeout_s: float = HANDSHAKE_TIMEOUT_S) -> None:
        super().__init__(handshake_timeout_s=handshake_timeout_s,
                         loop_factory=asyncio.ProactorEventLoop)
        self._namespace = namespace or pipe_namespace(getpass.getuser())
        self._sid = current_user_sid()
        self._security = user_only_security(self._sid)

    def address(self, root: str) -> str:
        """The pipe name of project `root` (whether served or not)."""
        return pipe_name(self._namespace, root)

    def _start(self, root: str) -> ServedEndpoint:
        """Create `root`'s first pipe instance and accept on it. Raises
        `AppError(ALREADY_EXISTS)` when the name exists, `AppError(NOT_WRITABLE)` when Windows
        refuses the pipe otherwise."""
        name = self.address(root)
        try:
            first = create_instance(name, self._security, first=True)
        except pywintypes.error as exc:
            if exc.winerror in _TAKEN:
                raise in_use(root, name, "exists") from exc
            raise AppError(NOT_WRITABLE, f"cannot create the endpoint pipe {name}: "
                                         f"{exc.strerror}", {"path": name}) from exc
        served = ServedEndpoint(root, name)
        listener = _PipeListener(name, self._security, first,
                                 lambda pipe: self._connected(served, pipe))
        served.server = listener
        try:
            self._loop.run(self._listen(listener))
        except BaseException:
            first.close()
            raise
        return served

    @staticmethod
    async def _listen(listener: _PipeListener) -> None:
        listener.start()

    def _connected(self, served: ServedEndpoint, pipe: PipeHandle) -> None:
        """A client connected to `pipe` (on the loop): check who it is, make it a stream."""
        refusal = None
        client = pipe_peer_sid(pipe.fileno(), "client")
        if client != self._sid:
            refusal = AppError(FORBIDDEN, "this endpoint serves only processes of the user who "
                                          f"runs IdeA (the client runs as {client or 'unknown'})")

        async def on_connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await self._serve_connection(served, AsyncioEndpointStream(reader, writer), refusal)

        loop: Any = asyncio.get_running_loop()
        protocol = asyncio.StreamReaderProtocol(asyncio.StreamReader(), on_connection)
        loop._make_duplex_pipe_transport(pipe, protocol, extra={"addr": served.address})
