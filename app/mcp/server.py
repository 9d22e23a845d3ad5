"""The MCP server of a project: the `mcp` SDK's low-level `Server` answering `tools/list` and
`tools/call` with the tools of `app.mcp.tools`. One `Server` serves every connection; the caller
of a request is the `AgentCaller` its connection authenticated (`app.mcp.session` attaches it
to each message as `ServerMessageMetadata.request_context`, and sets `CURRENT_CALLER`).

A call runs one command through the `Dispatcher` in a worker thread (blocking, up to the
orchestrator's turn timeout for an ask); a cancelled call (the client cancelled or left)
abandons the thread and its result. While a waiting tool runs, progress is reported every
`progress_interval_s` (when the client asked for progress) so a client's idle timeout never
fires during a long ask.
"""

from __future__ import annotations

import contextvars
import logging
import time
from typing import Any

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server

from app import __version__
from app.commands.hangup import dispatch_in_thread
from app.core.domain.delegation import AgentCaller
from app.core.errors import FORBIDDEN, INTERNAL, INVALID, AppError
from app.core.ports import Dispatcher
from app.mcp.tools import (
    INSTRUCTIONS,
    TOOLS,
    TOOLS_BY_NAME,
    ToolSpec,
    error_text,
    input_schema,
    render,
    to_command,
)

log = logging.getLogger(__name__)

#: The caller of the connection being served (fallback of the per-message metadata).
CURRENT_CALLER: contextvars.ContextVar[AgentCaller] = contextvars.ContextVar("idea_mcp_caller")

#: Seconds between two progress notifications of a waiting call (Claude Code's stdio idle
#: timeout is 30 min, Codex's tool timeout is set by IdeA: either way well above this).
PROGRESS_INTERVAL_S = 15.0
#: Commands running at once in worker threads, all connections together.
MAX_CONCURRENT_CALLS = 256


def build_server(dispatcher: Dispatcher, *, progress_interval_s: float = PROGRESS_INTERVAL_S,
                 max_concurrent_calls: int = MAX_CONCURRENT_CALLS) -> Server[Any]:
    """The low-level MCP `Server` named `idea` running tool calls through `dispatcher`."""
    tools = _Tools(dispatcher, progress_interval_s, anyio.CapacityLimiter(max_concurrent_calls))
    return Server("idea", version=__version__, instructions=INSTRUCTIONS,
                  on_list_tools=tools.list_tools, on_call_tool=tools.call_tool)


def mcp_tool(tool: ToolSpec) -> types.Tool:
    """The SDK's `Tool` of a spec (name, description, input schema, hints)."""
    return types.Tool(
        name=tool.name, description=tool.description, input_schema=input_schema(tool),
        annotations=types.ToolAnnotations(read_only_hint=tool.read_only,
                                          destructive_hint=tool.destructive,
                                          open_world_hint=False))


def text_result(text: str, *, is_error: bool = False) -> types.CallToolResult:
    """A tool result made of one text block."""
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)],
                                is_error=is_error)


class _Tools:
    def __init__(self, dispatcher: Dispatcher, progress_interval_s: float,
                 limiter: anyio.CapacityLimiter) -> None:
        self._dispatcher = dispatcher
        self._interval = progress_interval_s
        self._limiter = limiter
        self._listed = types.ListToolsResult(tools=[mcp_tool(t) for t in TOOLS])

    async def list_tools(self, ctx: ServerRequestContext[Any, Any],
                         params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return self._listed

    async def call_tool(self, ctx: ServerRequestContext[Any, Any],
                        params: types.CallToolRequestParams) -> types.CallToolResult:
        caller = ctx.request if isinstance(ctx.request, AgentCaller) else CURRENT_CALLER.get(None)
        try:
            if caller is None:
                raise AppError(FORBIDDEN, "this MCP connection has no authenticated agent")
            tool = TOOLS_BY_NAME.get(params.name)
            if tool is None:
                raise AppError(INVALID, f"unknown tool {params.name!r}; tools: "
                                        f"{', '.join(TOOLS_BY_NAME)}")
            command = to_command(tool, params.arguments)
            result = await self._run(ctx, tool, caller, command)
            return text_result(render(tool, result))
        except AppError as exc:
            return text_result(error_text(exc), is_error=True)
        except Exception:
            log.exception("MCP tool %s failed", params.name)
            return text_result(error_text(AppError(INTERNAL, "IdeA failed on this call (see its "
                                                             "log)")), is_error=True)

    async def _run(self, ctx: ServerRequestContext[Any, Any], tool: ToolSpec,
                   caller: AgentCaller, command: dict[str, Any]) -> dict[str, Any]:
        if not tool.waits:
            return await dispatch_in_thread(self._dispatcher, caller, command, self._limiter)
        result: dict[str, Any] = {}
        failure: Exception | None = None  # raised out of the group, not wrapped in a group
        async with anyio.create_task_group() as tg:
            tg.start_soon(self._report_progress, ctx, str(command.get("target", "")))
            try:
                result = await dispatch_in_thread(self._dispatcher, caller, command,
                                                  self._limiter)
            except Exception as exc:
                failure = exc
            tg.cancel_scope.cancel()
        if failure is not None:
            raise failure
        return result

    async def _report_progress(self, ctx: ServerRequestContext[Any, Any], target: str) -> None:
        start = time.monotonic()
        while True:
            await anyio.sleep(self._interval)
            waited = time.monotonic() - start
            try:
                await ctx.session.report_progress(round(waited, 1), None,
                                                  f"waiting for {target}'s reply ({waited:.0f} s)")
            except Exception as exc:  # the client left: the call ends with it
                log.debug("progress not sent: %r", exc)
                return
