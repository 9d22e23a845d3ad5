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


def test_the_app_graph_loads_no_protocol_sdk_before_it_is_used() -> None:
    # the window's start-up builds this graph; the ACP SDK alone took ~0.6 s of it (ADR 016's
    # "lazy imports", docs/benchmarks.md sitting 18): it loads with the first ACP session, the
    # MCP SDK with the first MCP connection
    probe = ("import sys, app.bootstrap as b; b.Adapters.local();"
             "print(sorted({m.split('.')[0] for m in sys.modules} & {'acp', 'mcp'}))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.strip() == "[]"
