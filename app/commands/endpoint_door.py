"""The server side of the project endpoint, above the transport: the `ConnectionHandler` that
authenticates a connection's first line and hands it to the door of its kind, and the
`command` door (one command line in, one result line out; docs/contracts.md §7.5).

Lines of the command door: client → `{"command": {"type": ..., ...}}`; server → `{"ok":
<result>}` or `{"error": {"code", "message", "details"}}`, then it closes.
"""

from __future__ import annotations

import json
import logging
from functools import partial
from typing import Any, Protocol

import anyio
import anyio.to_thread

from app.core.domain.delegation import AgentCaller
from app.core.errors import INTERNAL, INVALID, AppError
from app.core.ports import Dispatcher, EndpointHello, EndpointStream, Verifier

log = logging.getLogger(__name__)

#: Longest command line accepted (bytes): a 100 000-character task, JSON-escaped, fits.
MAX_COMMAND_BYTES = 4 * 1024 * 1024
#: How long a client may take to send its command after the handshake (s).
COMMAND_TIMEOUT_S = 10.0


class ConnectionDoor(Protocol):
    """Serves an authenticated connection of one kind."""

    async def serve(self, caller: AgentCaller, stream: EndpointStream) -> None:
        """Converse with `caller` on `stream` until done."""
        ...


class EndpointDoor:
    """The endpoint's `ConnectionHandler`: verifies `(requester, token)` of the first line with
    `verifier`, answers it, and routes the connection to the `mcp` or `command` door."""

    def __init__(self, verifier: Verifier, *, mcp: ConnectionDoor, command: ConnectionDoor) -> None:
        self._verifier = verifier
        self._doors: dict[str, ConnectionDoor] = {"mcp": mcp, "command": command}

    async def handle(self, root: str, hello: EndpointHello, stream: EndpointStream) -> None:
        """Refuse (`FORBIDDEN`) or accept the connection, then serve it."""
        try:
            caller = self._verifier.verify(root, hello.requester, hello.token)
        except AppError as exc:
            await stream.answer_hello(exc)
            return
        await stream.answer_hello(None)
        await self._doors[hello.kind].serve(caller, stream)


class CommandDoor:
    """Runs one command per connection through `dispatcher` (in a worker thread: an ask
    blocks until its reply)."""

    def __init__(self, dispatcher: Dispatcher, *, command_timeout_s: float = COMMAND_TIMEOUT_S,
                 max_concurrent_calls: int = 256) -> None:
        self._dispatcher = dispatcher
        self._timeout_s = command_timeout_s
        self._limiter = anyio.CapacityLimiter(max_concurrent_calls)

    async def serve(self, caller: AgentCaller, stream: EndpointStream) -> None:
        """Read the command line, run it, write the answer line."""
        try:
            line = await self._receive(stream)
            if line is None:
                return
            command = parse_command_line(line)
            call = partial(self._dispatcher.dispatch, caller.root, caller, command)
            result = await anyio.to_thread.run_sync(call, abandon_on_cancel=True,
                                                    limiter=self._limiter)
            answer: dict[str, Any] = {"ok": result}
        except AppError as exc:
            answer = {"error": exc.to_json()}
        except Exception:
            log.exception("endpoint command of %s failed", caller.agent_id)
            answer = {"error": AppError(INTERNAL, "IdeA failed on this command (see its "
                                                  "log)").to_json()}
        await stream.send(json.dumps(answer, ensure_ascii=False).encode("utf-8") + b"\n")

    async def _receive(self, stream: EndpointStream) -> bytes | None:
        try:
            with anyio.fail_after(self._timeout_s):
                return await stream.receive_line(MAX_COMMAND_BYTES)
        except TimeoutError as exc:
            raise AppError(INVALID, f"no command within {self._timeout_s:g} s") from exc


def parse_command_line(line: bytes) -> dict[str, Any]:
    """The command object of a `{"command": {...}}` line; raises `AppError(INVALID)`."""
    try:
        value = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise AppError(INVALID, "endpoint command: the line is not JSON") from exc
    if not isinstance(value, dict) or not isinstance(value.get("command"), dict):
        raise AppError(INVALID, 'endpoint command: expected {"command": {"type": ...}}')
    command: dict[str, Any] = value["command"]
    return command
