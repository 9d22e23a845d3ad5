"""The real Codex CLI (tools/, from tools.json) with the `-c` overrides of a real launch:
it reads them as IdeA's MCP server (`codex mcp get idea`), and `codex exec` opens a real MCP
session on the project's endpoint as the launched agent (offline, Codex then waits for the
network forever: the test stops it once the session was opened)."""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ptyprocess", reason="the agent runs in a POSIX PTY")

from app.adapters.pty.posix import PtyProcessHost  # noqa: E402
from app.bootstrap import Adapters, Config, build  # noqa: E402
from app.core.domain.profiles import ContextInjection, Profile  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
CODEX = REPO / "tools" / "node_modules" / ".bin" / "codex"

pytestmark = [
    pytest.mark.timeout(300),
    pytest.mark.skipif(not CODEX.exists(), reason="run scripts/bootstrap.sh test (tools/)"),
]

SHIM = Profile(id="codex-shim", name="Codex (shim)", command="/bin/sh", args=("-c", "sleep 600"),
               projector="codex",
               context_injection=ContextInjection(strategy="conventionFile", target="AGENTS.md"))


@pytest.fixture
def launched(tmp_path: Path) -> Iterator[tuple[Any, list[str], dict[str, str], list[str]]]:
    """(services, the overrides the launch passed, the agent's env, verified requesters)."""
    (tmp_path / "data").mkdir()
    container = build(Config(data_dir=str(tmp_path / "data"), shell="/bin/sh"),
                      Adapters.local(PtyProcessHost(kill_grace_ms=500)))
    s = container.services
    s.profiles.save([SHIM])  # built-ins not on the PATH cannot be enabled
    root = s.projects.create(str(tmp_path / "proj"), "Demo").root
    agent = s.agents.create(root, "Coder", "# Coder", "codex-shim").entry.agent_id
    verified: list[str] = []
    real_verify = s.credentials.verify

    def verify(root: str, requester: str, token: str) -> Any:
        caller = real_verify(root, requester, token)
        verified.append(requester)
        return caller

    s.credentials.verify = verify  # type: ignore[method-assign]
    specs: list[Any] = []
    host = container.adapters.terminals
    real_spawn = host.spawn
    host.spawn = lambda spec: specs.append(spec) or real_spawn(spec)  # type: ignore[method-assign]
    s.agents.launch(root, agent, None, 80, 24)
    overrides = specs[0].args[2:]  # after the shim's own `-c 'sleep 600'`
    try:
        yield s, overrides, specs[0].env, verified
    finally:
        container.shutdown(timeout_ms=1000)


def codex_env(agent_env: dict[str, str], home: Path) -> dict[str, str]:
    home.mkdir(exist_ok=True)
    return {"PATH": "/usr/bin:/bin", "HOME": str(home), "CODEX_HOME": str(home),
            **{k: v for k, v in agent_env.items() if k.startswith("IDEA_")}}


def test_codex_reads_the_overrides_as_ideas_server(launched, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _, overrides, env, _ = launched
    done = subprocess.run([str(CODEX), *overrides, "mcp", "get", "idea", "--json"],
                          env=codex_env(env, tmp_path / "home"), capture_output=True, text=True,
                          timeout=60)
    server = json.loads(done.stdout)
    assert server["transport"]["args"][-5:] == ["mcp-server", "--endpoint",
                                                env["IDEA_ENDPOINT"], "--requester",
                                                env["IDEA_AGENT_ID"]]
    assert "IDEA_TOKEN" in server["transport"]["env_vars"]
    assert server["tool_timeout_sec"] >= 600


def test_codex_exec_opens_an_mcp_session_as_the_agent(launched, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _, overrides, env, verified = launched
    work = tmp_path / "work"
    work.mkdir()
    with subprocess.Popen([str(CODEX), *overrides, "exec", "--json", "--skip-git-repo-check",
                           "hi"], cwd=work, env=codex_env(env, tmp_path / "home"),
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, start_new_session=True) as codex:
        try:
            deadline = time.monotonic() + 60
            while env["IDEA_AGENT_ID"] not in verified and time.monotonic() < deadline:
                time.sleep(0.2)
        finally:
            os.killpg(codex.pid, 9)
            codex.wait(10)
    assert env["IDEA_AGENT_ID"] in verified  # the relay's handshake passed with the token
