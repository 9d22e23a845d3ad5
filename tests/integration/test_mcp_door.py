"""The MCP door end to end: the REAL `mcp` SDK client (`ClientSession` over `stdio_client`, and
the high-level `Client` speaking the 2026-07-28 era like Claude Code 2.1.332) runs the REAL
`python -m app mcp-server` relay against the real Unix-socket endpoint and MCP server, over a
fake orchestrator (POSIX only)."""

from __future__ import annotations

import io
import json
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

pytest.importorskip("fcntl", reason="Unix-socket endpoint (POSIX only)")

import anyio
import anyio.to_thread
import mcp_types as types
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client, StdioServerParameters
from mcp.client.session import ClientSession
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError

from app.core.errors import CYCLE, NOT_FOUND, AppError
from app.mcp.relay import run_relay
from tests.integration.endpoint_world import ALICE, BOB, REPO, RawConnection, World, endpoint_world, idea_argv

pytestmark = pytest.mark.timeout(120)
TOOL_NAMES = ["idea_list_agents", "idea_ask_agent", "idea_message_agent", "idea_reply",
              "idea_launch_agent", "idea_stop_agent"]


@pytest.fixture
def world() -> Iterator[World]:
    with endpoint_world() as w:
        yield w


def relay(path: str, requester: str = "a1", token: str = "tok-a") -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "app", "mcp-server", "--endpoint", path, "--requester", requester,
              "--token", token],
        cwd=str(REPO))


@asynccontextmanager
async def session(path: str, requester: str = "a1", token: str = "tok-a"
                  ) -> AsyncIterator[ClientSession]:
    async with stdio_client(relay(path, requester, token)) as (read, write):
        async with ClientSession(read, write) as s:
            await s.initialize()
            yield s


