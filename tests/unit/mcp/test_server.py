"""The MCP server's tool handlers over a fake orchestrator, without a transport: who the caller
is (message metadata, else the connection's contextvar), errors as tool results, progress while
an ask waits."""

from __future__ import annotations

import contextvars
import threading
from typing import Any

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext

from app.core.domain.delegation import AgentCaller
from app.core.errors import NOT_FOUND, AppError
from app.mcp.server import CURRENT_CALLER, build_server
from tests.unit.fakes import FakeDispatcher

ALICE = AgentCaller("/p", "a1", "Alice", "s1")
BOB = AgentCaller("/p", "b1", "Bob", "s2")


class FakeSession:
    """Records progress notifications (the `ServerSession.report_progress` the handler uses)."""

    def __init__(self) -> None:
        self.progress: list[tuple[float, float | None, str | None]] = []

    async def report_progress(self, progress: float, total: float | None = None,
                              message: str | None = None) -> None:
        self.progress.append((progress, total, message))


class Exploding(FakeDispatcher):
    def dispatch(self, root: str, caller: AgentCaller, command: dict[str, Any],
                 hangup: object = None) -> dict[str, Any]:
        raise RuntimeError("secret internals")


def call(dispatcher: FakeDispatcher, name: str, arguments: dict[str, Any], *,
         request: object = None, session: FakeSession | None = None,
         interval_s: float = 15.0) -> types.CallToolResult:
    server = build_server(dispatcher, progress_interval_s=interval_s)
    handler = server._request_handlers["tools/call"].handler
    ctx: ServerRequestContext[Any, Any] = ServerRequestContext(
        session=session or FakeSession(),  # type: ignore[arg-type]
        lifespan_context={}, protocol_version="2025-11-25", method="tools/call",
        request=request)
    params = types.CallToolRequestParams(name=name, arguments=arguments)

    async def main() -> types.CallToolResult:
        result = await handler(ctx, params)
        assert isinstance(result, types.CallToolResult)
        return result

    return anyio.run(main)


def text(result: types.CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    return block.text


def test_the_caller_comes_from_the_message_metadata() -> None:
    fake = FakeDispatcher()
    fake.answers["agent.list"] = {"agents": []}

    def run() -> types.CallToolResult:
        CURRENT_CALLER.set(BOB)  # the metadata wins over the contextvar
        return call(fake, "idea_list_agents", {}, request=ALICE)

    result = contextvars.copy_context().run(run)
    assert not result.is_error and text(result) == '{"agents":[]}'
    assert fake.calls == [(ALICE, {"type": "agent.list"})]


def test_else_from_the_connection_contextvar() -> None:
    fake = FakeDispatcher()

    def run() -> types.CallToolResult:
        CURRENT_CALLER.set(BOB)
        return call(fake, "idea_stop_agent", {"target": "Carol"})

    contextvars.copy_context().run(run)
    assert fake.calls == [(BOB, {"type": "agent.stop", "target": "Carol"})]


def test_without_a_caller_nothing_runs() -> None:
    fake = FakeDispatcher()
    result = contextvars.Context().run(call, fake, "idea_list_agents", {})
    assert result.is_error and text(result).startswith("FORBIDDEN: ")
    assert fake.calls == []


def test_errors_are_tool_results() -> None:
    fake = FakeDispatcher()
    fake.answers["agent.message"] = AppError(NOT_FOUND, "no agent 'Zed'")
    result = call(fake, "idea_message_agent", {"target": "Zed", "text": "hi"}, request=ALICE)
    assert result.is_error and text(result) == "NOT_FOUND: no agent 'Zed'"
    crashed = call(Exploding(), "idea_list_agents", {}, request=ALICE)
    assert crashed.is_error and text(crashed).startswith("INTERNAL: ")
    assert "secret" not in text(crashed)


def test_a_waiting_ask_reports_progress_until_it_is_answered() -> None:
    fake = FakeDispatcher()
    session = FakeSession()
    box: list[types.CallToolResult] = []

    def ask() -> None:
        box.append(call(fake, "idea_ask_agent", {"target": "Bob", "task": "t"}, request=ALICE,
                        session=session, interval_s=0.01))

    asker = threading.Thread(target=ask)
    asker.start()
    pending = fake.wait_pending(1)
    while len(session.progress) < 3:
        threading.Event().wait(0.01)
    fake.release(pending[0].ticket, "done")
    asker.join(10)
    assert text(box[0]) == "done" and not box[0].is_error
    values = [p for p, _, _ in session.progress]
    assert values == sorted(values)
    assert all(str(m).startswith("waiting for Bob's reply (") for _, _, m in session.progress)
