"""The real Claude Code CLI (tools/, from tools.json) in an agent's run dir as IdeA's launch
leaves it: `claude --settings <run dir>/.claude/idea-settings.json mcp list` performs a real MCP
handshake with IdeA's server (through the real `mcp-server` relay and the project's endpoint)
and reports it connected with the launch's token — and fails with another one.

The launch is a real one (bootstrap, real PTY host, the Claude Code projection) of a profile
that runs `sh -c 'sleep 600'` instead of the TUI, so the files and the token are exactly a
launch's while no interactive Claude writes to the user's home.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("ptyprocess", reason="the agent runs in a POSIX PTY")

from app.adapters.pty.posix import PtyProcessHost  # noqa: E402
from app.bootstrap import Adapters, Config, build  # noqa: E402
from app.core.domain.profiles import ContextInjection, Profile  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
CLAUDE = REPO / "tools" / "node_modules" / ".bin" / "claude"

pytestmark = [
    pytest.mark.timeout(300),
    pytest.mark.skipif(not CLAUDE.exists(), reason="run scripts/bootstrap.sh test (tools/)"),
]

SHIM = Profile(id="claude-shim", name="Claude Code (shim)", command="/bin/sh",
               args=("-c", "sleep 600"), projector="claude-code",
               context_injection=ContextInjection(strategy="conventionFile", target="CLAUDE.md"))


@pytest.fixture
def launched(tmp_path: Path) -> Iterator[tuple[Path, dict[str, str]]]:
    """(the agent's run dir, the environment its CLI got)."""
    (tmp_path / "data").mkdir()
    container = build(Config(data_dir=str(tmp_path / "data"), shell="/bin/sh"),
                      Adapters.local(PtyProcessHost(kill_grace_ms=500)))
    s = container.services
    s.profiles.save([SHIM])  # built-ins not on the PATH cannot be enabled
    root = s.projects.create(str(tmp_path / "proj"), "Demo").root
    agent = s.agents.create(root, "Coder", "# Coder", "claude-shim").entry.agent_id
    spawned: list[dict[str, str]] = []
    host = container.adapters.terminals
    real_spawn = host.spawn
    host.spawn = lambda spec: spawned.append(spec.env) or real_spawn(spec)  # type: ignore[method-assign]
    s.agents.launch(root, agent, None, 80, 24)
    try:
        yield Path(root) / ".ideai" / "run" / agent, spawned[0]
    finally:
        container.shutdown(timeout_ms=1000)


def claude_mcp_list(run_dir: Path, env: dict[str, str], home: Path) -> str:
    home.mkdir(exist_ok=True)
    child = {"PATH": env["PATH"].split(os.pathsep, 1)[0] + ":/usr/bin:/bin", "HOME": str(home),
             "TERM": "dumb", **{k: v for k, v in env.items() if k.startswith("IDEA_")}}
    settings = str(run_dir / ".claude" / "idea-settings.json")
    debug = home / "claude-debug.log"  # what Claude saw of the server (it swallows its stderr)
    done = subprocess.run([str(CLAUDE), "--settings", settings, "--debug-file", str(debug),
                           "mcp", "list"], cwd=run_dir, env=child, capture_output=True,
                          text=True, timeout=240)
    return done.stdout + done.stderr


def mcp_debug(home: Path) -> str:
    """Claude Code's debug lines about MCP from the last `claude_mcp_list` (for a failure)."""
    path = home / "claude-debug.log"
    lines = path.read_text(errors="replace").splitlines() if path.exists() else []
    return "\n".join(line for line in lines if "mcp" in line.lower() or "idea" in line)[-4000:]


def idea_line(output: str) -> str:
    lines = [line for line in output.splitlines() if line.startswith("idea:")]
    assert lines, output
    return lines[0]


def test_the_launch_writes_what_claude_code_reads(launched: tuple[Path, dict[str, str]]) -> None:
    run_dir, env = launched
    declared = json.loads((run_dir / ".mcp.json").read_text())["mcpServers"]["idea"]
    assert declared["args"][-1] == "--token=${IDEA_TOKEN}"  # the token stays off disk
    assert env["IDEA_TOKEN"] not in (run_dir / ".mcp.json").read_text()
    settings = json.loads((run_dir / ".claude" / "idea-settings.json").read_text())
    assert settings["enabledMcpjsonServers"] == ["idea"]
    assert settings["crossSessionInbound"] == "refuse"
    assert set(settings["hooks"]) == {"SessionStart", "Stop", "StopFailure", "Notification",
                                      "PermissionDenied", "PostToolUseFailure"}
    assert os.access(run_dir / "bin" / "idea", os.X_OK)
    assert "## Orchestration" in (run_dir / "CLAUDE.md").read_text()


def test_claude_code_reports_ideas_server_connected(launched: tuple[Path, dict[str, str]],
                                                    tmp_path: Path) -> None:
    run_dir, env = launched
    line = idea_line(claude_mcp_list(run_dir, env, tmp_path / "home"))
    assert "mcp-server" in line and "✔ Connected" in line, f"{line}\n{mcp_debug(tmp_path / 'home')}"


def test_with_another_token_claude_code_fails_to_connect(launched: tuple[Path, dict[str, str]],
                                                         tmp_path: Path) -> None:
    run_dir, env = launched
    line = idea_line(claude_mcp_list(run_dir, {**env, "IDEA_TOKEN": "forged"}, tmp_path / "h"))
    assert "✘ Failed to connect" in line, line
