"""The project endpoint on Windows: `NamedPipeEndpointHost` on real named pipes, the real
`python -m app ask|reply|agents` and `mcp-server` processes connecting through
`pipe_channel`, the real `mcp` SDK client (Windows only; the release workflow's
`windows-tests` job runs them).

Pipes are named `\\\\.\\pipe\\idea-test-<random>-…` (`endpoint_world.platform_host`), so runs
never meet each other nor a real IdeA. What cannot be shown here: a client of ANOTHER user
being refused, and a pipe squatted by another user being refused by the client — the runner
has one user; both checks are exercised on the accepting side only (same user: accepted).
"""

# ruff: noqa: E402 - the Windows-only imports come after the importorskip
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager

import pytest

# pywin32 exists only on Windows (pyproject marker): elsewhere the module is skipped.
win32security = pytest.importorskip(
    "win32security", reason="named-pipe endpoint: Windows only (Unix sockets are tested in "
    "test_endpoint_unix_socket.py)")

import anyio
import anyio.to_thread
import mcp_types as types
from mcp import StdioServerParameters
from mcp.client.session import ClientSession
from mcp.client.stdio import stdio_client

from app.adapters.endpoint.host_base import EndpointHostBase
from app.adapters.endpoint.named_pipe import NamedPipeEndpointHost, create_instance, user_only_security
from app.commands.endpoint_client import UNREACHABLE, EndpointError, connect, open_channel
from app.commands.pipe_channel import PipeChannel
from app.core.errors import ALREADY_EXISTS, AppError
from app.core.ports import EndpointHello
from app.win_identity import current_user_sid, pipe_peer_sid
from tests.integration.endpoint_world import (
    ALICE,
    BOB,
    REPO,
    TOKENS,
    EchoHandler,
    World,
    endpoint_world,
    hello_line,
    idea_argv,
    in_parallel,
    platform_host,
    read_line,
)

pytestmark = pytest.mark.timeout(120)
ROOT = "C:\\Users\\me\\project"


@pytest.fixture
def world() -> Iterator[World]:
    with endpoint_world() as w:
        yield w


@pytest.fixture
def handler() -> EchoHandler:
    return EchoHandler()


@pytest.fixture
def host(handler: EchoHandler) -> Iterator[EndpointHostBase]:
    h = platform_host(tempfile.gettempdir(), handshake_timeout_s=2.0)
    h.set_handler(handler)
    yield h
    h.close_all()




def agent_env(world: World, agent: str = "a1", token: str | None = None) -> dict[str, str]:
    return {**os.environ, "IDEA_ENDPOINT": world.path, "IDEA_AGENT_ID": agent,
            "IDEA_TOKEN": TOKENS[agent] if token is None else token}


