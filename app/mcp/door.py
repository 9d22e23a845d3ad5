"""The MCP door: serves an authenticated endpoint connection of kind `mcp` as one MCP session
of the project's MCP server (`app.mcp.server`)."""

from __future__ import annotations

from app.core.domain.delegation import AgentCaller
from app.core.ports import Dispatcher, EndpointStream
from app.mcp.server import PROGRESS_INTERVAL_S, build_server
from app.mcp.session import serve_session


class McpDoor:
    """One MCP server (its tools run commands through `dispatcher`), one session per
    connection."""

    def __init__(self, dispatcher: Dispatcher, *,
                 progress_interval_s: float = PROGRESS_INTERVAL_S) -> None:
        self._server = build_server(dispatcher, progress_interval_s=progress_interval_s)

    async def serve(self, caller: AgentCaller, stream: EndpointStream) -> None:
        """Serve MCP for `caller` until the client closes the connection."""
        await serve_session(self._server, stream, caller)
