"""An agent that answers every task at once, for bench/ask_overhead.py: it runs in an IdeA PTY,
keeps one MCP session open to IdeA (through the real `mcp-server` relay, with the identity IdeA
gave it in its environment) and, for each task typed into its terminal, calls `idea_reply`
with the ticket, then prints its prompt (`PROMPT`, the profile's prompt-ready pattern) as a CLI
shows it once back from a turn — so an ask's round trip is all IdeA's, the agent's own time ~0.
Without the prompt IdeA would wait for a second of quiet before the next task (an agent that
gives no sign of being back, `OrchestratorConfig.settle_quiet_s`)."""

from __future__ import annotations

import asyncio
import os
import re
import sys
import threading

from mcp import StdioServerParameters
from mcp.client.session import ClientSession
from mcp.client.stdio import stdio_client

PROMPT = "instant> "
TICKET = re.compile(r"\[IdeA · task from [^·]+ · ticket ([^\]]+)\]")


async def main() -> None:
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[str] = asyncio.Queue()

    def read() -> None:
        for line in sys.stdin:
            loop.call_soon_threadsafe(lines.put_nowait, line)

    threading.Thread(target=read, daemon=True).start()
    params = StdioServerParameters(command=sys.executable, args=[
        "-m", "app", "mcp-server", "--endpoint", os.environ["IDEA_ENDPOINT"],
        "--requester", os.environ["IDEA_AGENT_ID"], "--token", os.environ["IDEA_TOKEN"]],
        env=dict(os.environ))
    async with stdio_client(params) as (r, w), ClientSession(r, w) as session:
        await session.initialize()
        print("ready", flush=True)
        print(PROMPT, end="", flush=True)
        while True:
            found = TICKET.search(await lines.get())
            if found:
                await session.call_tool("idea_reply", {"result": "ok",
                                                       "ticket": found.group(1)})
                print(PROMPT, end="", flush=True)


if __name__ == "__main__":
    asyncio.run(main())