def idea(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(idea_argv(*args), capture_output=True, text=True, env=env, cwd=REPO,
                          timeout=60, encoding="utf-8")


def test_a_project_gets_a_pipe_only_its_user_may_open(host: EndpointHostBase,
                                                      handler: EchoHandler) -> None:
    name = host.serve(ROOT)
    assert name.startswith("\\\\.\\pipe\\idea-test-") and host.serve(ROOT) == name
    with PipeChannel.open(name, 10) as channel:
        channel.settimeout(10)
        channel.sendall(hello_line() + b"ping\n")
        assert json.loads(read_line(channel)) == {"ok": True}
        assert read_line(channel) == b"a1:ping\n"
        handle = channel._live()
        descriptor = win32security.GetSecurityInfo(handle, win32security.SE_KERNEL_OBJECT,
                                                   win32security.DACL_SECURITY_INFORMATION)
        sddl = win32security.ConvertSecurityDescriptorToStringSecurityDescriptor(
            descriptor, win32security.SDDL_REVISION_1, win32security.DACL_SECURITY_INFORMATION)
        assert pipe_peer_sid(handle, "server") == current_user_sid()
    sid = current_user_sid()
    assert sddl.startswith("D:P") and sddl.count("(") == 1 and sddl.endswith(f";;;{sid})"), sddl
    assert [hello for _, hello in handler.hellos] == [EndpointHello("mcp", "a1", "t")]


def test_a_second_ideA_on_the_same_project_is_told_and_nothing_stale_stays(
        host: EndpointHostBase, handler: EchoHandler) -> None:
    name = host.serve(ROOT)
    assert isinstance(host, NamedPipeEndpointHost)
    other = NamedPipeEndpointHost(name.removeprefix("\\\\.\\pipe\\").rsplit("-", 1)[0])
    try:
        with pytest.raises(AppError) as caught:
            other.serve(ROOT)
        assert caught.value.code == ALREADY_EXISTS and "open in another IdeA" in caught.value.message
        host.stop(ROOT)  # the name goes with its last handle: no file to reclaim
        assert other.serve(ROOT) == name
    finally:
        other.close_all()


def test_many_concurrent_clients_are_all_served(host: EndpointHostBase) -> None:
    name = host.serve(ROOT)

    def client(n: int) -> bytes:
        with open_channel(name, 30) as channel:
            channel.settimeout(30)
            channel.sendall(hello_line(f"c{n}") + f"n{n}\n".encode())
            assert json.loads(read_line(channel)) == {"ok": True}
            return read_line(channel)

    assert in_parallel(24, client) == {n: f"c{n}:n{n}\n".encode() for n in range(24)}


def test_stop_ends_the_connections_and_the_name(host: EndpointHostBase) -> None:
    name = host.serve(ROOT)
    with PipeChannel.open(name, 10) as channel:
        channel.settimeout(10)
        channel.sendall(hello_line())
        assert json.loads(read_line(channel)) == {"ok": True}
        host.stop(ROOT)
        assert channel.recv(1) == b""
    with pytest.raises(EndpointError) as caught:
        connect(name, "command", "a1", "t", 2.0)
    assert caught.value.code == UNREACHABLE and "no IdeA answers" in caught.value.message


def test_a_server_that_never_answers_times_the_client_out() -> None:
    name = f"\\\\.\\pipe\\idea-test-mute-{os.getpid()}"
    mute = create_instance(name, user_only_security(current_user_sid()), first=True)
    try:
        with pytest.raises(EndpointError) as caught:
            connect(name, "command", "a1", "t", 0.5)
        assert caught.value.code == UNREACHABLE and "timed out" in caught.value.message
    finally:
        mute.close()


def test_idea_ask_blocks_until_the_reply_over_the_pipe(world: World) -> None:
    with subprocess.Popen(idea_argv("ask", "Bob", "review app/x.py"), env=agent_env(world),
                          cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, encoding="utf-8") as asker:
        pending = world.dispatcher.wait_pending(1)
        assert asker.poll() is None  # still blocked
        replied = idea(agent_env(world, "b1"), "reply", "--ticket", pending[0].ticket, "LGTM ✓")
        out, err = asker.communicate(timeout=30)
    assert replied.returncode == 0 and replied.stdout == "replied (ticket t1)\n"
    assert (asker.returncode, out, err) == (0, "LGTM ✓\n", "")
    assert world.dispatcher.calls == [
        (ALICE, {"type": "agent.ask", "target": "Bob", "task": "review app/x.py"}),
        (BOB, {"type": "agent.reply", "result": "LGTM ✓", "ticket": "t1"})]


def test_a_wrong_token_is_forbidden_over_the_pipe(world: World) -> None:
    done = idea(agent_env(world, "a1", token="tok-b"), "agents")
    assert done.returncode == 1 and done.stderr.startswith("idea: FORBIDDEN: ")
    assert world.dispatcher.calls == []


@asynccontextmanager
async def session(path: str, requester: str = "a1", token: str = "tok-a"
                  ) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(command=sys.executable, cwd=str(REPO), args=[
        "-m", "app", "mcp-server", "--endpoint", path, "--requester", requester, "--token", token])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as s:
            await s.initialize()
            yield s


def test_the_mcp_relay_serves_an_ask_and_its_reply_over_the_pipe(world: World) -> None:
    box: dict[str, types.CallToolResult] = {}

    async def main() -> list[str]:
        async with session(world.path, "a1", "tok-a") as alice, \
                session(world.path, "b1", "tok-b") as bob:
            names = [t.name for t in (await alice.list_tools()).tools]

            async def ask() -> None:
                box["ask"] = await alice.call_tool("idea_ask_agent",
                                                   {"target": "Bob", "task": "review"})

            async with anyio.create_task_group() as tg:
                tg.start_soon(ask)
                pending = await anyio.to_thread.run_sync(world.dispatcher.wait_pending, 1)
                await bob.call_tool("idea_reply", {"result": "done", "ticket": pending[0].ticket})
        return names

    names = anyio.run(main)
    assert "idea_ask_agent" in names and "idea_reply" in names
    block = box["ask"].content[0]
    assert isinstance(block, types.TextContent) and block.text == "done"


def test_the_relay_exits_when_its_stdin_ends(world: World) -> None:
    relay = subprocess.run(idea_argv("mcp-server", "--endpoint", world.path, "--requester", "a1",
                                     "--token", "tok-a"), stdin=subprocess.DEVNULL,
                           capture_output=True, cwd=REPO, timeout=60)
    assert (relay.returncode, relay.stdout) == (0, b"")


def test_the_relay_refuses_a_wrong_token_on_stderr_only(world: World) -> None:
    relay = subprocess.run(idea_argv("mcp-server", "--endpoint", world.path, "--requester", "a1",
                                     "--token", "nope"), stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, cwd=REPO, timeout=60)
    assert relay.returncode == 1 and relay.stdout == ""
    assert relay.stderr.startswith("idea mcp-server: FORBIDDEN: ")
