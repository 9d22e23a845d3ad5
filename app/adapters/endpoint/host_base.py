"""What every `EndpointHost` shares, whatever carries its bytes (docs/contracts.md §7.5): the
projects served and their connections, one asyncio loop in one daemon thread for all of them,
the first-line handshake, and the rule that one failing connection never affects the listener
or another connection.

A transport (`unix_socket.UnixSocketEndpointHost`, `named_pipe.NamedPipeEndpointHost`)
implements `_start(root)`: claim the project's address, start listening on `self._loop`, and
hand every accepted connection to `_serve_connection` as an `AsyncioEndpointStream`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from app.adapters.endpoint.loop_thread import LoopThread
from app.adapters.endpoint.stream import AsyncioEndpointStream
from app.adapters.endpoint.wire import MAX_HELLO_BYTES, parse_hello
from app.core.errors import ALREADY_EXISTS, INTERNAL, INVALID, AppError
from app.core.ports import ConnectionHandler
from app.core.usecases.project_state import clean_root

log = logging.getLogger(__name__)

#: How long a connection may take to send its first line (s).
HANDSHAKE_TIMEOUT_S = 10.0


class Listener(Protocol):
    """What accepts a project's connections (on the loop): `close()` stops accepting,
    `wait_closed()` returns once the address is given up."""

    def close(self) -> None: ...

    async def wait_closed(self) -> None: ...


def _nothing() -> None:
    return None


@dataclass
class ServedEndpoint:
    """One project being served: its clean root, the address clients are given (a socket path,
    a pipe name), its listener, its live connections, and what to undo once it is stopped
    (`release`, called from any thread, never raises)."""

    root: str
    address: str
    release: Callable[[], None] = _nothing
    server: Listener | None = None
    connections: set[asyncio.Task[None]] = field(default_factory=set)


def in_use(root: str, address: str, why: str) -> AppError:
    """`AppError(ALREADY_EXISTS)`: `root` is open in another IdeA, whose endpoint `address` is
    there (`why`: how we know, e.g. "answers")."""
    return AppError(ALREADY_EXISTS, f"{root} is open in another IdeA (its endpoint {address} "
                                    f"{why}): agents of this window cannot delegate",
                    {"root": root, "path": address})


class EndpointHostBase:
    """The transport-independent half of an endpoint host. Thread-safe. `loop_factory`: what
    makes the loop every project is served from (default `asyncio.new_event_loop`)."""

    def __init__(self, *, handshake_timeout_s: float = HANDSHAKE_TIMEOUT_S,
                 loop_factory: Callable[[], asyncio.AbstractEventLoop] | None = None) -> None:
        self._handshake_timeout_s = handshake_timeout_s
        self._handler: ConnectionHandler | None = None
        self._lock = threading.Lock()
        self._served: dict[str, ServedEndpoint] = {}
        self._loop = LoopThread(loop_factory=loop_factory)

    def set_handler(self, handler: ConnectionHandler) -> None:
        """Serve every (well-formed) connection with `handler`."""
        self._handler = handler

    def serve(self, root: str) -> str:
        """Listen for project `root`; returns its address (the same one when already served
        here). Raises what `_start` raises (`AppError(ALREADY_EXISTS)` when another IdeA
        serves it, `AppError(NOT_WRITABLE)` when the address cannot be set up)."""
        key = clean_root(root)
        with self._lock:
            if key in self._served:
                return self._served[key].address
            served = self._start(key)
            self._served[key] = served
            log.info("endpoint of %s listening on %s", key, served.address)
            return served.address

    def stop(self, root: str) -> None:
        """Stop listening for `root`, end its connections, release its address."""
        with self._lock:
            served = self._served.pop(clean_root(root), None)
        if served is None:
            return
        try:
            self._loop.run(self._close(served))
        finally:
            served.release()

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

    def _start(self, root: str) -> ServedEndpoint:
        """Claim `root`'s address and listen (called under the lock, off the loop)."""
        raise NotImplementedError

    async def _close(self, served: ServedEndpoint) -> None:
        if served.server is not None:
            served.server.close()
        tasks = set(served.connections)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=5.0)
        if served.server is not None:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(5.0):
                    await served.server.wait_closed()

    async def _serve_connection(self, served: ServedEndpoint, stream: AsyncioEndpointStream,
                                refusal: AppError | None = None) -> None:
        """Run one accepted connection to its end (as its own task), then close it. A
        `refusal` (the transport's verdict on the peer) is the answer to its first line, which
        is read (so closing does not reset the connection under the answer) but not looked at."""
        task = asyncio.current_task()
        if task is not None:
            served.connections.add(task)
        try:
            if refusal is not None:
                log.warning("endpoint of %s refused a connection: %s", served.root, refusal.message)
            await self._converse(served.root, stream, refusal)
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

    async def _converse(self, root: str, stream: AsyncioEndpointStream,
                        refusal: AppError | None) -> None:
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
        if refusal is not None:
            await stream.answer_hello(refusal)
            return
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
