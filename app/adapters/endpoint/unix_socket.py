"""`EndpointHost` on Unix domain sockets (POSIX), served by one asyncio loop in one daemon
thread for every project (docs/contracts.md §7.5).

Per project a listener on `<dir>/<hash>.sock` (see `socket_dir`): mode 0600 in a 0700
directory. A socket file nobody accepts on (a crashed IdeA) is reclaimed; one that answers
belongs to another live IdeA and is left alone (`ALREADY_EXISTS`). Binding is serialised
between IdeA processes by an `flock` on the directory. Each connection's first line
(`wire.parse_hello`) is read here; a malformed one is answered `INVALID` and closed, a good
one is handed to the `ConnectionHandler` with its stream. One failing connection never
affects the listener or another connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import logging
import os
import socket
import stat
import tempfile
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field

from app.adapters.endpoint.loop_thread import LoopThread
from app.adapters.endpoint.socket_dir import (
    endpoint_dir,
    ensure_private_dir,
    socket_path,
    sweep_stale,
)
from app.adapters.endpoint.stream import AsyncioEndpointStream
from app.adapters.endpoint.wire import MAX_HELLO_BYTES, parse_hello
from app.core.errors import ALREADY_EXISTS, INTERNAL, INVALID, NOT_WRITABLE, AppError
from app.core.ports import ConnectionHandler
from app.core.usecases.project_state import clean_root

log = logging.getLogger(__name__)

#: How long a probe waits for an existing socket to accept (s): longer means it is alive.
PROBE_TIMEOUT_S = 1.0
#: How long a connection may take to send its first line (s).
HANDSHAKE_TIMEOUT_S = 10.0
_BACKLOG = 128


@dataclass
class _Served:
    root: str
    path: str
    inode: tuple[int, int]
    server: asyncio.AbstractServer | None = None
    connections: set[asyncio.Task[None]] = field(default_factory=set)


class UnixSocketEndpointHost:
    """Serves project endpoints on Unix sockets. Thread-safe.

    `directory`: where sockets go (default: `$XDG_RUNTIME_DIR/idea`, else
    `<tempfile.gettempdir()>/idea-<uid>`; created 0700 and checked at each `serve`).
    """

    def __init__(self, directory: str | None = None, *, env: Mapping[str, str] | None = None,
                 handshake_timeout_s: float = HANDSHAKE_TIMEOUT_S) -> None:
        self._directory = directory
        self._env = env
        self._handshake_timeout_s = handshake_timeout_s
        self._handler: ConnectionHandler | None = None
        self._lock = threading.Lock()
        self._served: dict[str, _Served] = {}
        self._swept = False
        self._loop = LoopThread()

    def set_handler(self, handler: ConnectionHandler) -> None:
        """Serve every (well-formed) connection with `handler`."""
        self._handler = handler

    def directory(self) -> str:
        """The socket directory in use (not created by this call)."""
        if self._directory is not None:
            return self._directory
        env = os.environ if self._env is None else self._env
        return endpoint_dir(env, tempfile.gettempdir(), os.getuid())

    def serve(self, root: str) -> str:
        """Listen for project `root`; returns the socket path (the same one when already
        served here). Raises `AppError(ALREADY_EXISTS)` when another IdeA answers on it,
        `AppError(NOT_WRITABLE)` when the directory or the socket cannot be set up."""
        key = clean_root(root)
        with self._lock:
            if key in self._served:
                return self._served[key].path
            directory = self.directory()
            ensure_private_dir(directory)
            if not self._swept:  # once: what a killed IdeA left behind
                self._swept = True
                for stale in sweep_stale(directory):
                    log.info("removed the stale endpoint socket %s", stale)
            path = socket_path(directory, key)
            sock = _bind_exclusive(directory, path, key)
            info = os.stat(path)
            served = _Served(key, path, (info.st_dev, info.st_ino))
            try:
                served.server = self._loop.run(self._listen(served, sock))
            except BaseException:
                sock.close()
                _unlink_if_same(path, served.inode)
                raise
            self._served[key] = served
            log.info("endpoint of %s listening on %s", key, path)
            return path

    def stop(self, root: str) -> None:
        """Stop listening for `root`, end its connections, remove its socket file."""
        with self._lock:
            served = self._served.pop(clean_root(root), None)
        if served is None:
            return
        try:
            self._loop.run(self._close(served))
        finally:
            _unlink_if_same(served.path, served.inode)

    def open(self, root: str) -> str | None:
        """`ProjectDoor.open`: serve `root`'s endpoint and return its address (`serve`)."""
        return self.serve(root)

    def close(self, root: str) -> None:
        """`ProjectDoor.close`: `stop`."""
        self.stop(root)

    def close_all(self) -> None:
        """Stop every endpoint and the event loop thread."""
        with self._lock:
            roots = list(self._served)
        for root in roots:
            self.stop(root)
        self._loop.stop()

    async def _listen(self, served: _Served, sock: socket.socket) -> asyncio.AbstractServer:
        async def on_connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await self._serve_connection(served, AsyncioEndpointStream(reader, writer))

        return await asyncio.start_unix_server(on_connection, sock=sock)

    async def _close(self, served: _Served) -> None:
        if served.server is not None:
            served.server.close()
        tasks = set(served.connections)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=5.0)

    async def _serve_connection(self, served: _Served, stream: AsyncioEndpointStream) -> None:
        task = asyncio.current_task()
        if task is not None:
            served.connections.add(task)
        try:
            await self._converse(served.root, stream)
        except asyncio.CancelledError:
            # `stop` cancelled this connection. The task ends here, normally: Python 3.11's
            # asyncio.streams callback calls `task.exception()`, which raises on a cancelled task.
            log.debug("endpoint connection of %s cancelled", served.root)
        except ConnectionError as exc:
            log.debug("endpoint client of %s left: %s", served.root, exc)
        except Exception:
            log.exception("endpoint connection of %s failed", served.root)
        finally:
            if task is not None:
                served.connections.discard(task)
            await stream.close()

    async def _converse(self, root: str, stream: AsyncioEndpointStream) -> None:
        try:
            async with asyncio.timeout(self._handshake_timeout_s):
                line = await stream.receive_line(MAX_HELLO_BYTES)
        except TimeoutError:
            await stream.answer_hello(AppError(INVALID, "endpoint handshake: no first line "
                                                        f"within {self._handshake_timeout_s:g} s"))
            return
        except AppError as exc:
            await stream.answer_hello(exc)
            return
        if line is None:
            return  # a liveness probe, or a client that left at once
        try:
            hello = parse_hello(line)
        except AppError as exc:
            await stream.answer_hello(exc)
            return
        handler = self._handler
        if handler is None:
            await stream.answer_hello(AppError(INTERNAL, "IdeA is still starting; try again"))
            return
        await handler.handle(root, hello, stream)


