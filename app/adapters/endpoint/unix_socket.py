"""`EndpointHost` on Unix domain sockets (POSIX), served by one asyncio loop in one daemon
thread for every project (docs/contracts.md §7.5; the shared half is `host_base`).

Per project a listener on `<dir>/<hash>.sock` (see `socket_dir`): mode 0600 in a 0700
directory. A socket file nobody accepts on (a crashed IdeA) is reclaimed; one that answers
belongs to another live IdeA and is left alone (`ALREADY_EXISTS`). Binding is serialised
between IdeA processes by an `flock` on the directory. Each connection's first line
(`wire.parse_hello`) is read by `host_base`; a malformed one is answered `INVALID` and closed, a
good one is handed to the `ConnectionHandler` with its stream.
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
from collections.abc import Mapping
from functools import partial

from app.adapters.endpoint.host_base import (
    HANDSHAKE_TIMEOUT_S,
    EndpointHostBase,
    ServedEndpoint,
    in_use,
)
from app.adapters.endpoint.socket_dir import (
    endpoint_dir,
    ensure_private_dir,
    socket_path,
    sweep_stale,
)
from app.adapters.endpoint.stream import AsyncioEndpointStream
from app.core.errors import NOT_WRITABLE, AppError

log = logging.getLogger(__name__)

#: How long a probe waits for an existing socket to accept (s): longer means it is alive.
PROBE_TIMEOUT_S = 1.0
_BACKLOG = 128


class UnixSocketEndpointHost(EndpointHostBase):
    """Serves project endpoints on Unix sockets. Thread-safe.

    `directory`: where sockets go (default: `$XDG_RUNTIME_DIR/idea`, else
    `<tempfile.gettempdir()>/idea-<uid>`; created 0700 and checked at each `serve`).
    `serve(root)` returns the socket path.
    """

    def __init__(self, directory: str | None = None, *, env: Mapping[str, str] | None = None,
                 handshake_timeout_s: float = HANDSHAKE_TIMEOUT_S) -> None:
        super().__init__(handshake_timeout_s=handshake_timeout_s)
        self._directory = directory
        self._env = env
        self._swept = False

    def directory(self) -> str:
        """The socket directory in use (not created by this call)."""
        if self._directory is not None:
            return self._directory
        env = os.environ if self._env is None else self._env
        return endpoint_dir(env, tempfile.gettempdir(), os.getuid())

    def _start(self, root: str) -> ServedEndpoint:
        """Bind `root`'s socket. Raises `AppError(ALREADY_EXISTS)` when another IdeA answers on
        it, `AppError(NOT_WRITABLE)` when the directory or the socket cannot be set up."""
        directory = self.directory()
        ensure_private_dir(directory)
        if not self._swept:  # once: what a killed IdeA left behind
            self._swept = True
            for stale in sweep_stale(directory):
                log.info("removed the stale endpoint socket %s", stale)
        path = socket_path(directory, root)
        sock = _bind_exclusive(directory, path, root)
        info = os.stat(path)
        served = ServedEndpoint(root, path, release=partial(_unlink_if_same, path,
                                                            (info.st_dev, info.st_ino)))
        try:
            served.server = self._loop.run(self._listen(served, sock))
        except BaseException:
            sock.close()
            served.release()
            raise
        return served

    async def _listen(self, served: ServedEndpoint, sock: socket.socket) -> asyncio.AbstractServer:
        async def on_connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await self._serve_connection(served, AsyncioEndpointStream(reader, writer))

        return await asyncio.start_unix_server(on_connection, sock=sock)


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
                raise in_use(root, path, "answers") from exc
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
        raise in_use(root, path, "answers")
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


def _unlink_if_same(path: str, inode: tuple[int, int]) -> None:
    """Remove `path` if it is still the socket we bound (not a successor's)."""
    try:
        info = os.lstat(path)
        if (info.st_dev, info.st_ino) == inode:
            os.unlink(path)
    except OSError:
        pass
