"""The MCP door: serves an authenticated endpoint connection of kind `mcp` as one MCP session
of the project's MCP server (`app.mcp.server`).

The MCP SDK (`mcp`, `mcp_types`) is imported, and the server built, on the first connection:
importing it costs about 33 MiB of RSS and 0.5 s (measured with `python -X importtime` and
`/proc/self/status`), which an IdeA whose agents never call MCP does not pay, and which no
longer delays the window at start-up. The import runs in a worker thread, so other
connections of the endpoint's event loop go on meanwhile.
"""

from __future__ import annotations

import asyncio
import importlib
import threading
from typing import TYPE_CHECKING, Any

from app.core.domain.delegation import AgentCaller
from app.core.ports import Dispatcher, EndpointStream

if TYPE_CHECKING:
    from mcp.server.lowlevel import Server


class McpDoor:
    """One MCP server (its tools run commands through `dispatcher`), one session per
    connection. `progress_interval_s`: seconds between progress notifications of a long
    tool call (None: the server's default, `app.mcp.server.PROGRESS_INTERVAL_S`)."""

    def __init__(self, dispatcher: Dispatcher, *, progress_interval_s: float | None = None) -> None:
        self._dispatcher, self._interval = dispatcher, progress_interval_s
        self._server: Server[Any] | None = None
        self._lock = threading.Lock()

    async def serve(self, caller: AgentCaller, stream: EndpointStream) -> None:
        """Serve MCP for `caller` until the client closes the connection."""
        server = self._server if self._server is not None else await asyncio.to_thread(self.server)
        from app.mcp.session import serve_session  # imported by `server()`: no I/O here

        await serve_session(server, stream, caller)

    def server(self) -> Server[Any]:
        """The project's MCP server, built (and the SDK imported) on the first call."""
        with self._lock:
            if self._server is None:
                from app.mcp.server import PROGRESS_INTERVAL_S, build_server
                importlib.import_module("app.mcp.session")  # the SDK's session half too

                interval = PROGRESS_INTERVAL_S if self._interval is None else self._interval
                self._server = build_server(self._dispatcher, progress_interval_s=interval)
            return self._server
