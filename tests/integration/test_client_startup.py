"""What an agent's terminal runs (`idea mcp-server`, `idea ask` …) starts fast: the client side
of doors 2 and 3 imports only the standard library (no pydantic, no `mcp` SDK, no anyio)."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("pydantic", "mcp", "mcp_types", "anyio", "app.core.ports", "app.core.domain")


def test_the_relay_and_the_agent_commands_import_nothing_heavy() -> None:
    probe = ("import sys, app.__main__, app.mcp.relay, app.commands.agent_cli;"
             f"heavy = {HEAVY!r};"
             "print(sorted(m for m in sys.modules if any(m == h or m.startswith(h + '.')"
             " for h in heavy)))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.strip() == "[]"