def _bind_exclusive(directory: str, path: str, root: str) -> socket.socket:
    """Bind a listening socket at `path`, reclaiming a stale one; `flock` on `directory` keeps
    two IdeA processes from doing it at once."""
    dir_fd = os.open(directory, os.O_RDONLY)
    try:
        fcntl.flock(dir_fd, fcntl.LOCK_EX)
        _reclaim_stale(path, root)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.bind(path)
            os.chmod(path, 0o600)
            sock.listen(_BACKLOG)
            sock.setblocking(False)
        except OSError as exc:
            sock.close()
            if exc.errno == errno.EADDRINUSE:
                raise _in_use(root, path) from exc
            raise AppError(NOT_WRITABLE, f"cannot create the endpoint socket {path}: "
                                         f"{exc.strerror}", {"path": path}) from exc
        return sock
    finally:
        os.close(dir_fd)  # releases the flock


def _reclaim_stale(path: str, root: str) -> None:
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(info.st_mode):
        raise AppError(NOT_WRITABLE, f"{path} exists and is not a socket; remove it",
                       {"path": path})
    if _answers(path):
        raise _in_use(root, path)
    log.info("reclaiming stale endpoint socket %s", path)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)


def _answers(path: str) -> bool:
    """Whether something accepts connections on socket `path` (a timeout counts as yes)."""
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    probe.settimeout(PROBE_TIMEOUT_S)
    try:
        probe.connect(path)
    except (ConnectionRefusedError, FileNotFoundError):
        return False
    except OSError:
        return True
    finally:
        probe.close()
    return True


def _in_use(root: str, path: str) -> AppError:
    return AppError(ALREADY_EXISTS, f"{root} is open in another IdeA (its endpoint {path} "
                                    "answers): agents of this window cannot delegate",
                    {"root": root, "path": path})


def _unlink_if_same(path: str, inode: tuple[int, int]) -> None:
    """Remove `path` if it is still the socket we bound (not a successor's)."""
    try:
        info = os.lstat(path)
        if (info.st_dev, info.st_ino) == inode:
            os.unlink(path)
    except OSError:
        pass
