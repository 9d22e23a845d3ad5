"""The server side of the project endpoint, above the transport: the `ConnectionHandler` that
authenticates a connection's first line and hands it to the door of its kind, and the
`command` door (one command line in, one result line out; docs/contracts.md §7.5).

Lines of the command door: client → `{"command": {"type": ..., ...}}`; server → `{"ok":
<result>}` or `{"error": {"code", "message", "details"}}`, then it closes.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Protocol

import anyio

from app.commands.hangup import HangupSignal, dispatch_in_thread
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
            hangup = HangupSignal()
            result = await self._dispatch(caller, command, stream, hangup)
            if hangup.hung_up:
                return  # nobody to answer
            answer: dict[str, Any] = {"ok": result}
        except AppError as exc:
            answer = {"error": exc.to_json()}
        except Exception:
            log.exception("endpoint command of %s failed", caller.agent_id)
            answer = {"error": AppError(INTERNAL, "IdeA failed on this command (see its "
                                                  "log)").to_json()}
        await stream.send(json.dumps(answer, ensure_ascii=False).encode("utf-8") + b"\n")

    async def _dispatch(self, caller: AgentCaller, command: dict[str, Any],
                        stream: EndpointStream, hangup: HangupSignal) -> dict[str, Any]:
        """Run `command` while watching the connection: the client closing it before the
        answer (an interrupted `idea ask`) hangs the call up."""
        result: dict[str, Any] = {}

        async def watch() -> None:
            try:
                while await stream.receive_line(MAX_COMMAND_BYTES) is not None:
                    pass  # nothing more is expected; only the end of the stream matters
            except AppError:
                pass
            tg.cancel_scope.cancel()

        failure: Exception | None = None  # raised out of the group, not wrapped in a group
        async with anyio.create_task_group() as tg:
            tg.start_soon(watch)
            try:
                result = await dispatch_in_thread(self._dispatcher, caller, command,
                                                  self._limiter, hangup)
            except Exception as exc:
                failure = exc
            tg.cancel_scope.cancel()
        if failure is not None:
            raise failure
        return result

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