def text(result: types.CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    return block.text


def test_the_tools_are_listed_with_their_schemas(world: World) -> None:
    async def main() -> list[types.Tool]:
        async with session(world.path) as s:
            return (await s.list_tools()).tools

    tools = anyio.run(main)
    assert [t.name for t in tools] == TOOL_NAMES
    ask = next(t for t in tools if t.name == "idea_ask_agent")
    assert ask.input_schema["required"] == ["target", "task"]
    assert "blocks" in (ask.description or "")


def test_an_ask_blocks_until_the_target_replies(world: World) -> None:
    progress: list[tuple[float, str | None]] = []
    box: dict[str, types.CallToolResult] = {}

    async def main() -> types.CallToolResult:
        async with session(world.path, "a1", "tok-a") as alice, \
                session(world.path, "b1", "tok-b") as bob:
            async def on_progress(value: float, total: float | None, message: str | None) -> None:
                progress.append((value, message))

            async def ask() -> None:
                box["ask"] = await alice.call_tool(
                    "idea_ask_agent", {"target": "Bob", "task": "review app/x.py"},
                    progress_callback=on_progress)

            async with anyio.create_task_group() as tg:
                tg.start_soon(ask)
                pending = await anyio.to_thread.run_sync(world.dispatcher.wait_pending, 1)
                assert "ask" not in box  # still waiting
                with anyio.fail_after(10):
                    while not progress:  # the wait reports progress meanwhile
                        await anyio.sleep(0.02)
                reply = await bob.call_tool("idea_reply", {"result": "LGTM, one nit",
                                                           "ticket": pending[0].ticket})
            return reply

    reply = anyio.run(main)
    assert not box["ask"].is_error and text(box["ask"]) == "LGTM, one nit"
    assert json.loads(text(reply)) == {"ticket": "t1"}
    assert "waiting for Bob's reply" in str(progress[0][1])
    calls = world.dispatcher.calls
    assert calls[0] == (ALICE, {"type": "agent.ask", "target": "Bob", "task": "review app/x.py"})
    assert calls[1] == (BOB, {"type": "agent.reply", "result": "LGTM, one nit", "ticket": "t1"})


def test_two_concurrent_asks_get_their_own_replies(world: World) -> None:
    async def main() -> dict[str, str]:
        results: dict[str, str] = {}
        async with session(world.path, "a1", "tok-a") as alice, \
                session(world.path, "b1", "tok-b") as bob:
            async def ask(s: ClientSession, task: str) -> None:
                results[task] = text(await s.call_tool("idea_ask_agent",
                                                       {"target": "Carol", "task": task}))

            async with anyio.create_task_group() as tg:
                tg.start_soon(ask, alice, "from alice")
                tg.start_soon(ask, bob, "from bob")
                pending = await anyio.to_thread.run_sync(world.dispatcher.wait_pending, 2)
                by_task = {p.command["task"]: p.ticket for p in pending}
                world.dispatcher.release(by_task["from bob"], "bob's answer")  # reverse order
                world.dispatcher.release(by_task["from alice"], "alice's answer")
        return results

    assert anyio.run(main) == {"from alice": "alice's answer", "from bob": "bob's answer"}


def test_orchestrator_errors_are_tool_errors_with_their_code(world: World) -> None:
    world.dispatcher.answers["agent.run"] = AppError(NOT_FOUND, "no agent named 'Zed'")

    async def main() -> list[types.CallToolResult]:
        async with session(world.path) as s:
            launched = await s.call_tool("idea_launch_agent", {"target": "Zed"})
            bad = await s.call_tool("idea_ask_agent", {"target": "Bob"})
            unknown = await s.call_tool("idea_fly", {})
            task = s.call_tool("idea_ask_agent", {"target": "Bob", "task": "loop"})
            async with anyio.create_task_group() as tg:
                box: list[types.CallToolResult] = []

                async def ask() -> None:
                    box.append(await task)

                tg.start_soon(ask)
                pending = await anyio.to_thread.run_sync(world.dispatcher.wait_pending, 1)
                world.dispatcher.release(pending[0].ticket, AppError(CYCLE, "Bob waits for you"))
            return [launched, bad, unknown, box[0]]

    launched, bad, unknown, cycle = anyio.run(main)
    assert launched.is_error and text(launched) == "NOT_FOUND: no agent named 'Zed'"
    assert bad.is_error and text(bad).startswith("INVALID: idea_ask_agent: missing argument")
    assert unknown.is_error and text(unknown).startswith("INVALID: unknown tool 'idea_fly'")
    assert cycle.is_error and text(cycle) == "CYCLE: Bob waits for you"


def test_the_modern_protocol_era_works_too(world: World) -> None:
    world.dispatcher.answers["agent.list"] = {"agents": [{"agentId": "b1", "name": "Bob"}]}

    async def main() -> tuple[str, list[str], str, str]:
        async with Client(relay(world.path)) as c:
            names = [t.name for t in (await c.list_tools()).tools]
            listed = text(await c.call_tool("idea_list_agents", {}))
            async with anyio.create_task_group() as tg:
                box: list[str] = []

                async def ask() -> None:
                    box.append(text(await c.call_tool("idea_ask_agent",
                                                      {"target": "Bob", "task": "t"})))

                tg.start_soon(ask)
                pending = await anyio.to_thread.run_sync(world.dispatcher.wait_pending, 1)
                world.dispatcher.release(pending[0].ticket, "modern reply")
            return c.protocol_version, names, listed, box[0]

    version, names, listed, reply = anyio.run(main)
    assert version == "2026-07-28"
    assert names == TOOL_NAMES
    assert json.loads(listed) == {"agents": [{"agentId": "b1", "name": "Bob"}]}
    assert reply == "modern reply"
    assert all(caller == ALICE for caller, _ in world.dispatcher.calls)


@pytest.mark.parametrize(("requester", "token"), [("a1", "wrong"), ("a1", ""), ("b1", "tok-a")])
def test_a_bad_token_is_refused_and_the_relay_exits_1(world: World, requester: str,
                                                      token: str) -> None:
    done = subprocess.run(idea_argv("mcp-server", "--endpoint", world.path, "--requester",
                                    requester, "--token", token),
                          input=b"", capture_output=True, timeout=30, cwd=REPO)
    assert done.returncode == 1
    assert done.stdout == b""  # nothing but MCP on stdout
    assert b"FORBIDDEN" in done.stderr

    async def main() -> None:
        with tempfile.TemporaryFile("w+") as errlog, anyio.fail_after(20):
            async with stdio_client(relay(world.path, requester, token), errlog=errlog) as (r, w):
                async with ClientSession(r, w) as s:
                    await s.initialize()

    with pytest.raises(BaseExceptionGroup) as caught:  # the client sees the connection close
        anyio.run(main)
    assert [str(e) for e in leaves(caught.value)] == ["Connection closed"]
    assert all(isinstance(e, MCPError) for e in leaves(caught.value))
    assert world.dispatcher.calls == []


def leaves(group: BaseException) -> list[BaseException]:
    if isinstance(group, BaseExceptionGroup):
        return [leaf for inner in group.exceptions for leaf in leaves(inner)]
    return [group]


def test_a_cancelled_ask_leaves_the_session_usable(world: World) -> None:
    async def main() -> tuple[int, str]:
        async with session(world.path) as s:
            with pytest.raises(MCPError) as caught:  # the client gives up: it cancels the call
                await s.call_tool("idea_ask_agent", {"target": "Bob", "task": "slow"},
                                  read_timeout_seconds=0.3)
            world.dispatcher.answers["agent.list"] = {"agents": []}
            after = text(await s.call_tool("idea_list_agents", {}))
            return caught.value.error.code, after

    code, after = anyio.run(main)
    assert code == -32001 and after == '{"agents":[]}'
    assert world.dispatcher.wait_hung_up(1) == ["t1"]  # the ask is withdrawn, not done unheard
    assert list(world.dispatcher.pending) == []


def test_the_relay_takes_the_token_from_the_environment(world: World) -> None:
    with subprocess.Popen(idea_argv("mcp-server", "--endpoint", world.path, "--requester", "a1"),
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=REPO,
                          env={"IDEA_TOKEN": "tok-a", "PATH": "/usr/bin:/bin"}) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"}).encode()
                         + b"\n")
        proc.stdin.flush()
        answer = proc.stdout.readline()
        proc.stdin.close()  # the MCP client leaves: the relay ends cleanly
        assert proc.wait(30) == 0
        assert json.loads(answer) == {"jsonrpc": "2.0", "id": 1, "result": {}}
        assert proc.stdout.read() == b""


