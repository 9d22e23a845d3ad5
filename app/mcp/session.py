"""One MCP session over an endpoint connection: the SDK's stdio framing (one JSON-RPC message
per line, UTF-8) on an `EndpointStream`, modelled on `mcp.server.stdio.stdio_server`.

The SDK drops a line it cannot parse without a word; here it is answered as JSON-RPC 2.0 says
(`-32700 Parse error`, or `-32600 Invalid Request` with the request's id when it has one) and
the session goes on. A line longer than `MAX_MESSAGE_BYTES` cannot be framed again: it is
answered `-32600` and the connection closes.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.shared._context_streams import create_context_streams
from mcp.shared.message import ServerMessageMetadata, SessionMessage
from pydantic import ValidationError

from app.core.domain.delegation import AgentCaller
from app.core.errors import AppError
from app.core.ports import EndpointStream
from app.mcp.server import CURRENT_CALLER

log = logging.getLogger(__name__)

#: Longest JSON-RPC message accepted (bytes).
MAX_MESSAGE_BYTES = 16 * 1024 * 1024


async def serve_session(server: Server[Any], stream: EndpointStream, caller: AgentCaller) -> None:
    """Serve MCP on `stream` for `caller` until the client closes it (or it breaks)."""
    CURRENT_CALLER.set(caller)  # copied into every message the reader sends
    metadata = ServerMessageMetadata(request_context=caller)
    read_writer, read_stream = create_context_streams[SessionMessage | Exception](0)
    write_stream, write_reader = create_context_streams[SessionMessage](0)

    async def reader() -> None:
        async with read_writer:
            while True:
                try:
                    line = await stream.receive_line(MAX_MESSAGE_BYTES)
                except AppError as exc:
                    await _answer_invalid(stream, None, exc.message)
                    return
                if line is None:
                    return
                if not line.strip():
                    continue
                message = await _parse(stream, line)
                if message is not None:
                    await read_writer.send(SessionMessage(message, metadata=metadata))

    async def writer() -> None:
        async with write_reader:
            async for item in write_reader:
                data = item.message.model_dump_json(by_alias=True, exclude_unset=True)
                await stream.send(data.encode("utf-8") + b"\n")

    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(reader)
            tg.start_soon(writer)
            await server.run(read_stream, write_stream, server.create_initialization_options())
            tg.cancel_scope.cancel()
    except* ConnectionError as group:
        log.debug("MCP client of %s left: %r", caller.agent_id, group.exceptions[0])


async def _parse(stream: EndpointStream, line: bytes) -> types.JSONRPCMessage | None:
    """The message of `line`, or `None` after answering it with a JSON-RPC error."""
    try:
        return types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except ValidationError as exc:
        if any(e.get("type") == "json_invalid" for e in exc.errors()):
            await _answer(stream, None, types.PARSE_ERROR, "Parse error: not JSON")
        else:
            await _answer_invalid(stream, _request_id(line), "not a JSON-RPC 2.0 message")
    return None


async def _answer_invalid(stream: EndpointStream, request_id: types.RequestId | None,
                          why: str) -> None:
    await _answer(stream, request_id, types.INVALID_REQUEST, f"Invalid Request: {why}")


async def _answer(stream: EndpointStream, request_id: types.RequestId | None, code: int,
                  message: str) -> None:
    error = types.JSONRPCError(jsonrpc="2.0", id=request_id,
                               error=types.ErrorData(code=code, message=message))
    await stream.send(error.model_dump_json(by_alias=True, exclude_unset=True).encode() + b"\n")


def _request_id(line: bytes) -> types.RequestId | None:
    """The `id` of a JSON object line when it is a string or an integer, else `None`."""
    try:
        value = json.loads(line)
    except ValueError:
        return None
    request_id = value.get("id") if isinstance(value, dict) else None
    if isinstance(request_id, str) or (isinstance(request_id, int)
                                       and not isinstance(request_id, bool)):
        return request_id
    return None
