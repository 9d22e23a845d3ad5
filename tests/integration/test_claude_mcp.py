"""The REAL Claude Code CLI (tools/, installed by `scripts/bootstrap.sh test` from tools.json)
connects to IdeA's MCP server the way an agent's run dir declares it: `.mcp.json` running
`python -m app mcp-server … --token ${IDEA_TOKEN}`, approved by `--settings` (SPEC §6: `claude
mcp list` performs a real MCP handshake offline). The endpoint checks the token with the real
`Credentials`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fcntl", reason="Unix-socket endpoint (POSIX only)")

from app.adapters.endpoint.unix_socket import UnixSocketEndpointHost
from app.adapters.system.tokens import SecretTokens
from app.commands.endpoint_door import CommandDoor, EndpointDoor
from app.core.domain.delegation import AgentCaller
from app.mcp.door import McpDoor
from app.services.credentials import Credentials
from tests.unit.fakes import FakeDispatcher

REPO = Path(__file__).resolve().parents[2]
CLAUDE = REPO / "tools" / "node_modules" / ".bin" / "claude"
APPROVE = json.dumps({"enabledMcpjsonServers": ["idea"]})

pytestmark = [
    pytest.mark.timeout(300),
    pytest.mark.skipif(not CLAUDE.exists(), reason="run scripts/bootstrap.sh test (tools/)"),
]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, str, Path]]:
    """(socket path, a launch token of agent a1, the agent's run dir with its .mcp.json)."""
    root = str(tmp_path / "project")
    credentials = Credentials()
    token = SecretTokens().new_token()
    credentials.grant(AgentCaller(root, "a1", "Alice", "s-1"), token)
    dispatcher = FakeDispatcher()
    parent = tempfile.mkdtemp(prefix="ie-", dir="/tmp")
    host = UnixSocketEndpointHost(os.path.join(parent, "idea"))
    host.set_handler(EndpointDoor(credentials, mcp=McpDoor(dispatcher),
                                  command=CommandDoor(dispatcher)))
    path = host.serve(root)
    run_dir = tmp_path / "project" / ".ideai" / "run" / "a1"
    run_dir.mkdir(parents=True)
    (run_dir / ".mcp.json").write_text(json.dumps({"mcpServers": {"idea": {
        "command": sys.executable,
        "args": ["-m", "app", "mcp-server", "--endpoint", path, "--requester", "a1",
                 "--token", "${IDEA_TOKEN}"]}}}))
    try:
        yield path, token, run_dir
    finally:
        host.close_all()
        shutil.rmtree(parent, ignore_errors=True)


def claude_mcp_list(run_dir: Path, token: str, home: Path) -> str:
    home.mkdir(exist_ok=True)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "TERM": "dumb", "IDEA_TOKEN": token}
    done = subprocess.run([str(CLAUDE), "--settings", APPROVE, "mcp", "list"], cwd=run_dir,
                          env=env, capture_output=True, text=True, timeout=240)
    return done.stdout + done.stderr


def idea_line(output: str) -> str:
    lines = [line for line in output.splitlines() if line.startswith("idea:")]
    assert lines, output
    return lines[0]


def test_claude_code_connects_with_the_launch_token(served: tuple[str, str, Path],
                                                    tmp_path: Path) -> None:
    _, token, run_dir = served
    line = idea_line(claude_mcp_list(run_dir, token, tmp_path / "home"))
    assert "mcp-server" in line and "✔ Connected" in line, line


def test_claude_code_fails_to_connect_with_a_wrong_token(served: tuple[str, str, Path],
                                                         tmp_path: Path) -> None:
    _, _, run_dir = served
    line = idea_line(claude_mcp_list(run_dir, "not-the-token", tmp_path / "home"))
    assert "✘ Failed to connect" in line, line
