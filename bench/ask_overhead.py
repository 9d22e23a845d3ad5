"""What an `idea_ask_agent` round trip costs IdeA (SPEC §7: ≤ 20 ms p50, the agent's own time
excluded), next to a bare MCP echo tool over the same transport.

    .venv/bin/python bench/ask_overhead.py [--asks 200] [--submit-delay-ms 0] [--json out.json]

Both run through what an agent really uses: the `mcp` SDK client, the `mcp-server` relay
subprocess, the project's Unix socket endpoint. The ask goes to a real target agent in a real
PTY (bench/instant_agent.py: it answers each typed task at once with `idea_reply` on its own
open MCP session), through the orchestrator and the headless write portal; the echo goes to a
bare server with one `echo` tool on the same endpoint adapter and session code. The target's
profile sets `submitDelayMs` (default here 0; IdeA's default 60 ms is a wait for TUIs that
detect pastes, added to every turn). Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import mcp_types as types  # noqa: E402
from mcp import StdioServerParameters  # noqa: E402
from mcp.client.session import ClientSession  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402
from mcp.server.lowlevel import Server  # noqa: E402

from app.adapters.endpoint.unix_socket import UnixSocketEndpointHost  # noqa: E402
from app.adapters.pty.posix import PtyProcessHost  # noqa: E402
from app.bootstrap import Adapters, Config, build  # noqa: E402
from app.commands.endpoint_door import CommandDoor, EndpointDoor  # noqa: E402
from app.core.domain.delegation import AgentCaller  # noqa: E402
from app.core.domain.profiles import ContextInjection, Profile  # noqa: E402
from app.core.ports import EndpointStream  # noqa: E402
from app.mcp.session import serve_session  # noqa: E402

INSTANT = Path(__file__).resolve().parent / "instant_agent.py"
PROMPT = "instant> "  # bench/instant_agent.py's prompt, shown once back from a turn


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def timed_calls(params: StdioServerParameters, tool: str, args: dict[str, Any],
                      n: int) -> list[float]:
    """`n` sequential calls of `tool` in one session (after 5 warm-up calls), in ms."""
    async with stdio_client(params) as (r, w), ClientSession(r, w) as session:
        await session.initialize()
        for _ in range(5):
            await session.call_tool(tool, args)
        out = []
        for _ in range(n):
            start = time.perf_counter()
            result = await session.call_tool(tool, args)
            out.append((time.perf_counter() - start) * 1000)
            if result.is_error:
                raise RuntimeError(f"{tool} failed: {result.content}")
        return out


class _EchoDoor:
    """A bare MCP server with one `echo` tool, served like IdeA's own MCP door."""

    def __init__(self) -> None:
        async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
            return types.ListToolsResult(tools=[types.Tool(
                name="echo", description="echo", input_schema={"type": "object"})])

        async def call_tool(ctx: Any, params: Any) -> types.CallToolResult:
            return types.CallToolResult(content=[types.TextContent(type="text", text="ok")])

        self._server: Server[Any] = Server("echo", on_list_tools=list_tools,
                                           on_call_tool=call_tool)

    async def serve(self, caller: AgentCaller, stream: EndpointStream) -> None:
        await serve_session(self._server, stream, caller)


class _AnyToken:
    def verify(self, root: str, requester: str, token: str) -> AgentCaller:
        return AgentCaller(root, requester, requester, "bench")


def relay(endpoint: str, requester: str, token: str) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=[
        "-m", "app", "mcp-server", "--endpoint", endpoint, "--requester", requester,
        "--token", token])


def run(asks: int, submit_delay_ms: int) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="idea-ask-bench-"))
    (work / "data").mkdir()
    container = build(Config(data_dir=str(work / "data"), shell="/bin/sh"),
                      Adapters.local(PtyProcessHost(kill_grace_ms=500)))
    s = container.services
    target = Profile(id="instant", name="Instant", command=sys.executable, args=(str(INSTANT),),
                     submit_delay_ms=submit_delay_ms, prompt_ready_pattern=PROMPT,
                     context_injection=ContextInjection(strategy="env", target="CONTEXT.md",
                                                        var="IDEA_CONTEXT_FILE"))
    asker = Profile(id="idle", name="Idle", command="/bin/cat",
                    context_injection=target.context_injection)
    s.profiles.save([target, asker])  # saving refuses an enabled profile whose CLI is missing
    root = s.projects.create(str(work / "proj"), "Bench").root
    a = s.agents.create(root, "Asker", "", "idle").entry.agent_id
    s.agents.create(root, "Target", "", "instant")
    token = s.agents.launch(root, a, None, 80, 24).token
    endpoint = s.open_projects.get(root).state.endpoint
    assert endpoint is not None and token is not None
    s.orchestrator.dispatch(root, s.credentials.verify(root, a, token),
                            {"type": "agent.run", "target": "Target"})
    time.sleep(4)  # the target's MCP session opens and it settles

    echo_host = UnixSocketEndpointHost(str(work / "echo-sock"))
    echo_host.set_handler(EndpointDoor(_AnyToken(), mcp=_EchoDoor(),
                                       command=CommandDoor(s.orchestrator)))
    echo_endpoint = echo_host.serve(str(work / "echo"))
    try:
        echo_ms = asyncio.run(timed_calls(relay(echo_endpoint, "bench", "x"), "echo", {}, asks))
        ask_ms = asyncio.run(timed_calls(relay(endpoint, a, token), "idea_ask_agent",
                                         {"target": "Target", "task": "ping"}, asks))
    finally:
        echo_host.close_all()
        container.shutdown(timeout_ms=1000)

    def summary(values: list[float]) -> dict[str, float]:
        return {"p50_ms": round(statistics.median(values), 2),
                "p99_ms": round(percentile(values, 99), 2),
                "mean_ms": round(statistics.fmean(values), 2)}

    ask, echo = summary(ask_ms), summary(echo_ms)
    return {"asks": asks, "submit_delay_ms": submit_delay_ms, "idea_ask_agent": ask,
            "bare_echo": echo,
            "idea_own_p50_ms": round(ask["p50_ms"] - echo["p50_ms"], 2),
            "ratio_p50": round(ask["p50_ms"] / echo["p50_ms"], 2)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--asks", type=int, default=200)
    parser.add_argument("--submit-delay-ms", type=int, default=0)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    result = run(args.asks, args.submit_delay_ms)
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