def test_an_unreachable_endpoint_makes_the_relay_exit_1_promptly(tmp_path: Any) -> None:
    stale = str(tmp_path / "stale.sock")
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(stale)
    dead.close()
    for path in (str(tmp_path / "missing.sock"), stale):
        start = time.monotonic()
        done = subprocess.run(idea_argv("mcp-server", "--endpoint", path, "--requester", "a1",
                                        "--token", "t"),
                              capture_output=True, timeout=30, cwd=REPO)
        assert done.returncode == 1 and done.stdout == b""
        assert b"UNREACHABLE" in done.stderr
        assert time.monotonic() - start < 10


def test_a_relay_whose_endpoint_never_answers_gives_up(tmp_path: Any) -> None:
    mute = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    mute.bind(str(tmp_path / "mute.sock"))
    mute.listen(1)  # accepts (in the backlog) but never answers the handshake
    err = io.StringIO()
    try:
        code = run_relay(str(tmp_path / "mute.sock"), "a1", "t", stderr=err, timeout_s=0.3)
    finally:
        mute.close()
    assert code == 1 and "UNREACHABLE" in err.getvalue() and "timed out" in err.getvalue()


def test_malformed_json_rpc_is_answered_and_the_session_goes_on(world: World) -> None:
    raw = RawConnection(world.path)
    try:
        assert raw.hello_answer == {"ok": True}
        raw.send_line(b"{not json")
        assert raw.read_json() == {"jsonrpc": "2.0", "id": None,
                                   "error": {"code": -32700, "message": "Parse error: not JSON"}}
        raw.send_json({"jsonrpc": "1.0", "id": 7, "method": "ping"})
        invalid = raw.read_json()
        assert invalid["id"] == 7 and invalid["error"]["code"] == -32600  # type: ignore[index]
        raw.send_json([1, 2, 3])
        assert raw.read_json()["error"]["code"] == -32600  # type: ignore[index]
        raw.send_line(b"")  # blank lines are skipped
        raw.send_json({"jsonrpc": "2.0", "id": 8, "method": "ping"})
        assert raw.response_to(8) == {"jsonrpc": "2.0", "id": 8, "result": {}}
        raw.send_json({"jsonrpc": "2.0", "id": 9, "method": "no/such/method"})
        assert raw.response_to(9)["error"]["code"] == -32601  # type: ignore[index]
    finally:
        raw.close()


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12)
METHODS = st.sampled_from(["initialize", "ping", "tools/list", "tools/call", "server/discover",
                           "notifications/initialized", "notifications/cancelled",
                           "resources/list", "x"]) | st.text(max_size=12)
MESSAGES = st.fixed_dictionaries(
    {"jsonrpc": st.sampled_from(["2.0", "2.0", "1.0", 2])},
    optional={"id": st.integers() | st.text(max_size=6) | st.none() | st.booleans(),
              "method": METHODS, "params": JSON, "result": JSON, "error": JSON})
LINES = (st.binary(max_size=120).map(lambda b: b.replace(b"\n", b" "))
         | JSON.map(lambda v: json.dumps(v).encode())
         | MESSAGES.map(lambda m: json.dumps(m).encode()))


@pytest.fixture(scope="module")
def fuzz_world() -> Iterator[tuple[World, RawConnection]]:
    with endpoint_world(block_asks=False) as w:
        raw = RawConnection(w.path)
        yield w, raw
        raw.close()


@settings(max_examples=1000, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(line=LINES)
def test_a_thousand_random_lines_never_break_the_server(
        fuzz_world: tuple[World, RawConnection], line: bytes) -> None:
    world, raw = fuzz_world
    raw.send_line(line)
    probe = f"probe-{time.monotonic_ns()}"
    raw.send_json({"jsonrpc": "2.0", "id": probe, "method": "ping"})
    answer = raw.response_to(probe)  # the same connection still answers
    assert answer["id"] == probe


def test_after_the_fuzzing_new_connections_are_served(
        fuzz_world: tuple[World, RawConnection]) -> None:
    world, _ = fuzz_world

    async def main() -> list[str]:
        async with session(world.path) as s:
            return [t.name for t in (await s.list_tools()).tools]

    assert anyio.run(main) == TOOL_NAMES
